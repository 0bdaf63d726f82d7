/// The arena's persistent state: its configuration and a bounded probe history per node.
extension SQLiteStore {
    /// The stored arena configuration document, if one was saved.
    public func arenaConfiguration() throws(StorageError) -> [UInt8]? {
        try withDatabase { db throws(StorageError) in
            try db.query("SELECT document FROM arena_config WHERE id = 1").first?.first?.blob
        }
    }

    /// Saves the arena configuration; durable once this returns.
    public func saveArenaConfiguration(_ document: [UInt8]) throws(StorageError) {
        _ = try withDatabase { db throws(StorageError) in
            try db.query(
                "INSERT INTO arena_config (id, document) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET document = excluded.document",
                [.blob(document)])
        }
    }

    /// Appends probes and buckets in one transaction and trims the nodes' history to the newest ones.
    public func appendProbes(_ rows: [ProbeRow], buckets: [StoredBucket], trimming: Set<String>?) throws(StorageError) {
        guard !rows.isEmpty || !buckets.isEmpty else { return }
        _ = try withDatabase { db throws(StorageError) in
            try db.execute("BEGIN IMMEDIATE")
            do throws(StorageError) {
                for chunk in BucketSQL.chunks(rows) {
                    try db.query(
                        BucketSQL.insertProbes(count: chunk.count, placeholder: { _ in "?" }),
                        chunk.flatMap { row -> [SQLiteDatabase.Binding] in
                            [
                                .text(row.node), .text(row.url), .integer(row.timeMs), .text(row.verdict.rawValue),
                                row.reason.map { .text($0) } ?? .null,
                                row.httpStatus.map { .integer(Int64($0)) } ?? .null, .integer(row.latencyMicroseconds),
                            ]
                        })
                }
                for node in trimming ?? Set(rows.map(\.node)) {
                    try db.query(
                        """
                        DELETE FROM probes WHERE node = ? AND seq <= (
                            SELECT seq FROM probes WHERE node = ? ORDER BY seq DESC LIMIT 1 OFFSET \(probesKeptPerNode))
                        """, [.text(node), .text(node)])
                }
                for chunk in BucketSQL.chunks(buckets) {
                    try db.query(
                        BucketSQL.upsert(count: chunk.count, placeholder: { _ in "?" }),
                        chunk.flatMap { bucket -> [SQLiteDatabase.Binding] in
                            [.text(bucket.node), .integer(bucket.resolution), .integer(bucket.startMs)]
                                + bucket.sums.map { .integer($0) }
                        })
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// A node's recorded probes, oldest first (at most ``probesKeptPerNode``).
    public func probes(node: String) throws(StorageError) -> [ProbeRow] {
        try withDatabase { db throws(StorageError) in
            try db.query(
                "SELECT node, url, time_ms, verdict, reason, http_status, latency_us FROM probes WHERE node = ? ORDER BY seq",
                [.text(node)]
            ).map { row in
                ProbeRow(
                    node: row[0].text ?? node, url: row[1].text ?? "", timeMs: row[2].integer ?? 0,
                    verdict: row[3].text.flatMap(ProbeRow.Verdict.init(rawValue:)) ?? .failed, reason: row[4].text,
                    httpStatus: row[5].integer.map { Int($0) },
                    latencyMicroseconds: row[6].integer ?? 0)
            }
        }
    }

    public func probes(after sequence: Int64, limit: Int) throws(StorageError) -> [(sequence: Int64, row: ProbeRow)] {
        try withDatabase { db throws(StorageError) in
            try db.query(
                "SELECT seq, node, url, time_ms, verdict, reason, http_status, latency_us FROM probes WHERE seq > ? ORDER BY seq LIMIT ?",
                [.integer(sequence), .integer(Int64(limit))]
            ).map { row in
                (
                    row[0].integer ?? 0,
                    ProbeRow(
                        node: row[1].text ?? "", url: row[2].text ?? "", timeMs: row[3].integer ?? 0,
                        verdict: row[4].text.flatMap(ProbeRow.Verdict.init(rawValue:)) ?? .failed, reason: row[5].text,
                        httpStatus: row[6].integer.map { Int($0) }, latencyMicroseconds: row[7].integer ?? 0)
                )
            }
        }
    }

    public func buckets(node: String, fromMs: Int64, toMs: Int64) throws(StorageError) -> [StoredBucket] {
        try withDatabase { db throws(StorageError) in
            try db.query(
                BucketSQL.select(placeholder: { _ in "?" }), [.text(node), .integer(fromMs), .integer(toMs)]
            ).map { row in
                StoredBucket(
                    node: row[0].text ?? "", resolution: row[1].integer ?? 0, startMs: row[2].integer ?? 0,
                    sums: row[3...].map { $0.integer ?? 0 })
            }
        }
    }

    public func trimBuckets(resolution: Int64, beforeMs: Int64) throws(StorageError) -> Int {
        try withDatabase { db throws(StorageError) in
            try db.query(
                "DELETE FROM probe_buckets WHERE resolution = ? AND start_ms < ?",
                [.integer(resolution), .integer(beforeMs)])
            return db.changes
        }
    }

    public func bucketCounts() throws(StorageError) -> [Int64: Int] {
        try withDatabase { db throws(StorageError) in
            var counts: [Int64: Int] = [:]
            for row in try db.query("SELECT resolution, COUNT(*) FROM probe_buckets GROUP BY resolution") {
                counts[row[0].integer ?? 0] = Int(row[1].integer ?? 0)
            }
            return counts
        }
    }

    public func bucketTotals(resolution: Int64, fromMs: Int64) throws(StorageError) -> [String: (
        total: Int64, up: Int64
    )] {
        try withDatabase { db throws(StorageError) in
            var totals: [String: (total: Int64, up: Int64)] = [:]
            for row in try db.query(
                "SELECT node, SUM(total), SUM(up) FROM probe_buckets WHERE resolution = ? AND start_ms >= ? GROUP BY node",
                [.integer(resolution), .integer(fromMs)])
            {
                totals[row[0].text ?? ""] = (row[1].integer ?? 0, row[2].integer ?? 0)
            }
            return totals
        }
    }

    public func latestProbeSequence() throws(StorageError) -> Int64 {
        try withDatabase { db throws(StorageError) in
            try db.query("SELECT COALESCE(MAX(seq), 0) FROM probes").first?.first?.integer ?? 0
        }
    }

    public func claimRound(_ round: StoredRound) throws(StorageError) -> StoredRound? {
        try withDatabase { db throws(StorageError) in
            try db.execute("BEGIN IMMEDIATE")
            do throws(StorageError) {
                let last = try db.query("SELECT id, started, duration FROM arena_rounds ORDER BY id DESC LIMIT 1").first
                if let last, let started = last[1].real, let duration = last[2].real,
                    round.started - started < duration
                {
                    try db.execute("ROLLBACK")
                    return nil
                }
                let id = Int(last?[0].integer ?? 0) + 1
                try db.query(
                    "INSERT INTO arena_rounds (id, started, duration, scene, ranking, champion) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .integer(Int64(id)), .real(round.started), .real(round.duration), .blob(round.scene),
                        .text(round.rankingText), round.champion.map { .text($0) } ?? .null,
                    ])
                try db.query("DELETE FROM arena_rounds WHERE id <= ?", [.integer(Int64(id - roundsKept))])
                try db.execute("COMMIT")
                return StoredRound(
                    id: id, started: round.started, duration: round.duration, scene: round.scene, order: round.order,
                    champion: round.champion)
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func latestRound(after id: Int) throws(StorageError) -> StoredRound? {
        try withDatabase { db throws(StorageError) in
            guard
                let row = try db.query(
                    "SELECT id, started, duration, scene, ranking, champion FROM arena_rounds WHERE id > ? ORDER BY id DESC LIMIT 1",
                    [.integer(Int64(id))]
                ).first
            else { return nil }
            return StoredRound(
                id: Int(row[0].integer ?? 0), started: row[1].real ?? 0, duration: row[2].real ?? 0,
                scene: row[3].blob ?? [], order: StoredRound.ranking(row[4].text ?? ""),
                champion: row[5].text)
        }
    }
}
