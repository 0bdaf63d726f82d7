import ChoreoEngine
import Testing

/// What a SwiftUI view shows when a state change comes while another is animating
/// (docs/semantics.md, "SwiftUI interruptions").
@Suite struct SwiftUIValueTrackTests {
    @Test func timingCurvesAddUp() {
        var track = SwiftUIValueTrack(0)
        track.set(100, at: 0, animation: .linear(duration: 1))
        #expect(abs(track.value(at: 0.5) - 50) < 1e-9)
        track.set(0, at: 0.5, animation: .linear(duration: 1))
        // No jump, and the first animation keeps going: 0 + (−100)(1 − p₁) + 100(1 − p₂).
        #expect(abs(track.value(at: 0.5) - 50) < 1e-9)
        #expect(abs(track.value(at: 1.0) - 50) < 1e-9)
        #expect(abs(track.value(at: 1.25) - 25) < 1e-9)
        #expect(abs(track.value(at: 1.5) - 0) < 1e-9)
    }

    @Test func aSpringTakesOverFromASpringWithItsVelocity() {
        var first = SwiftUIValueTrack(0)
        first.set(100, at: 0, animation: .spring(duration: 0.5, bounce: 0))
        var interrupted = first
        interrupted.set(0, at: 0.2, animation: .spring(duration: 0.5, bounce: 0))
        // Continuous in value and in velocity at the interruption.
        #expect(abs(interrupted.value(at: 0.2) - first.value(at: 0.2)) < 1e-9)
        #expect(abs(interrupted.velocity(at: 0.2) - first.velocity(at: 0.2)) < 1e-6)
        #expect(first.velocity(at: 0.2) > 100)  // it was moving fast towards 100
        // It keeps going up a moment before turning back, as a spring with momentum does.
        #expect(interrupted.value(at: 0.205) > interrupted.value(at: 0.2))
        // One spring runs from there: the same as a spring started at that value and velocity.
        let start = first.value(at: 0.2)
        let speed = first.velocity(at: 0.2)
        let spring = SwiftUISpring(duration: 0.5, bounce: 0)
        for t in [0.3, 0.5, 0.8] {
            let expected = start + spring.value(target: -start, initialVelocity: speed, time: t - 0.2)
            #expect(abs(interrupted.value(at: t) - expected) < 1e-9)
        }
        #expect(abs(interrupted.value(at: 5)) < 1e-9)
    }

    @Test func aSpringAfterATimingCurveAdds() {
        var track = SwiftUIValueTrack(0)
        track.set(100, at: 0, animation: .easeInOut(duration: 1))
        track.set(0, at: 0.5, animation: .spring(duration: 0.5, bounce: 0))
        let curve = SwiftUIAnimation.easeInOut(duration: 1)
        let spring = SwiftUISpring(duration: 0.5, bounce: 0)
        for t in [0.6, 0.9] {
            let expected = -100 * (1 - curve.progress(at: t)) + (100 + spring.value(target: -100, time: t - 0.5))
            #expect(abs(track.value(at: t) - expected) < 1e-9)
        }
    }

    @Test func aChangeWithoutAnimationJumps() {
        var track = SwiftUIValueTrack(0)
        track.set(100, at: 0, animation: .easeInOut())
        track.set(40, at: 0.1, animation: nil)
        #expect(track.value(at: 0.1) == 40)
        #expect(track.velocity(at: 0.2) == 0)
    }
}
