import Foundation

/// Storage in PostgreSQL, shared by every replica of `choreo serve --database postgres://…`
/// (docs/scale-out.md).
///
/// A pool of connections (at most ``maxConnections``; a request waits at most
/// ``checkoutWait`` for one), a connection of its own for health checks, and the replicas'
/// coordination (``PostgresCoordination``) on connections of its own. The schema version
/// lives in the table `choreo_schema`; ``migrations`` run at start inside one transaction that
/// holds an advisory lock, so replicas starting together migrate once, one after the other.
///
/// `@unchecked Sendable`: the pool's variables are read and written only while `pool` (a
/// condition lock, which requests wait on for a free connection) is locked.
public final class PostgresStore: Storage, @unchecked Sendable {
    /// Schema migrations; entry i upgrades version i to i + 1.
    static let migrations: [String] = [
        """
        CREATE TABLE scenes (
            id text PRIMARY KEY,
            name text,
            created text NOT NULL,
            seq bigserial UNIQUE,
            document bytea NOT NULL
        );
        CREATE TABLE arena_config (
            id integer PRIMARY KEY CHECK (id = 1),
            document bytea NOT NULL
        );
        CREATE TABLE probes (
            seq bigserial PRIMARY KEY,
            node text NOT NULL,
            url text NOT NULL,
            time_ms bigint NOT NULL,
            verdict text NOT NULL,
            reason text,
            http_status integer,
            latency_us bigint NOT NULL
        );
        CREATE INDEX probes_node ON probes(node, seq);
        CREATE TABLE sessions (
            id text PRIMARY KEY,
            created text NOT NULL,
            scene bytea NOT NULL
        );
        CREATE TABLE session_inputs (
            session text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number integer NOT NULL,
            at double precision NOT NULL,
            document bytea NOT NULL,
            PRIMARY KEY (session, number)
        );
        CREATE TABLE arena_rounds (
            id bigint PRIMARY KEY,
            started double precision NOT NULL,
            duration double precision NOT NULL,
            scene bytea NOT NULL,
            ranking text NOT NULL,
            champion text
        );
        """,
        """
        CREATE TABLE choreo_leases (
            name text PRIMARY KEY,
            holder text NOT NULL,
            expires double precision NOT NULL
        );
        """,
        """
        CREATE TABLE alert_events (
            rule text NOT NULL,
            node text NOT NULL,
            sequence integer NOT NULL,
            reminder integer NOT NULL,
            event text NOT NULL,
            at_ms bigint NOT NULL,
            since_ms bigint NOT NULL,
            description text NOT NULL,
            PRIMARY KEY (rule, node, sequence, reminder)
        );
        CREATE TABLE alert_deliveries (
            seq bigserial PRIMARY KEY,
            key text NOT NULL,
            channel text NOT NULL,
            url text NOT NULL,
            content_type text NOT NULL,
            body bytea NOT NULL,
            status text NOT NULL,
            attempts integer NOT NULL,
            next_ms bigint NOT NULL,
            last_error text,
            created_ms bigint NOT NULL,
            UNIQUE (key, channel)
        );
        CREATE INDEX alert_deliveries_due ON alert_deliveries(status, next_ms);
        """,
        """
        CREATE TABLE probe_buckets (
            node text NOT NULL,
            resolution bigint NOT NULL,
            start_ms bigint NOT NULL,
            total bigint NOT NULL DEFAULT 0,
            up bigint NOT NULL DEFAULT 0,
            excluded bigint NOT NULL DEFAULT 0,
            up_ms bigint NOT NULL DEFAULT 0,
            covered_ms bigint NOT NULL DEFAULT 0,
            excluded_ms bigint NOT NULL DEFAULT 0,
            latency_count bigint NOT NULL DEFAULT 0,
            latency_sum_us bigint NOT NULL DEFAULT 0,
            h0 bigint NOT NULL DEFAULT 0,
            h1 bigint NOT NULL DEFAULT 0,
            h2 bigint NOT NULL DEFAULT 0,
            h3 bigint NOT NULL DEFAULT 0,
            h4 bigint NOT NULL DEFAULT 0,
            h5 bigint NOT NULL DEFAULT 0,
            h6 bigint NOT NULL DEFAULT 0,
            h7 bigint NOT NULL DEFAULT 0,
            h8 bigint NOT NULL DEFAULT 0,
            h9 bigint NOT NULL DEFAULT 0,
            h10 bigint NOT NULL DEFAULT 0,
            h11 bigint NOT NULL DEFAULT 0,
            h12 bigint NOT NULL DEFAULT 0,
            h13 bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (node, resolution, start_ms)
        );
        CREATE INDEX probe_buckets_age ON probe_buckets(resolution, start_ms);
        """,
        """
        ALTER TABLE probe_buckets ADD COLUMN excluded_up bigint NOT NULL DEFAULT 0;
        ALTER TABLE probe_buckets ADD COLUMN excluded_up_ms bigint NOT NULL DEFAULT 0;
        ALTER TABLE probe_buckets ADD COLUMN excluded_latency_count bigint NOT NULL DEFAULT 0;
        ALTER TABLE probe_buckets ADD COLUMN excluded_latency_sum_us bigint NOT NULL DEFAULT 0;
        """,
    ]

