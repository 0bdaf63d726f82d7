import Glibc

/// The `CAMediaTiming` properties of an animation or group, and the mapping from its parent's
/// time to its own basic local time.
///
/// ```
/// parent time ──(− beginTime) × |speed|──▶ elapsed ──(+ timeOffset, wrap)──▶ active time
///     active time ──(mod one cycle, mirrored when autoreversing)──▶ basic local time 0…duration
/// ```
/// choreo's decisions where Apple is silent (see docs/semantics.md): the phase (before, active,
/// after) is decided on the elapsed time, without `timeOffset`; `timeOffset` then shifts the
/// phase inside the active duration and wraps around it (the "wrap" model). A negative speed
/// plays the active duration backwards. `repeatDuration` is the active duration itself and is
/// not doubled by `autoreverses`. An instant within the scene-time resolution (1 ns) of a
/// cycle boundary is on it: playing forwards it starts the next cycle, playing backwards it
/// ends the one before.
public struct MediaTiming: Sendable, Equatable, Hashable {
    /// `beginTime`, in the parent's time (already resolved: a script's 0 became "time added").
    public var beginTime: Double = 0
    /// `duration` of one forward pass (already resolved: 0 became the transaction's duration).
    public var duration: Double = 0.25
    public var speed: Double = 1
    public var timeOffset: Double = 0
    /// `repeatCount`; 0 means once; `.infinity` repeats for ever.
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses: Bool = false
    public var fillMode: FillMode = .removed

    public init() {}

    /// The length of one cycle: a forward pass, and the way back when autoreversing.
    @inline(__always)
    public var cycleDuration: Double { autoreverses ? duration * 2 : duration }

    /// The active duration in the object's own elapsed time (may be infinite).
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        return cycleDuration * (repeatCount > 0 ? repeatCount : 1)
    }

    /// Where the object is relative to its active interval at a parent time.
    public enum Phase: Sendable, Equatable {
        case before, active, after
    }

    /// The result of mapping a parent time.
    public struct Local: Sendable, Equatable {
        /// Basic local time in 0…duration.
        public var time: Double
        /// Completed cycles before this one (for `cumulative`).
        public var iteration: Double
        public var phase: Phase
        /// The CSS Easing "before flag": in the before phase while the current pass runs
        /// forwards, or in the after phase while it runs backwards (an autoreversed pass, or a
        /// negative speed). A `steps(…, start)` jump at that boundary has not happened.
        public var beforeFlag = false
        /// How much progress (basic local time ÷ duration) one nanosecond of parent time is:
        /// a step boundary closer than that is reached (``TimingFunction/step``).
        public var tolerance = MediaTiming.resolution
        /// Whether the cycle's pass runs from the end back to the start (the way back of an
        /// autoreversing cycle), in the animation's own time, before any negative speed.
        var backwardsPass = false
    }

    /// The scene-time resolution applied to active and cycle boundaries (see docs/semantics.md).
    public static let resolution = 1e-9

    /// The elapsed active time at a parent time (the phase is decided on it).
    @inline(__always)
    public func elapsed(atParentTime parentTime: Double) -> Double {
        (parentTime - beginTime) * abs(speed)
    }

    /// Maps a parent time to basic local time; `nil` where the object has no effect (outside its
    /// active interval and not filling).
    @inline(__always)
    public func localTime(atParentTime parentTime: Double) -> Local? {
        let active = activeDuration
        var elapsed = speed == 0 ? 0 : (parentTime - beginTime) * abs(speed)
        // Instants closer than the scene-time resolution are the same instant.
        if abs(elapsed - active) < Self.resolution { elapsed = active }
        if abs(elapsed) < 1e-12 { elapsed = 0 }
        let phase: Phase
        if elapsed < 0 {
            guard fillMode.fillsBackwards else { return nil }
            phase = .before
            elapsed = 0
        } else if elapsed >= active {
            guard fillMode.fillsForwards else { return nil }
            phase = .after
            elapsed = active
        } else {
            phase = .active
        }
        // Negative speed plays the active interval from its end; an endless one has no end, so
        // its cycles run backwards from the begin time (choreo's rule, docs/semantics.md).
        let reversed = speed < 0
        if reversed { elapsed = active.isFinite ? active - elapsed : -elapsed }
        var local = Self.basic(
            activeTime: elapsed, active: active, timing: self, phase: phase,
            atEnd: phase == .after || elapsed == active, reversed: reversed)
        // CSS Easing: the current direction is the pass's, turned round by a negative speed.
        let forwards = local.backwardsPass == reversed
        local.beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)
        if duration > 0 && speed != 0 { local.tolerance = Self.resolution * abs(speed) / duration }
        return local
    }

    /// Folds an active time (plus `timeOffset`) into one cycle. `reversed`: the active time runs
    /// backwards (a negative speed), so an instant on a cycle boundary ends the earlier cycle.
    @inline(__always)
    static func basic(
        activeTime: Double, active: Double, timing: MediaTiming, phase: Phase, atEnd: Bool, reversed: Bool = false
    ) -> Local {
        let duration = timing.duration
        guard duration > 0 else { return Local(time: 0, iteration: 0, phase: phase) }
        var t = activeTime + timing.timeOffset
        if timing.timeOffset != 0 && active.isFinite && active > 0 && (t >= active || t < 0) {
            let wrapped = t.truncatingRemainder(dividingBy: active)
            t = wrapped < 0 ? wrapped + active : wrapped
            if t == 0 && atEnd { t = active }
        }
        let cycle = timing.cycleDuration
        var iteration = (t / cycle).rounded(.down)
        var within = t - iteration * cycle
        // Within the resolution of a boundary is on it: 0.3 / 0.1 is 2.9999999999999996 in
        // doubles, and a loop sampled on its own grid must not show the previous cycle's end.
        let nearest = (t / cycle).rounded()
        let tolerance = min(resolution, cycle * 1e-3)
        if abs(t - nearest * cycle) < tolerance {
            iteration = nearest
            within = 0
        } else if timing.autoreverses && abs(within - duration) < tolerance {
            // The turn of an autoreversing cycle, likewise.
            within = duration
        }
        if within <= 0 && t > 0 && (atEnd || t == active) {
            // Exactly on a cycle boundary at the end: hold the end of the cycle just finished.
            iteration -= 1
            within = cycle
        } else if within <= 0 && reversed && (t != 0 || !active.isFinite) {
            // Played backwards, a boundary is where the earlier cycle ends (an endless one's
            // begin instant included: its cycles run backwards from there).
            iteration -= 1
            within = cycle
        }
        if timing.autoreverses && within > duration {
            var local = Local(time: max(0, 2 * duration - within), iteration: iteration, phase: phase)
            local.backwardsPass = true
            return local
        }
        return Local(time: min(within, duration), iteration: iteration, phase: phase)
    }
}

