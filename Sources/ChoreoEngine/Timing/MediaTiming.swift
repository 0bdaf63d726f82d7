import Foundation

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
/// not doubled by `autoreverses`.
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
        /// The CSS Easing "before flag": before the start while playing forwards, or after the
        /// end while playing backwards. A `steps(…, start)` jump at that boundary has not happened.
        public var beforeFlag = false
    }

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
        if abs(elapsed - active) < 1e-9 { elapsed = active }
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
        if speed < 0 { elapsed = active.isFinite ? active - elapsed : -elapsed }
        var local = Self.basic(
            activeTime: elapsed, active: active, timing: self, phase: phase, atEnd: phase == .after || elapsed == active
        )
        local.beforeFlag = (phase == .before && speed >= 0) || (phase == .after && speed < 0)
        return local
    }

    /// Folds an active time (plus `timeOffset`) into one cycle.
    @inline(__always)
    static func basic(activeTime: Double, active: Double, timing: MediaTiming, phase: Phase, atEnd: Bool) -> Local {
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
        if within <= 0 && t > 0 && (atEnd || t == active) {
            // Exactly on a cycle boundary at the end: hold the end of the cycle just finished.
            iteration -= 1
            within = cycle
        }
        if timing.autoreverses && within > duration {
            return Local(time: max(0, 2 * duration - within), iteration: iteration, phase: phase)
        }
        if timing.autoreverses && within == cycle {
            return Local(time: 0, iteration: iteration, phase: phase)
        }
        return Local(time: min(within, duration), iteration: iteration, phase: phase)
    }
}
