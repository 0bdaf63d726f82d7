import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChoreoRaster

/// Additive animations written as themselves on the web: each an animation of its own, at its
/// own times and curves, added with `animation-composition: add` (Web Animations `composite:
/// "add"`) to the animation of the value beneath, which no longer holds their values.
@Suite(.serialized) struct AdditiveExportTests {
    let scratch = Scratch("choreo-export-additive")

    /// Overlapping UIView blocks on a card's position and alpha (UIKit's additive animations
    /// from old − new to zero, the second beginning between frames with its own curve), an
    /// explicit additive keyframe shake, an additive turn repeated over again (a jump back at
    /// each pass), the same turn over a plain one (which Chromium does not add to: sampled),
    /// an additive slide that a later plain animation replaces (sampled), and overlapping
    /// blocks on a panel's bounds (its size added, and the corner that a size about the
    /// centre moves).
    static let scene = """
        {"canvas": {"width": 400, "height": 300, "background": [1, 1, 1, 1]},
         "layers": [
           {"id": "card", "position": [100, 150], "bounds": [0, 0, 80, 60], "backgroundColor": [0.2, 0.4, 0.8, 1],
            "cornerRadius": 8},
           {"id": "dot", "position": [300, 80], "bounds": [0, 0, 30, 30], "backgroundColor": [1, 0.23, 0.19, 1]},
           {"id": "spinner", "position": [80, 60], "bounds": [0, 0, 60, 12], "backgroundColor": [0.2, 0.7, 0.3, 1]},
           {"id": "replaced", "position": [60, 260], "bounds": [0, 0, 24, 24], "backgroundColor": [0.5, 0.3, 0.7, 1]},
           {"id": "wheel", "position": [200, 60], "bounds": [0, 0, 60, 12], "backgroundColor": [0.9, 0.6, 0.1, 1]},
           {"id": "panel", "position": [330, 220], "bounds": [0, 0, 60, 40], "backgroundColor": [0.3, 0.3, 0.3, 1]}],
         "script": [
           {"at": 0.05, "do": [
             {"animate": {"duration": 1.2, "changes": {"card": {"position": [300, 150], "opacity": 0.4}}}}]},
           {"at": 0.1, "do": [{"animate": {"duration": 1, "changes": {"panel": {"bounds": [0, 0, 120, 80]}}}}]},
           {"at": 0.43, "do": [
             {"animate": {"duration": 0.6, "options": ["curveEaseIn"], "changes": {"panel": {"bounds": [0, 0, 60, 40]}}}}]},
           {"at": 0.537, "do": [
             {"animate": {"duration": 0.8, "options": ["curveEaseOut"],
                          "changes": {"card": {"position": [260, 240], "opacity": 1}}}}]},
           {"at": 0, "do": [
             {"add": {"type": "keyframe", "keyPath": "position.x", "additive": true, "values": [0, 12, -12, 8, 0],
                      "keyTimes": [0, 0.25, 0.5, 0.75, 1], "duration": 0.6, "beginTime": 0.2,
                      "timingFunctions": ["easeOut", "easeInEaseOut", "easeInEaseOut", "easeIn"]}, "layer": "dot"},
             {"add": {"type": "basic", "keyPath": "transform.rotation.z", "additive": true, "fromValue": 0,
                      "toValue": 0.8, "duration": 0.35, "repeatCount": 3, "beginTime": 0.13,
                      "timingFunction": [0.3, 0.1, 0.3, 1.2]}, "layer": "spinner"},
             {"add": {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 1.2,
                      "duration": 1.2, "timingFunction": "easeInEaseOut"}, "layer": "wheel"},
             {"add": {"type": "basic", "keyPath": "transform.rotation.z", "additive": true, "fromValue": 0,
                      "toValue": 0.8, "duration": 0.35, "repeatCount": 3, "beginTime": 0.13,
                      "timingFunction": [0.3, 0.1, 0.3, 1.2]}, "layer": "wheel"},
             {"add": {"type": "basic", "keyPath": "position.x", "additive": true, "fromValue": 0, "toValue": 150,
                      "duration": 1, "timingFunction": "easeIn"}, "layer": "replaced"}]},
           {"at": 0.4, "do": [
             {"add": {"type": "basic", "keyPath": "position.x", "fromValue": 60, "toValue": 200, "duration": 0.5},
              "layer": "replaced"}]}]}
        """

    static func timeline() throws -> Timeline {
        try SceneRunner.run(try SceneDecoder.decode(bytes: Array(scene.utf8)).scene)
    }

