import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoRaster

/// Timing functions exported as themselves: a `CAMediaTimingFunction`'s control points become a
/// Lottie keyframe's `o`/`i` handles and CSS `cubic-bezier()`, at the animation's own times,
/// and the players ease between those keyframes as the engine does.
@Suite(.serialized) struct EasedKeyframeTests {
    let scratch = Scratch("choreo-export-eased")

    /// A basic animation with UIKit's curve, a keyframe animation with per-segment functions
    /// (one overshooting) starting between frames, an autoreversing overshooting turn beside a
    /// fade, a spring (sampled) and a discrete keyframe animation (held values).
    static let scene = """
        {"name": "timing curves",
         "canvas": {"width": 320, "height": 200, "background": [1, 1, 1, 1]},
         "layers": [
           {"id": "slide", "position": [40, 40], "bounds": [0, 0, 30, 30], "backgroundColor": [0.9, 0.2, 0.2, 1]},
           {"id": "pulse", "position": [40, 100], "bounds": [0, 0, 30, 30], "backgroundColor": [0.2, 0.4, 0.9, 1]},
           {"id": "swing", "position": [160, 150], "bounds": [0, 0, 80, 16], "backgroundColor": [0.2, 0.7, 0.3, 1]},
           {"id": "spring", "position": [280, 40], "bounds": [0, 0, 20, 20], "backgroundColor": [0.5, 0.5, 0.5, 1]},
           {"id": "blink", "position": [280, 100], "bounds": [0, 0, 20, 20], "backgroundColor": [0.9, 0.6, 0.1, 1]}],
         "script": [{"at": 0, "do": [
           {"add": {"type": "basic", "keyPath": "position", "fromValue": [40, 40], "toValue": [260, 40], "duration": 1,
                    "timingFunction": "easeInEaseOut"}, "layer": "slide"},
           {"add": {"type": "keyframe", "keyPath": "position.x", "values": [40, 120, 260], "keyTimes": [0, 0.3, 1],
                    "timingFunctions": ["easeIn", [0.68, -0.55, 0.27, 1.55]], "duration": 1.2, "beginTime": 0.21,
                    "fillMode": "forwards", "removedOnCompletion": false}, "layer": "pulse"},
           {"add": {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": -0.5, "toValue": 0.5, "duration": 0.4,
                    "autoreverses": true, "repeatCount": 2, "timingFunction": [0.3, -0.4, 0.6, 1.4]}, "layer": "swing"},
           {"add": {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0.2, "duration": 0.7,
                    "timingFunction": "easeOut", "beginTime": 0.3}, "layer": "swing"},
           {"add": {"type": "spring", "keyPath": "position.y", "fromValue": 40, "toValue": 160, "damping": 8},
            "layer": "spring"},
           {"add": {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.3, 0.8], "calculationMode": "discrete",
                    "duration": 0.9}, "layer": "blink"}]}]}
        """

    static func timeline() throws -> Timeline {
        try SceneRunner.run(try SceneDecoder.decode(bytes: Array(scene.utf8)).scene)
    }

    /// The Lottie layers by name, each transform property's keyframes.
    static func lottieKeyframes(_ bytes: [UInt8]) throws -> [String: [String: [[String: Any]]]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        var result: [String: [String: [[String: Any]]]] = [:]
        for layer in document["layers"] as? [[String: Any]] ?? [] {
            guard let name = layer["nm"] as? String, let ks = layer["ks"] as? [String: Any] else { continue }
            for (key, value) in ks {
                if let property = value as? [String: Any], property["a"] as? Int == 1,
                    let keys = property["k"] as? [[String: Any]]
                {
                    result[name, default: [:]][key] = keys
                }
            }
        }
        return result
    }

    static func handles(_ key: [String: Any]) -> [Double]? {
        guard let o = key["o"] as? [String: Any], let i = key["i"] as? [String: Any],
            let ox = (o["x"] as? [Double])?.first, let oy = (o["y"] as? [Double])?.first,
            let ix = (i["x"] as? [Double])?.first, let iy = (i["y"] as? [Double])?.first
        else { return nil }
        return [ox, oy, ix, iy]
    }

