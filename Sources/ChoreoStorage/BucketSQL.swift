/// The statements on `probe_buckets` that SQLite and PostgreSQL share, with each backend's
/// parameter placeholders (`?`, `$1`).
enum BucketSQL {
    /// Rows one multi-row statement writes: a flush of a thousand nodes' probes is a few
    /// statements, not thousands (the rest, fewer than a batch, one statement each).
    static let batch = 100

    /// Adds `count` buckets' sums to the stored rows (or stores them): for each, parameters
    /// node, resolution, start, then the sums in ``StoredBucket/columns`` order. The buckets of
    /// one statement must differ (``ArenaRuntime``'s flush merges them).
    static func upsert(count: Int = 1, placeholder: (Int) -> String) -> String {
        let columns = StoredBucket.columns
        let names = (["node", "resolution", "start_ms"] + columns).joined(separator: ", ")
        let width = 3 + columns.count
        let values = (0..<count).map { row in
            "(" + (1...width).map { placeholder(row * width + $0) }.joined(separator: ", ") + ")"
        }
        let additions = columns.map { "\($0) = probe_buckets.\($0) + excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO probe_buckets (\(names)) VALUES \(values.joined(separator: ", "))
            ON CONFLICT (node, resolution, start_ms) DO UPDATE SET \(additions)
            """
    }

    /// Inserts `count` probes: for each, node, url, time, verdict, reason, status, latency.
    static func insertProbes(count: Int, placeholder: (Int) -> String) -> String {
        let values = (0..<count).map { row in
            "(" + (1...7).map { placeholder(row * 7 + $0) }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO probes (node, url, time_ms, verdict, reason, http_status, latency_us) VALUES "
            + values.joined(separator: ", ")
    }

    /// Full batches first, then the rest one by one: at most two statement texts.
    static func chunks<T>(_ items: [T]) -> [ArraySlice<T>] {
        var result: [ArraySlice<T>] = []
        var start = 0
        while items.count - start >= batch {
            result.append(items[start..<(start + batch)])
            start += batch
        }
        while start < items.count {
            result.append(items[start..<(start + 1)])
            start += 1
        }
        return result
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
