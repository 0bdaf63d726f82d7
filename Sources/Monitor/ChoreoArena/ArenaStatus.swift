import ChoreoEngine
import ChoreoJSON

/// The arena now, as `GET /v1/arena` shows it: every node's health and arena state, the round.
public struct ArenaStatus: Sendable {
    /// One node: its health, and (in the whole status) its state in the round and its
    /// presentation values at this moment of the round.
    public struct Node: Sendable {
        public let health: NodeHealth
        public let visual: Visual?
        /// Whether a maintenance window holds for it now.
        public let maintenance: Bool

        public init(health: NodeHealth, visual: Visual?, maintenance: Bool = false) {
            self.health = health
            self.visual = visual
            self.maintenance = maintenance
        }
    }

    /// A node's arena state: `idle`, `offline`, or the state the round gave it by now
    /// (`fighting`, `champion`…), and its layer's presentation values then (null between rounds).
    public struct Visual: Sendable {
        public let state: String
        public let presentation: JSONValue?

        public init(state: String, presentation: JSONValue?) {
            self.state = state
            self.presentation = presentation
        }
    }

    /// The round now or last, with how far it has run.
    public struct RoundState: Sendable {
        public let id: Int
        public let started: Double
        public let running: Bool
        public let elapsed: Double
        public let duration: Double
        public let order: [String]
        public let champion: String?

        public init(
            id: Int, started: Double, running: Bool, elapsed: Double, duration: Double, order: [String],
            champion: String?
        ) {
            self.id = id
            self.started = started
            self.running = running
            self.elapsed = elapsed
            self.duration = duration
            self.order = order
            self.champion = champion
        }
    }

    public let nodes: [Node]
    public let round: RoundState?
    /// Whether this replica probes and runs rounds.
    public let leader: Bool
    /// When it was taken (Unix time): how long ago each node was checked.
    public let now: Double

    public init(nodes: [Node], round: RoundState?, leader: Bool, now: Double) {
        self.nodes = nodes
        self.round = round
        self.leader = leader
        self.now = now
    }
}

/// What `GET /v1/arena/events` tells its subscribers, as it happens.
public enum ArenaEvent: Sendable {
    /// The whole status, first on every stream: a new page draws itself from it.
    case snapshot(ArenaStatus)
    /// A node's health changed.
    case health(node: String, from: String, to: String, reason: String?, time: Double)
    /// A round started (Unix time).
    case roundStarted(round: Int, time: Double)
    /// The round's scene events at one instant, when that instant comes.
    case roundEvents(round: Int, events: [Event])
    /// The round's scene has settled; its champion.
    case roundFinished(round: Int, time: Double, champion: String?)
    /// An alert triggered, resolved or reminded (docs/alerts.md), once it is recorded.
    case alert(AlertTransition)
    /// Nothing happened for a while: keeps the connection open, and finds clients that left.
    case keepAlive
}

/// How a connection writes the arena's events: the service queues each event as its
/// subscriber's encoding writes it, so that a client too far behind is dropped by the bytes it
/// has not read (``ArenaDocuments/ServerSentEvents`` for `GET /v1/arena/events`).
public protocol ArenaEventEncoding: Sendable {
    /// An event with its id (nil for the keep-alive), as the connection sends it.
    func encode(_ event: ArenaEvent, id: String?) -> [UInt8]
}

extension NodeHealth {
    /// The latency to show: none while the node is down (its last good one would mislead).
    public var shownLatencyMs: Double? { status == .down ? nil : lastLatencyMs }
}
