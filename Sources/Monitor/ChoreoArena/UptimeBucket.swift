/// A node's probes summed over a minute, an hour or a day (docs/arena.md): what is kept of its
/// history once the raw probes are gone, so that a year of history for a thousand nodes stays
/// small. Sums only, so buckets add up: a window's uptime is the sum of its buckets'.
///
/// Count-weighted figures count each probe in the bucket of its time; time-weighted ones give
/// each probe's verdict the time until the next probe (split across bucket boundaries), as
/// ``NodeUptime`` does with raw probes. Probes made in maintenance are counted apart.
public struct UptimeBucket: Sendable, Equatable {
    /// The three resolutions, in milliseconds.
    public static let minute: Int64 = 60_000
    public static let hour: Int64 = 3_600_000
    public static let day: Int64 = 86_400_000
    public static let resolutions = [minute, hour, day]

    /// Upper bounds of the response-time histogram, milliseconds (the last bucket is above 10 s).
    public static let latencyBounds: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000]

    public let node: String
    public let resolution: Int64
    /// Unix milliseconds, a multiple of `resolution` (days begin at 00:00 UTC).
    public let startMs: Int64
    /// Probes outside maintenance, and those that answered.
    public var total = 0
    public var up = 0
    /// Probes made in maintenance, and those of them that answered.
    public var excluded = 0
    public var excludedUp = 0
    /// Time up, time covered (outside maintenance) and time in maintenance, milliseconds.
    public var upMs: Int64 = 0
    public var coveredMs: Int64 = 0
    public var excludedMs: Int64 = 0
    /// Time up in maintenance, milliseconds.
    public var excludedUpMs: Int64 = 0
    /// Response times of the answers in maintenance: count and sum (microseconds).
    public var excludedLatencyCount = 0
    public var excludedLatencySumMicroseconds: Int64 = 0
    /// Response times of the probes that answered: count, sum (microseconds), histogram
    /// (``latencyBounds`` and one more above them).
    public var latencyCount = 0
    public var latencySumMicroseconds: Int64 = 0
    public var histogram = [Int](repeating: 0, count: latencyBounds.count + 1)

    public init(node: String, resolution: Int64, startMs: Int64) {
        self.node = node
        self.resolution = resolution
        self.startMs = startMs
    }

    public var endMs: Int64 { startMs + resolution }

    /// Adds another bucket's sums.
    public mutating func add(_ other: UptimeBucket) {
        total += other.total
        up += other.up
        excluded += other.excluded
        upMs += other.upMs
        coveredMs += other.coveredMs
        excludedMs += other.excludedMs
        excludedUp += other.excludedUp
        excludedUpMs += other.excludedUpMs
        excludedLatencyCount += other.excludedLatencyCount
        excludedLatencySumMicroseconds += other.excludedLatencySumMicroseconds
        latencyCount += other.latencyCount
        latencySumMicroseconds += other.latencySumMicroseconds
        for index in histogram.indices { histogram[index] += other.histogram[index] }
    }

    /// The start of the bucket of `ms` at `resolution`.
    public static func start(of ms: Int64, resolution: Int64) -> Int64 {
        let remainder = ms % resolution
        return ms - (remainder < 0 ? remainder + resolution : remainder)
    }

    /// What new probes add to the buckets of every resolution, given the node's probe before
    /// them (whose verdict holds until the first of them); each probe's own time runs until the
    /// next one, so the last one's is added with the probe after it.
    public static func deltas(node: String, probes: [NodeUptime.Probe], previous: NodeUptime.Probe?) -> [UptimeBucket] {
        var buckets: [Key: UptimeBucket] = [:]
        func bucket(_ resolution: Int64, _ ms: Int64, _ change: (inout UptimeBucket) -> Void) {
            let key = Key(resolution: resolution, startMs: start(of: ms, resolution: resolution))
            var value = buckets[key] ?? UptimeBucket(node: node, resolution: resolution, startMs: key.startMs)
            change(&value)
            buckets[key] = value
        }
        var before = previous
        for probe in probes {
            // The previous verdict from its time to this probe's, split at every boundary.
            if let held = before, probe.timeMs > held.timeMs {
                for resolution in resolutions {
                    var from = held.timeMs
                    while from < probe.timeMs {
                        let to = min(start(of: from, resolution: resolution) + resolution, probe.timeMs)
                        bucket(resolution, from) { value in
                            if held.excluded {
                                value.excludedMs += to - from
                                if held.up { value.excludedUpMs += to - from }
                            } else {
                                value.coveredMs += to - from
                                if held.up { value.upMs += to - from }
                            }
                        }
                        from = to
                    }
                }
            }
            for resolution in resolutions {
                bucket(resolution, probe.timeMs) { value in
                    if probe.excluded {
                        value.excluded += 1
                        if probe.up {
                            value.excludedUp += 1
                            value.excludedLatencyCount += 1
                            value.excludedLatencySumMicroseconds += probe.latencyMicroseconds
                        }
                        return
                    }
                    value.total += 1
                    guard probe.up else { return }
                    value.up += 1
                    value.latencyCount += 1
                    value.latencySumMicroseconds += probe.latencyMicroseconds
                    let ms = Double(probe.latencyMicroseconds) / 1000
                    value.histogram[latencyBounds.firstIndex { ms <= $0 } ?? latencyBounds.count] += 1
                }
            }
            before = probe
        }
        return buckets.values.sorted { ($0.resolution, $0.startMs) < ($1.resolution, $1.startMs) }
    }

    struct Key: Hashable {
        let resolution: Int64
        let startMs: Int64
    }

    /// The response time below which `fraction` of the answered probes fall, milliseconds,
    /// interpolated within its histogram bucket (as Prometheus's `histogram_quantile`); nil
    /// without answers.
    public func latencyPercentile(_ fraction: Double) -> Double? {
        let count = histogram.reduce(0, +)
        guard count > 0 else { return nil }
        let rank = fraction * Double(count)
        var seen = 0
        for (index, inBucket) in histogram.enumerated() {
            if inBucket > 0 && Double(seen + inBucket) >= rank {
                let lower = index == 0 ? 0 : Self.latencyBounds[index - 1]
                guard index < Self.latencyBounds.count else { return lower }
                let upper = Self.latencyBounds[index]
                return lower + (upper - lower) * max(0, rank - Double(seen)) / Double(inBucket)
            }
            seen += inBucket
        }
        return Self.latencyBounds.last
    }

    /// The buckets that cover [`fromMs`, `toMs`) without overlap, finest first: minutes back
    /// from `toMs` while minute buckets are kept, then whole hours, then whole days (coarser
    /// buckets take over at a boundary of theirs, so that no probe is counted twice). A bucket
    /// that begins before `fromMs` or ends after `toMs` is left out: a window's edges are
    /// counted to the resolution that covers them.
    public static func cover(_ buckets: [UptimeBucket], fromMs: Int64, toMs: Int64) -> [UptimeBucket] {
        var end = toMs
        var chosen: [UptimeBucket] = []
        for (index, resolution) in resolutions.enumerated() {
            let available = buckets.filter { $0.resolution == resolution && $0.startMs >= fromMs && $0.endMs <= end }
            guard let oldest = available.map(\.startMs).min() else { continue }
            var boundary = oldest
            if index + 1 < resolutions.count {
                let coarser = resolutions[index + 1]
                let handOver = start(of: oldest + coarser - 1, resolution: coarser)
                let coarserBefore = buckets.contains {
                    $0.resolution == coarser && $0.startMs >= fromMs && $0.startMs < handOver && $0.endMs <= end
                }
                if coarserBefore { boundary = min(handOver, end) }
            }
            chosen += available.filter { $0.startMs >= boundary }
            end = boundary
        }
        return chosen
    }

    /// The same sums with the probes made in maintenance counted as any others (their response
    /// times in the count and sum; the histogram keeps to answers outside maintenance).
    public var includingMaintenance: UptimeBucket {
        var bucket = self
        bucket.total += excluded
        bucket.up += excludedUp
        bucket.coveredMs += excludedMs
        bucket.upMs += excludedUpMs
        bucket.latencyCount += excludedLatencyCount
        bucket.latencySumMicroseconds += excludedLatencySumMicroseconds
        bucket.excluded = 0
        bucket.excludedUp = 0
        bucket.excludedMs = 0
        bucket.excludedUpMs = 0
        bucket.excludedLatencyCount = 0
        bucket.excludedLatencySumMicroseconds = 0
        return bucket
    }
}
