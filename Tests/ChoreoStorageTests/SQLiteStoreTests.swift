import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoStorage

@Suite final class SQLiteStoreTests {
    /// Removed after each test, with every store made in it.
    let scratch = Scratch("choreo-store")

    func directory() -> String { scratch.file(UUID().uuidString) }

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

/// Database URLs in logs and messages carry no password, wherever the URL has it.
@Test func databaseURLsAreRedacted() {
    #expect(PostgresConnection.redacted("postgres://u:pw@h:5432/db") == "postgres://u:…@h:5432/db")
    #expect(
        PostgresConnection.redacted("postgres://u@h/db?password=pw&sslmode=off")
            == "postgres://u@h/db?password=…&sslmode=off")
    #expect(PostgresConnection.redacted("postgres://u:pw@h/db?Password=pw") == "postgres://u:…@h/db?password=…")
    #expect(!PostgresConnection.redacted("host=h password=pw dbname=d").contains("pw"))
}
