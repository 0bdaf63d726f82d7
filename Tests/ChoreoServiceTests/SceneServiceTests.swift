import ChoreoStorage
import ChoreoTestSupport
import ChoreoTransport
import Foundation
import Testing

@testable import ChoreoService

/// The services without the HTTP edge: a render's output and its memory, a client gone, and the
/// catalog of stored scenes on a real SQLite store in a scratch directory.
@Suite struct SceneServiceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func example(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent("examples/\(name).json")))
    }

    static func bytes(_ output: RenderOutput) -> [UInt8] {
        switch output.body {
        case .bytes(let bytes): return bytes
        case .stream(let stream):
            var all: [UInt8] = []
            while case .bytes(let piece) = stream.next() { all += piece }
            stream.close()
            return all
        }
    }

    @Test func aRenderHoldsItsMemoryUntilItsOutputGoes() throws {
        let memory = RenderMemory(limit: 64 << 20)
        let (scene, _) = try RenderService.scene(from: try Self.example("fade"))
        let query = try RenderService.query([("fps", "10")])
        var output: RenderOutput? = try RenderService.render(
            scene, query, cancellation: nil, run: nil, memory: memory, threads: 1, byteBudget: nil)
        #expect(output?.contentType == "application/json")
        #expect(Self.bytes(output!).starts(with: Array("{".utf8)))
        #expect(memory.inUse == (output?.reservation?.bytes ?? 0))
        output = nil
        #expect(memory.inUse == 0)
    }

    @Test func aRenderWhoseClientLeftIsCancelled() throws {
        let (scene, _) = try RenderService.scene(from: try Self.example("fade"))
        let cancellation = Cancellation()
        cancellation.cancel()
        #expect(throws: ServiceError.cancelled) {
            try RenderService.render(
                scene, try RenderService.query([]), cancellation: cancellation, run: nil, memory: nil, threads: 1,
                byteBudget: nil)
        }
    }

    @Test func theCatalogStoresRunnableScenesOnly() throws {
        let scratch = Scratch("choreo-service")
        let catalog = SceneCatalog(store: try SQLiteStore(directory: scratch.file("data")))
        let memory = RenderMemory(limit: 64 << 20)
        let document = try Self.example("fade")
        let summary = try catalog.store(document, cancellation: nil, memory: memory)
        #expect(try catalog.scene(summary.id).document == document)
        #expect(try catalog.list([]).items.map(\.id) == [summary.id])
        let refused = #expect(throws: ServiceError.self) {
            try catalog.store(Array(#"{"layers": 3}"#.utf8), cancellation: nil, memory: memory)
        }
        if case .invalid(.scene)? = refused?.kind {} else { Issue.record("\(String(describing: refused))") }
        try catalog.delete(summary.id)
        #expect(throws: ServiceError.notFound("No stored scene has the id \(summary.id).")) {
            try catalog.scene(summary.id)
        }
        #expect(memory.inUse == 0)
    }
}
