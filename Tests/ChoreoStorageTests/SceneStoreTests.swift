import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoStorage

@Suite final class SceneStoreTests {
    /// Removed after each test, with every store made in it.
    let scratch = Scratch("choreo-store")

    func directory() -> String { scratch.file(UUID().uuidString) }

    @Test func insertGetListDelete() throws {
        let store = try SceneStore(directory: directory())
        #expect(try store.schemaVersion() == SceneStore.migrations.count)
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
        #expect(store.ping())
    }

    @Test func reopensAndKeepsData() throws {
        let directory = directory()
        let id: String
        do {
            let store = try SceneStore(directory: directory)
            id = try store.insert(name: nil, document: [1, 2, 3]).id
            store.close()
            #expect(!store.ping())
        }
        let reopened = try SceneStore(directory: directory)
        #expect(try reopened.get(id)?.document == [1, 2, 3])
        #expect(try reopened.get(id)?.summary.name == nil)
    }

    @Test func refusesNewerSchema() throws {
        let directory = directory()
        let store = try SceneStore(directory: directory)
        store.close()
        let database = try SQLiteDatabase(path: store.path)
        try database.execute("PRAGMA user_version = 99")
        database.close()
        #expect(throws: StorageError.self) { try SceneStore(directory: directory) }
    }
}
