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

    /// Appends probes in one transaction and trims each node's history to the newest ones.
    public func appendProbes(_ rows: [ProbeRow]) throws(StorageError) {
        guard !rows.isEmpty else { return }
        _ = try withDatabase { db throws(StorageError) in
            try db.execute("BEGIN IMMEDIATE")
            do throws(StorageError) {
                for row in rows {
                    try db.query(
                        "INSERT INTO probes (node, url, time_ms, verdict, reason, http_status, latency_us) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [
                            .text(row.node), .text(row.url), .integer(row.timeMs), .text(row.verdict),
                            row.reason.map { .text($0) } ?? .null, row.httpStatus.map { .integer(Int64($0)) } ?? .null,
                            .integer(row.latencyMicroseconds),
                        ])
                }
                for node in Set(rows.map(\.node)) {
                    try db.query(
                        """
                        DELETE FROM probes WHERE node = ? AND seq <= (
                            SELECT seq FROM probes WHERE node = ? ORDER BY seq DESC LIMIT 1 OFFSET \(probesKeptPerNode))
                        """, [.text(node), .text(node)])
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
                    verdict: row[3].text ?? "failed", reason: row[4].text, httpStatus: row[5].integer.map { Int($0) },
                    latencyMicroseconds: row[6].integer ?? 0)
            }
        }
    }
}
