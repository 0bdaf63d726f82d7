import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoRaster

/// Paths on the web as CSS `offset-path`: the element follows the path itself, and its
/// keyframes say how far along it is; its turn (`rotationMode`) after the offset, in `transform`.
@Suite(.serialized) struct OffsetPathExportTests {
    let scratch = Scratch("choreo-export-offset-path")

    /// A sublayer of a moved superlayer whose bounds' origin is not zero, at its model position
    /// until a path animation in the linear mode with its own key times begins between frames
    /// (its curve, a line and a quadratic), back at its model position after it; and a turn of
    /// its own beside it.
    static let nested = """
        {"canvas": {"width": 320, "height": 240, "background": [1, 1, 1, 1]},
         "layers": [
           {"id": "frame", "position": [170, 130], "bounds": [10, -20, 280, 200], "backgroundColor": [0.93, 0.93, 0.96, 1],
            "sublayers": [
              {"id": "puck", "position": [60, 40], "bounds": [0, 0, 24, 16], "backgroundColor": [0.9, 0.3, 0.2, 1]}]}],
         "script": [{"at": 0, "do": [
           {"add": {"type": "keyframe", "keyPath": "position", "duration": 1.1, "beginTime": 0.217,
                    "path": "M 40 10 C 80 -30 200 -10 220 60 L 120 150 Q 60 170 40 10",
                    "keyTimes": [0, 0.5, 0.7, 1], "timingFunctions": ["easeIn", "linear", "easeOut"]}, "layer": "puck"},
           {"add": {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 1.5,
                    "duration": 1.4, "timingFunction": "easeInEaseOut"}, "layer": "frame"}]}]}
        """

    static func nestedTimeline() throws -> Timeline {
        try SceneRunner.run(try SceneDecoder.decode(bytes: Array(nested.utf8)).scene)
    }

    @Test func pathsAreOffsetPaths() throws {
        let timeline = try LottieRlottieTests.timeline("swift-orbit-path.json")
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .css, fps: 30), name: "orbit")
        let css = String(decoding: artifact.bytes, as: UTF8.self)
        #expect(css.contains("offset-path: path(\"M 20 200 L "))
        #expect(css.contains("offset-anchor: 20px 10px; offset-rotate: 0deg"))
        // The turn after the offset, in transform; no rotate property to turn the offset itself.
        #expect(css.contains("transform: rotate("))
        #expect(!css.contains("{ rotate:") && !css.contains("; rotate:"))
        #expect(css.contains("@keyframes l0-offset {"))
        // While the animation runs the translate holds still: the path places the plane.
        let translate =
            try #require(css.components(separatedBy: "@keyframes l0-translate {").last)
            .components(separatedBy: "\n}").first ?? ""
        #expect(translate.components(separatedBy: "% {").count <= 4, "\(translate)")
        let entry = try #require(artifact.report.baked.first { $0.properties == ["position"] })
        #expect(entry.note?.contains("offset-path") ?? false)
        #expect(artifact.report.measured.position < 0.05, "the report measured \(artifact.report.measured.position) pt")
        // Lottie has no offset path: its positions are sampled as before.
        let lottie = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: 30), name: "orbit")
        #expect(!lottie.report.baked.contains { $0.note?.contains("offset-path") ?? false })
    }

    /// Each layer's bounding box on the stage (width, height) as the engine has it at `time`.
    static func engineBoxes(_ renderer: FrameRenderer, _ timeline: Timeline, at time: Double) -> [String: Point] {
        EasedKeyframeTests.enginePoints(renderer, timeline, at: time) { b in
            [
                Point(b.origin.x, b.origin.y), Point(b.origin.x + b.size.x, b.origin.y),
                Point(b.origin.x, b.origin.y + b.size.y), Point(b.origin.x + b.size.x, b.origin.y + b.size.y),
            ]
        }
        .mapValues { corners in
            let xs = corners.map(\.x)
            let ys = corners.map(\.y)
            return Point(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        }
    }

    /// Chromium places the elements along the paths as the engine does, between frames, and
    /// turns them as it does (their bounding boxes' sizes).
    @Test(.enabled(if: Chromium.available), arguments: ["swift-orbit-path.json", "ball-path.json", "nested"])
    func chromiumFollowsThePathsAsTheEngineDoes(example: String) throws {
        let timeline = try example == "nested" ? Self.nestedTimeline() : LottieRlottieTests.timeline(example)
        let fps = 30.0
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: fps), name: example)
        #expect(String(decoding: artifact.bytes, as: UTF8.self).contains("offset-path: path("))
        let end = Double(artifact.report.frames - 1) / fps
        let times = (0..<18).map { (Double($0) + 0.37) * end / 18 }
        let rows = try EasedKeyframeTests.probe(artifact, at: times, scratch: scratch, name: "offset-\(example)")
        #expect(rows.count == times.count)
        let renderer = FrameRenderer(timeline: timeline)
        var worst = 0.0
        var worstBox = 0.0
        var compared = 0
        for (time, row) in zip(times, rows) {
            let engine = EasedKeyframeTests.engineCentres(renderer, timeline, at: time)
            let boxes = Self.engineBoxes(renderer, timeline, at: time)
            for (name, b) in engine {
                let page = try #require(row[name], "no \(name) on the page")
                worst = max(worst, ((page[0] - b.x) * (page[0] - b.x) + (page[1] - b.y) * (page[1] - b.y)).squareRoot())
                let box = try #require(boxes[name])
                worstBox = max(worstBox, abs(page[3] - box.x), abs(page[4] - box.y))
                compared += 1
            }
        }
        print(
            "offset paths of \(example) in Chromium: largest centre difference \(worst) pt, box size \(worstBox) pt over \(compared) layers (report: \(artifact.report.measured.position) pt)"
        )
        #expect(compared >= times.count)
        #expect(worst < 0.05, "Chromium places \(example)'s layers \(worst) pt from the engine")
        // The turn is sampled at 30 fps: its boxes within a tenth of a point.
        #expect(worstBox < 0.1, "Chromium turns \(example)'s layers to boxes \(worstBox) pt from the engine's")
    }
}
