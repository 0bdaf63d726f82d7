import Dispatch
import Foundation

/// Replicas sharing one PostgreSQL database agree on a leader and tell each other of changes
/// through PostgreSQL alone: no consensus of choreo's own.
///
/// - Leadership is a session-level advisory lock (`pg_try_advisory_lock`) held on a
///   connection of its own. PostgreSQL releases it when that session ends: at once when the
///   leader's process dies (its kernel closes the socket), and within
///   ``serverDetectsDeadPeer`` when its host or network does (server-side TCP keepalives).
///   A leader checks on every ``campaign()`` that it still holds the lock, over a connection
///   that gives up after ``leaderDetectsLostServer``, which is shorter, so a cut-off leader
///   stops before another can start.
/// - Or, where a PostgreSQL-compatible database has no advisory locks, a lease: a row in
///   `choreo_leases` whose expiry is in the database's clock (no replica's clock matters),
///   taken when it has expired and renewed by its holder on every ``campaign()``. The holder
///   stops leading when a renewal fails, and at the latest ``leaderDetectsLostServer`` after
///   its last good one, which is shorter than the lease, so a cut-off leader stops first.
/// - Changes are `NOTIFY`/`LISTEN`, delivered when the notifying transaction commits.
///
/// `@unchecked Sendable`: each connection is used under its own lock, or only by the
/// listening thread.
final class PostgresCoordination: ReplicaCoordination, @unchecked Sendable {
    let url: String

    /// The leader's session settings: the server drops a silent peer after 5 + 3 × 1 s.
    static let leaderSetup = [
        "SET tcp_keepalives_idle = 5", "SET tcp_keepalives_interval = 1", "SET tcp_keepalives_count = 3",
        "SET statement_timeout = 2000",
    ]
    static let serverDetectsDeadPeer = 8.0
    /// The leader's client side: unacknowledged data for 3 s, or 2 s idle + 2 × 1 s probes.
    static let leaderDefaults = PostgresStore.connectionDefaults.merging([
        "tcp_user_timeout": "3000", "keepalives_idle": "2", "keepalives_interval": "1", "keepalives_count": "2",
        "connect_timeout": "3",
    ]) { $1 }
    static let leaderDetectsLostServer = 4.0

    private let leaderLock = NSLock()
    /// Guarded by `leaderLock`.
    private var leaderConnection: PostgresConnection?
    private var leading = false

    private let notifyLock = NSLock()
    /// Guarded by `notifyLock`.
    private var notifyConnection: PostgresConnection?

    private let listenLock = NSLock()
    /// Guarded by `listenLock`.
    private var handlers: [String: [@Sendable (String) -> Void]] = [:]
    private var listening = false
    private var closed = false

    let leadership: PostgresStore.Leadership
    /// This replica's name in a lease row.
    let holder = "replica-" + UUID().uuidString.lowercased()
    /// Guarded by `leaderLock`: when the last lease renewal succeeded (monotonic).
    private var renewed: UInt64 = 0

    init(url: String, leadership: PostgresStore.Leadership = .advisoryLock) {
        self.url = url
        self.leadership = leadership
    }

    var isLeader: Bool {
        leaderLock.lock()
        defer { leaderLock.unlock() }
        return leading && leaseStillValid
    }

    func campaign() -> Bool {
        leaderLock.lock()
        defer { leaderLock.unlock() }
        guard !closed else { return false }
        do throws(StorageError) {
            if let connection = leaderConnection {
                // A session opened again is a new session: whatever lock the old one held is gone.
                if try connection.resetIfBroken() { leading = false }
            } else {
                leaderConnection = try PostgresConnection(
                    url: url, defaults: Self.leaderDefaults, setup: Self.leaderSetup)
                leading = false
            }
            guard let connection = leaderConnection else { return false }
            switch leadership {
            case .advisoryLock: leading = try holdsLock(connection)
            case .lease(let seconds): leading = try holdsLease(connection, seconds: seconds)
            }
        } catch {
            // Cut off from the database: not the leader, whatever the database still thinks.
            leading = false
            if let connection = leaderConnection, !connection.isOpen {
                connection.close()
                leaderConnection = nil
            }
        }
        return leading && leaseStillValid
    }

