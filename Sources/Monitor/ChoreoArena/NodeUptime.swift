/// A node's uptime over a window of time, from its recorded probes: count-weighted (the share of
/// probes that answered, as Gatus and Uptime Kuma compute it) and time-weighted (the share of the
/// window the node was up, as SLAs are written: each probe's verdict holds until the next
/// probe), with response times.
public struct NodeUptime: Sendable, Equatable {
    /// One recorded probe: when (Unix milliseconds), whether it answered, how fast.
    public struct Probe: Sendable, Equatable {
        public let timeMs: Int64
        public let up: Bool
        public let latencyMicroseconds: Int64
        /// Made during maintenance: left out of both ratios (and its time until the next probe).
        public let excluded: Bool

        public init(timeMs: Int64, up: Bool, latencyMicroseconds: Int64, excluded: Bool = false) {
            self.timeMs = timeMs
            self.up = up
            self.latencyMicroseconds = latencyMicroseconds
            self.excluded = excluded
        }
    }

    /// The window, Unix milliseconds, `from` included and `to` excluded.
    public let fromMs: Int64
    public let toMs: Int64
    public let total: Int
    public let up: Int
    /// up / total; nil without probes in the window.
    public let ratio: Double?
    /// The share of the window's covered time the node was up; nil when no probe covers any of
    /// it (time before the first probe in or before the window is not counted).
    public let timeWeighted: Double?
    /// Mean response time of the probes that answered, microseconds; nil without one.
    public let meanLatencyMicroseconds: Double?
    /// The window's time left out for maintenance, milliseconds, and its probes.
    public let excludedMilliseconds: Int64
    public let excludedProbes: Int

    /// Time up and time covered outside maintenance, milliseconds; answered probes and the sum of
    /// their response times (microseconds): the sums the ratios come from.
    public let upMilliseconds: Int64
    public let coveredMilliseconds: Int64
    public let answered: Int
    public let latencySumMicroseconds: Int64

    /// Time watched outside maintenance, milliseconds: the time-weighted ratio's denominator
    /// (from the first probe that covers the window to the latest, or to now).
    public var watchedMilliseconds: Int64 { coveredMilliseconds }

    /// The share of the window that was watched outside maintenance (0…1): a month not over yet,
    /// or watched from its middle, is less than 1.
    public var watchedShare: Double { toMs > fromMs ? Double(coveredMilliseconds) / Double(toMs - fromMs) : 0 }

    /// The uptime over [`fromMs`, `toMs`) of `probes` (in time order). A probe before the
    /// window carries its verdict into the window until the next probe; the latest one's holds
    /// until `nowMs` at most: time not come yet is not watched, up or down.
    public init(probes: [Probe], fromMs: Int64, toMs: Int64, nowMs: Int64 = .max) {
        let window = probes.filter { $0.timeMs >= fromMs && $0.timeMs < toMs }
        let inside = window.filter { !$0.excluded }
        let answered = inside.filter(\.up)
        // Each probe's verdict from its time to the next probe's (the last: to the window's end).
        var covered: Int64 = 0
        var upTime: Int64 = 0
        var excludedTime: Int64 = 0
        for (index, probe) in probes.enumerated() {
            let start = max(probe.timeMs, fromMs)
            let next = index + 1 < probes.count ? probes[index + 1].timeMs : toMs
            let end = min(next, toMs, nowMs)
            guard end > start else { continue }
            if probe.excluded {
                excludedTime += end - start
                continue
            }
            covered += end - start
            if probe.up { upTime += end - start }
        }
        self.init(
            fromMs: fromMs, toMs: toMs, total: inside.count, up: answered.count,
            excludedProbes: window.count - inside.count, upMilliseconds: upTime, coveredMilliseconds: covered,
            excludedMilliseconds: excludedTime, answered: answered.count,
            latencySumMicroseconds: answered.reduce(Int64(0)) { $0 + $1.latencyMicroseconds })
    }

