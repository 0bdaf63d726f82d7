import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// A scene run as a session — its script appended entry by entry, the timeline read in
/// between — gives the render of the whole scene byte for byte.
@Suite struct SessionReplayTests {
    static func render(_ timeline: Timeline, fps: Double = 30) throws -> [UInt8] {
        var query = SamplingQuery()
        query.fps = fps
        return ResponseEncoder.json(try RenderPlan.make(timeline: timeline, query: query), threads: 1)
    }

    /// The scene's script in time order (stable), as both the batch and the session see it.
    static func ordered(_ scene: Scene) -> Scene {
        var sorted = scene
        sorted.script = scene.script.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
        return sorted
    }

    static func replayEqualsRender(_ original: Scene, label: String) throws {
        let scene = ordered(original)
        let batch = try render(SceneRunner.run(scene, horizon: 12))
        var empty = scene
        empty.script = []
        let session = SceneSession(empty)
        for (index, entry) in scene.script.enumerated() {
            try session.append(entry)
            // Reading the timeline in between must not change what comes after.
            if index % 2 == 0 { _ = try session.timeline(horizon: 12) }
        }
        let replayed = try render(session.timeline(horizon: 12))
        #expect(replayed == batch, "\(label)")
        #expect(session.appended == scene.script.count)
    }

    @Test func examplesReplayAsTheyRender() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 9)
        for name in names.sorted() {
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent(name)))
            try Self.replayEqualsRender(try SceneDecoder.decode(bytes: bytes).scene, label: name)
        }
    }

    @Test func generatedScenesReplayAsTheyRender() throws {
        var replayed = 0
        for seed in 1...60 as ClosedRange<UInt64> {
            let text = SamplingProgramTests.scene(seed: seed)
            guard let scene = try? SceneDecoder.decode(bytes: Array(text.utf8)).scene else { continue }
            if (try? SceneRunner.run(Self.ordered(scene), horizon: 12)) == nil {
                // A scene that fails as a render fails as a session too.
                var empty = Self.ordered(scene)
                let script = empty.script
                empty.script = []
                let session = SceneSession(empty)
                #expect(throws: RuntimeError.self, "seed \(seed)") {
                    for entry in script { try session.append(entry) }
                    _ = try session.timeline(horizon: 12)
                }
                continue
            }
            try Self.replayEqualsRender(scene, label: "seed \(seed)")
            replayed += 1
        }
        #expect(replayed >= 40)
    }

    /// Appended entries continue the script's numbering in error paths, as in the render.
    @Test func appendedEntriesAreNumberedAfterTheScript() throws {
        let text = #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"mark": "x"}]}]}"#
        let session = SceneSession(try SceneDecoder.decode(bytes: Array(text.utf8)).scene)
        try session.append(ScriptEntry(at: 1, actions: [.removeLayer("a")]))
        #expect(throws: RuntimeError.self) {
            try session.append(ScriptEntry(at: 2, actions: [.removeLayer("nope")]))
        }
        let fresh = SceneSession(try SceneDecoder.decode(bytes: Array(text.utf8)).scene)
        do throws(RuntimeError) {
            try fresh.append(ScriptEntry(at: 2, actions: [.removeLayer("nope")]))
            Issue.record("an unknown layer must fail")
        } catch {
            #expect(error.path == "$.script[1].do[0].removeLayer")
        }
    }
}
