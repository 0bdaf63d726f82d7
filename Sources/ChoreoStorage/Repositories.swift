import Foundation

/// A stored scene's listing entry.
public struct SceneSummary: Sendable, Equatable {
    public let id: String
    public let name: String?
    /// Creation time, RFC 3339 UTC.
    public let created: String

    public init(id: String, name: String?, created: String) {
        self.id = id
        self.name = name
        self.created = created
    }
}

/// A stored scene.
public struct SceneRecord: Sendable, Equatable {
    public let summary: SceneSummary
    /// The scene document exactly as it was accepted.
    public let document: [UInt8]

    public init(summary: SceneSummary, document: [UInt8]) {
        self.summary = summary
        self.document = document
    }
}

/// One session input as stored: its script time and its document.
public typealias StoredInput = (at: Double, document: [UInt8])

/// A stored session: its scene and its inputs in order.
public struct SessionRecord: Sendable, Equatable {
    public let id: String
    public let scene: [UInt8]
    public let inputs: [StoredInput]

    public init(id: String, scene: [UInt8], inputs: [StoredInput]) {
        self.id = id
        self.scene = scene
        self.inputs = inputs
    }

    public static func == (a: SessionRecord, b: SessionRecord) -> Bool {
        a.id == b.id && a.scene == b.scene
            && a.inputs.elementsEqual(b.inputs) { $0.at == $1.at && $0.document == $1.document }
    }
}

/// One recorded probe of an arena node.
public struct ProbeRow: Sendable, Equatable {
    public let node: String
    public let url: String
    /// Unix time in milliseconds.
    public let timeMs: Int64
    public let verdict: Verdict
    public let reason: String?
    public let httpStatus: Int?
    public let latencyMicroseconds: Int64

    /// What the probe found, stored as its raw value (`up`, `degraded`, `failed`). Only a failed
    /// probe counts against a node's uptime: a degraded one answered.
    public enum Verdict: String, Sendable, CaseIterable {
        case up, degraded, failed

        /// Whether the node answered (up or degraded).
        public var answered: Bool { self != .failed }
    }

    public init(
        node: String, url: String, timeMs: Int64, verdict: Verdict, reason: String?, httpStatus: Int?,
        latencyMicroseconds: Int64
    ) {
        self.node = node
        self.url = url
        self.timeMs = timeMs
        self.verdict = verdict
        self.reason = reason
        self.httpStatus = httpStatus
        self.latencyMicroseconds = latencyMicroseconds
    }
}

/// An arena round as replicas share it: any replica reruns its scene (the engine is
/// deterministic) to serve its pictures and events.
public struct StoredRound: Sendable, Equatable {
    public let id: Int
    /// Unix time it started.
    public let started: Double
    /// Seconds until its scene settles.
    public let duration: Double
    /// The round's scene document.
    public let scene: [UInt8]
    /// Node names in ranking order.
    public let order: [String]
    public let champion: String?

    public init(id: Int, started: Double, duration: Double, scene: [UInt8], order: [String], champion: String?) {
        self.id = id
        self.started = started
        self.duration = duration
        self.scene = scene
        self.order = order
        self.champion = champion
    }

    /// The ranking as one line of text: names percent-encoded, separated by newlines.
    var rankingText: String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "%\n")
        return order.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "\n")
    }

    static func ranking(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n").map { $0.removingPercentEncoding ?? String($0) }
    }
}

/// Stored scenes: `POST /v1/scenes` and friends.
public protocol SceneRepository: Sendable {
    /// Stores a scene and returns its summary; durable once this returns.
    func insert(name: String?, document: [UInt8], created: Date) throws(StorageError) -> SceneSummary
    /// A stored scene, or nil.
    func get(_ id: String) throws(StorageError) -> SceneRecord?
    /// Deletes a scene; false if there was none.
    func delete(_ id: String) throws(StorageError) -> Bool
    /// A page of scenes, newest first; `after` is the cursor returned with the previous page.
    func list(limit: Int, after cursor: Int64?) throws(StorageError) -> (items: [SceneSummary], next: Int64?)
}

extension SceneRepository {
    public func insert(name: String?, document: [UInt8]) throws(StorageError) -> SceneSummary {
        try insert(name: name, document: document, created: Date())
    }
}

/// Live sessions' scenes and inputs. Input numbers are unique per session: of two writers
/// racing for the same number (two replicas, say), exactly one succeeds.
public protocol SessionRepository: Sendable {
    /// Stores a new session's scene; durable once this returns.
    func createSession(scene: [UInt8], created: Date) throws(StorageError) -> String
    /// Appends input `number` (0-based); false when that number is taken already (a racing writer).
    func appendInput(session: String, number: Int, at: Double, document: [UInt8]) throws(StorageError) -> Bool
    /// A session with its inputs, or nil.
    func session(_ id: String) throws(StorageError) -> SessionRecord?
    /// The session's inputs numbered `number` and later, in order (another writer's, to catch up
    /// with); nil when the session is gone.
    func inputs(session: String, from number: Int) throws(StorageError) -> [StoredInput]?
    /// Deletes a session and its inputs; false if there was none.
    func deleteSession(_ id: String) throws(StorageError) -> Bool
    /// The number of stored sessions.
    func sessionCount() throws(StorageError) -> Int
}

