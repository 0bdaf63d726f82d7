import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// Reads and writes ``ArenaConfiguration`` as JSON, validating every field with its path.
public enum ArenaConfigurationCodec {
    /// Nodes in one arena.
    public static let maxNodes = 2_000

    public static func decode(_ document: JSONValue) throws(ValidationFailure) -> ArenaConfiguration {
        var errors: [FieldError] = []
        func fail(_ path: String, _ message: String) { errors.append(FieldError(path: path, message: message)) }
        guard case .object(let object) = document else {
            throw ValidationFailure([FieldError(path: "$", message: "must be an object with nodes, probe and round")])
        }
        for key in object.keys where !["nodes", "probe", "round"].contains(key) { fail("$.\(key)", "unknown field") }
        var configuration = ArenaConfiguration()
        // Nodes.
        if case .array(let nodes)? = object["nodes"] {
            if nodes.count > maxNodes { fail("$.nodes", "at most \(maxNodes) nodes") }
            var names: Set<String> = []
            for (index, item) in nodes.prefix(maxNodes).enumerated() {
                let path = "$.nodes[\(index)]"
                guard case .object(let node) = item else {
                    fail(path, "must be an object with name, url and ip")
                    continue
                }
                for key in node.keys where !["name", "url", "ip"].contains(key) {
                    fail("\(path).\(key)", "unknown field")
                }
                guard case .string(let name)? = node["name"] else {
                    fail("\(path).name", "is required: a string")
                    continue
                }
                if let problem = StandingsDecoder.nameProblem(name) {
                    fail("\(path).name", problem)
                } else if !names.insert(name).inserted {
                    fail("\(path).name", "\"\(name)\" is listed twice")
                }
                guard case .string(let url)? = node["url"] else {
                    fail("\(path).url", "is required: an http or https URL")
                    continue
                }
                if let problem = urlProblem(url) { fail("\(path).url", problem) }
                var ip = ""
                if let value = node["ip"] {
                    if case .string(let text) = value, text.utf8.count <= 100 {
                        ip = text
                    } else {
                        fail("\(path).ip", "must be a string of at most 100 bytes")
                    }
                }
                configuration.nodes.append(ArenaConfiguration.Node(name: name, url: url, ip: ip))
            }
        } else if object["nodes"] != nil {
            fail("$.nodes", "must be an array of nodes")
        } else {
            fail("$.nodes", "is required (it may be empty)")
        }
        // Probe.
        if let value = object["probe"] {
            if case .object(let probe) = value {
                configuration.probe = decodeProbe(probe, fail: fail)
            } else {
                fail("$.probe", "must be an object")
            }
        }
        if configuration.probe.timeout > configuration.probe.interval {
            fail("$.probe.timeout", "must not exceed the interval (\(configuration.probe.interval) s)")
        }
        // Round.
        if let value = object["round"] {
            // Unknown fields, stagger and reduceMotion are read as a preview's round is.
            configuration.round = StandingsDecoder.decodeRound(value, errors: &errors)
            if case .object(let round) = value {
                switch round["every"] {
                case nil: break
                case .number(let n)? where n == 0 || (n >= 1 && n <= 86_400): configuration.roundEvery = n
                default: fail("$.round.every", "must be 0 (rounds on request) or 1…86400 seconds")
                }
            }
        }
        // A round must fit in a scene: the last battle starts at stagger × (nodes − 1).
        let lastStart = configuration.round.stagger * Double(max(configuration.nodes.count - 1, 0))
        if lastStart + 10 > Limits.maxSceneTime {
            fail(
                "$.round.stagger",
                "\(configuration.nodes.count) nodes \(configuration.round.stagger) s apart do not fit in a round of at most \(Int(Limits.maxSceneTime)) s"
            )
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return configuration
    }

    static func decodeProbe(_ probe: JSONObject, fail: (String, String) -> Void) -> ArenaConfiguration.Probe {
        var result = ArenaConfiguration.Probe()
        let allowed: Set<String> = [
            "interval", "timeout", "acceptedStatus", "degradedLatencyMs", "failureThreshold", "successThreshold",
            "body", "loadField", "highLoad",
        ]
        for key in probe.keys where !allowed.contains(key) { fail("$.probe.\(key)", "unknown field") }
        func number(_ key: String, _ low: Double, _ high: Double) -> Double? {
            guard let value = probe[key] else { return nil }
            guard case .number(let n) = value, n >= low, n <= high else {
                fail("$.probe.\(key)", "must be a number, \(low)…\(high)")
                return nil
            }
            return n
        }
        if let n = number("interval", 0.1, 3600) { result.interval = n }
        if let n = number("timeout", 0.05, 3600) { result.timeout = n }
        if let n = number("degradedLatencyMs", 1, 3_600_000) { result.degradedLatencyMs = n }
        if let n = number("failureThreshold", 1, 100) {
            if n == n.rounded() {
                result.failureThreshold = Int(n)
            } else {
                fail("$.probe.failureThreshold", "must be a whole number")
            }
        }
        if let n = number("successThreshold", 1, 100) {
            if n == n.rounded() {
                result.successThreshold = Int(n)
            } else {
                fail("$.probe.successThreshold", "must be a whole number")
            }
        }
        if let n = number("highLoad", -1e12, 1e12) { result.highLoad = n }
        if let value = probe["acceptedStatus"] {
            if case .string(let text) = value, let ranges = statusRanges(text) {
                result.acceptedStatus = ranges
            } else {
                fail(
                    "$.probe.acceptedStatus",
                    "must be a list of statuses and ranges such as \"200-299\" or \"200,204,300-399\" (100…599)")
            }
        }
        if let value = probe["body"] {
            if case .object(let body) = value, case .string(let field)? = body["field"],
                case .string(let equals)? = body["equals"],
                body.keys.count == 2
            {
                result.body = ArenaConfiguration.BodyCondition(field: field, equals: equals)
            } else {
                fail("$.probe.body", "must be {\"field\": \"…\", \"equals\": \"…\"}")
            }
        }
        if let value = probe["loadField"] {
            if case .string(let field) = value, !field.isEmpty {
                result.loadField = field
            } else {
                fail("$.probe.loadField", "must be the name of a number in the body")
            }
        }
        return result
    }

    /// `200-299`, `200,204,300-399`.
    static func statusRanges(_ text: String) -> [ClosedRange<Int>]? {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard bounds.count == 1 || bounds.count == 2, let low = bounds.first ?? nil, let high = bounds.last ?? nil,
                low >= 100, high <= 599, low <= high
            else { return nil }
            ranges.append(low...high)
        }
        return ranges.isEmpty ? nil : ranges
    }

