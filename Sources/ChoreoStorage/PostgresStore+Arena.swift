import Foundation

/// The arena's configuration, probe history and rounds in PostgreSQL, shared by replicas.
extension PostgresStore {
    public func arenaConfiguration() throws(StorageError) -> [UInt8]? {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run("SELECT document FROM arena_config WHERE id = 1").rows.first?.first?.bytes
        }
    }

    public func saveArenaConfiguration(_ document: [UInt8]) throws(StorageError) {
        _ = try withConnection { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO arena_config (id, document) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET document = excluded.document",
                [.bytes(document)])
        }
    }

    public func appendProbes(_ rows: [ProbeRow], buckets: [StoredBucket], trimming: Set<String>?) throws(StorageError) {
        guard !rows.isEmpty || !buckets.isEmpty else { return }
        try transaction { connection throws(StorageError) in
            for chunk in BucketSQL.chunks(rows) {
                try connection.run(
                    BucketSQL.insertProbes(count: chunk.count, placeholder: { "$\($0)" }),
                    chunk.flatMap { row -> [PostgresConnection.Value] in
                        [
                            .text(row.node), .text(row.url), .integer(row.timeMs), .text(row.verdict.rawValue),
                            row.reason.map { .text($0) } ?? .null, row.httpStatus.map { .integer(Int64($0)) } ?? .null,
                            .integer(row.latencyMicroseconds),
                        ]
                    })
            }
            for node in (trimming ?? Set(rows.map(\.node))).sorted() {
                try connection.run(
                    """
                    DELETE FROM probes WHERE node = $1 AND seq <= (
                        SELECT seq FROM probes WHERE node = $1 ORDER BY seq DESC LIMIT 1 OFFSET \(probesKeptPerNode))
                    """, [.text(node)])
            }
            for chunk in BucketSQL.chunks(buckets) {
                try connection.run(
                    BucketSQL.upsert(count: chunk.count, placeholder: { "$\($0)" }),
                    chunk.flatMap { bucket -> [PostgresConnection.Value] in
                        [.text(bucket.node), .integer(bucket.resolution), .integer(bucket.startMs)]
                            + bucket.sums.map { .integer($0) }
                    })
            }
        }
    }

    public func buckets(node: String, fromMs: Int64, toMs: Int64) throws(StorageError) -> [StoredBucket] {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run(
                BucketSQL.select(placeholder: { "$\($0)" }), [.text(node), .integer(fromMs), .integer(toMs)]
            ).rows.map { row in
                StoredBucket(
                    node: row[0].text ?? "", resolution: row[1].integer ?? 0, startMs: row[2].integer ?? 0,
                    sums: row[3...].map { $0.integer ?? 0 })
            }
        }
    }

    public func trimBuckets(resolution: Int64, beforeMs: Int64) throws(StorageError) -> Int {
        try withConnection { connection throws(StorageError) in
            try connection.run(
                "DELETE FROM probe_buckets WHERE resolution = $1 AND start_ms < $2",
                [.integer(resolution), .integer(beforeMs)]
            ).changed
        }
    }

    public func bucketCounts() throws(StorageError) -> [Int64: Int] {
        try withConnection(retry: true) { connection throws(StorageError) in
            var counts: [Int64: Int] = [:]
            for row in try connection.run("SELECT resolution, COUNT(*) FROM probe_buckets GROUP BY resolution").rows {
                counts[row[0].integer ?? 0] = Int(row[1].integer ?? 0)
            }
            return counts
        }
    }

    public func probes(node: String) throws(StorageError) -> [ProbeRow] {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run(
                "SELECT node, url, time_ms, verdict, reason, http_status, latency_us FROM probes WHERE node = $1 ORDER BY seq",
                [.text(node)]
            ).rows.map { Self.probe($0[...]) }
        }
    }

    public func probes(after sequence: Int64, limit: Int) throws(StorageError) -> [(sequence: Int64, row: ProbeRow)] {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run(
                "SELECT seq, node, url, time_ms, verdict, reason, http_status, latency_us FROM probes WHERE seq > $1 ORDER BY seq LIMIT $2",
                [.integer(sequence), .integer(Int64(limit))]
            ).rows.map { ($0[0].integer ?? 0, Self.probe($0[1...])) }
        }
    }

    private static func probe(_ row: ArraySlice<PostgresConnection.Column>) -> ProbeRow {
        let base = row.startIndex
        return ProbeRow(
            node: row[base].text ?? "", url: row[base + 1].text ?? "", timeMs: row[base + 2].integer ?? 0,
            verdict: row[base + 3].text.flatMap(ProbeRow.Verdict.init(rawValue:)) ?? .failed,
            reason: row[base + 4].text,
            httpStatus: row[base + 5].integer.map { Int($0) }, latencyMicroseconds: row[base + 6].integer ?? 0)
    }

    public func bucketTotals(resolution: Int64, fromMs: Int64) throws(StorageError) -> [String: (
        total: Int64, up: Int64
    )] {
        try withConnection(retry: true) { connection throws(StorageError) in
            var totals: [String: (total: Int64, up: Int64)] = [:]
            for row in try connection.run(
                "SELECT node, SUM(total)::bigint, SUM(up)::bigint FROM probe_buckets WHERE resolution = $1 AND start_ms >= $2 GROUP BY node",
                [.integer(resolution), .integer(fromMs)]
            ).rows {
                totals[row[0].text ?? ""] = (row[1].integer ?? 0, row[2].integer ?? 0)
            }
            return totals
        }
    }

    public func latestProbeSequence() throws(StorageError) -> Int64 {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run("SELECT COALESCE(MAX(seq), 0) FROM probes").rows.first?.first?.integer ?? 0
        }
    }

    public func claimRound(_ round: StoredRound) throws(StorageError) -> StoredRound? {
        try transaction { connection throws(StorageError) -> StoredRound? in
            // Replicas starting rounds at once take turns on this row lock (plain SQL, which every
            // PostgreSQL-compatible database has); the second sees the first's round.
            try connection.run("SELECT version FROM choreo_schema FOR UPDATE")
            let last = try connection.run("SELECT id, started, duration FROM arena_rounds ORDER BY id DESC LIMIT 1")
                .rows.first
            if let last, let started = last[1].real, let duration = last[2].real, round.started - started < duration {
                return nil
            }
            let id = Int(last?[0].integer ?? 0) + 1
            try connection.run(
                "INSERT INTO arena_rounds (id, started, duration, scene, ranking, champion) VALUES ($1, $2, $3, $4, $5, $6)",
                [
                    .integer(Int64(id)), .real(round.started), .real(round.duration), .bytes(round.scene),
                    .text(round.rankingText), round.champion.map { .text($0) } ?? .null,
                ])
            try connection.run("DELETE FROM arena_rounds WHERE id <= $1", [.integer(Int64(id - roundsKept))])
            return StoredRound(
                id: id, started: round.started, duration: round.duration, scene: round.scene, order: round.order,
                champion: round.champion)
        }
    }

    public func latestRound(after id: Int) throws(StorageError) -> StoredRound? {
        try withConnection(retry: true) { connection throws(StorageError) -> StoredRound? in
            guard
                let row = try connection.run(
                    "SELECT id, started, duration, scene, ranking, champion FROM arena_rounds WHERE id > $1 ORDER BY id DESC LIMIT 1",
                    [.integer(Int64(id))]
                ).rows.first
            else { return nil }
            return StoredRound(
                id: Int(row[0].integer ?? 0), started: row[1].real ?? 0, duration: row[2].real ?? 0,
                scene: row[3].bytes ?? [], order: StoredRound.ranking(row[4].text ?? ""), champion: row[5].text)
        }
    }
}
