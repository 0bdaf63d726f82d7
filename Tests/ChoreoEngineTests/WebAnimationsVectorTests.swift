import Testing

@testable import ChoreoEngine

/// The Web Animations vectors of semantics reference §5.3 that map onto CAMediaTiming:
/// delay → beginTime, iterations → repeatCount, fill → fillMode, direction reverse of a single
/// iteration → speed −1, times in ms → s. Vectors that do not map are not tested here:
/// `iterationStart` (CA's timeOffset wraps inside the active duration, docs/semantics.md 1),
/// `duration: 0` (CA reads 0 as the 0.25 s default), `endDelay` (no CA equivalent), and
/// `alternate` with a fractional iterationStart, and an Animation's `playbackRate` (it runs
/// the timeline backwards, which is not an effect's negative speed).
@Suite struct WebAnimationsVectorTests {
    static func timing(duration: Double, delay: Double, iterations: Double = 1, fill: FillMode, speed: Double = 1)
        -> MediaTiming
    {
        MediaTimingTests.timing(duration: duration, begin: delay, speed: speed, repeatCount: iterations, fill: fill)
    }

    /// Progress after the timing function, as `getComputedTiming().progress` reports it.
    static func progress(_ timing: MediaTiming, _ t: Double, easing: TimingFunction = .linear) -> Double? {
        guard let local = timing.localTime(atParentTime: t) else { return nil }
        return easing.evaluate(local.time / timing.duration, beforeFlag: local.beforeFlag)
    }

    static func check(
        _ timing: MediaTiming, easing: TimingFunction = .linear, _ cases: [(Double, Double?)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (milliseconds, expected) in cases {
            let got = progress(timing, milliseconds / 1000, easing: easing)
            if let expected {
                #expect(
                    got.map { abs($0 - expected) < 1e-9 } == true,
                    "at \(milliseconds) ms: \(String(describing: got)) ≠ \(expected)", sourceLocation: sourceLocation)
            } else {
                #expect(got == nil, "at \(milliseconds) ms: expected no effect", sourceLocation: sourceLocation)
            }
        }
    }

    /// active-time.html.
    @Test func activeTime() {
        Self.check(Self.timing(duration: 1, delay: 0.001, fill: .removed), [(0, nil)])
        Self.check(Self.timing(duration: 1, delay: 0.001, fill: .backwards), [(0, 0)])
        Self.check(Self.timing(duration: 1, delay: 0.001, fill: .forwards), [(0, nil)])
        Self.check(Self.timing(duration: 1, delay: 0, fill: .removed), [(500, 0.5)])
        Self.check(Self.timing(duration: 1, delay: 0.5, fill: .removed), [(1000, 0.5)])
        Self.check(Self.timing(duration: 1, delay: -0.5, fill: .removed), [(0, 0.5)])
        let repeated = Self.timing(duration: 1, delay: 0.5, iterations: 2.3, fill: .forwards)
        Self.check(repeated, [(10_000, 0.3)])
        #expect(repeated.localTime(atParentTime: 10)?.iteration == 2)
    }

    /// simple-iteration-progress.html, iterationStart 0, duration 100 ms, delay 1 ms, fill both:
    /// before = BA − 1, activeBoundary = BA, after = AA (the helper's sampling points).
    @Test func simpleIterationProgress() {
        let whole = Self.timing(duration: 0.1, delay: 0.001, iterations: 3, fill: .both)
        Self.check(whole, [(0, 0), (1, 0), (301, 1)])
        let fractional = Self.timing(duration: 0.1, delay: 0.001, iterations: 3.5, fill: .both)
        Self.check(fractional, [(0, 0), (1, 0), (351, 0.5)])
    }

    /// animation-effect-phases-and-states.html (endDelay has no CA equivalent and is left out).
    @Test func phasesAndStates() {
        Self.check(
            Self.timing(duration: 0.010, delay: 0.001, fill: .both),
            [(0, 0), (1, 0), (2, 0.1), (10, 0.9), (11, 1), (12, 1)])
        Self.check(
            Self.timing(duration: 0.010, delay: -0.001, fill: .both),
            [(-2, 0), (-1, 0), (0, 0.1), (1, 0.2), (8, 0.9), (9, 1), (10, 1)])
    }

    /// transformed-progress.html: steps(2, start) with the before flag.
    @Test func stepsWithTheBeforeFlag() {
        let steps = TimingFunction.steps(2, .start)
        Self.check(
            Self.timing(duration: 1, delay: 1, fill: .both), easing: steps,
            [(0, 0), (999, 0), (1000, 0.5), (1499, 0.5), (1500, 1), (2000, 1)])
        // direction: reverse, one iteration → speed −1.
        Self.check(
            Self.timing(duration: 1, delay: 1, fill: .both, speed: -1), easing: steps,
            [(0, 1), (1001, 1), (1500, 1), (1501, 0.5), (2000, 0), (2500, 0)])
    }
}
