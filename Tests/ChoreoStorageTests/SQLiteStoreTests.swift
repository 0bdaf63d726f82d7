import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoStorage

@Suite final class SQLiteStoreTests {
    /// Removed after each test, with every store made in it.
    let scratch = Scratch("choreo-store")

    func directory() -> String { scratch.file(UUID().uuidString) }

    @Test func insertGetListDelete() throws {
        let store = try SQLiteStore(directory: directory())
        #expect(try store.schemaVersion() == SQLiteStore.migrations.count)
        var ids: [String] = []
        for index in 0..<5 {
            ids.append(try store.insert(name: "scene \(index)", document: Array("{\"n\":\(index)}".utf8)).id)
        }
        #expect(try store.get(ids[2])?.document == Array("{\"n\":2}".utf8))
        let first = try store.list(limit: 2, after: nil)
        #expect(first.items.map(\.id) == [ids[4], ids[3]])
        let second = try store.list(limit: 2, after: first.next)
        #expect(second.items.map(\.id) == [ids[2], ids[1]])
        let last = try store.list(limit: 2, after: second.next)
        #expect(last.items.map(\.id) == [ids[0]] && last.next == nil)
        #expect(try store.delete(ids[0]))
        #expect(try !store.delete(ids[0]))
        #expect(try store.get(ids[0]) == nil)
        #expect(store.healthProblem() == nil)
    }

    @Test func reopensAndKeepsData() throws {
        let directory = directory()
        let id: String
        do {
            let store = try SQLiteStore(directory: directory)
            id = try store.insert(name: nil, document: [1, 2, 3]).id
            store.close()
            #expect(store.healthProblem() != nil)
        }
        let reopened = try SQLiteStore(directory: directory)
        #expect(try reopened.get(id)?.document == [1, 2, 3])
        #expect(try reopened.get(id)?.summary.name == nil)
    }

    @Test func refusesNewerSchema() throws {
        let directory = directory()
        let store = try SQLiteStore(directory: directory)
        store.close()
        let database = try SQLiteDatabase(path: store.path)
        try database.execute("PRAGMA user_version = 99")
        database.close()
        #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
    }

    /// A data directory deleted under a running store: health says so and writes fail, rather
    /// than acknowledging scenes that are gone at the next start.
    @Test func vanishedDirectoryIsUnhealthyAndRefusesWrites() throws {
        let directory = directory()
        let store = try SQLiteStore(directory: directory)
        _ = try store.insert(name: nil, document: [1])
        try FileManager.default.removeItem(atPath: directory)
        #expect(store.healthProblem()?.contains("is gone") == true)
        #expect(throws: StorageError.self) { try store.insert(name: nil, document: [2]) }
    }

    /// A database file replaced under a running store is noticed too.
    @Test func replacedFileIsUnhealthy() throws {
        let directory = directory()
        let store = try SQLiteStore(directory: directory)
        let path = store.path
        try FileManager.default.moveItem(atPath: path, toPath: path + ".old")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(store.healthProblem()?.contains("was replaced") == true)
        #expect(throws: StorageError.self) { try store.get("x") }
    }

    /// Another connection holding the write lock makes health fail after a bounded wait, and
    /// the store is healthy again once the lock is released.
    @Test func heldWriteLockIsUnhealthy() throws {
        let store = try SQLiteStore(directory: directory())
        #expect(store.healthProblem() == nil)
        let other = try SQLiteDatabase(path: store.path, busyTimeout: 0)
        try other.execute("BEGIN IMMEDIATE")
        #expect(store.healthProblem()?.contains("locked") == true)
        try other.execute("ROLLBACK")
        #expect(store.healthProblem() == nil)
        other.close()
    }
}
