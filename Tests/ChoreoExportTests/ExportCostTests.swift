import ChoreoEngine
import ChoreoFormat
import ChoreoTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChoreoExport

/// An export's cost is counted from its animations before its work (docs/limits.md): the
/// keyframes they play in the exported span, repeats included, and the times they are sampled.
@Suite struct ExportCostTests {
    static func timeline(_ scene: String) throws -> Timeline {
        try SceneRunner.run(try SceneDecoder.decode(bytes: Array(scene.utf8)).scene)
    }

    /// A keyframe animation of four segments played three times on a layer with a sublayer (its
    /// eased stretches are checked by both), and a group of two basic animations repeated four
    /// times on the sublayer (no stretches: groups are sampled), over 3 s.
    static let known = """
        {"layers": [
           {"id": "a", "position": [50, 50], "bounds": [0, 0, 40, 40],
            "sublayers": [{"id": "b", "position": [10, 10], "bounds": [0, 0, 10, 10]}]}],
         "script": [{"at": 0, "do": [
           {"add": {"type": "keyframe", "keyPath": "position.x", "values": [0, 10, 20, 30, 40], "duration": 1,
                    "repeatCount": 3}, "layer": "a"},
           {"add": {"type": "group", "duration": 0.75, "repeatCount": 4, "animations": [
              {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 0.5},
              {"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 5, "duration": 0.25,
               "repeatCount": 2}]}, "layer": "b"}]}]}
        """

    @Test func theCostOfAKnownScene() throws {
        let timeline = try Self.timeline(Self.known)
        #expect(timeline.naturalEnd == 3)
        let cost = ExportCost(timeline, end: 3, fps: 10)
        #expect(cost.frames == 31)
        #expect(cost.animations == 3)
        // 4 segments × 3 passes, checked by "a" and "b"; the group's children 1 × 4 passes and
        // 1 × 2 passes × 4; and the stretches again for the checks: 12 + 4 + 8 + 24.
        #expect(cost.keyframes == 48)
        // Attached 3 s, 3 s and 3 s of 3: three animations at every frame, and at five points
        // for each of the 24 stretches checked (120).
        #expect(cost.samples == 3 * (31 + 120))
        #expect(throws: Never.self) { try cost.check() }
        // At 240 fps, the same keyframes, more samples.
        #expect(ExportCost(timeline, end: 3, fps: 240).samples == 3 * (721 + 120))
        #expect(ExportCost.grouped(7_507_500) == "7,507,500")
        #expect(ExportCost.grouped(0.125) == "0.125")
        #expect(ExportCost.grouped(60) == "60")
    }

    static func keyframeAnimators(views: Int, keyframes: Int, duration: Double) -> String {
        HostileScenes.keyframeAnimators(views: views, keyframes: keyframes, duration: duration)
    }

    /// Few layers, many animations: 15 views of five tracks (six key paths: a scale is two) of
    /// 200 keyframes of 0.1 ms, repeating: 18,000 animations, each played 500 times in 10 s.
    /// Refused before a frame is sampled, naming the figure and the limit.
    @Test func manyKeyframesAreRefusedBeforeTheWork() throws {
        let timeline = try Self.timeline(Self.keyframeAnimators(views: 15, keyframes: 200, duration: 0.0001))
        #expect(timeline.layers.count == 15)
        let cost = ExportCost(timeline, end: SceneTime.quantize(timeline.naturalEnd), fps: 60)
        #expect(cost.animations == 15 * 6 * 200)
        #expect(cost.keyframes == 15 * 6 * 200 * 500)
        let asked = Mutex(0)
        var refusal: ExportError?
        do {
            _ = try Exporter.export(timeline, options: ExportOptions(format: .lottie)) {
                asked.withLock { $0 += 1 }
                return false
            }
        } catch {
            refusal = error
        }
        guard case .tooLarge(let path, let message)? = refusal else {
            Issue.record("not refused: \(String(describing: refusal))")
            return
        }
        #expect(path == "body")
        #expect(
            message.contains("9,000,000 keyframes (what 18,000 animations play in the 10 s exported")
                && message.contains("at most 1,000,000"), "\(message)")
        // Nothing was sampled.
        #expect(asked.withLock { $0 } == 0)
        // The same views with ten keyframes of 0.1 s each (a 1 s loop) are admitted.
        let calm = try Self.timeline(Self.keyframeAnimators(views: 15, keyframes: 10, duration: 0.1))
        let admitted = ExportCost(calm, end: SceneTime.quantize(calm.naturalEnd), fps: 60)
        #expect(admitted.keyframes == 15 * 6 * 10 * 10)
        #expect(throws: Never.self) { try admitted.check() }
    }

    /// Many animations sampled at many frames (a group of 1,000 on each of 10 layers, 10 s):
    /// refused naming `query.fps` at 60 fps, admitted at 30.
    @Test func manySamplesAreRefusedNamingTheRate() throws {
        let layers = (0..<10).map { #"{"id": "l\#($0)", "position": [\#($0 * 10), 10], "bounds": [0, 0, 4, 4]}"# }
        let children = (0..<1_000).map {
            #"{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": \#(Double($0) / 1_000), "duration": 10}"#
        }
        let adds = (0..<10).map {
            #"{"layer": "l\#($0)", "add": {"type": "group", "duration": 10, "animations": [\#(children.joined(separator: ","))]}}"#
        }
        let scene =
            #"{"layers": [\#(layers.joined(separator: ","))], "script": [{"at": 0, "do": [\#(adds.joined(separator: ","))]}]}"#
        let timeline = try Self.timeline(scene)
        let cost = ExportCost(timeline, end: 10, fps: 60)
        #expect(cost.animations == 10_000)
        #expect(cost.keyframes == 10_000)
        #expect(cost.samples == 10_000 * 601)
        var refusal: ExportError?
        do { try cost.check() } catch { refusal = error }
        guard case .tooLarge(let path, let message)? = refusal else {
            Issue.record("not refused: \(String(describing: refusal))")
            return
        }
        #expect(path == "query.fps")
        #expect(
            message.contains("6,010,000 times (10,000 animations over 601 frames at 60 fps")
                && message.contains("at most 4,000,000"), "\(message)")
        #expect(throws: Never.self) { try ExportCost(timeline, end: 10, fps: 30).check() }
    }

    /// Every example stays far inside both limits (a tenth of each), at the highest rate.
    @Test func everyExampleIsWellInside() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".json") }
        #expect(names.count > 10)
        for name in names.sorted() {
            let bytes = try Array(Data(contentsOf: examples.appendingPathComponent(name)))
            let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: bytes).scene)
            let cost = ExportCost(timeline, end: SceneTime.quantize(timeline.naturalEnd), fps: 240)
            #expect(cost.keyframes <= Double(ExportLimits.maxKeyframes) / 10, "\(name): \(cost)")
            #expect(cost.samples <= Double(ExportLimits.maxSamples) / 10, "\(name): \(cost)")
        }
    }
}
