import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoStorage

/// Where a contract test's store lives: a SQLite file, or a PostgreSQL database of its own.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }

    /// SQLite always; PostgreSQL when a cluster runs (always under `make test`, which requires it).
    static var under: [Backend] {
        TestDatabase.clusterURL != nil || TestDatabase.required ? [.sqlite, .postgresql] : [.sqlite]
    }
}

/// A store and what keeps its data alive: a scratch directory, or a test database.
/// `@unchecked Sendable`: immutable once made.
final class Fixture: @unchecked Sendable {
    let backend: Backend
    private let scratch = Scratch("choreo-contract")
    let database: TestDatabase?

    init(_ backend: Backend) throws {
        self.backend = backend
        database = backend == .postgresql ? try TestDatabase() : nil
    }

    /// Opens (and migrates) the store; each call is a new store on the same data.
    func open() throws -> any Storage {
        switch backend {
        case .sqlite: try SQLiteStore(directory: scratch.file("data"))
        case .postgresql: try PostgresStore(url: database!.url)
        }
    }
}

/// One contract, two adapters: every behaviour the HTTP layer relies on, against SQLite and
/// against a real PostgreSQL server.
@Suite struct StorageContractTests {
    @Test(arguments: Backend.under) func scenesInsertGetListDelete(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let store = try fixture.open()
        defer { store.close() }
        #expect(try store.schemaVersion() >= 1)
        var ids: [String] = []
        for index in 0..<5 {
            ids.append(try store.insert(name: "scene \(index)", document: Array("{\"n\":\(index)}".utf8)).id)
        }
        #expect(Set(ids).count == 5)
        #expect(try store.get(ids[2])?.document == Array("{\"n\":2}".utf8))
        #expect(try store.get(ids[2])?.summary.name == "scene 2")
        let first = try store.list(limit: 2, after: nil)
        #expect(first.items.map(\.id) == [ids[4], ids[3]])
        let second = try store.list(limit: 2, after: first.next)
        #expect(second.items.map(\.id) == [ids[2], ids[1]])
        let last = try store.list(limit: 2, after: second.next)
        #expect(last.items.map(\.id) == [ids[0]] && last.next == nil)
        #expect(try store.delete(ids[0]))
        #expect(try !store.delete(ids[0]))
        #expect(try store.get(ids[0]) == nil)
        #expect(try store.get("scn_missing") == nil)
        // Bytes come back exactly: every byte value, and an empty name is not a missing one.
        let bytes = (0...255).map { UInt8($0) }
        let odd = try store.insert(name: "", document: bytes)
        #expect(try store.get(odd.id)?.document == bytes)
        #expect(try store.get(odd.id)?.summary.name == "")
        #expect(store.healthProblem() == nil)
    }

    @Test(arguments: Backend.under) func dataSurvivesReopening(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let id: String
        let session: String
        do {
            let store = try fixture.open()
            id = try store.insert(name: nil, document: [1, 2, 3]).id
            session = try store.createSession(scene: [7])
            #expect(try store.appendInput(session: session, number: 0, at: 0.25, document: [8]))
            store.close()
            #expect(store.healthProblem() != nil)
            #expect(throws: StorageError.self) { try store.get(id) }
        }
        let reopened = try fixture.open()
        defer { reopened.close() }
        #expect(try reopened.get(id)?.document == [1, 2, 3])
        #expect(try reopened.get(id)?.summary.name == nil)
        #expect(try reopened.session(session) == SessionRecord(id: session, scene: [7], inputs: [(0.25, [8])]))
    }

    @Test(arguments: Backend.under) func sessionInputsAreNumberedOnce(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let store = try fixture.open()
        defer { store.close() }
        let id = try store.createSession(scene: Array("{}".utf8))
        // Counted (other tests may store sessions in the same database at once).
        #expect(try store.sessionCount() >= 1)
        #expect(try store.appendInput(session: id, number: 0, at: 0, document: [1]))
        #expect(try store.appendInput(session: id, number: 1, at: 0.5, document: [2]))
        // A second writer of number 1 loses, and what the first wrote stays.
        #expect(try !store.appendInput(session: id, number: 1, at: 0.75, document: [3]))
        #expect(try store.session(id)?.inputs.map(\.document) == [[1], [2]])
        #expect(try store.inputs(session: id, from: 1)?.map(\.document) == [[2]])
        #expect(try store.inputs(session: id, from: 2)?.isEmpty == true)
        #expect(try store.inputs(session: "ses_missing", from: 0) == nil)
        #expect(try store.session("ses_missing") == nil)
        #expect(try store.deleteSession(id))
        #expect(try !store.deleteSession(id))
        #expect(try store.inputs(session: id, from: 0) == nil)
    }