    /// The uptime over [`fromMs`, `toMs`) from the raw probes kept (`probes`, in time order) and,
    /// for the time before them, the node's ``UptimeBucket``s: raw probes from the first minute
    /// boundary at or after the oldest of them (an hour's or a day's where minute buckets are no
    /// longer kept there), buckets before it (``UptimeBucket/cover``).
    ///
    /// With `includingMaintenance`, probes made in maintenance count as any others.
    public init(
        probes given: [Probe], buckets stored: [UptimeBucket], fromMs: Int64, toMs: Int64, nowMs: Int64 = .max,
        includingMaintenance: Bool = false
    ) {
        let probes =
            includingMaintenance
            ? given.map { Probe(timeMs: $0.timeMs, up: $0.up, latencyMicroseconds: $0.latencyMicroseconds) } : given
        let buckets = includingMaintenance ? stored.map(\.includingMaintenance) : stored
        // Raw probes count from the first boundary after the oldest of them at the finest
        // resolution whose bucket ends there (so the buckets before it are whole).
        var cut = toMs
        if let oldest = probes.first?.timeMs {
            let boundaries = UptimeBucket.resolutions.map {
                (UptimeBucket.start(of: oldest + $0 - 1, resolution: $0), $0)
            }
            cut =
                boundaries.first { boundary, resolution in
                    buckets.contains { $0.resolution == resolution && $0.startMs == boundary - resolution }
                }?.0 ?? boundaries[0].0
        }
        // A node whose whole history is still raw (no bucket holds a probe the raw ones lack).
        let complete =
            probes.first.map { oldest in
                UptimeBucket.resolutions.allSatisfy { resolution in
                    let first = UptimeBucket.start(of: oldest.timeMs, resolution: resolution)
                    let raw = probes.prefix { $0.timeMs < first + resolution }.count
                    return buckets.allSatisfy {
                        $0.resolution != resolution || $0.startMs > first
                            || ($0.startMs == first && $0.total + $0.excluded == raw)
                    }
                }
            } ?? false
        guard cut > fromMs, !buckets.isEmpty, !complete else {
            self.init(probes: probes, fromMs: fromMs, toMs: toMs, nowMs: nowMs)
            return
        }
        let raw = NodeUptime(probes: probes, fromMs: min(cut, toMs), toMs: toMs, nowMs: nowMs)
        var sum = UptimeBucket(node: "", resolution: 0, startMs: 0)
        for bucket in UptimeBucket.cover(buckets, fromMs: fromMs, toMs: min(cut, toMs)) { sum.add(bucket) }
        self.init(
            fromMs: fromMs, toMs: toMs, total: raw.total + sum.total, up: raw.up + sum.up,
            excludedProbes: raw.excludedProbes + sum.excluded, upMilliseconds: raw.upMilliseconds + sum.upMs,
            coveredMilliseconds: raw.coveredMilliseconds + sum.coveredMs,
            excludedMilliseconds: raw.excludedMilliseconds + sum.excludedMs, answered: raw.answered + sum.latencyCount,
            latencySumMicroseconds: raw.latencySumMicroseconds + sum.latencySumMicroseconds)
    }

    init(
        fromMs: Int64, toMs: Int64, total: Int, up: Int, excludedProbes: Int, upMilliseconds: Int64,
        coveredMilliseconds: Int64, excludedMilliseconds: Int64, answered: Int, latencySumMicroseconds: Int64
    ) {
        self.fromMs = fromMs
        self.toMs = toMs
        self.total = total
        self.up = up
        self.excludedProbes = excludedProbes
        self.upMilliseconds = upMilliseconds
        self.coveredMilliseconds = coveredMilliseconds
        self.excludedMilliseconds = excludedMilliseconds
        self.answered = answered
        self.latencySumMicroseconds = latencySumMicroseconds
        ratio = total == 0 ? nil : Double(up) / Double(total)
        timeWeighted = coveredMilliseconds == 0 ? nil : Double(upMilliseconds) / Double(coveredMilliseconds)
        meanLatencyMicroseconds = answered == 0 ? nil : Double(latencySumMicroseconds) / Double(answered)
    }

    /// A window's length from its name: `1h`, `24h`, `7d`, `30d`, `90d`, `1y` (365 days), in
    /// milliseconds; nil for another name.
    public static func windowMilliseconds(_ name: String) -> Int64? {
        switch name {
        case "1h": 3_600_000
        case "24h": 86_400_000
        case "7d": 7 * 86_400_000
        case "30d": 30 * 86_400_000
        case "90d": 90 * 86_400_000
        case "1y": 365 * 86_400_000
        default: nil
        }
    }

    public static let windowNames = ["1h", "24h", "7d", "30d", "90d", "1y"]
}
