import ChoreoEngine
import Testing

/// `keyframeAnimator`'s tracks: keyframes one after another, each from where the last ended
/// (docs/semantics.md, "SwiftUI keyframes").
@Suite struct SwiftUIKeyframeTrackTests {
    @Test func linearAndMoveKeyframes() {
        let track = SwiftUIKeyframeTrack(
            initial: 1, [.linear(2, duration: 0.5), .move(0.5), .linear(1, duration: 1, curve: .easeInEaseOut)])
        #expect(track.duration == 1.5)
        #expect(track.value(at: 0) == 1)
        #expect(abs(track.value(at: 0.25) - 1.5) < 1e-12)
        #expect(abs(track.value(at: 0.4999999) - 2) < 1e-6)
        // The move jumps at its very time (as a Core Animation animation begins at its begin
        // time); the next keyframe starts from its value.
        #expect(track.value(at: 0.5) == 0.5)
        #expect(abs(track.value(at: 0.5000001) - 0.5) < 1e-6)
        #expect(abs(track.value(at: 1.0) - 0.75) < 1e-9)  // easeInOut is half way at half time
        #expect(track.value(at: 3) == 1)
        #expect(abs(track.velocity(at: 0.25) - 2) < 1e-6)
    }

    @Test func cubicKeyframesAreSmoothThroughTheirKeyframes() {
        let track = SwiftUIKeyframeTrack(
            initial: 0, [.cubic(30, duration: 0.4), .cubic(-10, duration: 0.3), .cubic(0, duration: 0.5)])
        // Each keyframe's value is reached at its time.
        #expect(abs(track.value(at: 0.4) - 30) < 1e-9)
        #expect(abs(track.value(at: 0.7) - -10) < 1e-9)
        #expect(abs(track.value(at: 1.2)) < 1e-9)
        // Catmull-Rom velocities: continuous at the keyframes, 0 at the start and end.
        #expect(abs(track.velocity(at: 0.4) - (-10 - 0) / 0.7) < 1e-9)
        #expect(abs(track.velocity(at: 0.7) - (0 - 30) / 0.8) < 1e-9)
        for boundary in [0.4, 0.7] {
            #expect(abs(track.velocity(at: boundary - 1e-7) - track.velocity(at: boundary + 1e-7)) < 1e-3)
        }
        #expect(abs(track.velocity(at: 1e-9)) < 1e-5)
        #expect(abs(track.velocity(at: 1.2 - 1e-9)) < 1e-5)
        // Given velocities are used as they are.
        let given = SwiftUIKeyframeTrack(initial: 0, [.cubic(10, duration: 1, startVelocity: 40, endVelocity: 0)])
        #expect(abs(given.velocity(at: 0.0000001) - 40) < 1e-3)
    }

    @Test func springKeyframesKeepTheMotionsVelocityAndAreCutOffAtTheirDuration() {
        let spring = SwiftUISpring(duration: 0.5, bounce: 0.3)
        let track = SwiftUIKeyframeTrack(
            initial: 0, [.linear(10, duration: 0.5), .spring(20, duration: 0.2, spring: spring), .move(5)])
        // The spring starts from 10 at the linear keyframe's 20 units a second.
        for t in [0.55, 0.65] {
            let expected = 10 + spring.value(target: 10, initialVelocity: 20, time: t - 0.5)
            #expect(abs(track.value(at: t) - expected) < 1e-6)
        }
        // Cut off after 0.2 s, short of 20; the move then jumps.
        let cut = 10 + spring.value(target: 10, initialVelocity: 20, time: 0.2)
        #expect(abs(track.value(at: 0.7) - cut) < 1e-6)
        #expect(cut < 20)
        #expect(track.value(at: 0.71) == 5)
        // Without a duration a spring keyframe lasts its spring's perceptual duration.
        #expect(SwiftUIKeyframeTrack(initial: 0, [.spring(1, duration: nil, spring: spring)]).duration == 0.5)
    }
}
