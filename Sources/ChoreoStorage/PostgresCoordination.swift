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

    init(url: String) {
        self.url = url
    }

    var isLeader: Bool {
        leaderLock.lock()
        defer { leaderLock.unlock() }
        return leading
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
            if leading {
                let held = try connection.run(
                    """
                    SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
                        AND pid = pg_backend_pid() AND ((classid::bigint << 32) | objid::bigint) = $1)
                    """, [.integer(PostgresStore.LockKey.leader.rawValue)]
                ).rows.first?.first?.bool
                leading = held == true
            } else {
                leading =
                    try connection.run(
                        "SELECT pg_try_advisory_lock($1)", [.integer(PostgresStore.LockKey.leader.rawValue)]
                    ).rows.first?.first?.bool == true
            }
        } catch {
            // Cut off from the database: not the leader, whatever the database still thinks.
            leading = false
            if let connection = leaderConnection, !connection.isOpen {
                connection.close()
                leaderConnection = nil
            }
        }
        return leading
    }

    func resign() {
        leaderLock.lock()
        defer { leaderLock.unlock() }
        if leading, let connection = leaderConnection {
            _ = try? connection.run("SELECT pg_advisory_unlock($1)", [.integer(PostgresStore.LockKey.leader.rawValue)])
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