    /// Only `http://` and `https://` URLs with a host: the prober must not be pointed elsewhere.
    static func urlProblem(_ url: String) -> String? {
        let lower = url.lowercased()
        guard url.utf8.count <= 2_000 else { return "must be at most 2000 bytes" }
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return "must be an http or https URL" }
        let rest = lower.drop(while: { $0 != "/" }).dropFirst(2)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if host.isEmpty || host.contains(" ") { return "must name a host" }
        return nil
    }

    /// The configuration as JSON, in the shape ``decode(_:)`` reads.
    public static func encode(_ configuration: ArenaConfiguration) -> JSONValue {
        var probe: [(String, JSONValue)] = [
            ("interval", .number(configuration.probe.interval)), ("timeout", .number(configuration.probe.timeout)),
            ("acceptedStatus", .string(configuration.probe.acceptedStatusText)),
            ("degradedLatencyMs", .number(configuration.probe.degradedLatencyMs)),
            ("failureThreshold", .number(Double(configuration.probe.failureThreshold))),
            ("successThreshold", .number(Double(configuration.probe.successThreshold))),
        ]
        if let body = configuration.probe.body {
            probe.append(("body", ["field": .string(body.field), "equals": .string(body.equals)]))
        }
        if let field = configuration.probe.loadField { probe.append(("loadField", .string(field))) }
        probe.append(("highLoad", .number(configuration.probe.highLoad)))
        return [
            "nodes": .array(
                configuration.nodes.map { ["name": .string($0.name), "url": .string($0.url), "ip": .string($0.ip)] }),
            "probe": .object(JSONObject(probe)),
            "round": [
                "every": .number(configuration.roundEvery), "stagger": .number(configuration.round.stagger),
                "reduceMotion": .bool(configuration.round.reduceMotion),
            ],
        ]
    }
}
