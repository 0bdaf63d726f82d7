import ChoreoArena
import ChoreoFormat
import ChoreoService
import ChoreoStorage
import Foundation

/// The probes' history beyond the raw probes kept (docs/arena.md): every probe the leader
/// records is also summed into minute, hour and day buckets, written with it in one
/// transaction, and buckets older than their retention are deleted once a minute.
extension ArenaRuntime {
    /// Writes between two trims of a node's raw probes.
    static let trimEvery = 10

    /// A hash of a node's name that is the same in every process (Swift's `hashValue` is not).
    static func stableHash(_ name: String) -> Int {
        Int(name.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } % 1_000_003)
    }

    /// A stored probe as the buckets see it (maintenance is judged when a probe is recorded).
    static func bucketProbe(_ row: ProbeRow) -> NodeUptime.Probe {
        NodeUptime.Probe(timeMs: row.timeMs, up: row.verdict.answered, latencyMicroseconds: row.latencyMicroseconds)
    }

    /// What one new probe adds to its node's buckets; `last` holds each node's previous probe.
    static func buckets(adding row: ProbeRow, excluded: Bool, to last: inout [String: NodeUptime.Probe])
        -> [StoredBucket]
    {
        let probe = NodeUptime.Probe(
            timeMs: row.timeMs, up: row.verdict.answered, latencyMicroseconds: row.latencyMicroseconds,
            excluded: excluded)
        let previous = last[row.node].flatMap { $0.timeMs <= probe.timeMs ? $0 : nil }
        last[row.node] = probe
        return UptimeBucket.deltas(node: row.node, probes: [probe], previous: previous).map(stored)
    }

    static func stored(_ bucket: UptimeBucket) -> StoredBucket {
        StoredBucket(
            node: bucket.node, resolution: bucket.resolution, startMs: bucket.startMs,
            sums: [
                Int64(bucket.total), Int64(bucket.up), Int64(bucket.excluded), bucket.upMs, bucket.coveredMs,
                bucket.excludedMs, Int64(bucket.latencyCount), bucket.latencySumMicroseconds,
            ] + bucket.histogram.map { Int64($0) } + [
                Int64(bucket.excludedUp), bucket.excludedUpMs, Int64(bucket.excludedLatencyCount),
                bucket.excludedLatencySumMicroseconds,
            ])
    }

    static func bucket(_ stored: StoredBucket) -> UptimeBucket {
        var bucket = UptimeBucket(node: stored.node, resolution: stored.resolution, startMs: stored.startMs)
        let sums = stored.sums + [Int64](repeating: 0, count: max(0, StoredBucket.columns.count - stored.sums.count))
        bucket.total = Int(sums[0])
        bucket.up = Int(sums[1])
        bucket.excluded = Int(sums[2])
        bucket.upMs = sums[3]
        bucket.coveredMs = sums[4]
        bucket.excludedMs = sums[5]
        bucket.latencyCount = Int(sums[6])
        bucket.latencySumMicroseconds = sums[7]
        let histogramEnd = 8 + UptimeBucket.latencyBounds.count + 1
        bucket.histogram = sums[8..<histogramEnd].map { Int($0) }
        bucket.excludedUp = Int(sums[histogramEnd])
        bucket.excludedUpMs = sums[histogramEnd + 1]
        bucket.excludedLatencyCount = Int(sums[histogramEnd + 2])
        bucket.excludedLatencySumMicroseconds = sums[histogramEnd + 3]
        return bucket
    }

    /// The same buckets' sums added together: one row written per bucket and flush.
    static func merged(_ buckets: [StoredBucket]) -> [StoredBucket] {
        var order: [String] = []
        var sums: [String: StoredBucket] = [:]
        for bucket in buckets {
            let key = "\(bucket.resolution)/\(bucket.startMs)/\(bucket.node)"
            if let existing = sums[key] {
                sums[key] = StoredBucket(
                    node: bucket.node, resolution: bucket.resolution, startMs: bucket.startMs,
                    sums: zip(existing.sums, bucket.sums).map { $0 + $1 })
            } else {
                order.append(key)
                sums[key] = bucket
            }
        }
        return order.compactMap { sums[$0] }
    }

    /// Deletes the buckets past their retention, at most once a minute.
    func trimBuckets(now: Double = Date().timeIntervalSince1970) {
        let nowMs = Int64((now * 1000).rounded())
        let due = state.withLock { state -> Bool in
            guard nowMs - state.lastTrimMs >= 60_000 else { return false }
            state.lastTrimMs = nowMs
            return true
        }
        guard due else { return }
        let retention = configuration.retention
        for resolution in UptimeBucket.resolutions {
            let keptMs = Int64(retention.seconds(resolution: resolution) * 1000)
            _ = try? store.trimBuckets(resolution: resolution, beforeMs: nowMs - keptMs)
        }
    }

    /// A node's buckets that begin in [`fromMs`, `toMs`).
    func uptimeBuckets(of node: String, fromMs: Int64, toMs: Int64) throws(ServiceError) -> [UptimeBucket] {
        try ServiceError.storing { () throws(StorageError) in
            try store.buckets(node: node, fromMs: fromMs, toMs: toMs).map(Self.bucket)
        }
    }
}

