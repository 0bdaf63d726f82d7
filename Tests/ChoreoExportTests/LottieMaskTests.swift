import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoRaster

/// `masksToBounds` in a Lottie export: each sublayer of a clipping layer (and theirs) masked by
/// the clipping layer's rounded box in its own space, drawn by rlottie as choreo draws it.
@Suite struct LottieMaskTests {
    /// A turning card with rounded corners that clips a banner wider than itself and a puck
    /// sliding out of it; the puck clips a dot of its own (two masks, intersected).
    static let scene = """
        {"name": "clip",
         "canvas": {"width": 240, "height": 160, "background": [1, 1, 1, 1]},
         "layers": [
           {"id": "card", "position": [120, 80], "bounds": [0, 0, 160, 100], "cornerRadius": 20, "masksToBounds": true,
            "backgroundColor": [0.85, 0.9, 1, 1], "sublayers": [
              {"id": "banner", "position": [80, 0], "bounds": [0, 0, 200, 40], "backgroundColor": [0.9, 0.2, 0.2, 1]},
              {"id": "puck", "position": [0, 100], "bounds": [0, 0, 60, 60], "backgroundColor": [0.1, 0.5, 0.2, 1],
               "masksToBounds": true,
               "sublayers": [{"id": "dot", "position": [0, 0], "bounds": [0, 0, 20, 20], "backgroundColor": [0, 0, 0, 1]}]}]}],
         "script": [{"at": 0, "do": [
           {"add": {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 160, "duration": 1,
                    "timingFunction": "easeInEaseOut"}, "layer": "puck"},
           {"add": {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 0.6, "duration": 1},
            "layer": "card"}]}]}
        """

    @Test func rlottieClipsTheSublayersAsCoreAnimationDoes() throws {
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(Self.scene.utf8)).scene)
        let fps = 30.0
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: fps), name: "clip")
        let report = artifact.report
        #expect(!(report.dropped + report.approximated).contains { $0.properties.contains("masksToBounds") })
        // The dot under two clipping layers: two masks, the second intersected.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(artifact.bytes)) as? [String: Any])
        let dot = try #require((document["layers"] as? [[String: Any]])?.first { $0["nm"] as? String == "dot" })
        #expect((dot["masksProperties"] as? [[String: Any]])?.map { $0["mode"] as? String } == ["a", "i"])
        let player = try #require(LottieRlottieTests.Player(artifact.bytes))
        let renderer = FrameRenderer(timeline: timeline)
        var worst = 0.0
        for frame in [0, player.frames / 3, player.frames / 2, player.frames - 2] {
            let time = SceneTime.quantize(Double(frame) / fps)
            let played = player.render(frame)
            let expected = renderer.draw(at: time).words()
            worst = max(worst, LottieRlottieTests.meanDifference(expected, played))
            if frame == 0 {
                // Above the card's top edge, where the banner overflows it: the canvas's white
                // (premultiplied ARGB), not the banner's red.
                let width = player.width
                for (x, y) in [(30, 25), (120, 25), (210, 25), (45, 32)] {
                    #expect(
                        played[y * width + x] == 0xFFFF_FFFF, "rlottie drew the banner outside the card at \(x), \(y)")
                }
            }
        }
        print("clipped Lottie export in rlottie: mean difference \(worst) levels")
        #expect(worst <= 2, "rlottie's frames differ from choreo's by a mean of \(worst) levels")
    }
}