extension MediaTiming {
    /// A stretch of parent time over which the basic local time runs in a straight line (one
    /// pass of one cycle, or its part inside a window): from `localStart` at `parentStart` to
    /// `localEnd` at `parentEnd` (backwards where `localEnd < localStart`).
    package struct Pass: Sendable, Equatable {
        package var parentStart: Double
        package var parentEnd: Double
        package var localStart: Double
        package var localEnd: Double
    }

    /// The passes of the active interval inside the parent-time window `window`, in time order;
    /// `nil` when there are more than `limit`, or where local time does not run (a speed of 0,
    /// a zero duration). The breakpoints are where a cycle or its way back begins, and where
    /// `timeOffset` wraps the active time; each pass is checked to be straight by sampling
    /// ``localTime(atParentTime:)`` itself, and a pass that is not is left out.
    package func passes(in window: ClosedRange<Double>, limit: Int) -> [Pass]? {
        guard speed != 0, duration > 0, beginTime.isFinite else { return nil }
        let active = activeDuration
        let rate = abs(speed)
        let reversed = speed < 0
        if reversed && !active.isFinite { return nil }
        // The window in elapsed active time.
        let from = max(0, (window.lowerBound - beginTime) * rate)
        let to = min(active, (window.upperBound - beginTime) * rate)
        guard to > from else { return [] }
        // In "r", the active time before `timeOffset` (turned round by a negative speed).
        let rLow = reversed ? active - to : from
        let rHigh = reversed ? active - from : to
        guard ((rHigh - rLow) / duration) * 2 < Double(limit) else { return nil }
        var cuts: [Double] = [rLow, rHigh]
        let shifts: [Double]
        if timeOffset != 0 && active.isFinite {
            let first = (timeOffset / active).rounded(.down)
            shifts = [first - 1, first, first + 1, first + 2].map { $0 * active }
        } else {
            shifts = [0]
        }
        for shift in shifts {
            // Wrap points: r + timeOffset − shift = 0.
            let wrap = shift - timeOffset
            if wrap > rLow && wrap < rHigh { cuts.append(wrap) }
            // Pass boundaries: r + timeOffset − shift = k · duration.
            var k = ((rLow + timeOffset - shift) / duration).rounded(.up)
            while true {
                let r = k * duration - timeOffset + shift
                if r >= rHigh { break }
                if r > rLow { cuts.append(r) }
                k += 1
                if cuts.count > limit * 2 + 8 { return nil }
            }
        }
        cuts.sort()
        var parents: [Double] = []
        for r in cuts {
            let elapsed = reversed ? active - r : r
            let parent = beginTime + elapsed / rate
            if let last = parents.last, abs(parent - last) < 1e-9 { continue }
            parents.append(parent)
        }
        parents.sort()
        var result: [Pass] = []
        for index in parents.indices.dropLast() {
            let start = parents[index]
            let end = parents[index + 1]
            let width = end - start
            guard width > 1e-9,
                let quarter = localTime(atParentTime: start + width / 4), quarter.phase == .active,
                let middle = localTime(atParentTime: start + width / 2), middle.phase == .active,
                let threeQuarters = localTime(atParentTime: start + 3 * width / 4), threeQuarters.phase == .active,
                quarter.iteration == threeQuarters.iteration, quarter.backwardsPass == threeQuarters.backwardsPass
            else { continue }
            let slope = (threeQuarters.time - quarter.time) / (width / 2)
            guard abs(middle.time - (quarter.time + threeQuarters.time) / 2) < 1e-9 * max(1, duration) else { continue }
            let localStart = quarter.time - slope * width / 4
            let localEnd = threeQuarters.time + slope * width / 4
            let slack = 1e-9 * max(1, duration)
            guard localStart > -slack, localStart < duration + slack, localEnd > -slack, localEnd < duration + slack
            else { continue }
            result.append(
                Pass(
                    parentStart: start, parentEnd: end, localStart: min(max(localStart, 0), duration),
                    localEnd: min(max(localEnd, 0), duration)))
            if result.count > limit { return nil }
        }
        return result
    }
}
