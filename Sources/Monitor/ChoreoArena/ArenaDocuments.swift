import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// The arena's documents as the API writes them: `GET /v1/arena`, a node, and the Server-Sent
/// Events of `GET /v1/arena/events`. Node URLs are shown redacted (``URLRedaction``):
/// credentials in them stay on the server.
public enum ArenaDocuments {
    /// `{"nodes": […], "round": {…} | null, "leader": …}`.
    public static func status(_ status: ArenaStatus) -> [UInt8] {
        let nodes: [JSONValue] = status.nodes.map {
            node(node: $0.health, visual: $0.visual, now: status.now, maintenance: $0.maintenance)
        }
        var round: JSONValue = .null
        if let state = status.round {
            round = [
                "id": .number(Double(state.id)), "started": .number(state.started),
                "phase": .string(state.running ? "running" : "finished"), "elapsed": .number(state.elapsed),
                "duration": .number(state.duration), "order": .array(state.order.map { .string($0) }),
                "champion": state.champion.map { .string($0) } ?? .null,
            ]
        }
        var writer = JSONWriter()
        writer.value(["nodes": .array(nodes), "round": round, "leader": .bool(status.leader)])
        return writer.bytes
    }

    /// One node: its health, and in the whole status its arena state.
    public static func node(node: NodeHealth, visual: ArenaStatus.Visual?, now: Double, maintenance: Bool = false)
        -> JSONValue
    {
        var fields: [(String, JSONValue)] = [
            ("name", .string(node.name)), ("ip", .string(node.ip)), ("url", .string(URLRedaction.redacted(node.url))),
            ("status", .string(node.status.rawValue)), ("latencyMs", number(node.shownLatencyMs)),
            ("medianLatencyMs", number(node.status == .down ? nil : node.medianLatencyMs)),
            ("httpStatus", number(node.lastHTTPStatus.map(Double.init))),
            ("reason", node.lastReason.map { .string($0) } ?? .null),
            ("checked", number(node.lastChecked)),
            ("checkedAgo", number(node.lastChecked.map { SceneTime.quantize(max(0, now - $0)) })),
            ("uptime", number(node.uptimeRatio)), ("probes", .number(Double(node.probes))),
            ("maintenance", .bool(maintenance)),
        ]
        if let visual {
            fields.append(
                (
                    "visual",
                    .object(
                        JSONObject([("state", .string(visual.state)), ("presentation", visual.presentation ?? .null)]))
                ))
        }
        return .object(JSONObject(fields))
    }

    /// One event as Server-Sent Events: `event: NAME`, `id: ID` (which a client that
    /// reconnects sends back as `Last-Event-ID`), `data: JSON` and a blank line; the keep-alive
    /// is a comment; the snapshot opens the stream with a comment naming it.
    public static func sse(_ event: ArenaEvent, id: String?) -> [UInt8] {
        var writer = JSONWriter()
        let name: String
        switch event {
        case .keepAlive:
            return Array(": keep-alive\n\n".utf8)
        case .snapshot(let status):
            return Array(": choreo arena events\n\nevent: snapshot\n".utf8) + idLine(id) + Array("data: ".utf8)
                + Self.status(status) + Array("\n\n".utf8)
        case .health(let node, let from, let to, let reason, let time):
            name = "health"
            writer.value([
                "node": .string(node), "from": .string(from), "to": .string(to),
                "reason": reason.map { .string($0) } ?? .null, "time": .number(time),
            ])
        case .roundStarted(let round, let time):
            name = "round"
            writer.value(["round": .number(Double(round)), "phase": "started", "time": .number(time)])
        case .roundEvents(let round, let events):
            name = "round"
            writer.raw("{\"round\":")
            writer.integer(Int64(round))
            writer.raw(",\"events\":")
            ResponseEncoder.writeEvents(events, into: &writer)
            writer.raw("}")
        case .alert(let transition):
            name = "alert"
            writer.value(AlertMessage.generic(transition))
        case .roundFinished(let round, let time, let champion):
            name = "round"
            writer.value([
                "round": .number(Double(round)), "phase": "finished", "time": .number(time),
                "champion": champion.map { .string($0) } ?? .null,
            ])
        }
        return Array("event: \(name)\n".utf8) + idLine(id) + Array("data: ".utf8) + writer.bytes + Array("\n\n".utf8)
    }

    private static func idLine(_ id: String?) -> [UInt8] { id.map { Array("id: \($0)\n".utf8) } ?? [] }

    static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

    /// The encoding of `GET /v1/arena/events`: ``sse(_:id:)``.
    public struct ServerSentEvents: ArenaEventEncoding {
        public init() {}

        public func encode(_ event: ArenaEvent, id: String?) -> [UInt8] { ArenaDocuments.sse(event, id: id) }
    }
}
