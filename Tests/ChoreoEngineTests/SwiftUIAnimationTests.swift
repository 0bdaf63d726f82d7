import ChoreoEngine
import Testing

/// SwiftUI's `Animation` values: their progress at a time and when their completions run
/// (docs/semantics.md, "SwiftUI animations").
@Suite struct SwiftUIAnimationTests {
    @Test func timingCurvesLastTheirDurationOf035ByDefault() {
        let ease = SwiftUIAnimation.easeInOut()
        #expect(ease.completion(.logicallyComplete) == 0.35)
        #expect(abs(ease.progress(at: 0.175) - 0.5) < 1e-9)
        #expect(ease.progress(at: 0) == 0 && ease.progress(at: 0.35) == 1)
        #expect(abs(SwiftUIAnimation.linear(duration: 1).progress(at: 0.25) - 0.25) < 1e-9)
        let curve = SwiftUIAnimation.timingCurve(0.2, 0.8, 0.2, 1, duration: 2)
        #expect(
            abs(curve.progress(at: 0.5) - TimingFunction.bezier(UnitBezier(0.2, 0.8, 0.2, 1)).evaluate(0.25)) < 1e-12)
        #expect(abs(SwiftUIAnimation.easeIn().progress(at: 0.1) - TimingFunction.easeIn.evaluate(0.1 / 0.35)) < 1e-12)
    }

    @Test func springsFollowTheirSpringAndCompleteTwice() {
        let animation = SwiftUIAnimation.bouncy()
        let spring = SwiftUISpring(duration: 0.5, bounce: 0.3)
        for t in [0.05, 0.2, 0.4, 0.6] {
            #expect(abs(animation.progress(at: t) - spring.value(target: 1, time: t)) < 1e-12)
        }
        // Logically complete at its perceptual duration; removed once settled, later.
        #expect(animation.completion(.logicallyComplete) == 0.5)
        let removed = animation.completion(.removed) ?? 0
        #expect(removed > 0.5)
        #expect(animation.progress(at: removed) == 1)
        // spring(response:dampingFraction:) defaults 0.5 and 0.825.
        guard case .spring(let fraction, let blend) = SwiftUIAnimation.spring(response: 0.5) else {
            Issue.record("not a spring")
            return
        }
        #expect(abs(fraction.dampingRatio - 0.825) < 1e-12 && blend == 0)
        guard case .spring(let interactive, let interactiveBlend) = SwiftUIAnimation.interactiveSpring() else {
            Issue.record("not a spring")
            return
        }
        #expect(abs(interactive.response - 0.15) < 1e-12 && abs(interactive.dampingRatio - 0.86) < 1e-12)
        #expect(interactiveBlend == 0.25)
    }

    @Test func delayAndSpeedApplyInTheOrderWritten() {
        let delayedThenFast = SwiftUIAnimation.linear(duration: 1).delay(0.5).speed(2)
        #expect(abs(delayedThenFast.progress(at: 0.5) - 0.5) < 1e-12)
        #expect(delayedThenFast.completion(.removed) == 0.75)
        let fastThenDelayed = SwiftUIAnimation.linear(duration: 1).speed(2).delay(0.5)
        #expect(abs(fastThenDelayed.progress(at: 0.75) - 0.5) < 1e-12)
        #expect(fastThenDelayed.completion(.removed) == 1)
    }

    @Test func repeatsAutoreverseAndEndOnTheNewValue() {
        let three = SwiftUIAnimation.linear(duration: 1).repeatCount(3)
        #expect(abs(three.progress(at: 0.25) - 0.25) < 1e-12)
        #expect(abs(three.progress(at: 1.25) - 0.75) < 1e-12)  // the second play, backwards
        #expect(abs(three.progress(at: 2.5) - 0.5) < 1e-12)
        #expect(three.progress(at: 3.5) == 1)
        #expect(three.completion(.logicallyComplete) == 3)
        // An even count autoreversed ends its last play at the old value, then jumps to the new.
        let two = SwiftUIAnimation.linear(duration: 1).repeatCount(2)
        #expect(abs(two.progress(at: 1.999) - 0.001) < 1e-9)
        #expect(two.progress(at: 2.001) == 1)
        let forward = SwiftUIAnimation.linear(duration: 1).repeatCount(2, autoreverses: false)
        #expect(abs(forward.progress(at: 1.25) - 0.25) < 1e-12)
        // A delay before the repeat is repeated with each play.
        let delayed = SwiftUIAnimation.linear(duration: 1).delay(1).repeatCount(2, autoreverses: false)
        #expect(delayed.progress(at: 2.5) == 0)
        #expect(abs(delayed.progress(at: 3.5) - 0.5) < 1e-12)
        // For ever: the completion never runs.
        #expect(SwiftUIAnimation.easeInOut().repeatForever().completion(.removed) == nil)
        #expect(SwiftUIAnimation.easeInOut().repeatForever().completion(.logicallyComplete) == nil)
    }
}
