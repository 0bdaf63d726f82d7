import Synchronization

/// Prometheus counters and gauges for `GET /metrics` (text exposition format 0.0.4).
public final class Metrics: Sendable {
    /// Upper bounds of the request duration histogram, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requests: [String: Int] = [:]  // "route|status" → count
        var histogram = [Int](repeating: 0, count: Metrics.buckets.count)
        var durationSum = 0.0
        var durationCount = 0
        var frames = 0
        var samples = 0
    }

    private let state = Mutex(State())
    private let inFlightCount = Atomic<Int>(0)

    public init() {}

    /// Marks a request as started; balance with ``requestFinished(route:status:seconds:)``.
    public func requestStarted() { inFlightCount.add(1, ordering: .relaxed) }

    public func requestFinished(route: String, status: Int, seconds: Double) {
        inFlightCount.subtract(1, ordering: .relaxed)
        state.withLock { state in
            state.requests["\(route)|\(status)", default: 0] += 1
            state.durationSum += seconds
            state.durationCount += 1
            if let bucket = Metrics.buckets.firstIndex(where: { seconds <= $0 }) { state.histogram[bucket] += 1 }
        }
    }

    /// Counts frames and property samples produced by renders.
    public func produced(frames: Int, samples: Int) {
        state.withLock { state in
            state.frames += frames
            state.samples += samples
        }
    }

    public var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

    /// The exposition text.
    public func render() -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP choreo_http_requests_total HTTP requests by route and status.")
        lines.append("# TYPE choreo_http_requests_total counter")
        for key in snapshot.requests.keys.sorted() {
            let parts = key.split(separator: "|", maxSplits: 1)
            lines.append(
                "choreo_http_requests_total{route=\"\(parts[0])\",status=\"\(parts[1])\"} \(snapshot.requests[key]!)")
        }
        lines.append(
            "# HELP choreo_http_request_duration_seconds Time from the first byte read to the response queued.")
        lines.append("# TYPE choreo_http_request_duration_seconds histogram")
        var cumulative = 0
        for (index, bound) in Metrics.buckets.enumerated() {
            cumulative += snapshot.histogram[index]
            lines.append("choreo_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)")
        }
        lines.append("choreo_http_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.durationCount)")
        lines.append("choreo_http_request_duration_seconds_sum \(snapshot.durationSum)")
        lines.append("choreo_http_request_duration_seconds_count \(snapshot.durationCount)")
        lines.append("# HELP choreo_frames_total Frames produced by renders.")
        lines.append("# TYPE choreo_frames_total counter")
        lines.append("choreo_frames_total \(snapshot.frames)")
        lines.append("# HELP choreo_samples_total Property samples produced by renders.")
        lines.append("# TYPE choreo_samples_total counter")
        lines.append("choreo_samples_total \(snapshot.samples)")
        lines.append("# HELP choreo_http_requests_in_flight Requests being handled now.")
        lines.append("# TYPE choreo_http_requests_in_flight gauge")
        lines.append("choreo_http_requests_in_flight \(inFlight)")
        return lines.joined(separator: "\n") + "\n"
    }
}
