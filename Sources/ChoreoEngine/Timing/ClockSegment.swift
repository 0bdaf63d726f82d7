/// Re-timing a running animation: the local time an animator or an interactive transition gives
/// the animations it drives.
///
/// Core Animation pauses and scrubs by setting a layer's `speed` to 0 and moving its
/// `timeOffset` (QA1673; `UIPercentDrivenInteractiveTransition`); UIKit's property animators
/// also continue on other curves and durations, and reverse. One segment covers all of it:
/// from a scene time on, the local time goes from `from` to `to` over `duration` seconds along
/// a window of a timing curve, then holds. A pause is a segment of duration 0; a scrub, a new
/// paused segment elsewhere; a reversal, a segment back along the same curve; continuing on
/// other timing parameters, a segment with another curve. A clock is a ``History`` of them.
public struct ClockSegment: Sendable, Equatable {
    /// Scene time at which the segment takes over.
    public let start: Double
    public let from: Double
    public let to: Double
    /// Scene seconds from `from` to `to`; 0 holds `from` (paused).
    public let duration: Double
    public let curve: TimingFunction
    /// The part of `curve` followed: its input goes from `windowStart` to `windowEnd`
    /// (decreasing when played backwards). For an animator this is its `fractionComplete`.
    public let windowStart: Double
    public let windowEnd: Double
    /// The owner's progress (an animator's `fractionComplete`) at the segment's start and end;
    /// the curve window unless the pace is a new curve (`continueAnimation`).
    public let fractionStart: Double
    public let fractionEnd: Double
    /// `curve` at the window's ends, computed once.
    private let curveStart: Double
    private let curveEnd: Double

    public init(
        start: Double, from: Double, to: Double, duration: Double, curve: TimingFunction = .linear,
        window: (start: Double, end: Double) = (0, 1), fractions: (start: Double, end: Double)? = nil
    ) {
        self.start = start
        self.from = from
        self.to = to
        self.duration = max(0, duration)
        self.curve = curve
        windowStart = window.start
        windowEnd = window.end
        fractionStart = fractions?.start ?? window.start
        fractionEnd = fractions?.end ?? window.end
        curveStart = curve.evaluate(window.start)
        curveEnd = curve.evaluate(window.end)
    }

    /// Held at `local` from `start` on; `fraction` is where its owner stands.
    public static func paused(at local: Double, fraction: Double, since start: Double) -> ClockSegment {
        ClockSegment(start: start, from: local, to: local, duration: 0, window: (fraction, fraction))
    }

    /// The scene time the segment reaches `to`.
    public var end: Double { start + duration }

    /// Whether the local time moves (a running animator, a finishing or cancelling transition).
    public var isRunning: Bool { duration > 0 }

    /// The owner's progress at a scene time (`fractionComplete`), linear in time.
    @inline(__always)
    public func fraction(at time: Double) -> Double {
        guard duration > 0 else { return fractionStart }
        let s = (time - start) / duration
        if s <= 0 { return fractionStart }
        // The end within the scene-time resolution is the end.
        if s >= 1 || end - time < MediaTiming.resolution { return fractionEnd }
        return fractionStart + (fractionEnd - fractionStart) * s
    }

    /// The local time at a scene time: the same function on both sampling paths.
    @inline(__always)
    public func local(at time: Double) -> Double {
        guard duration > 0 else { return from }
        let s = (time - start) / duration
        if s <= 0 { return from }
        if s >= 1 || end - time < MediaTiming.resolution { return to }
        let x = windowStart + (windowEnd - windowStart) * s
        guard curveEnd != curveStart else { return from + (to - from) * s }
        return from + (to - from) * ((curve.evaluate(x) - curveStart) / (curveEnd - curveStart))
    }

    public static func == (a: ClockSegment, b: ClockSegment) -> Bool {
        a.start == b.start && a.from == b.from && a.to == b.to && a.duration == b.duration && a.curve == b.curve
            && a.windowStart == b.windowStart && a.windowEnd == b.windowEnd && a.fractionStart == b.fractionStart
            && a.fractionEnd == b.fractionEnd
    }
}

extension History where Element == ClockSegment {
    /// A clock's local time at a scene time.
    @inline(__always)
    public func local(at time: Double) -> Double { value(at: time).local(at: time) }
}
