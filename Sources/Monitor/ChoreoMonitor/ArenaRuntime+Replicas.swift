import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import ChoreoStorage
import Foundation

/// The arena on replicas sharing PostgreSQL (docs/scale-out.md): every replica serves the
/// arena; the leader alone probes and runs automatic rounds. The others apply the leader's
/// stored probes through the same hysteresis, so their health, events and metrics follow it;
/// they hear of new probes, rounds and configurations by `NOTIFY`, and read them again every
/// ``campaignInterval`` in case a notification was lost.
extension ArenaRuntime {
    /// How often a replica campaigns for leadership, and a follower reads what it may have missed.
    public static let campaignInterval = 1.0
    /// The notification channel, and its payloads.
    static let channel = "choreo_arena"
    static let probesChanged = "probes"
    static let roundStarted = "round"
    static let configurationChanged = "config"
    static let alertRecorded = "alert"
    /// Probes a follower reads at once, at most.
    static let catchUpBatch = 5_000

    /// Whether this replica probes and runs automatic rounds now (`"leader"` in `GET /v1/arena`).
    public var isLeader: Bool { state.withLock { $0.leading } }

    func startReplica(_ coordination: any ReplicaCoordination) {
        // Read before the lock is taken: no database call waits under the runtime's mutex.
        let latest = (try? store.latestProbeSequence()) ?? 0
        state.withLock {
            $0.leading = false
            $0.probeSequence = latest
        }
        // Health as the stored history says, and the round that may be running.
        coordination.listen(channel: Self.channel) { [weak self] payload in
            guard let self else { return }
            switch payload {
            case Self.probesChanged: self.followProbes()
            case Self.roundStarted: self.followRound()
            case Self.configurationChanged: self.followConfiguration()
            case Self.alertRecorded: if !self.isLeader { self.followAlerts() }
            default:
                self.followConfiguration()
                self.followProbes()
                self.followRound()
                if !self.isLeader { self.followAlerts() }
            }
        }
        followRound()
        followAlerts(remember: true)
        // The configuration this replica started with may be new to the others (--arena).
        try? coordination.notify(channel: Self.channel, payload: Self.configurationChanged)
        state.withLock { $0.replicaLoopRunning = true }
        let thread = Thread { [weak self] in
            defer { self?.replicaLoopDone.signal() }
            while let self, !self.state.withLock({ $0.stopping }) {
                self.campaign(coordination)
                // Asleep in tenths, so that ``stop()`` waits a tenth at most.
                for _ in 0..<Int(Self.campaignInterval * 10) where !self.state.withLock({ $0.stopping }) {
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
        }
        thread.name = "choreo-replica"
        thread.start()
    }

    /// One round of the election: start probing on winning, stop on losing.
    private func campaign(_ coordination: any ReplicaCoordination) {
        let leads = coordination.campaign()
        let was = state.withLock { state -> Bool in
            defer { if !state.stopping { state.leading = leads } }
            return state.leading
        }
        if leads && !was {
            // Take over from where the old leader's stored probes end, then probe.
            followProbes(force: true)
            // Each node's stored probes, read once: the buckets continue from the last, and the
            // alert rules replay them.
            let history = Dictionary(
                configuration.nodes.compactMap { node in (try? store.probes(node: node.name)).map { (node.name, $0) } },
                uniquingKeysWith: { a, _ in a })
            state.withLock {
                $0.leading = true
                $0.lastAggregated = history.compactMapValues { $0.last.map(Self.bucketProbe) }
            }
            restoreAlerts(history: history)
            prober.start()
            rescheduleRounds()
            logRole("leader")
        } else if !leads && was {
            prober.stop()
            alertsLostLeadership()
            flush()
            rescheduleRounds()
            if let latest = try? store.latestProbeSequence() { state.withLock { $0.probeSequence = latest } }
            logRole("follower")
        } else if !leads {
            followProbes()
            followRound()
        }
    }

    /// Applies the probes other replicas stored since the last ones applied (followers only,
    /// unless `force`: the moment before taking over).
    func followProbes(force: Bool = false) {
        while true {
            let after = state.withLock { state -> Int64? in
                state.leading && !force ? nil : state.probeSequence
            }
            guard let after, let rows = try? store.probes(after: after, limit: Self.catchUpBatch), !rows.isEmpty
            else { return }
            for (_, row) in rows {
                prober.replay(
                    Prober.Record(
                        node: row.node, url: row.url, time: Double(row.timeMs) / 1000,
                        verdict: ProbeVerdict(ProbeVerdict.Kind(row.verdict), row.reason),
                        httpStatus: row.httpStatus, latencyMs: Double(row.latencyMicroseconds) / 1000))
            }
            state.withLock { $0.probeSequence = max($0.probeSequence, rows.last!.sequence) }
            if rows.count < Self.catchUpBatch { return }
        }
    }

    /// Takes up a round another replica started: its scene is run here (the engine is
    /// deterministic), and what remains of its events goes to this replica's streams.
    func followRound(now: Double = Date().timeIntervalSince1970) {
        guard let stored = try? store.latestRound(after: currentRound?.id ?? 0) else { return }
        guard let (scene, _) = try? SceneDecoder.decode(bytes: stored.scene),
            let timeline = try? SceneRunner.run(scene)
        else { return }
        let round = Round(
            id: stored.id, started: stored.started, order: stored.order, champion: stored.champion,
            scene: stored.scene, timeline: timeline, parsed: scene, states: Self.states(of: timeline))
        let adopted = state.withLock { state -> Bool in
            if let current = state.current, current.id >= round.id { return false }
            state.current = round
            state.rounds = round.id
            return true
        }
        let elapsed = now - round.started
        if adopted && elapsed < round.duration { announce(round, elapsed: max(0, elapsed)) }
    }

    /// Applies the configuration another replica stored.
    func followConfiguration() {
        guard let bytes = try? store.arenaConfiguration(), let document = try? JSONParser.parse(bytes),
            let configuration = try? ArenaConfigurationCodec.decode(document, knownTimeZone: Self.knownTimeZone),
            configuration != prober.configuration
        else { return }
        prober.apply(configuration)
        rescheduleRounds()
    }

    /// A lifecycle line on standard error, in the server log's form:
    /// `{"event": "leader" | "follower", "time": …}`.
    private func logRole(_ role: String) {
        var writer = JSONWriter()
        writer.value(["event": .string(role), "time": .number(Date().timeIntervalSince1970)])
        writer.raw("\n")
        writer.bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