extension SessionRepository {
    public func createSession(scene: [UInt8]) throws(StorageError) -> String {
        try createSession(scene: scene, created: Date())
    }
}

/// The arena's configuration and a bounded probe history per node.
public protocol ArenaRepository: Sendable {
    /// The stored arena configuration document, if one was saved.
    func arenaConfiguration() throws(StorageError) -> [UInt8]?
    /// Saves the arena configuration; durable once this returns.
    func saveArenaConfiguration(_ document: [UInt8]) throws(StorageError)
    /// Appends probes and adds `buckets` to the stored sums, in one transaction, and trims the
    /// history of the nodes in `trimming` (by default every node in `rows`) to the newest
    /// ``probesKeptPerNode``.
    func appendProbes(_ rows: [ProbeRow], buckets: [StoredBucket], trimming: Set<String>?) throws(StorageError)
    /// A node's buckets of every resolution that begin in [`fromMs`, `toMs`).
    func buckets(node: String, fromMs: Int64, toMs: Int64) throws(StorageError) -> [StoredBucket]
    /// Deletes the buckets of `resolution` that begin before `beforeMs`; how many.
    @discardableResult
    func trimBuckets(resolution: Int64, beforeMs: Int64) throws(StorageError) -> Int
    /// The number of stored buckets of each resolution.
    func bucketCounts() throws(StorageError) -> [Int64: Int]
    /// Every node's probes outside maintenance and those that answered, summed over the buckets
    /// of `resolution` that begin at or after `fromMs`.
    func bucketTotals(resolution: Int64, fromMs: Int64) throws(StorageError) -> [String: (total: Int64, up: Int64)]
    /// A node's recorded probes, oldest first (at most ``probesKeptPerNode``).
    func probes(node: String) throws(StorageError) -> [ProbeRow]
    /// Probes recorded after `sequence` (by any replica), oldest first, at most `limit`, each
    /// with its sequence number: how replicas that do not probe follow the one that does.
    func probes(after sequence: Int64, limit: Int) throws(StorageError) -> [(sequence: Int64, row: ProbeRow)]
    /// The sequence number of the newest recorded probe (0 when there is none).
    func latestProbeSequence() throws(StorageError) -> Int64
    /// Stores `round` numbered one after the newest stored round, unless that one is still
    /// running at `round.started`; returns the round as stored, or nil when one is running.
    /// Of replicas racing to start a round, one succeeds.
    func claimRound(_ round: StoredRound) throws(StorageError) -> StoredRound?
    /// The newest stored round if it is numbered after `id` (nil otherwise): a follower asks
    /// every second without reading a round it has already taken up.
    func latestRound(after id: Int) throws(StorageError) -> StoredRound?
}

extension ArenaRepository {
    /// Appends probes without buckets.
    public func appendProbes(_ rows: [ProbeRow]) throws(StorageError) {
        try appendProbes(rows, buckets: [], trimming: nil)
    }

    /// Appends probes and buckets, trimming every node in `rows`.
    public func appendProbes(_ rows: [ProbeRow], buckets: [StoredBucket]) throws(StorageError) {
        try appendProbes(rows, buckets: buckets, trimming: nil)
    }

    /// The newest stored round.
    public func latestRound() throws(StorageError) -> StoredRound? { try latestRound(after: 0) }
}

/// A node's probes summed over a minute, an hour or a day (the arena's `UptimeBucket`): sums
/// only, added to the stored ones.
public struct StoredBucket: Sendable, Equatable {
    /// The sums' columns, in the order of ``sums``.
    public static let columns =
        ["total", "up", "excluded", "up_ms", "covered_ms", "excluded_ms", "latency_count", "latency_sum_us"]
        + (0..<14).map { "h\($0)" } + [
            "excluded_up", "excluded_up_ms", "excluded_latency_count", "excluded_latency_sum_us",
        ]

    public let node: String
    /// Milliseconds: 60,000, 3,600,000 or 86,400,000.
    public let resolution: Int64
    public let startMs: Int64
    public let sums: [Int64]

    public init(node: String, resolution: Int64, startMs: Int64, sums: [Int64]) {
        self.node = node
        self.resolution = resolution
        self.startMs = startMs
        self.sums = sums
    }
}

/// A recorded alert transition (docs/alerts.md): written once, keyed by rule, node, sequence
/// and reminder number.
public struct StoredAlertEvent: Sendable, Equatable {
    public let rule: String
    public let node: String
    public let sequence: Int
    /// 0 for a state change, the reminder's number for a reminder.
    public let reminder: Int
    public let event: Kind
    /// Unix milliseconds.
    public let atMs: Int64
    public let sinceMs: Int64
    public let description: String

    /// The transition's kind, stored as its raw value.
    public enum Kind: String, Sendable, CaseIterable {
        case triggered, resolved, reminder
    }

    /// Whether the alert fires after this transition.
    public var firing: Bool { event != .resolved }

