import ChoreoFormat
import ChoreoJSON

/// Reads and writes ``AlertConfiguration`` as JSON (`"alerts"` in the arena configuration, the
/// body of `PUT /v1/arena/alerts`), validating every field with its path.
public enum AlertConfigurationCodec {
    /// Shown instead of a secret to a reader without the API token.
    public static let redacted = "[redacted]"

    /// Reads the alerting at `path`; rules may name the nodes in `names` or `"*"`.
    public static func decode(
        _ value: JSONValue, path: String, names: Set<String>, errors: inout [FieldError]
    ) -> AlertConfiguration {
        var result = AlertConfiguration()
        func fail(_ field: String, _ message: String, suggestion: String? = nil) {
            errors.append(problem(path, field, message, suggestion))
        }
        guard case .object(let object) = value else {
            errors.append(FieldError(path: path, message: "must be an object with channels and rules"))
            return result
        }
        for key in object.keys where !["channels", "rules"].contains(key) {
            fail(key, "unknown field", suggestion: Vocabulary.suggestion(for: key, among: ["channels", "rules"]))
        }
        switch object["channels"] {
        case nil: break
        case .array(let items)? where items.count <= AlertConfiguration.maxChannels:
            var seen: Set<String> = []
            for (index, item) in items.enumerated() {
                if let channel = decodeChannel(item, path: "\(path).channels[\(index)]", errors: &errors) {
                    if seen.insert(channel.name).inserted {
                        result.channels.append(channel)
                    } else {
                        fail("channels[\(index)].name", "\"\(channel.name)\" is used twice")
                    }
                }
            }
        default: fail("channels", "must be an array of at most \(AlertConfiguration.maxChannels) channels")
        }
        let channelNames = Set(result.channels.map(\.name))
        switch object["rules"] {
        case nil: break
        case .array(let items)? where items.count <= AlertConfiguration.maxRules:
            var seen: Set<String> = []
            for (index, item) in items.enumerated() {
                let rulePath = "\(path).rules[\(index)]"
                if let rule = decodeRule(
                    item, path: rulePath, names: names, channels: channelNames, errors: &errors)
                {
                    if seen.insert(rule.name).inserted {
                        result.rules.append(rule)
                    } else {
                        fail("rules[\(index)].name", "\"\(rule.name)\" is used twice")
                    }
                }
            }
        default: fail("rules", "must be an array of at most \(AlertConfiguration.maxRules) rules")
        }
        return result
    }

    /// The error at `field` of the object at `path` (the object itself when `field` is empty),
    /// ending with the name meant when there is one.
    static func problem(_ path: String, _ field: String, _ message: String, _ suggestion: String?) -> FieldError {
        FieldError(
            path: field.isEmpty ? path : "\(path).\(field)",
            message: suggestion.map { "\(message); did you mean \"\($0)\"?" } ?? message, suggestion: suggestion)
    }

