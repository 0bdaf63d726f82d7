import ChoreoEngine
import ChoreoFormat
import Testing

/// The cross-check against Web Animations (issue "engine fidelity"): one scene per cause found,
/// one layer `L` animating `position.x`, with the values an exact model gives. Every value is
/// read through the timeline and through the compiled program, which must agree to the bit.
@Suite struct FidelityTests {
    static func values(_ animation: String, at times: [Double]) throws -> [Double] {
        let text = """
            {"layers": [{"id": "L", "position": [0, 0]}],
             "script": [{"at": 0, "do": [{"add": {"keyPath": "position.x", \(animation)}, "layer": "L"}]}]}
            """
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        let timeline = try SceneRunner.run(scene, horizon: 10)
        let layer = timeline.layerIndex["L"]!
        let program = SamplingProgram(timeline: timeline, requests: [(layer, .position)])
        let cursor = SamplingCursor(for: program)
        return times.map { time in
            let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
            let generic = timeline.presentationValue(
                layer: layer, keyPath: KeyPath("position.x")!, at: time, map: maps[layer])
            guard case .number(let x) = generic else { return .nan }
            var lanes = Lanes()
            let compiled = program.sample(0, at: time, map: maps[layer], cursor: cursor, into: &lanes)
            #expect(compiled && lanes[0].bitPattern == x.bitPattern, "at \(time): compiled \(lanes[0]), timeline \(x)")
            return x
        }
    }

