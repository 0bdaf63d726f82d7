import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import ChoreoService
import ChoreoStorage
import Dispatch
import Foundation
import Synchronization

/// The live arena: the prober, its persisted history and configuration, the rounds, and the
/// subscribers of `GET /v1/arena/events`.
public final class ArenaRuntime: Sendable {
    /// A round: the standings it was staged from and its scene, run through the engine.
    public struct Round: Sendable {
        public let id: Int
        /// Unix time it started.
        public let started: Double
        public let order: [String]
        public let champion: String?
        public let scene: [UInt8]
        let timeline: Timeline
        public let parsed: Scene
        /// Each node's state changes in time order, for its visual state at any moment.
        let states: [String: [(time: Double, state: String)]]
        public var duration: Double { SceneTime.quantize(timeline.naturalEnd) }
    }

    struct State {
        var closing = false
        var rounds = 0
        var current: Round?
        var subscribers: [Subscriber] = []
        /// The number of the last event sent (`id:` lines), and the latest events, for a
        /// client that reconnects with `Last-Event-ID`.
        var eventSequence = 0
        var recentEvents: [(number: Int, event: ArenaEvent)] = []
        var pendingRows: [ProbeRow] = []
        /// The buckets the pending rows add (ArenaRuntime+History.swift).
        var pendingBuckets: [StoredBucket] = []
        /// Each node's newest probe summed into buckets: its verdict holds until the next one.
        var lastAggregated: [String: NodeUptime.Probe] = [:]
        /// When buckets past their retention were last deleted (Unix milliseconds).
        var lastTrimMs: Int64 = 0
        /// History writes (probes and buckets, one transaction each) and the seconds they took.
        var historyWrites = 0
        var historyWriteSeconds = 0.0
        /// Whether this replica probes and runs automatic rounds: always with a database of its
        /// own; with a shared one, while PostgreSQL says it leads.
        var leading = true
        /// The newest shared probe this replica has applied (followers).
        var probeSequence: Int64 = 0
        /// The replica loop should end (``stop()``).
        var stopping = false
        /// Whether a replica loop was started (``stop()`` waits for it to end).
        var replicaLoopRunning = false
        /// Per maintenance window until healthy, the nodes that went unhealthy in it and are
        /// not up again (this process's knowledge: a restart forgets it, and the window then
        /// lasts to its cap).
        var unhealthyInMaintenance: [String: Set<String>] = [:]
    }

    public static let maxSubscribers = 64

    let store: any Storage
    let prober: Prober
    let state = Mutex(State())
    /// This runtime's event stream, in its events' ids (`<stream>-<number>`): a client that
    /// reconnects to another process (a restart, another replica) starts again from a snapshot.
    let eventStream = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    /// Where the round's events are sent from, in the order of their times.
    let announcements = DispatchQueue(label: "choreo.arena.announcements", qos: .utility)
    /// Signalled when the replica loop has ended: nothing starts the prober after ``stop()``.
    let replicaLoopDone = DispatchSemaphore(value: 0)
    /// The Dispatch timers, cancelled only from `stop` (and the round timer when the
    /// configuration changes), under their mutex.
    private let timers = Mutex<[any DispatchSourceTimer]>([])
    /// The alert rules' state and the delivery thread's work (ArenaRuntime+Alerts.swift).
    let alertWork = Mutex(AlertWork())
    /// Wakes the delivery thread (a transition to record); signalled when it has ended.
    let alertWake = DispatchSemaphore(value: 0)
    let alertsDone = DispatchSemaphore(value: 0)
    private let roundTimer = Mutex<(any DispatchSourceTimer)?>(nil)

