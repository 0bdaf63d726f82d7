/// Alert transitions and their outbox in the SQLite file: the single process records and
/// drains them.
extension SQLiteStore {
    public func recordAlert(_ event: StoredAlertEvent, deliveries: [StoredDelivery]) throws(StorageError) -> Bool {
        try withDatabase { db throws(StorageError) -> Bool in
            try db.execute("BEGIN IMMEDIATE")
            do throws(StorageError) {
                try db.query(
                    """
                    INSERT INTO alert_events (rule, node, sequence, reminder, event, at_ms, since_ms, description)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                    [
                        .text(event.rule), .text(event.node), .integer(Int64(event.sequence)),
                        .integer(Int64(event.reminder)), .text(event.event.rawValue), .integer(event.atMs),
                        .integer(event.sinceMs), .text(event.description),
                    ])
                guard db.changes == 1 else {
                    try db.execute("ROLLBACK")
                    return false
                }
                for delivery in deliveries {
                    try db.query(
                        """
                        INSERT INTO alert_deliveries (key, channel, url, content_type, body, status, attempts, next_ms, last_error, created_ms)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?) ON CONFLICT DO NOTHING
                        """,
                        [
                            .text(delivery.key), .text(delivery.channel), .text(delivery.url),
                            .text(delivery.contentType), .blob(delivery.body), .text(delivery.status.rawValue),
                            .integer(Int64(delivery.attempts)), .integer(delivery.nextMs), .integer(delivery.createdMs),
                        ])
                }
                try db.query(
                    "DELETE FROM alert_events WHERE rule = ? AND node = ? AND sequence <= ?",
                    [.text(event.rule), .text(event.node), .integer(Int64(event.sequence - alertEventsKept))])
                try db.query(
                    """
                    DELETE FROM alert_deliveries WHERE status <> 'retrying' AND seq <= (
                        SELECT seq FROM alert_deliveries WHERE status <> 'retrying' ORDER BY seq DESC LIMIT 1 OFFSET \(finishedDeliveriesKept))
                    """)
                try db.execute("COMMIT")
                return true
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func latestAlertEvents() throws(StorageError) -> [StoredAlertEvent] {
        try withDatabase { db throws(StorageError) in
            try db.query(
                """
                SELECT e.rule, e.node, e.sequence, e.reminder, e.event, e.at_ms, e.since_ms, e.description
                FROM alert_events e JOIN (
                    SELECT rule, node, MAX(sequence * 1000000 + reminder) AS latest FROM alert_events GROUP BY rule, node
                ) l ON e.rule = l.rule AND e.node = l.node AND e.sequence * 1000000 + e.reminder = l.latest
                ORDER BY e.rule, e.node
                """
            ).map { row in
                StoredAlertEvent(
                    rule: row[0].text ?? "", node: row[1].text ?? "", sequence: Int(row[2].integer ?? 0),
                    reminder: Int(row[3].integer ?? 0),
                    event: row[4].text.flatMap(StoredAlertEvent.Kind.init(rawValue:)) ?? .triggered,
                    atMs: row[5].integer ?? 0,
                    sinceMs: row[6].integer ?? 0, description: row[7].text ?? "")
            }
        }
    }

    private static let deliveryColumns =
        "key, channel, url, content_type, body, status, attempts, next_ms, last_error, created_ms"

    private static func delivery(_ row: [SQLiteDatabase.Column]) -> StoredDelivery {
        StoredDelivery(
            key: row[0].text ?? "", channel: row[1].text ?? "", url: row[2].text ?? "",
            contentType: row[3].text ?? "", body: row[4].blob ?? [],
            status: row[5].text.flatMap(StoredDelivery.Status.init(rawValue:)) ?? .failed,
            attempts: Int(row[6].integer ?? 0), nextMs: row[7].integer ?? 0, lastError: row[8].text,
            createdMs: row[9].integer ?? 0)
    }

    public func dueDeliveries(nowMs: Int64, limit: Int) throws(StorageError) -> [StoredDelivery] {
        try withDatabase { db throws(StorageError) in
            try db.query(
                "SELECT \(Self.deliveryColumns) FROM alert_deliveries WHERE status = 'retrying' AND next_ms <= ? ORDER BY seq LIMIT ?",
                [.integer(nowMs), .integer(Int64(limit))]
            ).map(Self.delivery)
        }
    }

    public func updateDelivery(
        key: String, channel: String, status: StoredDelivery.Status, attempts: Int, nextMs: Int64, error: String?
    ) throws(StorageError) {
        _ = try withDatabase { db throws(StorageError) in
            try db.query(
                "UPDATE alert_deliveries SET status = ?, attempts = ?, next_ms = ?, last_error = ? WHERE key = ? AND channel = ?",
                [
                    .text(status.rawValue), .integer(Int64(attempts)), .integer(nextMs),
                    error.map { .text($0) } ?? .null,
                    .text(key), .text(channel),
                ])
        }
    }

    public func recentDeliveries(limit: Int) throws(StorageError) -> [StoredDelivery] {
        try withDatabase { db throws(StorageError) in
            try db.query(
                "SELECT \(Self.deliveryColumns) FROM alert_deliveries ORDER BY seq DESC LIMIT ?",
                [.integer(Int64(limit))]
            ).map(Self.delivery)
        }
    }

    public func deliveryCounts() throws(StorageError) -> [StoredDelivery.Status: Int] {
        try withDatabase { db throws(StorageError) in
            var counts: [StoredDelivery.Status: Int] = [:]
            for row in try db.query("SELECT status, COUNT(*) FROM alert_deliveries GROUP BY status") {
                guard let status = row[0].text.flatMap(StoredDelivery.Status.init(rawValue:)) else { continue }
                counts[status] = Int(row[1].integer ?? 0)
            }
            return counts
        }
    }
}