    static func expect(
        _ animation: String, _ cases: [(Double, Double)], tolerance: Double = 1e-9,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let got = try values(animation, at: cases.map(\.0))
        for ((time, expected), value) in zip(cases, got) {
            #expect(
                abs(value - expected) <= tolerance, "at \(time): \(value) ≠ \(expected)", sourceLocation: sourceLocation
            )
        }
    }

    static let overshoot = "\"timingFunction\": [0.2, 2.0, 0.8, 2.0], \"duration\": 1"

    /// 1. Eased progress beyond 1 extends the last keyframe segment; a two-value keyframe
    /// animation equals the basic animation.
    @Test func overshootingCurveExtendsTheEndSegments() throws {
        try Self.expect("\"type\": \"basic\", \"fromValue\": 0, \"toValue\": 100, \(Self.overshoot)", [(0.5, 162.5)])
        try Self.expect("\"type\": \"keyframe\", \"values\": [0, 100], \(Self.overshoot)", [(0.5, 162.5)])
        try Self.expect(
            "\"type\": \"keyframe\", \"values\": [0, 100, 50], \"keyTimes\": [0, 0.5, 1], \(Self.overshoot)",
            [(0.5, -12.5)])
        let times = stride(from: 0.0, through: 1, by: 1.0 / 32).map { $0 }
        let basic = try Self.values(
            "\"type\": \"basic\", \"fromValue\": 0, \"toValue\": 100, \(Self.overshoot)", at: times)
        let keyframes = try Self.values("\"type\": \"keyframe\", \"values\": [0, 100], \(Self.overshoot)", at: times)
        #expect(basic == keyframes)
        // Below 0 the first segment extends: [0.5, -1, 0.5, 2] dips under 0 early on; with
        // evenly spaced values the line through them is the basic animation's.
        let dip = "\"timingFunction\": [0.5, -1, 0.5, 2], \"duration\": 1"
        let early = try Self.values("\"type\": \"basic\", \"fromValue\": 10, \"toValue\": 110, \(dip)", at: [0.1])
        try Self.expect(
            "\"type\": \"keyframe\", \"values\": [10, 60, 110], \"keyTimes\": [0, 0.5, 1], \(dip)", [(0.1, early[0])])
        #expect(early[0] < 10)
        // Cubic keyframes continue along the end tangent: 100 + 50 · 0.625.
        try Self.expect(
            "\"type\": \"keyframe\", \"values\": [0, 100], \"calculationMode\": \"cubic\", \(Self.overshoot)",
            [(0.5, 131.25)])
    }

    /// 2. `steps(4, start)` on the first segment jumps at each iteration's first instant, and
    /// in the backwards fill too: a segment's curve takes no before flag.
    @Test func stepsStartJumpsOnTheFirstSegment() throws {
        try Self.expect(
            """
            "type": "keyframe", "values": [0, 100], "keyTimes": [0, 1],
            "timingFunctions": [{"steps": 4, "position": "start"}], "duration": 1,
            "delay": 0.5, "repeatCount": 2, "fillMode": "both"
            """, [(0.25, 25), (0.5, 25), (0.75, 50), (1.5, 25)])
    }

    /// 3. The before flag follows the direction of the pass that ended: autoreversed, it is set.
    @Test func beforeFlagFollowsTheCurrentPass() throws {
        try Self.expect(
            """
            "type": "basic", "fromValue": 0, "toValue": 100, "duration": 1,
            "timingFunction": {"steps": 4, "position": "start"}, "autoreverses": true, "fillMode": "forwards",
            "removedOnCompletion": false
            """, [(1.5, 75), (2, 0), (2.5, 0)])
    }

    /// A step boundary within a nanosecond of scene time is reached: 1/30 s is sampled as
    /// 0.033333333, and 0.3 − 0.25 is 0.04999999999999999 in doubles.
    @Test func stepBoundariesWithinANanosecond() throws {
        try Self.expect(
            """
            "type": "keyframe", "values": [-72, -31], "keyTimes": [0, 1], "duration": 0.1, "speed": 2,
            "timingFunctions": [{"steps": 3, "position": "start"}], "repeatCount": 2.5
            """, [(0.033333333, -31), (0.0333, -31 - 41.0 / 3)])
        try Self.expect(
            """
            "type": "basic", "fromValue": 0, "toValue": 100, "duration": 0.2, "speed": 2, "delay": 0.25,
            "timingFunction": {"steps": 2, "position": "end"}, "repeatCount": 2
            """, [(0.3, 50), (0.2999, 0)])
    }

    /// 4. A loop sampled on its own boundaries starts the next iteration (0.3 / 0.1 is not 3 in doubles).
    @Test func innerIterationBoundariesSnap() throws {
        try Self.expect(
            """
            "type": "basic", "fromValue": 0, "toValue": 100, "duration": 0.1, "timingFunction": "linear",
            "repeatCount": 5, "fillMode": "forwards", "removedOnCompletion": false
            """, [(0.1, 0), (0.2, 0), (0.3, 0), (0.35, 50), (0.4, 0), (0.5, 100), (0.7, 100)])
    }

    /// 5. An endless animation at speed −1 runs its cycles backwards from its begin instant,
    /// which shows the end; a boundary played backwards ends the earlier cycle.
    @Test func negativeSpeedBoundaries() throws {
        let linear =
            "\"type\": \"basic\", \"fromValue\": 0, \"toValue\": 100, \"duration\": 1, \"timingFunction\": \"linear\""
        try Self.expect(
            "\(linear), \"speed\": -1, \"repeatCount\": \"infinity\"",
            [(0, 100), (0.25, 75), (1, 100), (1.75, 25), (3, 100)])
        try Self.expect(
            "\(linear), \"speed\": -1, \"repeatCount\": 2, \"fillMode\": \"forwards\", \"removedOnCompletion\": false",
            [(0, 100), (0.25, 75), (1, 100), (1.5, 50), (2, 0), (3, 0)])
    }

    /// 6. The Bézier solve keeps its bracket: the steep start of a short first segment.
    @Test func bezierSolveIsExact() throws {
        try Self.expect(
            """
            "type": "keyframe", "values": [0, 100, 100], "keyTimes": [0, 0.01, 1], "duration": 1,
            "timingFunction": "easeOut"
            """, [(0.005, 85.05170457928271)], tolerance: 1e-6)
    }
}
