/// The statements on `probe_buckets` that SQLite and PostgreSQL share, with each backend's
/// parameter placeholders (`?`, `$1`).
enum BucketSQL {
    /// Adds a bucket's sums to the stored row (or stores it): parameters node, resolution,
    /// start, then the sums in ``StoredBucket/columns`` order.
    static func upsert(placeholder: (Int) -> String) -> String {
        let columns = StoredBucket.columns
        let names = (["node", "resolution", "start_ms"] + columns).joined(separator: ", ")
        let values = (1...(3 + columns.count)).map(placeholder).joined(separator: ", ")
        let additions = columns.map { "\($0) = probe_buckets.\($0) + excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO probe_buckets (\(names)) VALUES (\(values))
            ON CONFLICT (node, resolution, start_ms) DO UPDATE SET \(additions)
            """
    }

    /// A node's buckets beginning in [from, to): parameters node, from, to.
    static func select(placeholder: (Int) -> String) -> String {
        """
        SELECT node, resolution, start_ms, \(StoredBucket.columns.joined(separator: ", ")) FROM probe_buckets
        WHERE node = \(placeholder(1)) AND start_ms >= \(placeholder(2)) AND start_ms < \(placeholder(3))
        ORDER BY resolution, start_ms
        """
    }
}
