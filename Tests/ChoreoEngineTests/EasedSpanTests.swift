import Testing

@testable import ChoreoEngine

/// The stretches an export writes as eased keyframes: parts of a timing curve, the straight
/// passes of a media timing, and a timeline's spans against its own presentation values.
@Suite struct EasedSpanTests {
    static let curves = [
        UnitBezier(0.42, 0, 0.58, 1), UnitBezier(0.25, 0.1, 0.25, 1), UnitBezier(0, 0, 0.58, 1),
        UnitBezier(0.42, 0, 1, 1), UnitBezier(0.68, -0.55, 0.27, 1.55), UnitBezier(0.1, 0.9, 0.2, 1),
    ]

    @Test func aPieceOfACurveIsTheCurveBetweenItsEnds() throws {
        for curve in Self.curves {
            for (x0, x1) in [(0.0, 1.0), (0.2, 0.7), (0.0, 0.35), (0.6, 1.0), (0.9, 0.1), (1.0, 0.0), (0.45, 0.05)] {
                let piece = try #require(curve.piece(from: x0, to: x1), "\(curve) from \(x0) to \(x1)")
                let y0 = curve.solve(x0)
                let y1 = curve.solve(x1)
                for step in 0...20 {
                    let u = Double(step) / 20
                    let expected = (curve.solve(x0 + (x1 - x0) * u) - y0) / (y1 - y0)
                    #expect(abs(piece.solve(u) - expected) < 1e-7, "\(curve) [\(x0), \(x1)] at \(u)")
                }
                #expect((0...1).contains(piece.x1) && (0...1).contains(piece.x2))
            }
            #expect(curve.piece(from: 0, to: 1) == curve)
        }
        // No progress, no piece.
        #expect(UnitBezier(0.42, 0, 0.58, 1).piece(from: 0.5, to: 0.5) == nil)
    }

    @Test(arguments: [
        (autoreverses: false, repeatCount: 0.0, timeOffset: 0.0, speed: 1.0),
        (true, 2.5, 0, 1), (false, 3, 0.35, 1), (true, 1.5, 0.7, 2), (false, 2, 0, -1), (true, 2, 0.2, -0.5),
        (false, 0, 1.3, 1),
    ])
    func passesAreStraightAndCoverTheActiveInterval(
        case given: (autoreverses: Bool, repeatCount: Double, timeOffset: Double, speed: Double)
    ) throws {
        var timing = MediaTiming()
        timing.beginTime = 0.3
        timing.duration = 0.4
        timing.autoreverses = given.autoreverses
        timing.repeatCount = given.repeatCount
        timing.timeOffset = given.timeOffset
        timing.speed = given.speed
        let end = timing.beginTime + timing.activeDuration / abs(timing.speed)
        let passes = try #require(timing.passes(in: 0...10, limit: 100))
        #expect(!passes.isEmpty)
        // Local time is the straight line of its pass at every inside instant.
        var covered = 0.0
        for pass in passes {
            #expect(pass.parentEnd > pass.parentStart)
            covered += pass.parentEnd - pass.parentStart
            for step in 1..<10 {
                let f = Double(step) / 10
                let parent = pass.parentStart + (pass.parentEnd - pass.parentStart) * f
                let local = try #require(timing.localTime(atParentTime: parent))
                let line = pass.localStart + (pass.localEnd - pass.localStart) * f
                #expect(abs(local.time - line) < 1e-9, "\(given) at \(parent)")
            }
        }
        #expect(abs(covered - (end - timing.beginTime)) < 1e-9, "\(given): passes cover the active interval")
        // A window cuts the passes at its ends.
        let window = (timing.beginTime + 0.13)...(end - 0.07)
        let inside = try #require(timing.passes(in: window, limit: 100))
        #expect(abs(inside.first!.parentStart - window.lowerBound) < 1e-9)
        #expect(abs(inside.last!.parentEnd - window.upperBound) < 1e-9)
        // Over the limit, none.
        #expect(timing.passes(in: 0...10, limit: 1) == nil || passes.count <= 1)
    }

    static func scene(_ animation: Animation, layerTiming: LayerTiming? = nil) throws -> Timeline {
        var node = SceneRunnerTests.layer("box", [.position: .point(Point(50, 50)), .opacity: .number(1)])
        if let layerTiming { node.timing = layerTiming }
        return try SceneRunner.run(
            Scene(layers: [node], script: [ScriptEntry(at: 0, actions: [.add(animation, layer: "box")])]))
    }

    /// Every span's curve, between the presentation values at its ends, is the presentation
    /// value inside it.
    static func expectSpansFollowTheValues(_ timeline: Timeline, keyPath: String, end: Double) -> Int {
        let spans = timeline.easedSpans(through: end)[0]
        let path = KeyPath(keyPath)!
        func value(_ time: Double) -> Double {
            let map = timeline.timeMap(of: 0, at: time)
            if case .number(let n) = timeline.presentationValue(layer: 0, keyPath: path, at: time, map: map) {
                return n
            }
            return .nan
        }
        for span in spans {
            // The values at the ends, from those an eighth of the way in (the end itself can be
            // the instant the animation is removed).
            let width = span.end - span.start
            let e1 = span.curve.solve(1.0 / 8)
            let e2 = span.curve.solve(7.0 / 8)
            let change = (value(span.end - width / 8) - value(span.start + width / 8)) / (e2 - e1)
            let a = value(span.start + width / 8) - change * e1
            let b = a + change
            for step in 1..<16 {
                let u = Double(step) / 16
                let expected = a + (b - a) * span.curve.solve(u)
                let actual = value(span.start + (span.end - span.start) * u)
                #expect(abs(expected - actual) < 1e-6, "span \(span) at \(u): \(actual), the curve says \(expected)")
            }
        }
        return spans.count
    }

    @Test func aBasicAnimationsSpansFollowItsValues() throws {
        let overshoot = TimingFunction.bezier(UnitBezier(0.68, -0.55, 0.27, 1.55))
        let plain = try Self.scene(
            SceneRunnerTests.basic("opacity", from: .number(0), to: .number(1), duration: 1) {
                $0.timingFunction = overshoot
            })
        #expect(Self.expectSpansFollowTheValues(plain, keyPath: "opacity", end: 2) == 1)
        #expect(plain.easedSpans(through: 2)[0].first?.curve == UnitBezier(0.68, -0.55, 0.27, 1.55))
        // Autoreversing, repeating, offset, on a layer whose time runs at half speed.
        let busy = try Self.scene(
            SceneRunnerTests.basic("opacity", from: .number(0.2), to: .number(0.9), duration: 0.3) {
                $0.timingFunction = .easeIn
                $0.timing.autoreverses = true
                $0.timing.repeatCount = 2.5
                $0.timing.timeOffset = 0.1
            }, layerTiming: LayerTiming(speed: 0.5))
        #expect(Self.expectSpansFollowTheValues(busy, keyPath: "opacity", end: 10) >= 5)
        // A spring and a curve of steps give none.
        let stepped = try Self.scene(
            SceneRunnerTests.basic("opacity", from: .number(0), to: .number(1), duration: 1) {
                $0.timingFunction = .steps(4, .end)
            })
        #expect(stepped.easedSpans(through: 2)[0].isEmpty)
    }
}