    public init(
        rule: String, node: String, sequence: Int, reminder: Int, event: Kind, atMs: Int64, sinceMs: Int64,
        description: String
    ) {
        self.rule = rule
        self.node = node
        self.sequence = sequence
        self.reminder = reminder
        self.event = event
        self.atMs = atMs
        self.sinceMs = sinceMs
        self.description = description
    }
}

/// One delivery of an alert transition to one channel: the outbox's row.
public struct StoredDelivery: Sendable, Equatable {
    /// The transition's idempotency key (the same for each of its channels).
    public let key: String
    public let channel: String
    public let url: String
    public let contentType: String
    public let body: [UInt8]
    public let status: Status
    public let attempts: Int
    /// Unix milliseconds: when the next try is due.
    public let nextMs: Int64
    public let lastError: String?
    public let createdMs: Int64

    /// Where a delivery stands, stored as its raw value (the `outcome` of `GET /v1/arena/alerts/state`).
    public enum Status: String, Sendable, CaseIterable {
        /// Not delivered yet: due again at `nextMs`.
        case retrying
        case sent
        /// Given up on: the last try failed.
        case failed
    }

    public init(
        key: String, channel: String, url: String, contentType: String, body: [UInt8], status: Status = .retrying,
        attempts: Int = 0, nextMs: Int64, lastError: String? = nil, createdMs: Int64
    ) {
        self.key = key
        self.channel = channel
        self.url = url
        self.contentType = contentType
        self.body = body
        self.status = status
        self.attempts = attempts
        self.nextMs = nextMs
        self.lastError = lastError
        self.createdMs = createdMs
    }
}

/// Alert transitions and their outbox (docs/alerts.md): a transition is recorded once with its
/// deliveries in one transaction, and the leader drains the deliveries that are due.
public protocol AlertRepository: Sendable {
    /// Records a transition and its deliveries in one transaction; false (and nothing added)
    /// when that transition was recorded already (another leader's, say).
    func recordAlert(_ event: StoredAlertEvent, deliveries: [StoredDelivery]) throws(StorageError) -> Bool
    /// The newest recorded transition of every rule and node.
    func latestAlertEvents() throws(StorageError) -> [StoredAlertEvent]
    /// Deliveries not yet sent whose next try is due at `nowMs`, oldest first, at most `limit`.
    func dueDeliveries(nowMs: Int64, limit: Int) throws(StorageError) -> [StoredDelivery]
    /// Records the outcome of a try.
    func updateDelivery(
        key: String, channel: String, status: StoredDelivery.Status, attempts: Int, nextMs: Int64, error: String?
    ) throws(StorageError)
    /// The newest deliveries first, at most `limit`.
    func recentDeliveries(limit: Int) throws(StorageError) -> [StoredDelivery]
    /// The number of deliveries by status.
    func deliveryCounts() throws(StorageError) -> [StoredDelivery.Status: Int]
}

/// Alert transitions kept per rule and node, and finished deliveries kept; older ones are
/// deleted as new ones are recorded.
public let alertEventsKept = 200
public let finishedDeliveriesKept = 10_000

/// Rounds kept; older ones are deleted as new ones are stored.
public let roundsKept = 20

/// Probes kept per node; older ones are deleted as new ones arrive.
public let probesKeptPerNode = 500

/// A storage backend: every repository, a health check with a read path of its own, and the
/// coordination of replicas when the database is shared.
public protocol Storage: SceneRepository, SessionRepository, ArenaRepository, AlertRepository {
    /// `sqlite` or `postgresql`, for logs and `/healthz`.
    var backend: String { get }
    /// Where the data is, for logs: a file path, or a connection URL without its password.
    var location: String { get }
    /// The schema version in the database.
    func schemaVersion() throws(StorageError) -> Int
    /// Why storage is not healthy, or nil (`/healthz`). Runs on a connection of its own, so it
    /// never waits behind the store's writes for longer than a bounded time.
    func healthProblem() -> String?
    /// How replicas sharing this database agree on a leader and hear of each other's changes;
    /// nil when the database belongs to this process alone (SQLite).
    var coordination: (any ReplicaCoordination)? { get }
    /// Closes every connection; later calls fail.
    func close()
}

/// Replicas sharing one database: who leads (probes and runs the arena's rounds), and the
/// changes they tell each other of.
public protocol ReplicaCoordination: AnyObject, Sendable {
    /// Tries to become the leader, or checks that this replica still is; returns whether it
    /// leads now. Bounded: never waits for another replica.
    func campaign() -> Bool
    /// Whether this replica led at the last ``campaign()``.
    var isLeader: Bool { get }
    /// Gives up leadership (at shutdown), so another replica takes over at once.
    func resign()
    /// Sends `payload` to every replica's listener on `channel` (this one's too), once the
    /// sender's writes before it are visible.
    func notify(channel: String, payload: String) throws(StorageError)
    /// Calls `handler` for every notification on `channel`, on a thread of the coordination's
    /// own, until the storage is closed. After the listening connection was lost and opened
    /// again, `handler` is called once with an empty payload: notifications may have been
    /// missed meanwhile, so read what changed.
    func listen(channel: String, _ handler: @escaping @Sendable (String) -> Void)
}
