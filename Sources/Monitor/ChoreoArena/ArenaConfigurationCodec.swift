import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// Reads and writes ``ArenaConfiguration`` as JSON, validating every field with its path.
public enum ArenaConfigurationCodec {
    /// Nodes in one arena.
    public static let maxNodes = 2_000

    /// Reads a configuration. `knownTimeZone` says whether a maintenance window's IANA time zone
    /// exists (the service asks its calendar); by default only `UTC` is known.
    public static func decode(
        _ document: JSONValue, knownTimeZone: (String) -> Bool = { $0 == "UTC" }
    ) throws(ValidationFailure) -> ArenaConfiguration {
        var errors: [FieldError] = []
        func fail(_ path: String, _ message: String) { errors.append(FieldError(path: path, message: message)) }
        guard case .object(let object) = document else {
            throw ValidationFailure([FieldError(path: "$", message: "must be an object with nodes, probe and round")])
        }
        for key in object.keys where !["nodes", "probe", "round", "maintenance", "alerts", "retention"].contains(key) {
            fail("$.\(key)", "unknown field")
        }
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
        // Maintenance windows.
        if let value = object["maintenance"] {
            if case .array(let windows) = value, windows.count <= MaintenanceWindow.maxWindows {
                let names = Set(configuration.nodes.map(\.name))
                var ids = Set<String>()
                for (index, item) in windows.enumerated() {
                    let path = "$.maintenance[\(index)]"
                    if let window = decodeWindow(
                        item, path: path, id: "config-\(index + 1)", names: names, knownTimeZone: knownTimeZone,
                        errors: &errors)
                    {
                        if ids.insert(window.id).inserted {
                            configuration.maintenance.append(window)
                        } else {
                            fail("\(path).id", "\"\(window.id)\" is used twice")
                        }
                    }
                }
            } else {
                fail("$.maintenance", "must be an array of at most \(MaintenanceWindow.maxWindows) windows")
            }
        }
        if let value = object["retention"] {
            if case .object(let retention) = value {
                let limits: [(String, Double, Double, WritableKeyPath<ArenaConfiguration.Retention, Double>)] = [
                    ("minuteBuckets", 3600, 31 * 86_400, \.minuteBuckets),
                    ("hourBuckets", 86_400, 400 * 86_400, \.hourBuckets),
                    ("dayBuckets", 86_400, 20 * 366 * 86_400, \.dayBuckets),
                ]
                for key in retention.keys where !limits.contains(where: { $0.0 == key }) {
                    fail("$.retention.\(key)", "unknown field (minuteBuckets, hourBuckets, dayBuckets)")
                }
                for (key, low, high, path) in limits {
                    guard let item = retention[key] else { continue }
                    if case .number(let n) = item, n >= low, n <= high {
                        configuration.retention[keyPath: path] = n
                    } else {
                        fail("$.retention.\(key)", "must be seconds, \(Int(low))…\(Int(high))")
                    }
                }
            } else {
                fail("$.retention", "must be an object with minuteBuckets, hourBuckets and dayBuckets (seconds)")
            }
        }
        if let value = object["alerts"] {
            configuration.alerts = AlertConfigurationCodec.decode(
                value, path: "$.alerts", names: Set(configuration.nodes.map(\.name)), errors: &errors)
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return configuration
    }

    /// One maintenance window at `path` (the configuration's, or a `POST
    /// /v1/arena/maintenance` body's): `nodes`, `start` (RFC 3339; a recurring window's is
    /// optional, `now` for the API's), `duration`, `cron`, `timezone`, `untilHealthy`, `reason`.
    public static func decodeWindow(
        _ value: JSONValue, path: String, id defaultID: String, names: Set<String>, now: Int64? = nil,
        knownTimeZone: (String) -> Bool, errors: inout [FieldError]
    ) -> MaintenanceWindow? {
        let before = errors.count
        func fail(_ field: String, _ message: String) {
            errors.append(FieldError(path: field.isEmpty ? path : "\(path).\(field)", message: message))
        }
        guard case .object(let object) = value else {
            fail("", "must be an object with nodes, start and duration")
            return nil
        }
        let allowed: Set<String> = ["id", "nodes", "start", "duration", "cron", "timezone", "untilHealthy", "reason"]
        for key in object.keys where !allowed.contains(key) { fail(key, "unknown field") }
        var id = defaultID
        if let value = object["id"] {
            if case .string(let text) = value, !text.isEmpty, text.utf8.count <= 64,
                text.utf8.allSatisfy({
                    $0 == 45 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
                })
            {
                id = text
            } else {
                fail("id", "must be 1 to 64 letters, digits, - or _")
            }
        }
        var nodes: [String] = []
        if case .array(let items)? = object["nodes"], !items.isEmpty {
            for (index, item) in items.enumerated() {
                if case .string(let name) = item, name == "*" || names.contains(name) {
                    nodes.append(name)
                } else if case .string(let name) = item {
                    let near = Vocabulary.suggestion(for: name, among: names)
                    fail(
                        "nodes[\(index)]",
                        "no node is named \"\(name)\"" + (near.map { "; did you mean \"\($0)\"?" } ?? "")
                            + " (\"*\" names them all)")
                } else {
                    fail("nodes[\(index)]", "must be a node's name or \"*\"")
                }
            }
        } else {
            fail("nodes", "is required: a list of node names, or [\"*\"]")
        }
        var cron: CronSchedule?
        switch object["cron"] {
        case nil, .null?: break
        case .string(let text)?:
            switch CronSchedule.parse(text) {
            case .success(let schedule): cron = schedule
            case .failure(let error): fail("cron", error.message)
            }
        default: fail("cron", "must be a cron expression (five fields) or null")
        }
        var start = cron == nil ? now : now ?? 0
        switch object["start"] {
        case nil, .null?:
            if start == nil { fail("start", "is required: an RFC 3339 time, as 2026-12-01T10:00:00Z") }
        case .string(let text)?:
            switch CivilTime.parse(rfc3339: text) {
            case .success(let ms): start = ms
            case .failure(let refusal): fail("start", refusal.message)
            }
        default: fail("start", "must be an RFC 3339 time, as 2026-12-01T10:00:00Z")
        }
        var duration = 0.0
        let longest = cron == nil ? 366 * 86_400.0 : MaintenanceWindow.maxRecurringDuration
        if case .number(let n)? = object["duration"], n >= 1, n <= longest {
            duration = n
        } else {
            fail("duration", "is required: seconds, 1…\(Int(longest))\(cron == nil ? "" : " for a recurring window")")
        }
        var timezone = "UTC"
        switch object["timezone"] {
        case nil, .null?: break
        case .string(let text)?:
            if knownTimeZone(text) {
                timezone = text
            } else {
                fail("timezone", "\"\(text)\" is not an IANA time zone (as Europe/Paris or UTC)")
            }
        default: fail("timezone", "must be an IANA time zone name")
        }
        var untilHealthy = false
        switch object["untilHealthy"] {
        case nil, .null?: break
        case .bool(let flag)?: untilHealthy = flag
        default: fail("untilHealthy", "must be true or false")
        }
        if untilHealthy && cron != nil { fail("untilHealthy", "a recurring window cannot also last until healthy") }
        var reason = ""
        switch object["reason"] {
        case nil, .null?: break
        case .string(let text)? where text.utf8.count <= 500: reason = text
        default: fail("reason", "must be a string of at most 500 bytes")
        }
        guard errors.count == before, let start else { return nil }
        return MaintenanceWindow(
            id: id, nodes: nodes, startMs: start, duration: duration, cron: cron, timezone: timezone,
            untilHealthy: untilHealthy, reason: reason)
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
            let bounds = part.split(separator: "-").map { bound in
                let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
                let start = bound.firstIndex { !isSpace($0) } ?? bound.endIndex
                let end = bound.lastIndex { !isSpace($0) }.map { bound.index(after: $0) } ?? start
                return Int(bound[start..<max(start, end)])
            }
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
    /// (With `redactSecrets`, the alert channels' secrets and webhook paths are not shown.)
    public static func encode(_ configuration: ArenaConfiguration, redactSecrets: Bool = false) -> JSONValue {
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
        var document = JSONObject([
            (
                "nodes",
                .array(
                    configuration.nodes.map {
                        ["name": .string($0.name), "url": .string($0.url), "ip": .string($0.ip)]
                    })
            ),
            ("probe", .object(JSONObject(probe))),
            (
                "round",
                [
                    "every": .number(configuration.roundEvery), "stagger": .number(configuration.round.stagger),
                    "reduceMotion": .bool(configuration.round.reduceMotion),
                ]
            ),
        ])
        if !configuration.maintenance.isEmpty {
            document["maintenance"] = .array(configuration.maintenance.map(\.json))
        }
        if configuration.retention != ArenaConfiguration.Retention() {
            document["retention"] = [
                "minuteBuckets": .number(configuration.retention.minuteBuckets),
                "hourBuckets": .number(configuration.retention.hourBuckets),
                "dayBuckets": .number(configuration.retention.dayBuckets),
            ]
        }
        if configuration.alerts != AlertConfiguration() {
            document["alerts"] = AlertConfigurationCodec.encode(configuration.alerts, redactSecrets: redactSecrets)
        }
        return .object(document)
    }
}
