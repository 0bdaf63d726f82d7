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

    /// The uptime over [`fromMs`, `toMs`) of `probes` (in time order). A probe before the
    /// window carries its verdict into the window until the next probe.
    public init(probes: [Probe], fromMs: Int64, toMs: Int64) {
        self.fromMs = fromMs
        self.toMs = toMs
        let window = probes.filter { $0.timeMs >= fromMs && $0.timeMs < toMs }
        excludedProbes = window.filter(\.excluded).count
        let inside = window.filter { !$0.excluded }
        total = inside.count
        up = inside.filter(\.up).count
        ratio = total == 0 ? nil : Double(up) / Double(total)
        let answered = inside.filter(\.up)
        meanLatencyMicroseconds =
            answered.isEmpty
            ? nil : Double(answered.reduce(Int64(0)) { $0 + $1.latencyMicroseconds }) / Double(answered.count)
        // Each probe's verdict from its time to the next probe's (the last: to the window's end).
        var covered: Int64 = 0
        var upTime: Int64 = 0
        var excludedTime: Int64 = 0
        for (index, probe) in probes.enumerated() {
            let start = max(probe.timeMs, fromMs)
            let next = index + 1 < probes.count ? probes[index + 1].timeMs : toMs
            let end = min(next, toMs)
            guard end > start else { continue }
            if probe.excluded {
                excludedTime += end - start
                continue
            }
            covered += end - start
            if probe.up { upTime += end - start }
        }
        excludedMilliseconds = excludedTime
        timeWeighted = covered == 0 ? nil : Double(upTime) / Double(covered)
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
