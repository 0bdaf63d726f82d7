/// Alert transitions and their outbox in PostgreSQL, shared by replicas: whichever replica
/// records a transition first wins (the primary key), and the leader drains the deliveries.
extension PostgresStore {
    public func recordAlert(_ event: StoredAlertEvent, deliveries: [StoredDelivery]) throws(StorageError) -> Bool {
        try transaction { connection throws(StorageError) -> Bool in
            let inserted = try connection.run(
                """
                INSERT INTO alert_events (rule, node, sequence, reminder, event, at_ms, since_ms, description)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING sequence
                """,
                [
                    .text(event.rule), .text(event.node), .integer(Int64(event.sequence)),
                    .integer(Int64(event.reminder)), .text(event.event.rawValue), .integer(event.atMs),
                    .integer(event.sinceMs), .text(event.description),
                ])
            guard !inserted.rows.isEmpty else { return false }
            for delivery in deliveries {
                try connection.run(
                    """
                    INSERT INTO alert_deliveries (key, channel, url, content_type, body, status, attempts, next_ms, last_error, created_ms)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9) ON CONFLICT DO NOTHING
                    """,
                    [
                        .text(delivery.key), .text(delivery.channel), .text(delivery.url), .text(delivery.contentType),
                        .bytes(delivery.body), .text(delivery.status.rawValue), .integer(Int64(delivery.attempts)),
                        .integer(delivery.nextMs), .integer(delivery.createdMs),
                    ])
            }
            try connection.run(
                "DELETE FROM alert_events WHERE rule = $1 AND node = $2 AND sequence <= $3",
                [.text(event.rule), .text(event.node), .integer(Int64(event.sequence - alertEventsKept))])
            try connection.run(
                """
                DELETE FROM alert_deliveries WHERE status <> 'retrying' AND seq <= (
                    SELECT seq FROM alert_deliveries WHERE status <> 'retrying' ORDER BY seq DESC LIMIT 1 OFFSET \(finishedDeliveriesKept))
                """)
            return true
        }
    }

    public func latestAlertEvents() throws(StorageError) -> [StoredAlertEvent] {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run(
                """
                SELECT DISTINCT ON (rule, node) rule, node, sequence, reminder, event, at_ms, since_ms, description
                FROM alert_events ORDER BY rule, node, sequence DESC, reminder DESC
                """
            ).rows.map { row in
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

    private static func delivery(_ row: [PostgresConnection.Column]) -> StoredDelivery {
        StoredDelivery(
            key: row[0].text ?? "", channel: row[1].text ?? "", url: row[2].text ?? "",
            contentType: row[3].text ?? "", body: row[4].bytes ?? [],
            status: row[5].text.flatMap(StoredDelivery.Status.init(rawValue:)) ?? .failed,
            attempts: Int(row[6].integer ?? 0), nextMs: row[7].integer ?? 0, lastError: row[8].text,
            createdMs: row[9].integer ?? 0)
    }

    public func dueDeliveries(nowMs: Int64, limit: Int) throws(StorageError) -> [StoredDelivery] {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run(
                "SELECT \(Self.deliveryColumns) FROM alert_deliveries WHERE status = 'retrying' AND next_ms <= $1 ORDER BY seq LIMIT $2",
                [.integer(nowMs), .integer(Int64(limit))]
            ).rows.map(Self.delivery)
        }
    }

    public func updateDelivery(
        key: String, channel: String, status: StoredDelivery.Status, attempts: Int, nextMs: Int64, error: String?
    ) throws(StorageError) {
        _ = try withConnection { connection throws(StorageError) in
            try connection.run(
                "UPDATE alert_deliveries SET status = $1, attempts = $2, next_ms = $3, last_error = $4 WHERE key = $5 AND channel = $6",
                [
                    .text(status.rawValue), .integer(Int64(attempts)), .integer(nextMs),
                    error.map { .text($0) } ?? .null,
                    .text(key), .text(channel),
                ])
        }
    }

    public func recentDeliveries(limit: Int) throws(StorageError) -> [StoredDelivery] {
        try withConnection(retry: true) { connection throws(StorageError) in
            try connection.run(
                "SELECT \(Self.deliveryColumns) FROM alert_deliveries ORDER BY seq DESC LIMIT $1",
                [.integer(Int64(limit))]
            ).rows.map(Self.delivery)
        }
    }

    public func deliveryCounts() throws(StorageError) -> [StoredDelivery.Status: Int] {
        try withConnection(retry: true) { connection throws(StorageError) in
            var counts: [StoredDelivery.Status: Int] = [:]
            for row in try connection.run("SELECT status, COUNT(*) FROM alert_deliveries GROUP BY status").rows {
                guard let status = row[0].text.flatMap(StoredDelivery.Status.init(rawValue:)) else { continue }
                counts[status] = Int(row[1].integer ?? 0)
            }
            return counts
        }
    }
}