    /// Takes the advisory lock, or checks that this session still holds it.
    private func holdsLock(_ connection: PostgresConnection) throws(StorageError) -> Bool {
        if leading {
            let held = try connection.run(
                """
                SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
                    AND pid = pg_backend_pid() AND ((classid::bigint << 32) | objid::bigint) = $1)
                """, [.integer(PostgresStore.LockKey.leader.rawValue)]
            ).rows.first?.first?.bool
            return held == true
        }
        return try connection.run(
            "SELECT pg_try_advisory_lock($1)", [.integer(PostgresStore.LockKey.leader.rawValue)]
        ).rows.first?.first?.bool == true
    }

    /// Takes the lease if it is free or expired, or renews it if it is this replica's: one
    /// statement, which returns a row only when this replica holds the lease afterwards.
    private func holdsLease(_ connection: PostgresConnection, seconds: Double) throws(StorageError) -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        let rows = try connection.run(
            """
            INSERT INTO choreo_leases AS lease (name, holder, expires)
            VALUES ('leader', $1, extract(epoch FROM clock_timestamp()) + $2)
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
            WHERE lease.holder = excluded.holder OR lease.expires < extract(epoch FROM clock_timestamp())
            RETURNING holder
            """, [.text(holder), .real(seconds)]
        ).rows
        guard !rows.isEmpty else { return false }
        // The lease runs from before the statement was sent: count from then.
        renewed = start
        return true
    }

    /// Whether the lease this replica renewed last is still surely its own (lease mode).
    private var leaseStillValid: Bool {
        guard case .lease = leadership else { return true }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- renewed) / 1e9
        return elapsed < Self.leaderDetectsLostServer
    }

    func resign() {
        leaderLock.lock()
        defer { leaderLock.unlock() }
        if leading, let connection = leaderConnection {
            switch leadership {
            case .advisoryLock:
                _ = try? connection.run(
                    "SELECT pg_advisory_unlock($1)", [.integer(PostgresStore.LockKey.leader.rawValue)])
            case .lease:
                _ = try? connection.run(
                    "DELETE FROM choreo_leases WHERE name = 'leader' AND holder = $1", [.text(holder)])
            }
        }
        leading = false
        leaderConnection?.close()
        leaderConnection = nil
    }

    func notify(channel: String, payload: String) throws(StorageError) {
        notifyLock.lock()
        defer { notifyLock.unlock() }
        if notifyConnection == nil {
            notifyConnection = try PostgresConnection(url: url, defaults: PostgresStore.connectionDefaults)
        }
        guard let connection = notifyConnection else { return }
        do throws(StorageError) {
            try connection.resetIfBroken()
            try connection.run("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
        } catch {
            if !connection.isOpen {
                connection.close()
                notifyConnection = nil
            }
            throw error
        }
    }

    func listen(channel: String, _ handler: @escaping @Sendable (String) -> Void) {
        listenLock.lock()
        handlers[channel, default: []].append(handler)
        let start = !listening
        listening = true
        listenLock.unlock()
        if start {
            let thread = Thread { [weak self] in self?.listenLoop() }
            thread.name = "choreo-listen"
            thread.start()
        }
    }

    /// The listening thread: one connection, opened again (once a second at most) when lost.
    private func listenLoop() {
        var connection: PostgresConnection?
        var subscribed: Set<String> = []
        var reconnected = false
        while true {
            listenLock.lock()
            let isClosed = closed
            let current = handlers
            listenLock.unlock()
            if isClosed { break }
            do throws(StorageError) {
                if connection == nil {
                    connection = try PostgresConnection(url: url, defaults: PostgresStore.connectionDefaults)
                    subscribed = []
                }
                guard let open = connection else { continue }
                for channel in current.keys where !subscribed.contains(channel) {
                    try open.listen(channel)
                    subscribed.insert(channel)
                }
                if reconnected {
                    reconnected = false
                    for handlers in current.values { handlers.forEach { $0("") } }
                }
                for notice in try open.notifications(waiting: 0.5) {
                    current[notice.channel]?.forEach { $0(notice.payload) }
                }
            } catch {
                connection?.close()
                connection = nil
                reconnected = true
                Thread.sleep(forTimeInterval: 1)
            }
        }
        connection?.close()
    }

    /// Gives up leadership and closes every connection; the listening thread ends within a second.
    func close() {
        resign()
        leaderLock.lock()
        notifyLock.lock()
        listenLock.lock()
        closed = true
        notifyConnection?.close()
        notifyConnection = nil
        listenLock.unlock()
        notifyLock.unlock()
        leaderLock.unlock()
    }
}