    /// A name: 1 to 64 letters, digits, `-`, `_` or `.` (it is part of idempotency keys).
    static func nameProblem(_ name: String) -> String? {
        let allowed = name.utf8.allSatisfy {
            $0 == 45 || $0 == 46 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0)
                || (97...122).contains($0)
        }
        return !name.isEmpty && name.utf8.count <= 64 && allowed ? nil : "must be 1 to 64 letters, digits, -, _ or ."
    }

    static func decodeChannel(_ value: JSONValue, path: String, errors: inout [FieldError]) -> AlertChannel? {
        let before = errors.count
        func fail(_ field: String, _ message: String, suggestion: String? = nil) {
            errors.append(problem(path, field, message, suggestion))
        }
        guard case .object(let object) = value else {
            fail("", "must be an object with name, type and url")
            return nil
        }
        let allowed = [
            "name", "type", "url", "secret", "format", "template", "topic", "timeout", "maxAttempts", "retryFor",
            "allowPrivateTargets",
        ]
        for key in object.keys where !allowed.contains(key) {
            fail(key, "unknown field", suggestion: Vocabulary.suggestion(for: key, among: allowed))
        }
        var name = ""
        if case .string(let text)? = object["name"], nameProblem(text) == nil {
            name = text
        } else {
            fail("name", "is required: " + (nameProblem("") ?? ""))
        }
        switch object["type"] {
        case nil, .string("webhook")?: break
        case .string(let text)?:
            fail("type", "\"\(text)\" is not a channel type (webhook)", suggestion: "webhook")
        default: fail("type", "must be \"webhook\"")
        }
        var allowPrivate = false
        switch object["allowPrivateTargets"] {
        case nil, .null?: break
        case .bool(let flag)?: allowPrivate = flag
        default: fail("allowPrivateTargets", "must be true or false")
        }
        var url = ""
        if case .string(let text)? = object["url"] {
            if let problem = WebhookTarget.urlProblem(text, allowPrivate: allowPrivate) {
                fail("url", problem)
            } else {
                url = text
            }
        } else {
            fail("url", "is required: an http or https URL")
        }
        var secret: String?
        switch object["secret"] {
        case nil, .null?: break
        case .string(let text)? where !text.isEmpty && text.utf8.count <= 512: secret = text
        default: fail("secret", "must be a string of 1 to 512 bytes, or null")
        }
        var format = AlertChannel.Format.generic
        switch object["format"] {
        case nil, .null?: break
        case .string(let text)?:
            if let known = AlertChannel.Format(rawValue: text) {
                format = known
            } else {
                fail(
                    "format",
                    "\"\(text)\" is not a format (\(AlertChannel.Format.allCases.map(\.rawValue).joined(separator: ", ")))",
                    suggestion: Vocabulary.suggestion(for: text, among: AlertChannel.Format.allCases.map(\.rawValue)))
            }
        default: fail("format", "must be a string")
        }
        var template: String?
        switch object["template"] {
        case nil, .null?:
            if format == .template { fail("template", "is required with format \"template\": the body to send") }
        case .string(let text)? where text.utf8.count <= 16_384: template = text
        default: fail("template", "must be a string of at most 16384 bytes")
        }
        var topic: String?
        switch object["topic"] {
        case nil, .null?: break
        case .string(let text)? where !text.isEmpty && text.utf8.count <= 64: topic = text
        default: fail("topic", "must be a string of 1 to 64 bytes")
        }
        var timeout = 5.0
        switch object["timeout"] {
        case nil, .null?: break
        case .number(let n)? where n >= 0.1 && n <= 60: timeout = n
        default: fail("timeout", "must be 0.1…60 seconds")
        }
        var maxAttempts: Int?
        switch object["maxAttempts"] {
        case nil, .null?: break
        case .number(let n)? where n >= 1 && n <= 100_000 && n == n.rounded(): maxAttempts = Int(n)
        default: fail("maxAttempts", "must be a whole number, 1…100000, or null (as many as retryFor allows)")
        }
        var retryFor = 86_400.0
        switch object["retryFor"] {
        case nil, .null?: break
        case .number(let n)? where n >= 1 && n <= 604_800: retryFor = n
        default: fail("retryFor", "must be 1…604800 seconds (a week)")
        }
        guard errors.count == before else { return nil }
        return AlertChannel(
            name: name, url: url, secret: secret, format: format, template: template, topic: topic, timeout: timeout,
            maxAttempts: maxAttempts, retryFor: retryFor, allowPrivateTargets: allowPrivate)
    }

    static func decodeRule(
        _ value: JSONValue, path: String, names: Set<String>, channels: Set<String>, errors: inout [FieldError]
    ) -> AlertRule? {
        let before = errors.count
        func fail(_ field: String, _ message: String, suggestion: String? = nil) {
            errors.append(problem(path, field, message, suggestion))
        }
        guard case .object(let object) = value else {
            fail("", "must be an object with name, nodes, when and channels")
            return nil
        }
        let allowed = [
            "name", "nodes", "when", "failureThreshold", "successThreshold", "kOfN", "forAtLeast", "sendOnResolved",
            "remindEvery", "channels",
        ]
        for key in object.keys where !allowed.contains(key) {
            fail(key, "unknown field", suggestion: Vocabulary.suggestion(for: key, among: allowed))
        }
        var rule = AlertRule(name: "")
        if case .string(let text)? = object["name"], nameProblem(text) == nil {
            rule.name = text
        } else {
            fail("name", "is required: " + (nameProblem("") ?? ""))
        }
        switch object["nodes"] {
        case nil: break
        case .array(let items)? where !items.isEmpty:
            rule.nodes = []
            for (index, item) in items.enumerated() {
                if case .string(let node) = item, node == "*" || names.contains(node) {
                    rule.nodes.append(node)
                } else if case .string(let node) = item {
                    fail(
                        "nodes[\(index)]", "no node is named \"\(node)\" (\"*\" names them all)",
                        suggestion: Vocabulary.suggestion(for: node, among: names))
                } else {
                    fail("nodes[\(index)]", "must be a node's name or \"*\"")
                }
            }
        default: fail("nodes", "must be a list of node names, or [\"*\"]")
        }
        switch object["when"] {
        case nil, .string("down")?: break
        case .object(let latency)?:
            for key in latency.keys where !["latencyOver", "window"].contains(key) {
                fail("when.\(key)", "unknown field")
            }
            guard case .number(let limit)? = latency["latencyOver"], limit > 0, limit <= 3600 else {
                fail("when.latencyOver", "is required: seconds, above 0 and at most 3600")
                break
            }
            var window = 60.0
            switch latency["window"] {
            case nil, .null?: break
            case .number(let n)? where n >= 1 && n <= 86_400: window = n
            default: fail("when.window", "must be 1…86400 seconds")
            }
            rule.when = .latencyOver(limit: limit, window: window)
        case .string(let text)?:
            fail("when", "\"\(text)\" is not a condition (\"down\" or {\"latencyOver\": seconds, \"window\": seconds})")
        default: fail("when", "must be \"down\" or {\"latencyOver\": seconds, \"window\": seconds}")
        }
        func count(_ key: String, _ high: Int) -> Int?? {
            switch object[key] {
            case nil: return .some(nil)
            case .null?: return .some(nil)
            case .number(let n)? where n >= 1 && n <= Double(high) && n == n.rounded(): return .some(Int(n))
            default:
                fail(key, "must be a whole number, 1…\(high), or null")
                return nil
            }
        }
        let failure = count("failureThreshold", 1_000)
        let success = count("successThreshold", 1_000)
        switch object["kOfN"] {
        case nil, .null?: rule.kOfN = nil
        case .array(let pair)?:
            if pair.count == 2, case .number(let k) = pair[0], case .number(let n) = pair[1], k >= 1, n <= 1_000,
                k <= n, k == k.rounded(), n == n.rounded()
            {
                rule.kOfN = (Int(k), Int(n))
            } else {
                fail("kOfN", "must be [k, n]: k failures of the last n probes, 1 ≤ k ≤ n ≤ 1000")
            }
        default: fail("kOfN", "must be [k, n] or null")
        }
        switch object["forAtLeast"] {
        case nil, .null?: rule.forAtLeast = nil
        case .number(let n)? where n > 0 && n <= 86_400: rule.forAtLeast = n
        default: fail("forAtLeast", "must be seconds, above 0 and at most 86400, or null")
        }
        // With no trigger at all, three failed probes in a row (Gatus's default).
        rule.failureThreshold =
            (failure ?? nil) ?? (rule.kOfN == nil && rule.forAtLeast == nil ? 3 : nil)
        rule.successThreshold = (success ?? nil) ?? 2
        switch object["sendOnResolved"] {
        case nil, .null?: break
        case .bool(let flag)?: rule.sendOnResolved = flag
        default: fail("sendOnResolved", "must be true or false")
        }
        switch object["remindEvery"] {
        case nil, .null?: break
        case .number(let n)? where n >= 1 && n <= 7 * 86_400: rule.remindEvery = n
        default: fail("remindEvery", "must be seconds, 1…604800, or null")
        }
        switch object["channels"] {
        case .array(let items)? where !items.isEmpty:
            for (index, item) in items.enumerated() {
                if case .string(let name) = item, channels.contains(name) {
                    rule.channels.append(name)
                } else if case .string(let name) = item {
                    fail(
                        "channels[\(index)]", "no channel is named \"\(name)\"",
                        suggestion: Vocabulary.suggestion(for: name, among: channels))
                } else {
                    fail("channels[\(index)]", "must be a channel's name")
                }
            }
        default: fail("channels", "is required: the names of the channels to send to")
        }
        return errors.count == before ? rule : nil
    }

    /// The alerting as JSON, in the shape ``decode(_:path:names:errors:)`` reads; secrets
    /// and webhook URLs (which hold tokens) replaced by ``redacted`` when `redactSecrets`.
    public static func encode(_ alerts: AlertConfiguration, redactSecrets: Bool = false) -> JSONValue {
        let channels: [JSONValue] = alerts.channels.map { channel in
            var object = JSONObject([
                ("name", .string(channel.name)), ("type", "webhook"),
                ("url", .string(redactSecrets ? URLRedaction.origin(channel.url) + "/" + redacted : channel.url)),
                ("secret", channel.secret.map { .string(redactSecrets ? redacted : $0) } ?? .null),
                ("format", .string(channel.format.rawValue)),
            ])
            if let template = channel.template { object["template"] = .string(template) }
            if let topic = channel.topic { object["topic"] = .string(topic) }
            object["timeout"] = .number(channel.timeout)
            object["maxAttempts"] = channel.maxAttempts.map { .number(Double($0)) } ?? .null
            object["retryFor"] = .number(channel.retryFor)
            object["allowPrivateTargets"] = .bool(channel.allowPrivateTargets)
            return .object(object)
        }
        let rules: [JSONValue] = alerts.rules.map { rule in
            let when: JSONValue =
                switch rule.when {
                case .down: "down"
                case .latencyOver(let limit, let window): ["latencyOver": .number(limit), "window": .number(window)]
                }
            return .object(
                JSONObject([
                    ("name", .string(rule.name)), ("nodes", .array(rule.nodes.map { .string($0) })), ("when", when),
                    ("failureThreshold", rule.failureThreshold.map { .number(Double($0)) } ?? .null),
                    ("successThreshold", .number(Double(rule.successThreshold))),
                    ("kOfN", rule.kOfN.map { .array([.number(Double($0.k)), .number(Double($0.n))]) } ?? .null),
                    ("forAtLeast", rule.forAtLeast.map { .number($0) } ?? .null),
                    ("sendOnResolved", .bool(rule.sendOnResolved)),
                    ("remindEvery", rule.remindEvery.map { .number($0) } ?? .null),
                    ("channels", .array(rule.channels.map { .string($0) })),
                ]))
        }
        return ["channels": .array(channels), "rules": .array(rules)]
    }
}