    /// Advisory lock keys (`pg_advisory_lock(bigint)`): "choreo" in ASCII, then a number.
    enum LockKey: Int64 {
        case migrations = 0x6368_6F72_656F_0001
        case leader = 0x6368_6F72_656F_0002
    }

    /// Connections a replica opens for requests, at most.
    public static let maxConnections = 8
    /// How long a request waits for a pool connection before a 503.
    public static let checkoutWait = 5.0
    /// How long the health check's statement may take.
    public static let healthWait = 1.0

    public let url: String
    public var backend: String { "postgresql" }
    public var location: String { PostgresConnection.redacted(url) }

    private let pool = NSCondition()
    /// Guarded by `pool`.
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var closed = false
    private let health: PostgresConnection
    private let healthLock = NSLock()
    private let replicas: PostgresCoordination
    /// Seconds a pooled statement's answer is awaited at most.
    let statementDeadline: Double

    /// Connection defaults; the URL's own parameters win. A dead server or network is noticed
    /// within seconds rather than the kernel's two hours.
    static let connectionDefaults = [
        "connect_timeout": "5", "keepalives": "1", "keepalives_idle": "5", "keepalives_interval": "2",
        "keepalives_count": "3", "application_name": "choreo",
    ]

    /// Connects, migrates (once across replicas starting together) and opens the pool.
    /// How replicas choose their leader.
    public enum Leadership: Sendable, Equatable {
        /// A session-level advisory lock: released the moment the leader's session ends, so a
        /// killed leader is replaced within a campaign interval. Needs PostgreSQL's advisory locks.
        case advisoryLock
        /// A row with an expiry in the database's clock, renewed by the leader every campaign:
        /// a killed leader is replaced once its lease expires. For PostgreSQL-compatible
        /// databases without advisory locks.
        case lease(seconds: Double)
    }

    /// Seconds a pooled statement's answer is awaited at most: a frozen server or a
    /// black-holed network fails the request as unavailable (503) then, instead of holding it
    /// until TCP gives up (``PostgresConnection/statementDeadline``).
    public static let statementDeadline = 10.0

    /// `statementDeadline`: ``statementDeadline`` unless a test asks for less.
    public init(
        url: String, leadership: Leadership = .advisoryLock, statementDeadline: Double = PostgresStore.statementDeadline
    ) throws(StorageError) {
        self.url = url
        self.statementDeadline = statementDeadline
        let first = try PostgresConnection(
            url: url, defaults: Self.connectionDefaults, statementDeadline: statementDeadline)
        try Self.migrate(first)
        idle = [first]
        open = 1
        // libpq's shortest connect timeout: a health check of a server that went away answers
        // within about two seconds.
        health = try PostgresConnection(
            url: url, defaults: Self.connectionDefaults.merging(["connect_timeout": "2"]) { $1 },
            setup: ["SET statement_timeout = \(Int(Self.healthWait * 1000))"])
        replicas = PostgresCoordination(url: url, leadership: leadership)
    }