    /// Loads the configuration (the given one wins over the stored one, and is stored), and
    /// restores each node's health from its recorded probes.
    public init(store: any Storage, configuration given: ArenaConfiguration?) throws(StorageError) {
        self.store = store
        var configuration = ArenaConfiguration()
        if let given {
            configuration = given
            var writer = JSONWriter()
            writer.value(ArenaConfigurationCodec.encode(given))
            try store.saveArenaConfiguration(writer.bytes)
        } else if let bytes = try store.arenaConfiguration(), let document = try? JSONParser.parse(bytes),
            let stored = try? ArenaConfigurationCodec.decode(document, knownTimeZone: Self.knownTimeZone)
        {
            configuration = stored
        }
        var restored: [NodeHealth] = []
        var lastAggregated: [String: NodeUptime.Probe] = [:]
        for node in configuration.nodes {
            var health = NodeHealth(name: node.name, ip: node.ip, url: node.url)
            let rows = try store.probes(node: node.name)
            lastAggregated[node.name] = rows.last.map(Self.bucketProbe)
            for row in rows where row.url == node.url {
                let result = ProbeResult(
                    status: row.httpStatus ?? 0, latencyMs: Double(row.latencyMicroseconds) / 1000)
                let verdict = ProbeVerdict(ProbeVerdict.Kind(row.verdict), row.reason)
                health.record(verdict, result, at: Double(row.timeMs) / 1000, probe: configuration.probe)
            }
            restored.append(health)
        }
        let box = WeakBox()
        prober = Prober(
            configuration: configuration, restoring: restored,
            onChange: { change in box.runtime?.healthChanged(change) },
            onRecord: { record in box.runtime?.recorded(record) })
        box.runtime = self
        state.withLock { $0.lastAggregated = lastAggregated }
    }

    /// Lets the prober's callbacks reach the runtime without keeping it alive.
    private final class WeakBox: Sendable {
        private struct Reference { weak var runtime: ArenaRuntime? }
        private let reference = Mutex(Reference())

        var runtime: ArenaRuntime? {
            get { reference.withLock { $0.runtime } }
            set { reference.withLock { $0.runtime = newValue } }
        }
    }

    public func start() {
        // The history is written in batches, once a second.
        schedule(every: 1) { [weak self] in self?.flush() }
        schedule(every: Self.keepAliveInterval) { [weak self] in self?.keepAlive() }
        if let coordination = store.coordination {
            startReplica(coordination)
        } else {
            restoreAlerts()
            prober.start()
            rescheduleRounds()
        }
        startAlerts()
    }

