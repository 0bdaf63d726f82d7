import ChoreoJSON

/// What a delivery of an alert transition carries to a channel: the URL it is posted to, its
/// content type and its body, in the channel's format (docs/alerts.md). Built once, when the
/// transition is recorded: every retry sends the same bytes.
public struct AlertMessage: Sendable, Equatable {
    public let url: String
    public let contentType: String
    public let body: [UInt8]

    public init(url: String, contentType: String, body: [UInt8]) {
        self.url = url
        self.contentType = contentType
        self.body = body
    }

    /// The message of `transition` for `channel`; `nodeURL` is the node's health URL as shown
    /// (redacted), for a template's `[ENDPOINT_URL]`.
    public static func make(_ transition: AlertTransition, channel: AlertChannel, nodeURL: String) -> AlertMessage {
        let json = "application/json"
        let at = GatusDocuments.timestamp(Int64((transition.at * 1000).rounded()))
        let since = GatusDocuments.timestamp(Int64((transition.since * 1000).rounded()))
        let title =
            switch transition.kind {
            case .triggered: "Triggered: \(transition.rule) on \(transition.node)"
            case .resolved: "Resolved: \(transition.rule) on \(transition.node)"
            case .reminder: "Still firing: \(transition.rule) on \(transition.node)"
            }
        func bytes(_ value: JSONValue) -> [UInt8] {
            var writer = JSONWriter()
            writer.value(value)
            return writer.bytes
        }
        switch channel.format {
        case .generic:
            return AlertMessage(url: channel.url, contentType: json, body: bytes(generic(transition)))
        case .slack:
            let mark = transition.kind == .resolved ? ":white_check_mark:" : ":rotating_light:"
            return AlertMessage(
                url: channel.url, contentType: json,
                body: bytes(["text": .string("\(mark) *\(title)*\n\(transition.description)")]))
        case .discord:
            return AlertMessage(
                url: channel.url, contentType: json,
                body: bytes(["content": .string("**\(title)**\n\(transition.description)")]))
        case .teams:
            let card: JSONValue = .object(
                JSONObject([
                    ("$schema", "http://adaptivecards.io/schemas/adaptive-card.json"), ("type", "AdaptiveCard"),
                    ("version", "1.4"),
                    (
                        "body",
                        [
                            ["type": "TextBlock", "text": .string(title), "weight": "Bolder", "size": "Medium"],
                            ["type": "TextBlock", "text": .string(transition.description), "wrap": true],
                            [
                                "type": "FactSet",
                                "facts": [
                                    ["title": "Since", "value": .string(since)], ["title": "At", "value": .string(at)],
                                ],
                            ],
                        ]
                    ),
                ]))
            let message: JSONValue = [
                "type": "message",
                "attachments": [
                    ["contentType": "application/vnd.microsoft.card.adaptive", "contentUrl": nil, "content": card]
                ],
            ]
            return AlertMessage(url: channel.url, contentType: json, body: bytes(message))
        case .ntfy:
            // ntfy reads a JSON message posted to the server's root, with the topic inside.
            let (root, topicFromURL) = splitTopic(channel.url)
            let topic = channel.topic ?? topicFromURL
            let tags: JSONValue =
                switch transition.kind {
                case .triggered: ["rotating_light"]
                case .resolved: ["white_check_mark"]
                case .reminder: ["bell"]
                }
            let priority = transition.kind == .triggered ? 5.0 : transition.kind == .reminder ? 4 : 3
            let message: JSONValue = .object(
                JSONObject([
                    ("topic", .string(topic)), ("title", .string(title)), ("message", .string(transition.description)),
                    ("tags", tags), ("priority", .number(priority)),
                ]))
            return AlertMessage(url: channel.topic == nil ? root : channel.url, contentType: json, body: bytes(message))
        case .template:
            let template = channel.template ?? ""
            let values: [(String, String)] = [
                ("[ENDPOINT_NAME]", transition.node), ("[ENDPOINT_GROUP]", ""), ("[ENDPOINT_URL]", nodeURL),
                ("[ALERT_DESCRIPTION]", transition.description),
                ("[ALERT_TRIGGERED_OR_RESOLVED]", transition.kind.rawValue.uppercased()),
                ("[RESULT_ERRORS]", transition.kind == .resolved ? "" : transition.description),
                ("[RESULT_CONDITIONS]", ""), ("[RULE]", transition.rule), ("[EVENT]", transition.kind.rawValue),
                ("[SEQUENCE]", "\(transition.sequence)"), ("[IDEMPOTENCY_KEY]", transition.idempotencyKey),
                ("[AT]", at), ("[SINCE]", since),
            ]
            let first = template.first { !$0.isWhitespace }
            let isJSON = first == "{" || first == "["
            var text = template
            for (placeholder, value) in values {
                text = text.replacing(placeholder, with: isJSON ? jsonEscaped(value) : value)
            }
            return AlertMessage(
                url: channel.url, contentType: isJSON ? json : "text/plain; charset=utf-8", body: Array(text.utf8))
        }
    }

    /// The body of a `generic` delivery (openapi.yaml `AlertDelivery`).
    public static func generic(_ transition: AlertTransition) -> JSONValue {
        .object(
            JSONObject([
                ("idempotencyKey", .string(transition.idempotencyKey)), ("event", .string(transition.kind.rawValue)),
                ("rule", .string(transition.rule)), ("node", .string(transition.node)),
                ("at", .string(GatusDocuments.timestamp(Int64((transition.at * 1000).rounded())))),
                ("sequence", .number(Double(transition.sequence))), ("description", .string(transition.description)),
                ("since", .string(GatusDocuments.timestamp(Int64((transition.since * 1000).rounded())))),
                ("reminder", .number(Double(transition.reminder))),
            ]))
    }

    /// `https://ntfy.sh/alerts` → (`https://ntfy.sh/`, `alerts`).
    static func splitTopic(_ url: String) -> (root: String, topic: String) {
        let origin = URLRedaction.origin(url)
        let path = url.dropFirst(origin.count).prefix { $0 != "?" && $0 != "#" }
        let topic = path.split(separator: "/").last.map(String.init) ?? "choreo"
        return (origin + "/", topic)
    }

    /// A string's characters as they stand inside a JSON string literal.
    static func jsonEscaped(_ text: String) -> String {
        var writer = JSONWriter()
        writer.value(.string(text))
        let quoted = String(decoding: writer.bytes, as: UTF8.self)
        return String(quoted.dropFirst().dropLast())
    }
}
