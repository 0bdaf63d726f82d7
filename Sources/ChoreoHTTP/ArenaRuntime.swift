import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
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
        let parsed: Scene
        /// Each node's state changes in time order, for its visual state at any moment.
        let states: [String: [(time: Double, state: String)]]
        public var duration: Double { SceneTime.quantize(timeline.naturalEnd) }
    }

    private struct State {
        var closing = false
        var rounds = 0
        var current: Round?
        var subscribers: [Subscriber] = []
        var pendingRows: [SceneStore.ProbeRow] = []
    }

    public static let maxSubscribers = 64

    let store: SceneStore
    let prober: Prober
    private let state = Mutex(State())
    private let timers = Mutex<[TimerBox]>([])
    private let roundTimer = Mutex<TimerBox?>(nil)

    /// A Dispatch timer, cancelled only from `stop`.
    private final class TimerBox: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
    }

    /// Loads the configuration (the given one wins over the stored one, and is stored), and
    /// restores each node's health from its recorded probes.
    public init(store: SceneStore, configuration given: ArenaConfiguration?) throws(StorageError) {
        self.store = store
        var configuration = ArenaConfiguration()
        if let given {
            configuration = given
            var writer = JSONWriter()
            writer.value(ArenaConfigurationCodec.encode(given))
            try store.saveArenaConfiguration(writer.bytes)
        } else if let bytes = try store.arenaConfiguration(), let document = try? JSONParser.parse(bytes),
            let stored = try? ArenaConfigurationCodec.decode(document)
        {
            configuration = stored
        }
        var restored: [NodeHealth] = []
        for node in configuration.nodes {
            var health = NodeHealth(name: node.name, ip: node.ip, url: node.url)
            for row in try store.probes(node: node.name) where row.url == node.url {
                let result = ProbeResult(
                    status: row.httpStatus ?? 0, latencyMs: Double(row.latencyMicroseconds) / 1000)
                let verdict = ProbeVerdict(ProbeVerdict.Kind(rawValue: row.verdict) ?? .failed, row.reason)
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
    }

    /// Lets the prober's callbacks reach the runtime without keeping it alive.
    private final class WeakBox: @unchecked Sendable {
        weak var runtime: ArenaRuntime?
    }

    public func start() {
        prober.start()
        // The history is written in batches, once a second.
        schedule(every: 1) { [weak self] in self?.flush() }
        rescheduleRounds()
    }

    /// Automatic rounds every `round.every` seconds (none when 0), following configuration changes.
    private func rescheduleRounds() {
        roundTimer.withLock { $0 }?.timer.cancel()
        let every = prober.configuration.roundEvery
        guard every > 0 else {
            roundTimer.withLock { $0 = nil }
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + every, repeating: every)
        timer.setEventHandler { [weak self] in _ = self?.startRound() }
        timer.resume()
        let box = TimerBox(timer)
        roundTimer.withLock { $0 = box }
    }

    public func stop() {
        roundTimer.withLock { $0 }?.timer.cancel()
        for box in timers.withLock({ $0 }) { box.timer.cancel() }
        prober.stop()
        flush()
    }

    private func schedule(every seconds: Double, _ work: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler(handler: work)
        timer.resume()
        let box = TimerBox(timer)
        timers.withLock { $0.append(box) }
    }

    // MARK: Health

    private func recorded(_ record: Prober.Record) {
        let url = prober.configuration.nodes.first { $0.name == record.node }?.url ?? ""
        let row = SceneStore.ProbeRow(
            node: record.node, url: url, timeMs: Int64((record.time * 1000).rounded()),
            verdict: record.verdict.kind.rawValue, reason: record.verdict.reason, httpStatus: record.httpStatus,
            latencyMicroseconds: Int64((record.latencyMs * 1000).rounded()))
        state.withLock { $0.pendingRows.append(row) }
    }

    func flush() {
        let rows = state.withLock { state -> [SceneStore.ProbeRow] in
            defer { state.pendingRows = [] }
            return state.pendingRows
        }
        try? store.appendProbes(rows)
    }

    private func healthChanged(_ change: Prober.Change) {
        var writer = JSONWriter()
        writer.value([
            "node": .string(change.node), "from": .string(change.from.rawValue), "to": .string(change.to.rawValue),
            "reason": change.reason.map { .string($0) } ?? .null, "time": .number(change.time),
        ])
        broadcast(event: "health", data: writer.bytes)
    }

    /// `GET /v1/arena/nodes/{name}/history`: the node's recorded probes, oldest first.
    public func history(of node: String) throws(Problem) -> [UInt8] {
        flush()
        let rows: [SceneStore.ProbeRow]
        do {
            rows = try store.probes(node: node)
        } catch {
            throw Problem.unavailable("storage: \(error.message)")
        }
        var writer = JSONWriter()
        writer.raw("{\"node\":")
        writer.string(node)
        writer.raw(",\"probes\":")
        writer.array(rows) { writer, row in
            writer.value([
                "time": .number(Double(row.timeMs) / 1000), "url": .string(row.url), "verdict": .string(row.verdict),
                "reason": row.reason.map { .string($0) } ?? .null,
                "httpStatus": row.httpStatus.map { .number(Double($0)) } ?? .null,
                "latencyMs": .number(Double(row.latencyMicroseconds) / 1000),
            ])
        }
        writer.raw("}")
        return writer.bytes
    }

    // MARK: Configuration

    public var configuration: ArenaConfiguration { prober.configuration }

    /// Validates, stores and applies a configuration.
    public func replaceConfiguration(_ body: [UInt8]) throws(Problem) -> ArenaConfiguration {
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            throw Problem.malformedJSON(error)
        }
        let configuration: ArenaConfiguration
        do {
            configuration = try ArenaConfigurationCodec.decode(document)
        } catch {
            throw Problem.invalidConfiguration(error)
        }
        var writer = JSONWriter()
        writer.value(ArenaConfigurationCodec.encode(configuration))
        do {
            try store.saveArenaConfiguration(writer.bytes)
        } catch {
            throw Problem.unavailable("storage: \(error.message)")
        }
        prober.apply(configuration)
        rescheduleRounds()
        return configuration
    }

    // MARK: Rounds

    /// Why a round did not start.
    public enum RoundRefusal: Error {
        /// One is running (the seed's running flag).
        case running
        case noNodes
        /// The staged scene broke a limit (for example thousands of nodes with a long stagger).
        case invalid(String)
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
        var states: [String: [(time: Double, state: String)]] = [:]
        for event in timeline.events {
            if case .stateChanged(let layer, let name) = event.kind {
                states[layer, default: []].append((event.time, name))
            }
        }
        let started = state.withLock { state -> Round? in
            if let current = state.current, now - current.started < current.duration { return nil }
            state.rounds += 1
            let round = Round(
                id: state.rounds, started: now, order: ArenaRound.order(standings).map(\.name),
                champion: ArenaRound.champion(standings)?.name, scene: writer.bytes, timeline: timeline, parsed: scene,
                states: states)
            state.current = round
            return round
        }
        guard let round = started else { return .failure(.running) }
        announce(round)
        return .success(round)
    }

    /// Sends the round's events to the subscribers at the moments they happen.
    private func announce(_ round: Round) {
        var writer = JSONWriter()
        writer.value(["round": .number(Double(round.id)), "phase": "started", "time": .number(round.started)])
        broadcast(event: "round", data: writer.bytes)
        let events = round.timeline.events
        var index = 0
        while index < events.count {
            let time = events[index].time
            var batch: [Event] = []
            while index < events.count && events[index].time == time {
                batch.append(events[index])
                index += 1
            }
            let roundID = round.id
            let happened = batch
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + time) { [weak self] in
                var writer = JSONWriter()
                writer.raw("{\"round\":")
                writer.integer(Int64(roundID))
                writer.raw(",\"events\":")
                ResponseEncoder.writeEvents(happened, into: &writer)
                writer.raw("}")
                self?.broadcast(event: "round", data: writer.bytes)
            }
        }
    }

    public var currentRound: Round? { state.withLock { $0.current } }

    // MARK: Status

    /// `GET /v1/arena`: every node's health and visual state, and the round.
    public func status(now: Double = Date().timeIntervalSince1970) -> [UInt8] {
        let health = prober.snapshot()
        let round = currentRound
        var frame: JSONObject?
        var elapsed = 0.0
        if let round {
            elapsed = min(max(now - round.started, 0), round.duration)
            var query = SamplingQuery()
            query.times = [SceneTime.quantize(elapsed)]
            query.properties = ["opacity", "transform", "borderColor", "backgroundColor"]
            if let plan = try? RenderPlan.make(timeline: round.timeline, query: query),
                case .object(let response)? = try? JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
                case .array(let frames)? = response["frames"], case .object(let first)? = frames.first,
                case .object(let layers)? = first["layers"]
            {
                frame = layers
            }
        }
        var nodes: [JSONValue] = []
        for node in health {
            var visual: [(String, JSONValue)] = [("state", .string(visualState(node, round: round, at: elapsed)))]
            visual.append(("presentation", frame?[node.name] ?? .null))
            nodes.append(
                .object(
                    JSONObject([
                        ("name", .string(node.name)), ("ip", .string(node.ip)), ("url", .string(node.url)),
                        ("status", .string(node.status.rawValue)), ("latencyMs", Self.number(node.lastLatencyMs)),
                        ("medianLatencyMs", Self.number(node.medianLatencyMs)),
                        ("httpStatus", Self.number(node.lastHTTPStatus.map(Double.init))),
                        ("reason", node.lastReason.map { .string($0) } ?? .null),
                        ("checked", Self.number(node.lastChecked)), ("uptime", Self.number(node.uptimeRatio)),
                        ("probes", .number(Double(node.probes))), ("visual", .object(JSONObject(visual))),
                    ])))
        }
        var roundJSON: JSONValue = .null
        if let round {
            roundJSON = [
                "id": .number(Double(round.id)), "started": .number(round.started),
                "phase": .string(now - round.started < round.duration ? "running" : "finished"),
                "elapsed": .number(SceneTime.quantize(elapsed)), "duration": .number(round.duration),
                "order": .array(round.order.map { .string($0) }),
                "champion": round.champion.map { .string($0) } ?? .null,
            ]
        }
        var writer = JSONWriter()
        writer.value(["nodes": .array(nodes), "round": roundJSON])
        return writer.bytes
    }

    /// The node's arena state: the last state its round gave it by now, else from its health.
    func visualState(_ node: NodeHealth, round: Round?, at elapsed: Double) -> String {
        if let round, let last = round.states[node.name]?.last(where: { $0.time <= elapsed }) {
            return last.state
        }
        return node.status == .down ? "offline" : "idle"
    }

    static func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }

    /// `GET /v1/arena?format=text`: a compact table for terminals.
    public func statusText(now: Double = Date().timeIntervalSince1970) -> String {
        let health = prober.snapshot()
        let round = currentRound
        let elapsed = round.map { min(max(now - $0.started, 0), $0.duration) } ?? 0
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        let nameWidth = max(18, (health.map(\.name.count).max() ?? 0) + 2)
        var lines = [
            pad("NODE", nameWidth) + pad("STATUS", 10) + pad("LATENCY", 9) + pad("MEDIAN", 9) + pad("HTTP", 6)
                + pad("UPTIME", 8) + pad("STATE", 10) + "REASON"
        ]
        for node in health {
            let latency = node.lastLatencyMs.map { "\(Int($0.rounded())) ms" } ?? "-"
            let median = node.medianLatencyMs.map { "\(Int($0.rounded())) ms" } ?? "-"
            let uptime = node.uptimeRatio.map { String(format: "%.1f%%", $0 * 100) } ?? "-"
            lines.append(
                pad(node.name, nameWidth) + pad(node.status.rawValue, 10) + pad(latency, 9) + pad(median, 9)
                    + pad(node.lastHTTPStatus.map(String.init) ?? "-", 6) + pad(uptime, 8)
                    + pad(visualState(node, round: round, at: elapsed), 10) + (node.lastReason ?? "-"))
        }
        if let round {
            let phase = now - round.started < round.duration ? "running" : "finished"
            lines.append(
                "round \(round.id) \(phase) \(String(format: "%.1f", elapsed)) s of \(String(format: "%.1f", round.duration)) s, "
                    + (round.champion.map { "champion \($0)" } ?? "no champion"))
        } else {
            lines.append("no round yet")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Metrics

    /// The arena's Prometheus lines for `/metrics`.
    public func metricsText(now: Double = Date().timeIntervalSince1970) -> String {
        func label(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
        let health = prober.snapshot()
        let (counts, durations) = prober.counters()
        var lines: [String] = []
        lines.append("# HELP choreo_arena_node_up Whether the node is up (1) or not (0).")
        lines.append("# TYPE choreo_arena_node_up gauge")
        for node in health {
            lines.append("choreo_arena_node_up{node=\"\(label(node.name))\"} \(node.status == .up ? 1 : 0)")
        }
        lines.append("# HELP choreo_arena_node_status The node's status: 1 up, 0 down, 2 pending, 4 degraded.")
        lines.append("# TYPE choreo_arena_node_status gauge")
        for node in health {
            let value =
                switch node.status {
                case .up: 1
                case .down: 0
                case .pending: 2
                case .degraded: 4
                }
            lines.append("choreo_arena_node_status{node=\"\(label(node.name))\"} \(value)")
        }
        lines.append("# HELP choreo_arena_probe_duration_seconds Time each health probe took.")
        lines.append("# TYPE choreo_arena_probe_duration_seconds histogram")
        for (index, bound) in DurationHistogram.bounds.enumerated() {
            lines.append("choreo_arena_probe_duration_seconds_bucket{le=\"\(bound)\"} \(durations.buckets[index])")
        }
        lines.append("choreo_arena_probe_duration_seconds_bucket{le=\"+Inf\"} \(durations.count)")
        lines.append("choreo_arena_probe_duration_seconds_sum \(durations.sum)")
        lines.append("choreo_arena_probe_duration_seconds_count \(durations.count)")
        lines.append("# HELP choreo_arena_probes_total Probes by node and result.")
        lines.append("# TYPE choreo_arena_probes_total counter")
        for node in health {
            for kind in [ProbeVerdict.Kind.up, .degraded, .failed] {
                let count = counts[node.name]?[kind] ?? 0
                lines.append(
                    "choreo_arena_probes_total{node=\"\(label(node.name))\",result=\"\(kind.rawValue)\"} \(count)")
            }
        }
        let (rounds, current) = state.withLock { ($0.rounds, $0.current) }
        let running = current.map { now - $0.started < $0.duration } ?? false
        lines.append("# HELP choreo_arena_rounds_total Rounds started.")
        lines.append("# TYPE choreo_arena_rounds_total counter")
        lines.append("choreo_arena_rounds_total \(rounds)")
        lines.append("# HELP choreo_arena_round_running Whether a round is running.")
        lines.append("# TYPE choreo_arena_round_running gauge")
        lines.append("choreo_arena_round_running \(running ? 1 : 0)")
        lines.append("# HELP choreo_arena_round_elapsed_seconds Seconds into the current (or last) round.")
        lines.append("# TYPE choreo_arena_round_elapsed_seconds gauge")
        lines.append(
            "choreo_arena_round_elapsed_seconds \(current.map { min(max(now - $0.started, 0), $0.duration) } ?? 0)")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Server-Sent Events

    /// One `GET /v1/arena/events` client.
    final class Subscriber: @unchecked Sendable {
        let queue = Mutex<[UInt8]>([])
        let signal = DispatchSemaphore(value: 0)
        let lastRead = Mutex(DispatchTime.now().uptimeNanoseconds)
    }

    private func broadcast(event: String, data: [UInt8]) {
        let message = Array("event: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
        let now = DispatchTime.now().uptimeNanoseconds
        let subscribers = state.withLock { state -> [Subscriber] in
            // A client that stopped reading for a minute has gone away.
            state.subscribers.removeAll { now - $0.lastRead.withLock { $0 } > 60_000_000_000 }
            return state.subscribers
        }
        for subscriber in subscribers {
            subscriber.queue.withLock { $0 += message }
            subscriber.signal.signal()
        }
    }

    /// Ends every event stream (the server is stopping: they would otherwise hold it open).
    public func closeStreams() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.closing = true
            defer { state.subscribers = [] }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.signal.signal() }
    }

    /// A stream of events: health changes and round events as they happen, a comment every
    /// 15 s to keep the connection open. Nil when there are too many subscribers.
    public func subscribe() -> BodyStream? {
        let subscriber = Subscriber()
        let accepted = state.withLock { state -> Bool in
            guard !state.closing, state.subscribers.count < Self.maxSubscribers else { return false }
            state.subscribers.append(subscriber)
            return true
        }
        guard accepted else { return nil }
        var first = true
        return BodyStream {
            if first {
                first = false
                return Array(": choreo arena events\n\n".utf8)
            }
            subscriber.lastRead.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            _ = subscriber.signal.wait(timeout: .now() + 15)
            subscriber.lastRead.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            if self.state.withLock({ $0.closing }) { return nil }
            let pending = subscriber.queue.withLock { queue -> [UInt8] in
                defer { queue = [] }
                return queue
            }
            return pending.isEmpty ? Array(": keep-alive\n\n".utf8) : pending
        }
    }
}