    static func css(_ timeline: Timeline) throws -> String {
        String(
            decoding: try Exporter.export(timeline, options: ExportOptions(format: .css, fps: 30), name: "a").bytes,
            as: UTF8.self)
    }

    /// The rule of element `id` and its keyframes named `name`.
    static func keyframes(_ css: String, _ name: String) -> String? {
        guard let range = css.range(of: "@keyframes \(name) {") else { return nil }
        return css[range.upperBound...].components(separatedBy: "\n}").first
    }

    @Test func additiveAnimationsAreAddedNotSampled() throws {
        let timeline = try Self.timeline()
        let css = try Self.css(timeline)
        // The card: its two blocks' animations on translate and opacity, added, in the order added.
        #expect(
            css.contains(
                "animation-name: l0-translate, l0-opacity, l0-translate-a0, l0-opacity-a1, l0-translate-a2, l0-opacity-a3;"
            ))
        #expect(css.contains("animation-composition: replace, replace, add, add, add, add"))
        #expect(css.contains("animation-delay: 0s, 0s, 0.05s, 0.05s, 0.537s, 0.537s;"))
        let first = try #require(Self.keyframes(css, "l0-translate-a0"))
        #expect(first.contains("0% { translate: -200px 0; animation-timing-function: cubic-bezier(0.42, 0, 0.58, 1) }"))
        #expect(first.contains("100% { translate: 0"))
        let second = try #require(Self.keyframes(css, "l0-opacity-a3"))
        #expect(second.contains("0% { opacity: -0.6; animation-timing-function: cubic-bezier(0, 0, 0.58, 1) }"))
        // Beneath them the model value, which steps at each block.
        let beneath = try #require(Self.keyframes(css, "l0-translate"))
        #expect(beneath.components(separatedBy: "steps(1, end)").count == 3)
        #expect(!beneath.contains("cubic-bezier"))
        // The shake: five keyframes at its key times, each segment with its own function.
        let shake = try #require(Self.keyframes(css, "l1-translate-a0"))
        #expect(shake.contains("25% { translate: 12px 0; animation-timing-function: cubic-bezier(0.42, 0, 0.58, 1) }"))
        #expect(shake.contains("75% { translate: 8px 0; animation-timing-function: cubic-bezier(0.42, 0, 1, 1) }"))
        // The repeated turn, on top of the plain one: three passes, a jump back held between them.
        let turn = try #require(Self.keyframes(css, "l2-rotate-a0"))
        #expect(turn.components(separatedBy: "steps(1, end)").count == 3)
        #expect(turn.components(separatedBy: "cubic-bezier(0.3, 0.1, 0.3, 1.2)").count == 4)
        #expect(!css.contains("@keyframes l2-rotate {"), "the turn beneath holds still")
        // The panel's sizes, the first growing from less than nothing (a negative length, which
        // CSS takes from calc()), and its corner about the centre.
        let grow = try #require(Self.keyframes(css, "l5-size-a0"))
        #expect(grow.contains("0% { width: calc(0px - 60px); height: calc(0px - 40px); animation-timing-function"))
        let corner = try #require(Self.keyframes(css, "l5-corner-a1"))
        #expect(corner.contains("0% { translate: 30px 20px;"))
        // Over a plain turn, and replaced by a later plain animation: sampled with the rest.
        #expect(css.contains("@keyframes l4-rotate {"))
        #expect(!css.contains("l4-rotate-a"))
        #expect(!css.contains("l3-translate-a"))
        let waapi = String(
            decoding: try Exporter.export(timeline, options: ExportOptions(format: .waapi, fps: 30), name: "a").bytes,
            as: UTF8.self)
        #expect(waapi.contains(#""fill":"none","composite":"add""#))
        let report = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: 30), name: "a").report
        let added = report.exact.filter { $0.note?.contains("animation-composition: add") ?? false }
        #expect(Set(added.map(\.layer)) == ["card", "dot", "spinner", "panel"])
        #expect(added.first { $0.layer == "panel" }?.properties == ["bounds"])
        #expect(added.first { $0.layer == "card" }?.properties == ["position", "opacity"])
        #expect(report.measured.position < 0.05, "the report measured \(report.measured.position) pt")
        #expect(report.measured.opacity < 1e-3)
        // Lottie has no additive composition: the sums are its samples.
        let lottie = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: 30), name: "a")
        #expect(!lottie.report.exact.contains { $0.note?.contains("animation-composition") ?? false })
        #expect(lottie.report.measured.position < 0.6)
    }

    /// The web formats' extra passes (the scene without its additive animations, the sums
    /// checked against the engine, the distances along paths) stop at the next question once
    /// asked to, wherever the work is.
    @Test(arguments: ["additive", "path"]) func theExtraPassesStopWhenAsked(scene: String) throws {
        let timeline = try scene == "additive" ? Self.timeline() : OffsetPathExportTests.nestedTimeline()
        let options = ExportOptions(format: .css, fps: 30)
        let uninterrupted = Atomic<Int>(0)
        let whole = try Exporter.export(timeline, options: options) {
            uninterrupted.add(1, ordering: .relaxed).newValue < 0
        }
        #expect(
            whole.report.exact.contains { $0.note?.contains("animation-composition") ?? false }
                || whole.report.baked.contains { $0.note?.contains("offset-path") ?? false })
        let total = uninterrupted.load(ordering: .relaxed)
        for stopAt in [1, total / 4, total / 2, 3 * total / 4, total - 1] {
            let asked = Atomic<Int>(0)
            var result: ExportError?
            do {
                _ = try Exporter.export(timeline, options: options) {
                    asked.add(1, ordering: .relaxed).newValue >= stopAt
                }
            } catch {
                result = error
            }
            #expect(result == .cancelled, "asked to stop at question \(stopAt) of \(total)")
            #expect(asked.load(ordering: .relaxed) == stopAt, "it went on after question \(stopAt)")
        }
    }

    /// Chromium adds them as the engine does, at times between frames and between keys.
    @Test(.enabled(if: Chromium.available)) func chromiumAddsThemAsTheEngineDoes() throws {
        let timeline = try Self.timeline()
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: 30), name: "a")
        let times = [0.03, 0.06, 0.21, 0.3, 0.41, 0.47, 0.5, 0.55, 0.61, 0.7, 0.84, 0.97, 1.1, 1.22, 1.3, 1.36]
        let rows = try EasedKeyframeTests.probe(artifact, at: times, scratch: scratch, name: "additive")
        #expect(rows.count == times.count)
        let renderer = FrameRenderer(timeline: timeline)
        var worst = 0.0
        var worstOpacity = 0.0
        var worstTurn = 0.0
        var worstSampledTurn = 0.0
        var worstSize = 0.0
        for (time, row) in zip(times, rows) {
            let engine = EasedKeyframeTests.engineCentres(renderer, timeline, at: time)
            let snapshot = renderer.snapshot(at: time)
            for name in ["card", "dot", "spinner", "replaced", "panel"] {
                let page = try #require(row[name])
                let b = try #require(engine[name])
                worst = max(worst, ((page[0] - b.x) * (page[0] - b.x) + (page[1] - b.y) * (page[1] - b.y)).squareRoot())
            }
            // The panel's box.
            let panel = snapshot.layers[snapshot.slot[try #require(timeline.layerIndex["panel"])]]
            let box = try #require(row["panel"])
            worstSize = max(worstSize, abs(box[3] - panel.bounds.size.x), abs(box[4] - panel.bounds.size.y))
            let card = snapshot.layers[snapshot.slot[try #require(timeline.layerIndex["card"])]]
            worstOpacity = max(worstOpacity, abs(try #require(row["card"])[2] - card.opacity))
            // The turns: their bounding boxes' widths, as the engine's turned boxes are.
            for name in ["spinner", "wheel"] {
                let layer = snapshot.layers[snapshot.slot[try #require(timeline.layerIndex[name])]]
                let angle = atan2(layer.toParent[1], layer.toParent[0])
                let width = 60 * abs(cos(angle)) + 12 * abs(sin(angle))
                let difference = abs(try #require(row[name])[3] - width)
                if name == "spinner" {
                    worstTurn = max(worstTurn, difference)
                } else {
                    worstSampledTurn = max(worstSampledTurn, difference)
                }
            }
        }
        print(
            "additive animations in Chromium: largest centre difference \(worst) pt, turned width \(worstTurn) pt (sampled: \(worstSampledTurn) pt), size \(worstSize) pt, opacity \(worstOpacity) at \(times.count) times"
        )
        #expect(worst < 0.05, "Chromium's added animations are \(worst) pt from the engine")
        #expect(worstTurn < 0.05, "Chromium's added turn is \(worstTurn) pt wide from the engine's")
        // The turn over a turn, sampled at 30 fps: within what sampling keeps.
        #expect(worstSampledTurn < 0.5, "the sampled turn is \(worstSampledTurn) pt wide from the engine's")
        #expect(worstSize < 0.05, "Chromium's added size is \(worstSize) pt from the engine's")
        #expect(worstOpacity < 1e-3, "Chromium's added opacity is \(worstOpacity) from the engine")
    }
}