    /// Each layer's box on the stage as the engine has it at `time`, by layer id: the map from
    /// its bounds to the stage, applied to points of its bounds (`points` picks them).
    static func enginePoints(
        _ renderer: FrameRenderer, _ timeline: Timeline, at time: Double, _ points: (Rect) -> [Point]
    ) -> [String: [Point]] {
        let snapshot = renderer.snapshot(at: time)
        var maps: [[Double]] = []
        var result: [String: [Point]] = [:]
        let stage = [1, 0, 0, 0, 1, 0, -renderer.origin.x, -renderer.origin.y, 1]
        for layer in snapshot.layers {
            let m = LottieRlottieTests.then(
                layer.toParent, layer.parent >= 0 ? maps[snapshot.slot[layer.parent]] : stage)
            maps.append(m)
            result[timeline.layers[layer.index].id] = points(layer.bounds).map { c in
                Point((c.x * m[0] + c.y * m[3] + m[6]) / m[8], (c.x * m[1] + c.y * m[4] + m[7]) / m[8])
            }
        }
        return result
    }

    /// Each layer's centre on the stage as the engine has it at `time`.
    static func engineCentres(_ renderer: FrameRenderer, _ timeline: Timeline, at time: Double) -> [String: Point] {
        enginePoints(renderer, timeline, at: time) { b in [Point(b.origin.x + b.size.x / 2, b.origin.y + b.size.y / 2)]
        }
        .mapValues { $0[0] }
    }