    /// Automatic rounds every `round.every` seconds (none when 0, nor on a replica that does not
    /// lead), following configuration changes.
    func rescheduleRounds() {
        roundTimer.withLock { $0?.cancel() }
        let every = prober.configuration.roundEvery
        guard every > 0, isLeader else {
            roundTimer.withLock { $0 = nil }
            return
        }
        roundTimer.withLock { slot in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + every, repeating: every)
            timer.setEventHandler { [weak self] in _ = self?.startRound() }
            timer.resume()
            slot = timer
        }
    }

    public func stop() {
        let looping = state.withLock { state -> Bool in
            state.stopping = true
            return state.replicaLoopRunning
        }
        // The loop ends within a tenth of a second, or a campaign's statement timeout.
        if looping { _ = replicaLoopDone.wait(timeout: .now() + 5) }
        roundTimer.withLock { $0?.cancel() }
        timers.withLock { $0.forEach { $0.cancel() } }
        prober.stop()
        stopAlerts()
        flush()
        // Hand leadership over now rather than when the connection closes.
        store.coordination?.resign()
    }

    private func schedule(every seconds: Double, _ work: @escaping @Sendable () -> Void) {
        timers.withLock { timers in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + seconds, repeating: seconds)
            timer.setEventHandler(handler: work)
            timer.resume()
            timers.append(timer)
        }
    }

    // MARK: Health

    private func recorded(_ record: Prober.Record) {
        let row = ProbeRow(
            node: record.node, url: record.url, timeMs: Int64((record.time * 1000).rounded()),
            verdict: ProbeRow.Verdict(record.verdict.kind), reason: record.verdict.reason,
            httpStatus: record.httpStatus,
            latencyMicroseconds: Int64((record.latencyMs * 1000).rounded()))
        let maintenance = inMaintenance(record.node, atMs: row.timeMs)
        state.withLock { state in
            state.pendingRows.append(row)
            state.pendingBuckets += Self.buckets(adding: row, excluded: maintenance, to: &state.lastAggregated)
        }
        alertObserve(record, inMaintenance: maintenance)
    }

    func flush() {
        let (rows, buckets) = state.withLock { state -> ([ProbeRow], [StoredBucket]) in
            defer {
                state.pendingRows = []
                state.pendingBuckets = []
            }
            return (state.pendingRows, state.pendingBuckets)
        }
        // Each node's history is trimmed every tenth write, in turn (a thousand nodes' trims at
        // every write would cost more than the writes themselves).
        let turn = state.withLock { $0.historyWrites } % Self.trimEvery
        let trimming = Set(rows.map(\.node).filter { Self.stableHash($0) % Self.trimEvery == turn })
        let started = DispatchTime.now().uptimeNanoseconds
        guard !rows.isEmpty, (try? store.appendProbes(rows, buckets: Self.merged(buckets), trimming: trimming)) != nil
        else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        state.withLock {
            $0.historyWrites += 1
            $0.historyWriteSeconds += seconds
        }
        // The other replicas read them now rather than at their next poll.
        try? store.coordination?.notify(channel: Self.channel, payload: Self.probesChanged)
        trimBuckets()
    }

    private func healthChanged(_ change: Prober.Change) {
        maintenanceHealthChanged(change)
        // The leader stores a change at once, so every replica's stream shows it within moments.
        if store.coordination != nil && isLeader { flush() }
        broadcast(
            .health(
                node: change.node, from: change.from.rawValue, to: change.to.rawValue, reason: change.reason,
                time: change.time))
    }

    /// `GET /v1/arena/nodes/{name}/history`: the node's recorded probes, oldest first.
    public func history(of node: String) throws(ServiceError) -> [ProbeRow] {
        flush()
        return try ServiceError.storing { () throws(StorageError) in try store.probes(node: node) }
    }

    // MARK: Configuration

    public var configuration: ArenaConfiguration { prober.configuration }

    /// Every node's health now.
    public var nodes: [NodeHealth] { prober.snapshot() }

    /// Validates, stores and applies a configuration.
    public func replaceConfiguration(_ body: [UInt8]) throws(ServiceError) -> ArenaConfiguration {
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            throw ServiceError.malformedJSON(error)
        }
        let configuration: ArenaConfiguration
        do {
            configuration = try ArenaConfigurationCodec.decode(document, knownTimeZone: Self.knownTimeZone)
        } catch {
            throw ServiceError.invalidConfiguration(error)
        }
        try save(configuration)
        return configuration
    }

    /// Stores a configuration, applies it here and tells the other replicas.
    func save(_ configuration: ArenaConfiguration) throws(ServiceError) {
        var writer = JSONWriter()
        writer.value(ArenaConfigurationCodec.encode(configuration))
        do {
            try store.saveArenaConfiguration(writer.bytes)
        } catch {
            throw ServiceError.storage(error)
        }
        prober.apply(configuration)
        rescheduleRounds()
        try? store.coordination?.notify(channel: Self.channel, payload: Self.configurationChanged)
    }

    // MARK: Rounds

    /// Why a round did not start.
    public enum RoundRefusal: Error {
        /// One is running (the seed's running flag).
        case running
        case noNodes
        /// The staged scene broke a limit (for example thousands of nodes with a long stagger).
        case invalid(String)
        /// The shared database could not be reached to number the round.
        case unavailable(String)
    }

    /// Each node's state changes in the round's time order.
    static func states(of timeline: Timeline) -> [String: [(time: Double, state: String)]] {
        var states: [String: [(time: Double, state: String)]] = [:]
        for event in timeline.events {
            if case .stateChanged(let layer, let name) = event.kind {
                states[layer, default: []].append((event.time, name))
            }
        }
        return states
    }

    /// Starts a round from the current standings.
    public func startRound(now: Double = Date().timeIntervalSince1970) -> Result<Round, RoundRefusal> {
        let standings = prober.snapshot().map(\.standing)
        guard !standings.isEmpty else { return .failure(.noNodes) }
        if let current = currentRound, now - current.started < current.duration { return .failure(.running) }
        let settings = prober.configuration.round
        var writer = JSONWriter()
        writer.value(ArenaRound.scene(standings, settings: settings))
        let scene: Scene
        let timeline: Timeline
        do {
            (scene, _) = try SceneDecoder.decode(bytes: writer.bytes)
            timeline = try SceneRunner.run(scene)
        } catch {
            return .failure(.invalid("the round's scene is not valid: \(error)"))
        }
        let order = ArenaRound.order(standings).map(\.name)
        let champion = ArenaRound.champion(standings)?.name
        let started: Round?
        if store.coordination != nil {
            // Replicas share the rounds: the database numbers them and refuses one while another runs.
            let candidate = StoredRound(
                id: 0, started: now, duration: SceneTime.quantize(timeline.naturalEnd), scene: writer.bytes,
                order: order, champion: champion)
            let claimed: StoredRound?
            do {
                claimed = try store.claimRound(candidate)
            } catch {
                return .failure(.unavailable(error.message))
            }
            guard let claimed else { return .failure(.running) }
            started = state.withLock { state -> Round? in
                let round = Round(
                    id: claimed.id, started: now, order: order, champion: champion, scene: writer.bytes,
                    timeline: timeline, parsed: scene, states: Self.states(of: timeline))
                if let current = state.current, current.id >= round.id { return nil }
                state.current = round
                state.rounds = round.id
                return round
            }
            try? store.coordination?.notify(channel: Self.channel, payload: Self.roundStarted)
        } else {
            started = state.withLock { state -> Round? in
                if let current = state.current, now - current.started < current.duration { return nil }
                state.rounds += 1
                let round = Round(
                    id: state.rounds, started: now, order: order, champion: champion, scene: writer.bytes,
                    timeline: timeline, parsed: scene, states: Self.states(of: timeline))
                state.current = round
                return round
            }
        }
        guard let round = started else { return .failure(.running) }
        announce(round)
        return .success(round)
    }

    /// Sends the round's events to the subscribers at the moments they happen; `elapsed`
    /// seconds of it have passed already (a replica that heard of it late skips those). One
    /// serial queue sends them in the order of their times, and `finished` comes last, after
    /// the events at the round's very end.
    func announce(_ round: Round, elapsed: Double = 0) {
        broadcast(.roundStarted(round: round.id, time: round.started))
        let events = round.timeline.events
        var batches: [(time: Double, events: [Event])] = []
        var index = events.firstIndex { $0.time >= elapsed } ?? events.count
        while index < events.count {
            let time = events[index].time
            var batch: [Event] = []
            while index < events.count && events[index].time == time {
                batch.append(events[index])
                index += 1
            }
            batches.append((time, batch))
        }
        let roundID = round.id
        let duration = round.duration
        let finished = ArenaEvent.roundFinished(
            round: roundID, time: round.started + duration, champion: round.champion)
        let endsWithBatch = (batches.last?.time ?? -1) >= duration
        for (position, batch) in batches.enumerated() {
            let last = endsWithBatch && position == batches.count - 1
            announcements.asyncAfter(deadline: .now() + batch.time - elapsed) { [weak self] in
                self?.broadcast(.roundEvents(round: roundID, events: batch.events))
                if last { self?.broadcast(finished) }
            }
        }
        // The end, when the scene has settled: the wallboard's nodes go back to their health.
        if !endsWithBatch {
            announcements.asyncAfter(deadline: .now() + max(0, duration - elapsed)) { [weak self] in
                self?.broadcast(finished)
            }
        }
    }

    public var currentRound: Round? { state.withLock { $0.current } }
}
