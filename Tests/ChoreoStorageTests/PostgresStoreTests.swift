import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoStorage

/// What only the PostgreSQL adapter does: replicas' leadership and notifications, surviving a
/// server that drops its connections, refusing a newer schema. Against a real server.
@Suite(.enabled(if: TestDatabase.clusterURL != nil || TestDatabase.required))
struct PostgresStoreTests {
    @Test func refusesNewerSchema() throws {
        let database = try TestDatabase()
        try PostgresStore(url: database.url).close()
        try database.psql("UPDATE choreo_schema SET version = 99")
        do {
            _ = try PostgresStore(url: database.url)
            Issue.record("a newer schema was accepted")
        } catch {
            #expect(error.kind == .corrupt && error.message.contains("newer"))
        }
    }

    @Test func unreachableServerIsUnavailable() {
        do {
            _ = try PostgresStore(url: "postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.kind == .unavailable && error.message.contains("cannot connect"))
        }
    }

    /// A frozen server (its backend stopped, as a paused VM or a black-holed network looks:
    /// TCP stays acknowledged, `statement_timeout` cannot fire) fails a pooled statement as
    /// unavailable at the client's deadline instead of holding the request; once the server
    /// is back, the next request works on a fresh connection. On a cluster of its own: while
    /// the backend is stopped, no `DROP DATABASE` on its cluster can finish.
    @Test func aFrozenServerFailsAtTheStatementDeadline() throws {
        let cluster = try TestCluster()
        defer { withExtendedLifetime(cluster) {} }
        let store = try PostgresStore(url: cluster.url, statementDeadline: 1)
        defer { store.close() }
        let id = try store.insert(name: "kept", document: [7]).id
        let pid = try store.withConnection { connection throws(StorageError) in
            try connection.run("SELECT pg_backend_pid()").rows.first?.first?.integer ?? 0
        }
        #expect(pid > 0)
        #expect(kill(pid_t(pid), SIGSTOP) == 0)
        var resumed = false
        defer { if !resumed { kill(pid_t(pid), SIGCONT) } }
        // Without a client deadline the read would wait for ever: the server thaws after 8 s,
        // and the timing below fails instead.
        DispatchQueue.global().asyncAfter(deadline: .now() + 8) { kill(pid_t(pid), SIGCONT) }
        let started = Date()
        do {
            _ = try store.get(id)
            Issue.record("a frozen server answered")
        } catch {
            #expect(error.kind == .unavailable && error.message.contains("did not answer within 1"))
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.9 && waited < 5, "waited \(waited) s")
        kill(pid_t(pid), SIGCONT)
        resumed = true
        #expect(try store.get(id)?.document == [7])
    }

    /// The server ends every choreo connection (a restart, a failover): the next reads work on
    /// fresh connections, and health recovers.
    @Test func survivesDroppedConnections() throws {
        let database = try TestDatabase()
        let name = TestDatabase.uniqueApplicationName("dropped")
        let store = try PostgresStore(url: database.url(applicationName: name))
        defer { store.close() }
        let id = try store.insert(name: "kept", document: [4]).id
        #expect(store.healthProblem() == nil)
        // The store's sessions, and no other test's: with a timeout, pg_terminate_backend
        // waits until each has ended.
        let ended = try database.terminate(applicationName: name)
        #expect(!ended.isEmpty && ended.allSatisfy { $0 == "t" }, "\(ended)")
        #expect(try store.get(id)?.document == [4])
        #expect(store.healthProblem() == nil)
        #expect(try store.list(limit: 5, after: nil).items.map(\.id) == [id])
    }

    /// One leader at a time; when its session ends, another replica takes over at its next
    /// campaign.
    @Test func leadershipPassesWhenTheLeaderGoes() throws {
        let database = try TestDatabase()
        let leaderName = TestDatabase.uniqueApplicationName("leader")
        let a = try PostgresStore(url: database.url(applicationName: leaderName))
        let b = try PostgresStore(url: database.url(applicationName: TestDatabase.uniqueApplicationName("other")))
        defer { b.close() }
        let first = try #require(a.coordination)
        let second = try #require(b.coordination)
        #expect(first.campaign())
        #expect(!second.campaign())
        #expect(first.campaign() && first.isLeader)
        #expect(!second.campaign())
        // The leader's session is killed, as when its process dies: it notices, the other leads.
        // Only the session of `a` that holds the key on this test's database is ended (advisory
        // locks are per database; other tests' replicas hold the same key on theirs). Without a
        // timeout pg_terminate_backend only signals the session, which may still hold the lock
        // at the next campaign; with one it waits until the session has ended.
        let ended = try database.terminate(
            """
            SELECT l.pid FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND ((l.classid::bigint << 32) | l.objid::bigint) = \(PostgresStore.LockKey.leader.rawValue)
                AND s.application_name = '\(leaderName)'
            """)
        #expect(ended == ["t"], "\(ended)")
        #expect(second.campaign())
        #expect(!first.campaign())
        // A clean shutdown resigns at once.
        b.close()
        #expect(first.campaign())
        a.close()
        #expect(!first.isLeader)
    }

    /// The lease: one holder at a time; a holder that stops renewing (killed) loses it when it
    /// expires in the database's clock, and another takes it; a clean shutdown hands it over.
    @Test func leasePassesWhenItExpires() throws {
        let database = try TestDatabase()
        let a = try PostgresStore(url: database.url, leadership: .lease(seconds: 1))
        let b = try PostgresStore(url: database.url, leadership: .lease(seconds: 1))
        defer { b.close() }
        let first = try #require(a.coordination)
        let second = try #require(b.coordination)
        #expect(first.campaign())
        #expect(!second.campaign())
        #expect(first.campaign())
        // The holder goes silent, as a killed process does (its row stays): the other waits
        // out the lease, then takes it.
        let taken = Date()
        var tookOver = false
        while !tookOver && Date().timeIntervalSince(taken) < 5 {
            tookOver = second.campaign()
            if !tookOver { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(tookOver)
        #expect(Date().timeIntervalSince(taken) >= 0.8)
        #expect(!first.campaign())
        b.coordination?.resign()
        #expect(first.campaign())
        a.close()
        #expect(try database.psql("SELECT count(*) FROM choreo_leases") == "0")
    }

    @Test func notificationsReachEveryReplica() throws {
        let database = try TestDatabase()
        let a = try PostgresStore(url: database.url)
        let b = try PostgresStore(url: database.url)
        defer {
            a.close()
            b.close()
        }
        let heard = Collected<String>()
        try #require(b.coordination).listen(channel: "choreo_test") { heard.append($0) }
        try #require(a.coordination).listen(channel: "choreo_test") { heard.append("a:" + $0) }
        // The listeners subscribe on their own thread: send until both have heard (bounded).
        let deadline = Date().addingTimeInterval(10)
        var sent = 0
        func bothHeard() -> Bool {
            let values = heard.values
            return values.contains { $0.hasPrefix("ping") } && values.contains { $0.hasPrefix("a:ping") }
        }
        while !bothHeard() && Date() < deadline {
            sent += 1
            try #require(a.coordination).notify(channel: "choreo_test", payload: "ping \(sent)")
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(bothHeard())
        // Every notification is delivered once, in order, to a listener subscribed before it.
        let first = try #require(heard.values.first { $0.hasPrefix("ping") })
        let fromB = heard.values.filter { $0.hasPrefix("ping") }
        #expect(fromB == (Int(first.dropFirst(5))!...sent).prefix(fromB.count).map { "ping \($0)" })
    }
}
