import ChoreoArena
import ChoreoTestSupport
import Foundation
import Testing

/// Minute, hour and day buckets: what they sum equals what the raw probes give, exactly, for
/// any window on their boundaries, however many raw probes and buckets are left.
struct UptimeBucketTests {
    /// 2025-12-01T00:00:00Z.
    static let start: Int64 = 1_764_547_200_000

    /// Three days of probes about every 20 s: down in scripted spells, in maintenance for an
    /// hour, with varied response times.
    static func schedule() -> [NodeUptime.Probe] {
        var random = SplitMix64(seed: 42)
        var probes: [NodeUptime.Probe] = []
        var time = start + 7_000
        while time < start + 3 * UptimeBucket.day {
            let minuteOfDay = (time - start) % UptimeBucket.day / 60_000
            // Down 10:00–10:07 every day, and one probe in 13 at random.
            let down = (600..<607).contains(minuteOfDay) || random.below(13) == 0
            let maintenance = time >= start + 30 * UptimeBucket.hour && time < start + 31 * UptimeBucket.hour
            probes.append(
                NodeUptime.Probe(
                    timeMs: time, up: !down, latencyMicroseconds: Int64(random.next(500, 900_000)),
                    excluded: maintenance))
            time += 20_000 + Int64(random.below(3_000)) - 1_500
        }
        return probes
    }

    /// Buckets as the runtime writes them: a few probes at a time, summed per bucket.
    static func aggregate(_ probes: [NodeUptime.Probe]) -> [UptimeBucket] {
        var sums: [String: UptimeBucket] = [:]
        var previous: NodeUptime.Probe?
        var index = 0
        while index < probes.count {
            let batch = Array(probes[index..<min(index + 7, probes.count)])
            for bucket in UptimeBucket.deltas(node: "db", probes: batch, previous: previous) {
                let key = "\(bucket.resolution)/\(bucket.startMs)"
                if sums[key] == nil {
                    sums[key] = bucket
                } else {
                    sums[key]!.add(bucket)
                }
            }
            previous = batch.last
            index += 7
        }
        return Array(sums.values)
    }

    static func expectSame(_ got: NodeUptime, _ expected: NodeUptime, _ label: String) {
        #expect(got.total == expected.total && got.up == expected.up, "\(label): probes")
        #expect(got.excludedProbes == expected.excludedProbes, "\(label): maintenance probes")
        #expect(got.upMilliseconds == expected.upMilliseconds, "\(label): up time")
        #expect(got.coveredMilliseconds == expected.coveredMilliseconds, "\(label): covered time")
        #expect(got.excludedMilliseconds == expected.excludedMilliseconds, "\(label): maintenance time")
        #expect(got.answered == expected.answered, "\(label): answered")
        #expect(got.latencySumMicroseconds == expected.latencySumMicroseconds, "\(label): latency")
        #expect(got.ratio == expected.ratio && got.timeWeighted == expected.timeWeighted, "\(label): ratios")
    }

    @Test func bucketsAddUpToTheRawProbesExactly() {
        let probes = Self.schedule()
        let end = Self.start + 3 * UptimeBucket.day
        let raw = Array(probes.suffix(500))
        let buckets = Self.aggregate(probes)
        // Everything kept; then minutes kept for 2 hours and hours for 2 days (days for ever).
        let trimmed = buckets.filter {
            ($0.resolution == UptimeBucket.minute && $0.startMs >= end - 2 * UptimeBucket.hour)
                || ($0.resolution == UptimeBucket.hour && $0.startMs >= end - 2 * UptimeBucket.day)
                || $0.resolution == UptimeBucket.day
        }
        let windows: [(String, Int64, Int64)] = [
            ("1h", end - UptimeBucket.hour, end), ("24h", end - UptimeBucket.day, end),
            ("3d", Self.start, end), ("second day", Self.start + UptimeBucket.day, Self.start + 2 * UptimeBucket.day),
            ("maintenance hour", Self.start + 29 * UptimeBucket.hour, Self.start + 33 * UptimeBucket.hour),
        ]
        for (label, from, to) in windows {
            let expected = NodeUptime(probes: probes, fromMs: from, toMs: to)
            #expect(expected.total > 0 && expected.up < expected.total, "\(label)")
            Self.expectSame(NodeUptime(probes: raw, buckets: buckets, fromMs: from, toMs: to), expected, label)
            Self.expectSame(
                NodeUptime(probes: raw, buckets: trimmed, fromMs: from, toMs: to), expected, "\(label), trimmed")
            // Maintenance counted as any other time, when asked.
            let plain = probes.map {
                NodeUptime.Probe(timeMs: $0.timeMs, up: $0.up, latencyMicroseconds: $0.latencyMicroseconds)
            }
            Self.expectSame(
                NodeUptime(probes: raw, buckets: trimmed, fromMs: from, toMs: to, includingMaintenance: true),
                NodeUptime(probes: plain, fromMs: from, toMs: to), "\(label), maintenance included")
        }
        // The maintenance hour is left out of both ratios, and counted apart.
        let withMaintenance = NodeUptime(
            probes: raw, buckets: trimmed, fromMs: Self.start + 29 * UptimeBucket.hour,
            toMs: Self.start + 33 * UptimeBucket.hour)
        #expect(withMaintenance.excludedMilliseconds > 3_590_000 && withMaintenance.excludedProbes > 150)
        // Raw probes cover only the last 500 (under three hours): the buckets carry the rest.
        #expect(raw.first!.timeMs > end - 3 * UptimeBucket.hour)
    }

    /// A young node, all of whose probes are still raw: any window, its end at any moment (not
    /// a bucket boundary), gives the raw figures.
    @Test func aYoungNodeCountsItsRawProbes() {
        let probes = (0..<40).map { index in
            NodeUptime.Probe(
                timeMs: Self.start + 12_345 + Int64(index) * 700, up: index % 7 != 3, latencyMicroseconds: 2_000)
        }
        let buckets = Self.aggregate(probes)
        for to in [Self.start + 30_000, Self.start + 61_000, Self.start + 3_000_000] {
            let from = to - UptimeBucket.hour
            let expected = NodeUptime(probes: probes, fromMs: from, toMs: to)
            #expect(expected.total > 0)
            Self.expectSame(NodeUptime(probes: probes, buckets: buckets, fromMs: from, toMs: to), expected, "to \(to)")
        }
    }

    @Test func percentilesInterpolateWithinTheHistogram() {
        var bucket = UptimeBucket(node: "db", resolution: UptimeBucket.minute, startMs: 0)
        #expect(bucket.latencyPercentile(0.5) == nil)
        // 10 answers in (10, 20] ms and 10 in (100, 200] ms.
        let probes = (0..<20).map {
            NodeUptime.Probe(timeMs: Int64($0) * 1000, up: true, latencyMicroseconds: $0 < 10 ? 15_000 : 150_000)
        }
        bucket = UptimeBucket.deltas(node: "db", probes: probes, previous: nil).first {
            $0.resolution == UptimeBucket.minute
        }!
        #expect(bucket.latencyCount == 20 && bucket.total == 20)
        #expect(bucket.latencyPercentile(0.25) == 15)
        #expect(bucket.latencyPercentile(0.5) == 20)
        #expect(bucket.latencyPercentile(0.95) == 190)
        // Time: each probe's second until the next, the last one's not yet.
        #expect(bucket.coveredMs == 19_000 && bucket.upMs == 19_000)
    }
}
