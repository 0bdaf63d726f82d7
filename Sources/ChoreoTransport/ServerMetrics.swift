import Synchronization

/// Prometheus counters and gauges for `GET /metrics` (text exposition format 0.0.4).
///
/// Lock-free: every series is an atomic counter created up front (routes × statuses), so the
/// I/O threads never contend on a lock to count a request.
public final class Metrics: Sendable {
    /// Upper bounds of the request duration histogram, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// The statuses choreo answers with; anything else is counted as "other".
    static let statuses = [200, 201, 204, 400, 401, 404, 405, 408, 409, 412, 413, 414, 415, 422, 431, 499, 500, 503]

    /// An atomic counter (Atomic is not copyable, so each lives in its own object).
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
        var current: Int { value.load(ordering: .relaxed) }
    }

    private let routes: [String]
    /// requests[route][status index]; the last status slot counts "other".
    private let requests: [String: [Counter]]
    private let histogram = Metrics.buckets.map { _ in Counter() }
    private let durationNanoseconds = Counter()
    private let durationCount = Counter()
    private let frames = Counter()
    private let samples = Counter()
    private let inFlightCount = Counter()
    private let rendersRunningCount = Counter()
    private let rendersWaitingCount = Counter()
    private let rendersRefusedCount = Counter()

    /// - Parameter routes: every route name that can be counted (others count as `unmatched`).
    public init(routes: [String]) {
        self.routes = Set(routes + ["unmatched"]).sorted()
        var requests: [String: [Counter]] = [:]
        for route in self.routes { requests[route] = (0...Metrics.statuses.count).map { _ in Counter() } }
        self.requests = requests
    }

    /// The render executor's state: a request offered (counted as waiting), started, finished,
    /// or refused after all (no longer waiting).
    public func renderAdmitted() { rendersWaitingCount.add(1) }
    public func renderStarted() {
        rendersWaitingCount.add(-1)
        rendersRunningCount.add(1)
    }
    public func renderFinished() { rendersRunningCount.add(-1) }
    public func renderRefused() {
        rendersWaitingCount.add(-1)
        rendersRefusedCount.add(1)
    }

    /// Marks a request as started; balance with ``requestFinished(route:status:seconds:)``.
    public func requestStarted() { inFlightCount.add(1) }

    public func requestFinished(route: String, status: Int, seconds: Double) {
        inFlightCount.add(-1)
        let slots = requests[route] ?? requests["unmatched"]!
        slots[Metrics.statuses.firstIndex(of: status) ?? Metrics.statuses.count].add(1)
        durationNanoseconds.add(Int(seconds * 1e9))
        durationCount.add(1)
        if let bucket = Metrics.buckets.firstIndex(where: { seconds <= $0 }) { histogram[bucket].add(1) }
    }

    /// Counts frames and property samples produced by renders.
    public func produced(frames: Int, samples: Int) {
        self.frames.add(frames)
        self.samples.add(samples)
    }

    public var inFlight: Int { inFlightCount.current }

    /// The exposition text.
    public func render() -> String {
        var lines: [String] = []
        lines.append("# HELP choreo_http_requests_total HTTP requests by route and status.")
        lines.append("# TYPE choreo_http_requests_total counter")
        for route in routes {
            for (index, counter) in requests[route]!.enumerated() where counter.current > 0 {
                let status = index < Metrics.statuses.count ? String(Metrics.statuses[index]) : "other"
                lines.append("choreo_http_requests_total{route=\"\(route)\",status=\"\(status)\"} \(counter.current)")
            }
        }
        lines.append(
            "# HELP choreo_http_request_duration_seconds Time from the first byte read to the response queued.")
        lines.append("# TYPE choreo_http_request_duration_seconds histogram")
        var cumulative = 0
        for (index, bound) in Metrics.buckets.enumerated() {
            cumulative += histogram[index].current
            lines.append("choreo_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)")
        }
        lines.append("choreo_http_request_duration_seconds_bucket{le=\"+Inf\"} \(durationCount.current)")
        lines.append("choreo_http_request_duration_seconds_sum \(Double(durationNanoseconds.current) / 1e9)")
        lines.append("choreo_http_request_duration_seconds_count \(durationCount.current)")
        lines.append("# HELP choreo_frames_total Frames produced by renders.")
        lines.append("# TYPE choreo_frames_total counter")
        lines.append("choreo_frames_total \(frames.current)")
        lines.append("# HELP choreo_samples_total Property samples produced by renders.")
        lines.append("# TYPE choreo_samples_total counter")
        lines.append("choreo_samples_total \(samples.current)")
        lines.append("# HELP choreo_http_requests_in_flight Requests being handled now.")
        lines.append("# TYPE choreo_http_requests_in_flight gauge")
        lines.append("choreo_http_requests_in_flight \(inFlight)")
        lines.append("# HELP choreo_renders_running Requests that run a scene, running on the render executor.")
        lines.append("# TYPE choreo_renders_running gauge")
        lines.append("choreo_renders_running \(rendersRunningCount.current)")
        lines.append(
            "# HELP choreo_renders_waiting Requests that run a scene, admitted and waiting for a render worker.")
        lines.append("# TYPE choreo_renders_waiting gauge")
        lines.append("choreo_renders_waiting \(rendersWaitingCount.current)")
        lines.append("# HELP choreo_renders_refused_total Requests that run a scene refused with 503 (queue full).")
        lines.append("# TYPE choreo_renders_refused_total counter")
        lines.append("choreo_renders_refused_total \(rendersRefusedCount.current)")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Metrics {
    /// `GET /metrics`'s text: the server's counters, the bytes the JSON renders in flight hold,
    /// the process's figures and then `appending` (the monitor's lines).
    public func exposition(renderMemoryInUse: Int, appending: String = "") -> String {
        let memory = """
            # HELP choreo_render_memory_bytes Bytes the JSON render responses in flight hold (limit: --max-render-memory).
            # TYPE choreo_render_memory_bytes gauge
            choreo_render_memory_bytes \(renderMemoryInUse)

            """
        return render() + memory + ProcessMetrics.render() + appending
    }
}
