/// One server node's health as the arena sees it: what decides the order of a round.
public struct ArenaStanding: Sendable, Equatable {
    /// The node's health status.
    public enum Status: String, Sendable, Equatable, CaseIterable {
        /// Not probed enough yet.
        case pending
        case up
        /// Answering, but slow, loaded or failing its body condition.
        case degraded
        case down
    }

    /// The node's name; also its layer's id in the round's scene.
    public var name: String
    public var ip: String
    public var status: Status
    /// The typical response time (the median of the node's recent answers, as the arena
    /// ranks it), if one answered.
    public var latencyMs: Double?
    /// The share of probes that answered (0…1) over the standing's window; nil when unknown.
    public var uptime: Double?
    /// The 90th percentile of the recent answers' times: the tie-break after the median.
    public var latencyP90Ms: Double?

    public init(
        name: String, ip: String = "", status: Status, latencyMs: Double? = nil, uptime: Double? = nil,
        latencyP90Ms: Double? = nil
    ) {
        self.name = name
        self.ip = ip
        self.status = status
        self.latencyMs = latencyMs
        self.uptime = uptime
        self.latencyP90Ms = latencyP90Ms
    }
}