    @Test func timingFunctionsBecomeLottieHandles() throws {
        let timeline = try Self.timeline()
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: 60), name: "curves")
        let layers = try Self.lottieKeyframes(artifact.bytes)
        // UIKit's curve from frame 0 to the end of the animation (1 s), where it is removed.
        let slide = try #require(layers["slide"]?["p"])
        #expect(slide.first?["t"] as? Double == 0)
        #expect(Self.handles(slide[0]) == [0.42, 0, 0.58, 1])
        #expect(abs((slide[1]["t"] as? Double ?? 0) - 60) < 0.01)
        // The keyframe animation's segments at their key times (0.21 s and 0.21 + 0.3 × 1.2 s),
        // each with its own function.
        let pulse = try #require(layers["pulse"]?["p"])
        let eased = pulse.filter { Self.handles($0).map { $0 != [0, 0, 1, 1] } ?? false }
        #expect(eased.count == 2)
        #expect(abs((eased.first?["t"] as? Double ?? 0) - 12.6) < 1e-3)
        #expect(Self.handles(eased[0]) == [0.42, 0, 1, 1])
        #expect(abs((eased.last?["t"] as? Double ?? 0) - 34.2) < 1e-3)
        #expect(Self.handles(eased[1]) == [0.68, -0.55, 0.27, 1.55])
        // The turn: forwards with the curve, back with it mirrored, four passes.
        let swing = try #require(layers["swing"]?["r"])
        let turns = swing.compactMap { Self.handles($0) }.filter { $0 != [0, 0, 1, 1] }
        #expect(turns.count == 4)
        #expect(turns.first == [0.3, -0.4, 0.6, 1.4])
        #expect(turns.dropFirst().first == [0.4, -0.4, 0.7, 1.4])
        #expect(swing.count <= 7, "the turn is four eased keyframes and the snap back, not samples")
        // The report: exact where the curves are the animations', baked for the spring.
        let report = artifact.report
        let note = "keyframes at the animations' own times, eased by their timing functions"
        #expect(report.exact.contains { $0.layer == "slide" && $0.properties == ["position"] && $0.note == note })
        #expect(report.exact.contains { $0.layer == "pulse" && $0.properties == ["position"] && $0.note == note })
        #expect(report.exact.contains { $0.layer == "swing" && $0.properties.contains("transform") })
        #expect(report.baked.map(\.layer) == ["spring"])
        #expect(report.measured.opacity < 1e-3)
        // The discrete animation: each value held until the next, which comes at its key time
        // (0.3 and 0.6 s), and the model value back when it is removed (0.9 s).
        let document = try #require(try JSONSerialization.jsonObject(with: Data(artifact.bytes)) as? [String: Any])
        let blink = try #require(
            (document["layers"] as? [[String: Any]])?.first { $0["nm"] as? String == "blink" }?["ks"]
                as? [String: Any])
        let opacity = try #require((blink["o"] as? [String: Any])?["k"] as? [[String: Any]])
        let held = opacity.filter { $0["h"] as? Int == 1 }
        // A scalar keyframe's value is a one-element array, as Bodymovin writes it.
        #expect(held.map { ($0["s"] as? [Double])?.first } == [100, 30, 80])
        let jumps = opacity.indices.dropFirst().filter { opacity[$0 - 1]["h"] as? Int == 1 }
            .map { opacity[$0]["t"] as? Double ?? 0 }
        #expect(jumps.count == 3)
        for (jump, expected) in zip(jumps, [18.0, 36, 54]) {
            #expect(abs(jump - expected) < 1e-3, "a value changes at frame \(jump), not \(expected)")
        }
        // Held values alone are exact, and no curve is claimed for them.
        #expect(report.exact.contains { $0.layer == "blink" && $0.properties.contains("opacity") && $0.note == nil })
        #expect(!report.exact.contains { $0.layer == "blink" && $0.note == note })
    }

    @Test func rlottieEasesBetweenTheKeyframesAsTheEngineDoes() throws {
        let timeline = try Self.timeline()
        let fps = 30.0
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: fps), name: "curves")
        let player = try #require(LottieRlottieTests.Player(artifact.bytes))
        let renderer = FrameRenderer(timeline: timeline)
        var worst = 0.0
        var compared = 0
        // Every frame: inside an eased stretch no keyframe lies on them, rlottie's curve does.
        for frame in 0..<player.frames {
            let played = player.centres(frame)
            let engine = Self.engineCentres(renderer, timeline, at: SceneTime.quantize(Double(frame) / fps))
            for name in ["slide", "pulse", "swing"] {
                guard let a = played[name], let b = engine[name] else { continue }
                compared += 1
                worst = max(worst, ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
            }
        }
        print("eased Lottie export in rlottie: largest centre difference \(worst) pt over \(compared) centres")
        #expect(compared > 2 * player.frames)
        #expect(worst < 0.05, "rlottie's eased keyframes are \(worst) pt from the engine")
    }

    @Test func theWebFormatsCarryTheCurves() throws {
        let timeline = try Self.timeline()
        let css = String(
            decoding: try Exporter.export(timeline, options: ExportOptions(format: .css, fps: 60), name: "curves")
                .bytes,
            as: UTF8.self)
        #expect(css.contains("animation-timing-function: cubic-bezier(0.42, 0, 0.58, 1)"))
        #expect(css.contains("cubic-bezier(0.68, -0.55, 0.27, 1.55)"))
        // The autoreversing turn: one pass, four iterations back and forth.
        #expect(css.contains("animation-iteration-count: 1, 4, 1"))
        #expect(css.contains("animation-timing-function: linear, cubic-bezier(0.3, -0.4, 0.6, 1.4), linear"))
        #expect(css.contains("animation-timing-function: steps(1, end)"))
        // The spring, sampled: its samples along one line as the stops of one linear() easing.
        let springRule = try #require(css.components(separatedBy: "@keyframes l3-translate {").last)
        let springKeyframes = springRule.prefix { $0 != "}" }
        #expect(springKeyframes.contains("animation-timing-function: linear(0, "))
        #expect(
            springKeyframes.components(separatedBy: "% { ").count < 6, "the spring is a few keyframes, not its samples")
        let waapi = try Exporter.export(timeline, options: ExportOptions(format: .waapi, fps: 60), name: "curves")
        #expect(String(decoding: waapi.bytes, as: UTF8.self).contains("\"easing\":\"cubic-bezier(0.42, 0, 1, 1)\""))
    }

    /// The page paused at times between frames: each layer's box on the page (its bounding
    /// rectangle's centre, which a turn leaves in place) against the engine's.
    /// An HTML export in Chromium, paused at each of `times`: per time, each layer's box on the
    /// page (its bounding rectangle's centre, which a turn leaves in place, its width and
    /// height) and its computed opacity, by layer id.
    static func probe(_ artifact: ExportArtifact, at times: [Double], scratch: Scratch, name: String) throws
        -> [[String: [Double]]]
    {
        let probe = """
            <script>
            (function () {
              var out = [];
              var animations = document.getAnimations();
              [\(times.map { "\($0)" }.joined(separator: ", "))].forEach(function (t) {
                animations.forEach(function (a) { a.pause(); a.currentTime = t * 1000; });
                var row = {};
                document.querySelectorAll(".choreo-layer").forEach(function (e) {
                  var r = e.getBoundingClientRect();
                  row[e.dataset.layer] = [
                    r.left + r.width / 2, r.top + r.height / 2, parseFloat(getComputedStyle(e).opacity),
                    r.width, r.height];
                });
                out.push(row);
              });
              var pre = document.createElement("pre");
              pre.id = "probe";
              pre.textContent = JSON.stringify(out);
              document.body.appendChild(pre);
            })();
            </script>
            </body>
            """
        let page = String(decoding: artifact.bytes, as: UTF8.self).replacingOccurrences(of: "</body>", with: probe)
        let path = try scratch.write("\(name).html", page)
        let dom = try Chromium().dom("file://\(path)")
        let start = try #require(dom.range(of: "<pre id=\"probe\">"))
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        return try #require(
            try JSONSerialization.jsonObject(with: Data(dom[start.upperBound..<end.lowerBound].utf8))
                as? [[String: [Double]]])
    }

    /// A scene of repeats: over again three and a half times, and back and forth one and a
    /// quarter cycles (two and a half passes) beginning between frames.
    static let repeats = """
        {"canvas": {"width": 200, "height": 120, "background": [1, 1, 1, 1]},
         "layers": [{"id": "again", "position": [40, 40], "bounds": [0, 0, 20, 20], "backgroundColor": [0.9, 0.2, 0.2, 1]},
                    {"id": "back", "position": [40, 90], "bounds": [0, 0, 20, 20], "backgroundColor": [0.2, 0.2, 0.9, 1]}],
         "script": [{"at": 0, "do": [
           {"add": {"type": "basic", "keyPath": "position.x", "fromValue": 40, "toValue": 160, "duration": 0.4,
                    "repeatCount": 3.5, "timingFunction": "easeInEaseOut"}, "layer": "again"},
           {"add": {"type": "basic", "keyPath": "position.x", "fromValue": 40, "toValue": 160, "duration": 0.3,
                    "autoreverses": true, "repeatCount": 1.25, "beginTime": 0.11, "timingFunction": [0.3, 0.1, 0.2, 1.3]},
            "layer": "back"}]}]}
        """

    /// Repeats as CSS says them: one pass, its duration, delay and (fractional) iteration
    /// count, `alternate` for autoreverses; Chromium plays them as the engine does.
    @Test func repeatsAreIterations() throws {
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(Self.repeats.utf8)).scene)
        let css = String(
            decoding: try Exporter.export(timeline, options: ExportOptions(format: .css, fps: 30), name: "r").bytes,
            as: UTF8.self)
        #expect(css.contains("animation-iteration-count: 1, 3.5;"))
        #expect(css.contains("animation-iteration-count: 1, 2.5;"))
        #expect(css.contains("animation-direction: normal, alternate;"))
        #expect(css.contains("animation-delay: 0s, 0.11s;"))
        #expect(css.contains("animation-timing-function: linear, cubic-bezier(0.3, 0.1, 0.2, 1.3);"))
        let waapi = String(
            decoding: try Exporter.export(timeline, options: ExportOptions(format: .waapi, fps: 30), name: "r").bytes,
            as: UTF8.self)
        #expect(waapi.contains(#""direction":"alternate","easing":"cubic-bezier(0.3, 0.1, 0.2, 1.3)","fill":"none""#))
        guard Chromium.available else { return }
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: 30), name: "r")
        let times = [0.01, 0.13, 0.25, 0.41, 0.55, 0.79, 0.83, 1.0, 1.21, 1.3, 1.39, 1.45, 1.6]
        let rows = try Self.probe(artifact, at: times, scratch: scratch, name: "repeats")
        let renderer = FrameRenderer(timeline: timeline)
        var worst = 0.0
        for (time, row) in zip(times, rows) {
            let engine = Self.engineCentres(renderer, timeline, at: time)
            for name in ["again", "back"] {
                let page = try #require(row[name])
                let b = try #require(engine[name])
                worst = max(worst, ((page[0] - b.x) * (page[0] - b.x) + (page[1] - b.y) * (page[1] - b.y)).squareRoot())
            }
        }
        print("repeats in Chromium: largest centre difference \(worst) pt at \(times.count) times")
        #expect(worst < 0.05, "Chromium's repeats are \(worst) pt from the engine")
    }

    @Test(.enabled(if: Chromium.available)) func chromiumEasesBetweenTheKeyframesAsTheEngineDoes() throws {
        let timeline = try Self.timeline()
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: 30), name: "curves")
        let times = [0.05, 0.123, 0.29, 0.31, 0.377, 0.5, 0.59, 0.61, 0.75, 0.89, 0.91, 1.05, 1.234, 1.5]
        let rows = try Self.probe(artifact, at: times, scratch: scratch, name: "curves")
        #expect(rows.count == times.count)
        let renderer = FrameRenderer(timeline: timeline)
        var worst = 0.0
        var worstOpacity = 0.0
        for (time, row) in zip(times, rows) {
            let engine = Self.engineCentres(renderer, timeline, at: time)
            let snapshot = renderer.snapshot(at: time)
            for name in ["swing", "blink"] {
                let page = try #require(row[name])
                let index = try #require(timeline.layerIndex[name])
                let opacity = snapshot.layers[snapshot.slot[index]].opacity
                worstOpacity = max(worstOpacity, abs(page[2] - opacity))
            }
            // The turn: the box's bounding rectangle is as wide as the engine's turned box.
            let swing = snapshot.layers[snapshot.slot[try #require(timeline.layerIndex["swing"])]]
            let angle = atan2(swing.toParent[1], swing.toParent[0])
            let width = 80 * abs(cos(angle)) + 16 * abs(sin(angle))
            let height = 80 * abs(sin(angle)) + 16 * abs(cos(angle))
            let box = try #require(row["swing"])
            worst = max(worst, abs(box[3] - width), abs(box[4] - height))
            for name in ["slide", "pulse", "swing"] {
                let page = try #require(row[name])
                let b = try #require(engine[name])
                worst = max(worst, ((page[0] - b.x) * (page[0] - b.x) + (page[1] - b.y) * (page[1] - b.y)).squareRoot())
            }
        }
        // The spring's samples, played through linear(): as far from the engine as the report
        // measured of the export itself.
        let report = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: 30), name: "curves")
            .report
        var worstSpring = 0.0
        for (time, row) in zip(times, rows) {
            let page = try #require(row["spring"])
            let b = try #require(Self.engineCentres(renderer, timeline, at: time)["spring"])
            worstSpring = max(
                worstSpring, ((page[0] - b.x) * (page[0] - b.x) + (page[1] - b.y) * (page[1] - b.y)).squareRoot())
        }
        #expect(
            worstSpring <= max(0.05, 2 * report.measured.position),
            "the spring through linear() is \(worstSpring) pt from the engine; the report measured \(report.measured.position)"
        )
        print(
            "eased HTML export in Chromium: spring through linear() \(worstSpring) pt (report \(report.measured.position)); largest centre difference \(worst) pt, opacity \(worstOpacity) at \(times.count) times"
        )
        #expect(worst < 0.05, "Chromium's eased keyframes are \(worst) pt from the engine")
        #expect(worstOpacity < 1e-3, "Chromium's held and eased opacity is \(worstOpacity) from the engine")
    }
}
