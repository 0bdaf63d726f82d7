/// One node's health as the probes have found it, with hysteresis: `failureThreshold`
/// consecutive failures to go down, `successThreshold` consecutive answers to come back.
public struct NodeHealth: Sendable, Equatable {
    public let name: String
    public let ip: String
    public let url: String
    public private(set) var status: ArenaStanding.Status = .pending
    public private(set) var lastLatencyMs: Double?
    public private(set) var lastHTTPStatus: Int?
    /// Why the last probe failed or degraded the node (nil after a clean answer).
    public private(set) var lastReason: String?
    /// Unix time of the last completed probe.
    public private(set) var lastChecked: Double?
    public private(set) var probes = 0
    public private(set) var answered = 0
    public private(set) var consecutiveFailures = 0
    public private(set) var consecutiveAnswers = 0
    /// Latencies of the last answers, for the median.
    public private(set) var recentLatencies: [Double] = []
    /// Whether each of the last ``standingWindow`` probes answered, oldest first.
    public private(set) var recentAnswers: [Bool] = []

    /// Answers the median is taken over.
    public static let latencyWindow = 20
    /// Probes the standing's uptime is taken over, and answers its latency percentiles.
    public static let standingWindow = 100
    /// Latencies of the last ``standingWindow`` answers, for the standing's percentiles.
    public private(set) var standingLatencies: [Double] = []

    public init(name: String, ip: String, url: String) {
        self.name = name
        self.ip = ip
        self.url = url
    }

    /// Answered probes over all probes; nil before the first.
    public var uptimeRatio: Double? { probes == 0 ? nil : Double(answered) / Double(probes) }

    public var medianLatencyMs: Double? {
        guard !recentLatencies.isEmpty else { return nil }
        let sorted = recentLatencies.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Records a judged probe; returns whether the status changed.
    @discardableResult
    public mutating func record(
        _ verdict: ProbeVerdict, _ result: ProbeResult, at time: Double, probe: ArenaConfiguration.Probe
    ) -> Bool {
        let before = status
        probes += 1
        lastChecked = time
        lastReason = verdict.reason
        lastHTTPStatus = result.status > 0 ? result.status : nil
        recentAnswers.append(verdict.kind != .failed)
        if recentAnswers.count > Self.standingWindow { recentAnswers.removeFirst() }
        switch verdict.kind {
        case .failed:
            consecutiveFailures += 1
            consecutiveAnswers = 0
            if consecutiveFailures >= probe.failureThreshold { status = .down }
        case .up, .degraded:
            answered += 1
            consecutiveAnswers += 1
            consecutiveFailures = 0
            lastLatencyMs = result.latencyMs
            recentLatencies.append(result.latencyMs)
            if recentLatencies.count > Self.latencyWindow { recentLatencies.removeFirst() }
            standingLatencies.append(result.latencyMs)
            if standingLatencies.count > Self.standingWindow { standingLatencies.removeFirst() }
            let answer: ArenaStanding.Status = verdict.kind == .up ? .up : .degraded
            if status != .down || consecutiveAnswers >= probe.successThreshold { status = answer }
        }
        return status != before
    }

    /// The node as the arena ranks it: its uptime over its last ``standingWindow`` probes, and
    /// the median and 90th percentile of its last ``standingWindow`` answers' times.
    public var standing: ArenaStanding {
        let sorted = standingLatencies.sorted()
        func percentile(_ fraction: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            let rank = fraction * Double(sorted.count - 1)
            let low = Int(rank.rounded(.down))
            let high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }
        let uptime = recentAnswers.isEmpty ? nil : Double(recentAnswers.count { $0 }) / Double(recentAnswers.count)
        return ArenaStanding(
            name: name, ip: ip, status: status, latencyMs: percentile(0.5), uptime: uptime,
            latencyP90Ms: percentile(0.9))
    }
}
