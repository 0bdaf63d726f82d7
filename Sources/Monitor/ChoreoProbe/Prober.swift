import ChoreoArena
import Foundation
import Synchronization

/// The arena's health prober: probes every configured node over HTTP, judges each answer and
/// keeps each node's health with hysteresis. Thread-safe; read it with ``snapshot()``.
public final class Prober: Sendable {
    /// A node's status changed.
    public struct Change: Sendable, Equatable {
        public let node: String
        public let from: ArenaStanding.Status
        public let to: ArenaStanding.Status
        public let reason: String?
        /// Unix time.
        public let time: Double
    }

    /// One probe as recorded in the history.
    public struct Record: Sendable, Equatable {
        public let node: String
        public let url: String
        public let time: Double
        public let verdict: ProbeVerdict
        public let httpStatus: Int?
        public let latencyMs: Double

        public init(node: String, url: String, time: Double, verdict: ProbeVerdict, httpStatus: Int?, latencyMs: Double)
        {
            self.node = node
            self.url = url
            self.time = time
            self.verdict = verdict
            self.httpStatus = httpStatus
            self.latencyMs = latencyMs
        }
    }

    private struct State {
        var configuration: ArenaConfiguration
        var health: [NodeHealth]
        /// Probes by node and verdict, for `choreo_arena_probes_total`.
        var counts: [String: [ProbeVerdict.Kind: Int]] = [:]
        /// Probe durations in seconds by node, for the histogram.
        var durations: [String: DurationHistogram] = [:]
        /// Targets are numbered per configuration, so a late result of a replaced one is ignored.
        var epoch = 0
    }

    private let state: Mutex<State>
    /// Whether probing was started, and its client once there is a node to probe: libcurl is
    /// loaded with the first node (``SharedLibrary``), so a server with no arena never maps it.
    private struct Probing {
        var started = false
        var client: CurlProbeClient?
    }
    private let probing = Mutex(Probing())
    private let onChange: @Sendable (Change) -> Void
    private let onRecord: @Sendable (Record) -> Void

    /// `onChange` and `onRecord` run on the probe thread.
    public init(
        configuration: ArenaConfiguration, restoring previous: [NodeHealth] = [],
        onChange: @escaping @Sendable (Change) -> Void = { _ in },
        onRecord: @escaping @Sendable (Record) -> Void = { _ in }
    ) {
        let health = configuration.nodes.map { node in
            previous.first { $0.name == node.name && $0.url == node.url }
                ?? NodeHealth(
                    name: node.name, ip: node.ip, url: node.url)
        }
        state = Mutex(State(configuration: configuration, health: health))
        self.onChange = onChange
        self.onRecord = onRecord
    }

    public func start() {
        let first = probing.withLock { probing in
            defer { probing.started = true }
            return !probing.started
        }
        if first { retarget() }
    }

    public func stop() {
        let client = probing.withLock { probing -> CurlProbeClient? in
            defer { probing = Probing() }
            return probing.client
        }
        client?.stop()
    }

    /// Applies a new configuration; nodes keep their health when their name and URL stay.
    public func apply(_ configuration: ArenaConfiguration) {
        state.withLock { state in
            let previous = state.health
            state.health = configuration.nodes.map { node in
                previous.first { $0.name == node.name && $0.url == node.url }
                    ?? NodeHealth(
                        name: node.name, ip: node.ip, url: node.url)
            }
            state.configuration = configuration
            state.epoch += 1
        }
        retarget()
    }

    private func retarget() {
        let (targets, probe) = state.withLock { state in
            (
                state.configuration.nodes.enumerated().map {
                    CurlProbeClient.Target(id: state.epoch * 1_000_000 + $0.offset, url: $0.element.url)
                }, state.configuration.probe
            )
        }
        let (client, created) = probing.withLock { probing -> (CurlProbeClient?, Bool) in
            guard probing.started else { return (nil, false) }
            if probing.client == nil && !targets.isEmpty {
                probing.client = CurlProbeClient { [weak self] target, result in self?.receive(target, result) }
                return (probing.client, true)
            }
            return (probing.client, false)
        }
        client?.configure(targets: targets, interval: probe.interval, timeout: probe.timeout)
        if created { client?.start() }
    }

    private func receive(_ target: Int, _ result: ProbeResult) {
        let now = Date().timeIntervalSince1970
        let outcome = state.withLock { state -> (Change?, Record)? in
            guard target / 1_000_000 == state.epoch else { return nil }
            let index = target % 1_000_000
            guard index < state.health.count else { return nil }
            let probe = state.configuration.probe
            let verdict = ProbeVerdict.judge(result, probe)
            let before = state.health[index].status
            let changed = state.health[index].record(verdict, result, at: now, probe: probe)
            let name = state.health[index].name
            state.counts[name, default: [:]][verdict.kind, default: 0] += 1
            state.durations[name, default: DurationHistogram()].observe(result.latencyMs / 1000)
            let change =
                changed
                ? Change(node: name, from: before, to: state.health[index].status, reason: verdict.reason, time: now)
                : nil
            let record = Record(
                node: name, url: state.health[index].url, time: now, verdict: verdict,
                httpStatus: result.status > 0 ? result.status : nil,
                latencyMs: result.latencyMs)
            return (change, record)
        }
        guard let (change, record) = outcome else { return }
        onRecord(record)
        if let change { onChange(change) }
    }

    /// Records a probe another replica made (the leader's, read from shared storage), as if
    /// this prober had made it: the same health, hysteresis, counters and change callback
    /// (the record callback is not called: the probe is stored already). Ignored when the node
    /// or its URL is no longer configured.
    public func replay(_ record: Record) {
        let change = state.withLock { state -> Change? in
            guard let index = state.health.firstIndex(where: { $0.name == record.node && $0.url == record.url }) else {
                return nil
            }
            let probe = state.configuration.probe
            let before = state.health[index].status
            let result = ProbeResult(status: record.httpStatus ?? 0, latencyMs: record.latencyMs)
            let changed = state.health[index].record(record.verdict, result, at: record.time, probe: probe)
            state.counts[record.node, default: [:]][record.verdict.kind, default: 0] += 1
            state.durations[record.node, default: DurationHistogram()].observe(record.latencyMs / 1000)
            return changed
                ? Change(
                    node: record.node, from: before, to: state.health[index].status, reason: record.verdict.reason,
                    time: record.time) : nil
        }
        if let change { onChange(change) }
    }

    /// Whether this prober is probing (between ``start()`` and ``stop()``).
    public var isRunning: Bool { probing.withLock { $0.started } }

    public var configuration: ArenaConfiguration { state.withLock { $0.configuration } }

    /// Every node's health, in configured order.
    public func snapshot() -> [NodeHealth] { state.withLock { $0.health } }

    /// Probes so far by node and verdict, and each node's duration histogram.
    public func counters() -> (counts: [String: [ProbeVerdict.Kind: Int]], durations: [String: DurationHistogram]) {
        state.withLock { ($0.counts, $0.durations) }
    }
}

/// A Prometheus histogram of probe durations in seconds.
public struct DurationHistogram: Sendable, Equatable {
    public static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    public private(set) var buckets = [Int](repeating: 0, count: bounds.count)
    public private(set) var count = 0
    public private(set) var sum = 0.0

    public init() {}

    mutating func observe(_ seconds: Double) {
        for (index, bound) in Self.bounds.enumerated() where seconds <= bound { buckets[index] += 1 }
        count += 1
        sum += seconds
    }
}
