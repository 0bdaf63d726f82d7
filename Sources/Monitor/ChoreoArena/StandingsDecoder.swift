import ChoreoFormat
import ChoreoJSON

/// Reads the body of `POST /v1/arena/preview` and the file of `choreo arena-scene`: the
/// standings, either as an array or as `{"standings": [...], "round": {...}}`.
public enum StandingsDecoder {
    /// At most this many nodes in one arena.
    public static let maxNodes = 200

    public static func decode(_ document: JSONValue) throws(ValidationFailure) -> (
        standings: [ArenaStanding], settings: ArenaRoundSettings
    ) {
        var errors: [FieldError] = []
        var settings = ArenaRoundSettings()
        let list: [JSONValue]
        var listPath = "$"
        switch document {
        case .array(let items):
            list = items
        case .object(let object):
            for key in object.keys where key != "standings" && key != "round" {
                errors.append(FieldError(path: "$.\(key)", message: "unknown field; expected standings or round"))
            }
            listPath = "$.standings"
            guard case .array(let items)? = object["standings"] else {
                throw ValidationFailure(
                    errors + [FieldError(path: "$.standings", message: "is required: an array of nodes")])
            }
            list = items
            if let round = object["round"] { settings = decodeRound(round, errors: &errors) }
        default:
            throw ValidationFailure([
                FieldError(
                    path: "$", message: "must be an array of standings or {\"standings\": [...], \"round\": {...}}")
            ])
        }
        if list.isEmpty { errors.append(FieldError(path: listPath, message: "must name at least one node")) }
        if list.count > maxNodes {
            errors.append(FieldError(path: listPath, message: "at most \(maxNodes) nodes"))
        }
        var standings: [ArenaStanding] = []
        var seen: Set<String> = []
        for (index, item) in list.prefix(maxNodes).enumerated() {
            let path = "\(listPath)[\(index)]"
            guard case .object(let object) = item else {
                errors.append(FieldError(path: path, message: "must be an object with name, ip, status, latencyMs"))
                continue
            }
            for key in object.keys where !["name", "ip", "status", "latencyMs", "uptime", "latencyP90Ms"].contains(key)
            {
                errors.append(FieldError(path: "\(path).\(key)", message: "unknown field"))
            }
            guard case .string(let name)? = object["name"] else {
                errors.append(FieldError(path: "\(path).name", message: "is required: a string"))
                continue
            }
            if let problem = nameProblem(name) {
                errors.append(FieldError(path: "\(path).name", message: problem))
            } else if !seen.insert(name).inserted {
                errors.append(FieldError(path: "\(path).name", message: "\"\(name)\" is listed twice"))
            }
            var ip = ""
            if let value = object["ip"] {
                if case .string(let text) = value, text.utf8.count <= 100 {
                    ip = text
                } else {
                    errors.append(FieldError(path: "\(path).ip", message: "must be a string of at most 100 bytes"))
                }
            }
            var status = ArenaStanding.Status.pending
            if case .string(let text)? = object["status"], let parsed = ArenaStanding.Status(rawValue: text) {
                status = parsed
            } else {
                errors.append(
                    FieldError(
                        path: "\(path).status",
                        message:
                            "is required: one of \(ArenaStanding.Status.allCases.map(\.rawValue).joined(separator: ", "))"
                    ))
            }
            var latency: Double?
            switch object["latencyMs"] {
            case nil, .null?: break
            case .number(let n)? where n >= 0 && n <= 3_600_000: latency = n
            default:
                errors.append(
                    FieldError(
                        path: "\(path).latencyMs", message: "must be a number of milliseconds, 0…3600000, or null"))
            }
            var uptime: Double?
            switch object["uptime"] {
            case nil, .null?: break
            case .number(let n)? where n >= 0 && n <= 1: uptime = n
            default:
                errors.append(FieldError(path: "\(path).uptime", message: "must be a ratio, 0…1, or null"))
            }
            var p90: Double?
            switch object["latencyP90Ms"] {
            case nil, .null?: break
            case .number(let n)? where n >= 0 && n <= 3_600_000: p90 = n
            default:
                errors.append(
                    FieldError(
                        path: "\(path).latencyP90Ms", message: "must be a number of milliseconds, 0…3600000, or null"))
            }
            standings.append(
                ArenaStanding(name: name, ip: ip, status: status, latencyMs: latency, uptime: uptime, latencyP90Ms: p90)
            )
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return (standings, settings)
    }

    /// Node names become layer ids: non-empty, short, and not one of the scene's own layers.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name.utf8.count > 100 { return "must be 1 to 100 bytes long" }
        if name.contains("/") { return "may not contain \"/\"" }
        if let control = controlCharacter(in: name) { return "may not contain control characters (\(control) here)" }
        if name == "arena" || name == "confetti" { return "\"\(name)\" is reserved for the arena's own layers" }
        return nil
    }

    /// The first control character in `text` (C0, DEL or C1), as `U+XXXX`: a NUL would cut the
    /// name in storage (another node's history) and any of them is invalid in a badge's XML.
    public static func controlCharacter(in text: String) -> String? {
        guard let scalar = text.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func decodeRound(_ value: JSONValue, errors: inout [FieldError]) -> ArenaRoundSettings {
        var settings = ArenaRoundSettings()
        guard case .object(let object) = value else {
            errors.append(FieldError(path: "$.round", message: "must be an object"))
            return settings
        }
        for key in object.keys where !["every", "stagger", "reduceMotion"].contains(key) {
            errors.append(FieldError(path: "$.round.\(key)", message: "unknown field"))
        }
        switch object["stagger"] {
        case nil: break
        case .number(let n)? where n >= 0.1 && n <= 60: settings.stagger = n
        default: errors.append(FieldError(path: "$.round.stagger", message: "must be a number of seconds, 0.1…60"))
        }
        switch object["reduceMotion"] {
        case nil: break
        case .bool(let flag)?: settings.reduceMotion = flag
        default: errors.append(FieldError(path: "$.round.reduceMotion", message: "must be true or false"))
        }
        return settings
    }
}