extension ArenaRuntime {
    /// `GET /v1/arena/nodes/{name}/response-times`: a node's buckets at one resolution.
    public struct ResponseTimes: Sendable, Equatable {
        public let node: String
        /// `minute`, `hour` or `day`.
        public let resolution: String
        public let fromMs: Int64
        public let toMs: Int64
        public let buckets: [UptimeBucket]
    }

    /// Buckets asked for at once, at most.
    public static let maxBucketsAnswered = 2_000

    /// `resolution` (`minute`, `hour` by default, `day`), `from` and `to` (RFC 3339; by default
    /// the last hour of minutes, day of hours or 30 days of days).
    public func responseTimes(
        of node: String, parameters: [(String, String)], now: Double = Date().timeIntervalSince1970
    ) throws(ServiceError) -> ResponseTimes {
        guard configuration.nodes.contains(where: { $0.name == node }) else {
            throw ServiceError.notFound("No node named \(node) in the arena.")
        }
        let resolutions: [String: (Int64, Int64)] = [
            "minute": (UptimeBucket.minute, 3_600_000), "hour": (UptimeBucket.hour, 86_400_000),
            "day": (UptimeBucket.day, 30 * 86_400_000),
        ]
        var name = "hour"
        var from: Double?
        var to: Double?
        var errors: [FieldError] = []
        for (key, value) in parameters {
            switch key {
            case "resolution":
                if resolutions[value] != nil {
                    name = value
                } else {
                    errors.append(FieldError(path: "query.resolution", message: "must be minute, hour or day"))
                }
            case "from": from = Self.timeParameter(key, value, into: &errors)
            case "to": to = Self.timeParameter(key, value, into: &errors)
            default:
                errors.append(
                    FieldError(path: "query.\(key)", message: "unknown query parameter (resolution, from, to)"))
            }
        }
        let (resolution, span) = resolutions[name]!
        let toMs = to.map { Int64(($0 * 1000).rounded()) } ?? Int64((now * 1000).rounded())
        let fromMs = from.map { Int64(($0 * 1000).rounded()) } ?? toMs - span
        if toMs <= fromMs { errors.append(FieldError(path: "query.to", message: "must be after from")) }
        if (toMs - fromMs) / resolution > Int64(Self.maxBucketsAnswered) {
            errors.append(
                FieldError(
                    path: "query.from",
                    message:
                        "at most \(Self.maxBucketsAnswered) buckets at once: a shorter window or a coarser resolution"
                ))
        }
        if !errors.isEmpty { throw ServiceError.invalidRequest(ValidationFailure(errors)) }
        let start = UptimeBucket.start(of: fromMs, resolution: resolution)
        let buckets = try uptimeBuckets(of: node, fromMs: start, toMs: toMs).filter { $0.resolution == resolution }
        return ResponseTimes(node: node, resolution: name, fromMs: fromMs, toMs: toMs, buckets: buckets)
    }
}

extension ProbeRow.Verdict {
    /// A probe's verdict as the store keeps it.
    init(_ kind: ProbeVerdict.Kind) {
        self =
            switch kind {
            case .up: .up
            case .degraded: .degraded
            case .failed: .failed
            }
    }
}

extension ProbeVerdict.Kind {
    /// A stored probe's verdict.
    init(_ verdict: ProbeRow.Verdict) {
        self =
            switch verdict {
            case .up: .up
            case .degraded: .degraded
            case .failed: .failed
            }
    }
}
