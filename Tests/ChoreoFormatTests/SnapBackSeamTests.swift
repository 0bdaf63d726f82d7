import ChoreoEngine
import ChoreoFormat
import Testing

/// `snap-back` at a loop's seam: an animation removed at its end and added again in the same
/// instant shows no jump, so it is not reported; a removal the instant leaves on the model is.
struct SnapBackSeamTests {
    /// A pulse whose model (1) is not its end value (0.2), restarted by `mode`: `addAgain` from
    /// its delegate's `animationDidStop`, or a transaction's completion that adds it again.
    static func pulse(restartedBy mode: String) -> String {
        let pulse = #""type": "keyframe", "keyPath": "opacity", "values": [0.2, 1, 0.2], "duration": 1, "key": "pulse""#
        let add = #"{"add": {"# + pulse + #"}, "layer": "p"}"#
        let again = #"{"add": {"# + pulse + #", "onStop": [{"addAgain": "pulse", "layer": "p"}]}, "layer": "p"}"#
        let restarted = #"{"transaction": {"do": ["# + add + #"], "completion": ["# + add + "]}}"
        let actions = mode == "onStop" ? again : restarted
        return #"{"layers": [{"id": "p", "frame": [0, 0, 40, 40], "opacity": 1}], "script": [{"at": 0, "do": ["#
            + actions + "]}]}"
    }

    static func snapBackTimes(_ timeline: Timeline) -> [Double] {
        timeline.diagnostics.filter { $0.code == .snapBack }.map(\.time)
    }

    @Test func aLoopAddedAgainFromAnimationDidStopIsNotASnapBack() throws {
        let timeline = try ScriptTests.timeline(Self.pulse(restartedBy: "onStop"))
        // Either side of every seam the pulse shows 0.2: no jump to the model's 1.
        for seam in [1.0, 2.0, 5.0] {
            #expect(abs(ScriptTests.number(timeline, "p", "opacity", seam - 1e-4) - 0.2) < 0.001)
            #expect(abs(ScriptTests.number(timeline, "p", "opacity", seam) - 0.2) < 1e-9)
            #expect(abs(ScriptTests.number(timeline, "p", "opacity", seam + 1e-4) - 0.2) < 0.001)
        }
        #expect(Self.snapBackTimes(timeline).isEmpty)
        #expect(timeline.neverSettles)
    }

    @Test func aCompletionThatStartsItAgainJumpsOnlyWhenItStops() throws {
        let timeline = try ScriptTests.timeline(Self.pulse(restartedBy: "completion"))
        // At 1 s the completion adds the pulse again at once: no jump. At 2 s nothing follows
        // it, and the layer shows its model again: that one is real.
        #expect(abs(ScriptTests.number(timeline, "p", "opacity", 1) - 0.2) < 1e-9)
        #expect(ScriptTests.number(timeline, "p", "opacity", 2) == 1)
        #expect(Self.snapBackTimes(timeline) == [2])
    }

    @Test func aLoopThatRestartsElsewhereStillJumps() throws {
        // Added again from 0 after ending at 100 (the model's 0 is not where it ended): the
        // restart itself is a jump, and it is reported at every seam until the horizon.
        let timeline = try ScriptTests.timeline(
            """
            {"layers": [{"id": "p", "position": [0, 0]}],
             "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 100,
               "duration": 2, "key": "slide", "onStop": [{"addAgain": "slide", "layer": "p"}]}, "layer": "p"}]}]}
            """)
        #expect(Self.snapBackTimes(timeline) == [2, 4, 6, 8, 10])
    }
}