    /// Many writers race for the same input numbers on one store: each number is taken once.
    @Test(arguments: Backend.under) func racingWritersTakeEachNumberOnce(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let stores = [try fixture.open(), try fixture.open()]
        defer { stores.forEach { $0.close() } }
        let id = try stores[0].createSession(scene: [0])
        let wins = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: 40) { attempt in
            let store = stores[attempt % 2]
            if (try? store.appendInput(session: id, number: attempt / 4, at: 0, document: [UInt8(attempt)])) == true {
                wins.append(1)
            }
        }
        #expect(wins.values.count == 10)
        #expect(try stores[1].session(id)?.inputs.count == 10)
    }

    @Test(arguments: Backend.under) func arenaConfigurationAndProbeHistory(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let store = try fixture.open()
        defer { store.close() }
        #expect(try store.arenaConfiguration() == nil)
        try store.saveArenaConfiguration([1])
        try store.saveArenaConfiguration([2, 3])
        #expect(try store.arenaConfiguration() == [2, 3])
        #expect(try store.latestProbeSequence() == 0)
        func row(_ node: String, _ time: Int64) -> ProbeRow {
            ProbeRow(
                node: node, url: "http://127.0.0.1:1/", timeMs: time, verdict: time % 2 == 0 ? .up : .failed,
                reason: time % 2 == 0 ? nil : "refused", httpStatus: time % 2 == 0 ? 200 : nil,
                latencyMicroseconds: time * 10)
        }
        try store.appendProbes((0..<Int64(probesKeptPerNode + 20)).map { row("a", $0) } + [row("b", 1)])
        let kept = try store.probes(node: "a")
        #expect(kept.count == probesKeptPerNode)
        #expect(kept.first == row("a", 20) && kept.last == row("a", Int64(probesKeptPerNode + 19)))
        #expect(try store.probes(node: "b") == [row("b", 1)])
        let latest = try store.latestProbeSequence()
        try store.appendProbes([row("b", 2), row("a", 9_999)])
        let after = try store.probes(after: latest, limit: 10)
        #expect(after.map(\.row) == [row("b", 2), row("a", 9_999)])
        #expect(after.map(\.sequence) == after.map(\.sequence).sorted() && after[0].sequence > latest)
        #expect(try store.probes(after: latest, limit: 1).count == 1)
        #expect(try store.latestProbeSequence() == after[1].sequence)
    }

    @Test(arguments: Backend.under) func roundsAreClaimedOnceWhileRunning(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let stores = [try fixture.open(), try fixture.open()]
        defer { stores.forEach { $0.close() } }
        #expect(try stores[0].latestRound() == nil)
        let names = ["alpha", "line\nbreak", "50% off", "%0A"]
        let round: @Sendable (Double) -> StoredRound = { started in
            StoredRound(id: 0, started: started, duration: 10, scene: [1, 2], order: names, champion: "alpha")
        }
        let first = try #require(try stores[0].claimRound(round(1_000)))
        #expect(first.id == 1)
        // Another replica, while it runs: refused; once it is over: the next number.
        #expect(try stores[1].claimRound(round(1_005)) == nil)
        let second = try #require(try stores[1].claimRound(round(1_010)))
        #expect(second.id == 2)
        let read = try #require(try stores[0].latestRound())
        #expect(
            read == StoredRound(id: 2, started: 1_010, duration: 10, scene: [1, 2], order: names, champion: "alpha"))
        // Racing starters: exactly one round.
        let wins = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: 8) { attempt in
            if (try? stores[attempt % 2].claimRound(round(2_000))) != nil { wins.append(1) }
        }
        #expect(wins.values.count == 1)
        for start in 0..<(roundsKept + 5) { _ = try stores[0].claimRound(round(3_000 + 20 * Double(start))) }
        #expect(try stores[1].latestRound()?.id == 3 + roundsKept + 5)
    }

    /// An alert transition is recorded once, with its deliveries, however many replicas race
    /// to record it; the outbox gives the due deliveries and keeps each outcome.
    @Test(arguments: Backend.under) func alertTransitionsAreRecordedOnceWithTheirOutbox(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let stores = [try fixture.open(), try fixture.open()]
        defer { stores.forEach { $0.close() } }
        let event: @Sendable (Int, Int, StoredAlertEvent.Kind) -> StoredAlertEvent = { sequence, reminder, kind in
            StoredAlertEvent(
                rule: "down", node: "db", sequence: sequence, reminder: reminder, event: kind,
                atMs: 1_000 * Int64(sequence * 10 + reminder), sinceMs: 1_000, description: "db is down")
        }
        let delivery: @Sendable (String, String, Int64) -> StoredDelivery = { key, channel, next in
            StoredDelivery(
                key: key, channel: channel, url: "http://127.0.0.1:1/hook", contentType: "application/json",
                body: Array(key.utf8), nextMs: next, createdMs: next)
        }
        let wins = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: 6) { attempt in
            let recorded = try? stores[attempt % 2].recordAlert(
                event(1, 0, .triggered),
                deliveries: [delivery("down/db/1/triggered", "ops", 5), delivery("down/db/1/triggered", "chat", 5)])
            if recorded == true { wins.append(1) }
        }
        #expect(wins.values.count == 1)
        #expect(try stores[1].dueDeliveries(nowMs: 4, limit: 10).isEmpty)
        let due = try stores[1].dueDeliveries(nowMs: 5, limit: 10)
        #expect(due.map(\.channel) == ["ops", "chat"] && due.allSatisfy { $0.status == .retrying })
        try stores[0].updateDelivery(
            key: "down/db/1/triggered", channel: "ops", status: .sent, attempts: 1, nextMs: 5, error: nil)
        try stores[1].updateDelivery(
            key: "down/db/1/triggered", channel: "chat", status: .retrying, attempts: 1, nextMs: 50,
            error: "HTTP 500")
        #expect(try stores[0].dueDeliveries(nowMs: 10, limit: 10).isEmpty)
        #expect(try stores[0].dueDeliveries(nowMs: 50, limit: 10).map(\.lastError) == ["HTTP 500"])
        #expect(try stores[0].deliveryCounts() == [.sent: 1, .retrying: 1])
        // A reminder and the resolution: the newest per rule and node is the resolution.
        #expect(try stores[0].recordAlert(event(1, 1, .reminder), deliveries: []))
        #expect(
            try stores[1].recordAlert(event(2, 0, .resolved), deliveries: [delivery("down/db/2/resolved", "ops", 9)]))
        #expect(try !stores[0].recordAlert(event(2, 0, .resolved), deliveries: []))
        #expect(try stores[0].latestAlertEvents() == [event(2, 0, .resolved)])
        #expect(try stores[1].recentDeliveries(limit: 2).map(\.key) == ["down/db/2/resolved", "down/db/1/triggered"])
        // Reopened, all of it is still there.
        let reopened = try fixture.open()
        defer { reopened.close() }
        #expect(try reopened.latestAlertEvents().count == 1 && reopened.recentDeliveries(limit: 10).count == 3)
    }

    /// Buckets are sums: written with probes, added to what is stored (by any replica), read
    /// back by node and time, totalled per node, and deleted past a retention.
    @Test(arguments: Backend.under) func probeBucketsAddUp(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let stores = [try fixture.open(), try fixture.open()]
        defer { stores.forEach { $0.close() } }
        let width = StoredBucket.columns.count
        func bucket(_ node: String, _ resolution: Int64, _ start: Int64, _ value: Int64) -> StoredBucket {
            StoredBucket(
                node: node, resolution: resolution, startMs: start, sums: (0..<width).map { Int64($0) * value })
        }
        let row = ProbeRow(
            node: "db", url: "http://x/", timeMs: 60_000, verdict: .up, reason: nil, httpStatus: 200,
            latencyMicroseconds: 5)
        try stores[0].appendProbes([row], buckets: [bucket("db", 60_000, 60_000, 1), bucket("db", 3_600_000, 0, 1)])
        try stores[1].appendProbes([], buckets: [bucket("db", 60_000, 60_000, 2), bucket("web", 60_000, 0, 5)])
        let read = try stores[0].buckets(node: "db", fromMs: 0, toMs: 120_000)
        #expect(read == [bucket("db", 60_000, 60_000, 3), bucket("db", 3_600_000, 0, 1)])
        #expect(try stores[1].buckets(node: "db", fromMs: 61_000, toMs: 120_000).isEmpty)
        #expect(try stores[0].bucketCounts() == [60_000: 2, 3_600_000: 1])
        let totals = try stores[1].bucketTotals(resolution: 60_000, fromMs: 0)
        #expect(totals["db"]?.total == 0 && totals["db"]?.up == 3 && totals["web"]?.up == 5)
        #expect(try stores[0].trimBuckets(resolution: 60_000, beforeMs: 60_000) == 1)
        #expect(try stores[1].bucketCounts() == [60_000: 1, 3_600_000: 1])
        #expect(try stores[0].probes(node: "db") == [row])
    }

    /// Replicas starting at once migrate once: every one opens, and the schema is whole.
    @Test(arguments: Backend.under) func concurrentStartsMigrateOnce(_ backend: Backend) throws {
        let fixture = try Fixture(backend)
        let opened = Collected<Int>()
        let failures = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let store = try fixture.open()
                _ = try store.insert(name: nil, document: [1])
                store.close()
                opened.append(1)
            } catch {
                failures.append(1)
                Issue.record("a concurrent start failed: \(error)")
            }
        }
        #expect(opened.values.count == 4 && failures.values.count == 0)
        let store = try fixture.open()
        defer { store.close() }
        #expect(try store.list(limit: 10, after: nil).items.count == 4)
    }
}
