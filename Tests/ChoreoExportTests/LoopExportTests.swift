import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoRaster

/// A scene whose repeating part begins after a part that does not repeat: its Lottie file
/// plays from where the repeat begins (`ip`), over one common period, so that a player
/// looping the whole file is seamless.
@Suite struct LoopExportTests {
    /// A dot that slides in over 0.4 s and then pulses for ever (0.3 s there and back).
    static let scene = """
        {"name": "late loop", "canvas": {"width": 120, "height": 60, "background": "#FFFFFF"},
         "layers": [{"id": "dot", "position": [20, 30], "bounds": [0, 0, 20, 20], "cornerRadius": 10,
                     "backgroundColor": "#FF3B30"}],
         "script": [{"at": 0, "do": [
           {"add": {"type": "basic", "keyPath": "position.x", "fromValue": 20, "toValue": 80, "duration": 0.4,
                    "fillMode": "forwards", "removedOnCompletion": false}, "layer": "dot"},
           {"add": {"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 1.5, "duration": 0.15,
                    "beginTime": 0.4, "autoreverses": true, "repeatCount": "infinity"}, "layer": "dot"}]}]}
        """

    @Test func aLoopAfterAnIntroPlaysFromWhereItRepeats() throws {
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(Self.scene.utf8)).scene)
        let fps = 30.0
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: fps), name: "late")
        let loop = try #require(artifact.report.loop)
        let period = try #require(loop.period)
        #expect(abs(period - 0.3) < 1e-9)
        #expect(loop.start > 0.39 && loop.start < 0.5)
        #expect(loop.seamless)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(artifact.bytes)) as? [String: Any])
        let ip = try #require(document["ip"] as? Double)
        let op = try #require(document["op"] as? Double)
        #expect(ip == (loop.start * fps).rounded())
        #expect(op - ip == (period * fps).rounded(), "one period: no frame shown twice at the seam")
        // rlottie counts the frames from ip: its frame k is the scene at (ip + k) / fps, and the
        // one after its last, its first again, is the scene at op / fps.
        let player = try #require(LottieRlottieTests.Player(artifact.bytes))
        #expect(player.frames == Int(op - ip))
        let renderer = FrameRenderer(timeline: timeline)
        func choreo(_ frame: Double) -> [UInt32] {
            renderer.draw(at: SceneTime.quantize(frame / fps)).words()
        }
        #expect(LottieRlottieTests.meanDifference(choreo(op), choreo(ip)) < 0.01)
        for k in [0, 4, player.frames - 1] {
            let difference = LottieRlottieTests.meanDifference(player.render(k), choreo(ip + Double(k)))
            #expect(difference < 2, "frame \(k): \(difference) levels")
        }
        #expect(LottieRlottieTests.meanDifference(player.render(0), choreo(op)) < 2)
        // The dotLottie manifest loops it.
        let dot = try Exporter.export(timeline, options: ExportOptions(format: .dotlottie, fps: fps), name: "late")
        let manifestBytes = try #require(try DotLottieTests.entries(dot.bytes)["manifest.json"])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(manifestBytes)) as? [String: Any])
        let animations = try #require(manifest["animations"] as? [[String: Any]])
        #expect(animations.first?["loop"] as? Bool == true)
    }
}
