import Testing

@testable import ChoreoEngine

/// The CA timing table of semantics reference §1.5 and the decisions of docs/semantics.md.
@Suite struct MediaTimingTests {
    static func timing(
        duration: Double = 1, begin: Double = 0, speed: Double = 1, offset: Double = 0, repeatCount: Double = 0,
        repeatDuration: Double = 0, autoreverses: Bool = false, fill: FillMode = .removed
    ) -> MediaTiming {
        var timing = MediaTiming()
        timing.duration = duration
        timing.beginTime = begin
        timing.speed = speed
        timing.timeOffset = offset
        timing.repeatCount = repeatCount
        timing.repeatDuration = repeatDuration
        timing.autoreverses = autoreverses
        timing.fillMode = fill
        return timing
    }

    /// Progress (basic time / duration) at a parent time; nil when the animation has no effect.
    static func progress(_ timing: MediaTiming, _ t: Double) -> Double? {
        timing.localTime(atParentTime: t).map { $0.time / timing.duration }
    }

    static func expect(
        _ timing: MediaTiming, _ cases: [(Double, Double?)], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (t, expected) in cases {
            let got = progress(timing, t)
            if let expected {
                #expect(
                    got != nil && abs(got! - expected) < 1e-9, "t = \(t): \(String(describing: got)) ≠ \(expected)",
                    sourceLocation: sourceLocation)
            } else {
                #expect(
                    got == nil, "t = \(t): expected removed, got \(String(describing: got))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func plain() { Self.expect(Self.timing(), [(0, 0), (0.25, 0.25), (0.999, 0.999), (1.0, nil)]) }
    @Test func fillForwards() { Self.expect(Self.timing(fill: .forwards), [(1.0, 1), (2.0, 1)]) }
    @Test func doubleSpeed() {
        Self.expect(Self.timing(duration: 2, speed: 2), [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)])
    }
    @Test func halfSpeed() { Self.expect(Self.timing(speed: 0.5), [(0.5, 0.25), (1.0, 0.5), (1.5, 0.75)]) }
    @Test func beginWithBackwardsFill() {
        Self.expect(Self.timing(begin: 1, fill: .backwards), [(0.5, 0), (1.0, 0), (1.5, 0.5), (2.5, nil)])
    }
    @Test func fractionalRepeat() {
        Self.expect(
            Self.timing(repeatCount: 2.5, fill: .forwards), [(0.25, 0.25), (1.25, 0.25), (2.4, 0.4), (3.0, 0.5)])
    }
    @Test func repeatDuration() {
        Self.expect(Self.timing(repeatDuration: 2.5, fill: .forwards), [(1.25, 0.25), (3.0, 0.5)])
    }
    @Test func autoreverse() {
        Self.expect(
            Self.timing(autoreverses: true, fill: .forwards),
            [(0.25, 0.25), (1.0, 1), (1.25, 0.75), (1.75, 0.25), (2.0, 0), (3.0, 0)])
    }
    @Test func autoreverseHalfRepeat() {
        Self.expect(
            Self.timing(repeatCount: 1.5, autoreverses: true, fill: .forwards), [(2.25, 0.25), (2.5, 0.5), (3.0, 1)])
    }
    @Test func autoreverseTwice() {
        Self.expect(
            Self.timing(repeatCount: 2, autoreverses: true, fill: .forwards), [(2.25, 0.25), (3.5, 0.5), (4.0, 0)])
    }
    @Test func frozen() { Self.expect(Self.timing(speed: 0, offset: 0.3), [(0, 0.3), (5, 0.3), (100, 0.3)]) }

    /// docs/semantics.md, decision 1: timeOffset wraps inside the active duration.
    @Test func timeOffsetWraps() {
        Self.expect(
            Self.timing(offset: 0.5, fill: .both), [(0, 0.5), (0.25, 0.75), (0.6, 0.1), (0.99, 0.49), (1.2, 0.5)])
    }

    /// docs/semantics.md, decision 2: an endless animation with a negative speed runs its
    /// cycles backwards from its begin time (it has no end to start from).
    @Test func negativeSpeedForever() {
        Self.expect(
            Self.timing(speed: -1, repeatCount: .infinity), [(0.25, 0.75), (0.5, 0.5), (1.75, 0.25), (100.25, 0.75)])
        Self.expect(
            Self.timing(speed: -2, repeatCount: .infinity, autoreverses: true),
            [(0.125, 0.25), (0.25, 0.5), (0.75, 0.5)])
    }

    /// docs/semantics.md, decision 2: a negative speed plays the active duration backwards.
    @Test func negativeSpeed() {
        Self.expect(Self.timing(speed: -1, fill: .both), [(0, 1), (0.25, 0.75), (0.75, 0.25), (2, 0)])
    }

    /// docs/semantics.md, decision 3: repeatDuration is not doubled by autoreverses.
    @Test func repeatDurationWithAutoreverse() {
        Self.expect(
            Self.timing(repeatDuration: 1.5, autoreverses: true, fill: .forwards), [(1.25, 0.75), (1.5, 0.5), (2, 0.5)])
    }

    @Test func infiniteRepeat() {
        let timing = Self.timing(repeatCount: .infinity)
        #expect(!timing.activeDuration.isFinite)
        Self.expect(timing, [(1000.25, 0.25)])
    }

    /// Table: every fill mode × autoreverse × repeat × speed: effect before, during and after.
    @Test(arguments: FillMode.allCases, [false, true])
    func fillTable(fill: FillMode, autoreverses: Bool) {
        for repeatCount in [0.0, 1.5, 3] {
            for speed in [0.5, 1, 2] {
                let timing = Self.timing(
                    begin: 1, speed: speed, repeatCount: repeatCount, autoreverses: autoreverses, fill: fill)
                let end = 1 + timing.activeDuration / speed
                let before = timing.localTime(atParentTime: 0.5)
                let during = timing.localTime(atParentTime: (1 + end) / 2)
                let after = timing.localTime(atParentTime: end + 1)
                #expect((before != nil) == (fill == .backwards || fill == .both))
                #expect(during?.phase == .active)
                #expect((after != nil) == (fill == .forwards || fill == .both))
                if let before { #expect(before.time == 0) }
                if let after {
                    // The held value is where the active duration ended (rule 9.1).
                    let cycles = timing.activeDuration / timing.cycleDuration
                    let whole = cycles == cycles.rounded(.down)
                    let expected: Double =
                        whole
                        ? (autoreverses ? 0 : 1)
                        : (autoreverses
                            ? 1 - 2 * abs(cycles.truncatingRemainder(dividingBy: 1) - 0.5)
                            : cycles.truncatingRemainder(dividingBy: 1))
                    #expect(abs(after.time - expected) < 1e-9, "repeat \(repeatCount) speed \(speed)")
                }
            }
        }
    }

    /// WPT active-time.html vectors mapped to CAMediaTiming (delay → beginTime, iterations → repeatCount).
    @Test func webAnimationsVectors() {
        // {"delay":1,"fill":"none"} at 0 → null; backwards → 0; forwards → null.
        #expect(Self.timing(begin: 1).localTime(atParentTime: 0) == nil)
        #expect(Self.timing(begin: 1, fill: .backwards).localTime(atParentTime: 0)?.time == 0)
        #expect(Self.timing(begin: 1, fill: .forwards).localTime(atParentTime: 0) == nil)
        // duration 1000 ms at 500 → 0.5; delay 500 at 1000 → 0.5.
        Self.expect(Self.timing(), [(0.5, 0.5)])
        Self.expect(Self.timing(begin: 0.5), [(1.0, 0.5)])
        // iterations 2.3, delay 0.5, fill forwards: after the end, iteration 2, progress 0.3.
        let local = Self.timing(begin: 0.5, repeatCount: 2.3, fill: .forwards).localTime(atParentTime: 10)
        #expect(local != nil && abs(local!.time - 0.3) < 1e-9 && local!.iteration == 2)
        // steps(2, start) with delay 1 s, fill both: 0 → 0 (before: progress 0 eased), 1.5 → 1.
        let steps = TimingFunction.steps(2, .start)
        let timing = Self.timing(begin: 1, fill: .both)
        #expect(steps.evaluate(Self.progress(timing, 1.0)!) == 0.5)
        #expect(steps.evaluate(Self.progress(timing, 1.5)!) == 1)
    }

    @Test func layerTimeComposition() {
        // layer.speed = 2 around an animation of duration 4: after 1 s, progress 0.5.
        let map = TimeMap.identity.then(LayerTiming(speed: 2))
        let animation = Self.timing(duration: 4)
        #expect(Self.progress(animation, map.local(1)) == 0.5)
        #expect(
            Self.progress(Self.timing(duration: 4, speed: 2), map.local(1)) == 1
                || Self.progress(Self.timing(duration: 4, speed: 2), map.local(1)) == nil)
        // QA1673: paused at 10 (speed 0, offset 10); resumed at 13 (beginTime 3).
        let paused = TimeMap.identity.then(LayerTiming(speed: 0, timeOffset: 10))
        #expect(paused.local(12) == 10)
        let resumed = TimeMap.identity.then(LayerTiming(beginTime: 3, speed: 1, timeOffset: 0))
        #expect(resumed.local(13) == 10)
        #expect(resumed.local(14) == 11)
        #expect(paused.sceneTime(forLocal: 10) == nil)
    }
}
