import ChoreoArena
import ChoreoJSON
import ChoreoService
import Foundation

/// A node's own routes as documents: its state (`GET /v1/arena/nodes/{name}`), its badge and
/// its recorded probes (docs/arena.md).
extension ArenaRuntime {
    /// The node's document, and whether it is up (the route answers 503 while it is down).
    public func nodeDocument(_ name: String, now: Double = Date().timeIntervalSince1970) throws(ServiceError)
        -> (up: Bool, document: JSONValue)
    {
        guard let node = node(name) else { throw ServiceError.notFound("No node named \(name) in the arena.") }
        let maintenance = inMaintenance(name, atMs: Int64((now * 1000).rounded()))
        return (
            node.status == .up, ArenaDocuments.node(node: node, visual: nil, now: now, maintenance: maintenance)
        )
    }

    /// The node's SVG badge, now.
    public func nodeBadge(_ name: String, now: Double = Date().timeIntervalSince1970) throws(ServiceError) -> [UInt8] {
        guard let node = nodes.first(where: { $0.name == name }) else {
            throw ServiceError.notFound("No node named \(name) in the arena.")
        }
        return ArenaBadge.node(node, maintenance: inMaintenance(name, atMs: Int64((now * 1000).rounded())))
    }

    /// The node's recorded probes, oldest first (``history(of:parameters:)``), as the value its
    /// document is written from.
    public func nodeHistory(of name: String, parameters: [(String, String)]) throws(ServiceError)
        -> MonitorDocuments.NodeHistory
    {
        let probes = try history(of: name, parameters: parameters).map {
            MonitorDocuments.Probe(
                timeMs: $0.timeMs, url: $0.url, verdict: ProbeVerdict.Kind($0.verdict), reason: $0.reason,
                httpStatus: $0.httpStatus,
                latencyMicroseconds: $0.latencyMicroseconds)
        }
        return MonitorDocuments.NodeHistory(node: name, probes: probes)
    }
}