    static func migrate(_ connection: PostgresConnection) throws(StorageError) {
        try connection.execute("BEGIN")
        do throws(StorageError) {
            try connection.run("SELECT pg_advisory_xact_lock($1)", [.integer(LockKey.migrations.rawValue)])
            try connection.execute("CREATE TABLE IF NOT EXISTS choreo_schema (version integer NOT NULL)")
            var version = Int(try connection.run("SELECT version FROM choreo_schema").rows.first?.first?.integer ?? -1)
            if version < 0 {
                try connection.execute("INSERT INTO choreo_schema (version) VALUES (0)")
                version = 0
            }
            guard version <= migrations.count else {
                throw StorageError(
                    "database schema version \(version) is newer than this choreo (\(migrations.count))",
                    kind: .corrupt)
            }
            for next in version..<migrations.count {
                try connection.execute(migrations[next])
                try connection.run("UPDATE choreo_schema SET version = $1", [.integer(Int64(next + 1))])
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    public func schemaVersion() throws(StorageError) -> Int {
        try withConnection(retry: true) { connection throws(StorageError) in
            Int(try connection.run("SELECT version FROM choreo_schema").rows.first?.first?.integer ?? 0)
        }
    }

    public var coordination: (any ReplicaCoordination)? { replicas }

    // MARK: Pool

    /// Runs `body` on a pool connection. A connection found broken is reset first; `retry`
    /// runs a read once more on a fresh connection when the first attempt found the
    /// connection broken (the server restarted since it was last used).
    func withConnection<T>(retry: Bool = false, _ body: (PostgresConnection) throws(StorageError) -> T)
        throws(StorageError) -> T
    {
        let connection = try checkout()
        var healthy = true
        defer { checkin(connection, healthy: healthy) }
        do {
            try connection.resetIfBroken()
            return try body(connection)
        } catch {
            guard !connection.isOpen else { throw error }
            guard retry, (try? connection.resetIfBroken()) != nil else {
                healthy = false
                throw error
            }
            do {
                return try body(connection)
            } catch {
                healthy = connection.isOpen
                throw error
            }
        }
    }

    /// Runs `body` in a transaction on a pool connection.
    func transaction<T>(_ body: (PostgresConnection) throws(StorageError) -> T) throws(StorageError) -> T {
        try withConnection { connection throws(StorageError) in
            try connection.execute("BEGIN")
            do throws(StorageError) {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    private func checkout() throws(StorageError) -> PostgresConnection {
        let deadline = Date().addingTimeInterval(Self.checkoutWait)
        pool.lock()
        while !closed && idle.isEmpty && open >= Self.maxConnections {
            guard pool.wait(until: deadline) else {
                pool.unlock()
                throw StorageError(
                    "all \(Self.maxConnections) database connections stayed busy for \(Self.checkoutWait) s")
            }
        }
        if closed {
            pool.unlock()
            throw StorageError("the database is closed")
        }
        if let connection = idle.popLast() {
            pool.unlock()
            return connection
        }
        open += 1
        pool.unlock()
        do {
            return try PostgresConnection(
                url: url, defaults: Self.connectionDefaults, statementDeadline: statementDeadline)
        } catch {
            pool.lock()
            open -= 1
            pool.signal()
            pool.unlock()
            throw error
        }
    }

    private func checkin(_ connection: PostgresConnection, healthy: Bool) {
        pool.lock()
        if healthy && !closed {
            idle.append(connection)
        } else {
            connection.close()
            open -= 1
        }
        pool.signal()
        pool.unlock()
    }

    // MARK: Health and closing

    /// Why storage is not healthy, or nil: the server answers on the health check's own
    /// connection within ``healthWait``, and is a primary (a standby takes no writes).
    public func healthProblem() -> String? {
        healthLock.lock()
        defer { healthLock.unlock() }
        pool.lock()
        let isClosed = closed
        pool.unlock()
        if isClosed { return "the database is closed" }
        // A connection the server ended since the last check is found broken by this one:
        // check once more on a new session before calling storage unhealthy.
        var problem: String?
        for _ in 0..<2 {
            do throws(StorageError) {
                try health.resetIfBroken()
                let row = try health.run("SELECT pg_is_in_recovery()").rows.first
                if row?.first?.bool == true {
                    return "the PostgreSQL server is a standby in recovery: it takes no writes"
                }
                return nil
            } catch {
                problem = error.message
                if health.isOpen { break }
            }
        }
        return problem
    }

    public func close() {
        replicas.close()
        pool.lock()
        closed = true
        let connections = idle
        idle = []
        open -= connections.count
        pool.broadcast()
        pool.unlock()
        connections.forEach { $0.close() }
        healthLock.lock()
        health.close()
        healthLock.unlock()
    }

    // MARK: Scenes

    public func insert(name: String?, document: [UInt8], created: Date) throws(StorageError) -> SceneSummary {
        let id = StoredIdentity.sceneID()
        let timestamp = StoredIdentity.timestamp(created)
        _ = try withConnection { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO scenes (id, name, created, document) VALUES ($1, $2, $3, $4)",
                [.text(id), name.map { .text($0) } ?? .null, .text(timestamp), .bytes(document)])
        }
        return SceneSummary(id: id, name: name, created: timestamp)
    }

    public func get(_ id: String) throws(StorageError) -> SceneRecord? {
        try withConnection(retry: true) { connection throws(StorageError) in
            guard
                let row = try connection.run(
                    "SELECT id, name, created, document FROM scenes WHERE id = $1", [.text(id)]
                ).rows.first
            else { return nil }
            return SceneRecord(
                summary: SceneSummary(id: row[0].text ?? id, name: row[1].text, created: row[2].text ?? ""),
                document: row[3].bytes ?? [])
        }
    }

    public func delete(_ id: String) throws(StorageError) -> Bool {
        try withConnection { connection throws(StorageError) in
            try connection.run("DELETE FROM scenes WHERE id = $1", [.text(id)]).changed > 0
        }
    }

    public func list(limit: Int, after cursor: Int64?) throws(StorageError) -> (items: [SceneSummary], next: Int64?) {
        try withConnection(retry: true) { connection throws(StorageError) in
            let rows = try connection.run(
                "SELECT id, name, created, seq FROM scenes WHERE seq < $1 ORDER BY seq DESC LIMIT $2",
                [.integer(cursor ?? Int64.max), .integer(Int64(limit + 1))]
            ).rows
            let items = rows.prefix(limit).map {
                SceneSummary(id: $0[0].text ?? "", name: $0[1].text, created: $0[2].text ?? "")
            }
            let next = rows.count > limit ? rows[limit - 1][3].integer : nil
            return (Array(items), next)
        }
    }
}
