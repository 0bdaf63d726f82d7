import ChoreoEngine
import ChoreoRaster

/// The span a scene that repeats for ever is exported over: a whole number of its common
/// period, so that a player looping the file (Lottie's players loop `ip`…`op`; CSS
/// `animation-iteration-count: infinite`) is seamless at the seam, instead of the cut at the
/// run's 10 s horizon.
///
/// The common period is the least common multiple of the periods of the animations that repeat
/// for ever (``Timeline/foreverPeriods``, to the microsecond, a `Float`'s rounding forgiven) and of a loop the script makes (an
/// animation added again at the same interval), times the fewest passes that make it a whole
/// number of frames. It is trusted only where the engine's presentation tree at the
/// span's end is the one at its start (to 10⁻⁴), at five times through it; the span starts at 0
/// where the whole run repeats, else at the first frame after the last change that does not
/// repeat, or one period in. Where
/// there is no such period within the horizon, the export keeps the horizon and says so.
struct LoopSpan: Sendable, Equatable {
    /// Where the repeating part starts and where the export ends, seconds.
    let start: Double
    let end: Double
    /// The common period found, or nil: cut at the horizon.
    let period: Double?

    /// Whether a player that loops the whole Lottie file (`ip`…`op`, `ip` where the repeating
    /// part starts) is seamless: wherever a period was found.
    var seamless: Bool { period != nil }

    /// A repeating scene's span for an export through `end` (the scene's natural end, its
    /// horizon), or nil for a scene that settles or an export to another time.
    static func find(_ renderer: FrameRenderer, end: Double, fps: Double) -> LoopSpan? {
        let timeline = renderer.timeline
        guard timeline.neverSettles, abs(end - SceneTime.quantize(timeline.naturalEnd)) < 1e-9 else { return nil }
        let cap = LoopSpan(start: 0, end: end, period: nil)
        let forever = timeline.foreverPeriods
        // A loop the script makes (an animation added again from its `onStop`, a SwiftUI
        // phase animator): the time between the last two additions of one key on one layer.
        var restarts: [Double] = []
        var added: [String: [Double]] = [:]
        for animation in timeline.animations {
            added["\(animation.layer) \(animation.key ?? animation.keyPath?.description ?? "")", default: []].append(
                animation.addedAt)
        }
        for times in added.values where times.count >= 2 {
            let interval = times[times.count - 1] - times[times.count - 2]
            if interval > 0, !restarts.contains(where: { abs($0 - interval) < 1e-6 }) { restarts.append(interval) }
        }
        var candidates: [[Double]] = forever.isEmpty ? [] : [forever]
        candidates += restarts.sorted().map { forever + [$0] }
        for periods in candidates {
            guard let span = commonSpan(periods, fps: fps, within: end) else { continue }
            var starts = [0.0]
            let settled = (timeline.lastChange * fps - 1e-6).rounded(.up) / fps
            if settled > 0 && settled < end { starts.append(settled) }
            starts.append(span)
            for start in starts where start + span <= end + 1e-9 {
                if repeats(renderer, from: start, over: span) {
                    return LoopSpan(start: start, end: SceneTime.quantize(start + span), period: span)
                }
            }
        }
        return cap
    }

    /// The least common multiple of `periods` (to the microsecond), times the fewest passes that
    /// make a whole number of frames; nil where that is longer than `limit` seconds.
    static func commonSpan(_ periods: [Double], fps: Double, within limit: Double) -> Double? {
        var common: Int64 = 1
        for period in periods {
            let micro = (period * 1_000_000).rounded()
            // A period written as a `Float` (`1.2f`: 1.2000000477 s) is its decimal to the
            // microsecond too: within 2 × 10⁻⁷ of it.
            let tolerance = max(1e-3, micro * 2e-7)
            guard abs(period * 1_000_000 - micro) < tolerance, micro >= 1, micro <= limit * 1_000_000 else {
                return nil
            }
            let m = Int64(micro)
            common = common / gcd(common, m) * m
            guard Double(common) <= limit * 1_000_000 else { return nil }
        }
        guard common > 1 else { return nil }
        for passes in 1...Int64(10_000) {
            let seconds = Double(common * passes) / 1_000_000
            if seconds > limit + 1e-9 { return nil }
            let frames = seconds * fps
            if abs(frames - frames.rounded()) < 1e-6 { return seconds }
        }
        return nil
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    /// Whether the presentation tree at `start + t + span` is the one at `start + t`, at five
    /// times through the span: the same layers, maps, opacities, boxes, colours and strokes.
    static func repeats(_ renderer: FrameRenderer, from start: Double, over span: Double) -> Bool {
        for fraction in [0, 0.13, 0.37, 0.61, 0.89] {
            let t = SceneTime.quantize(start + span * fraction)
            let a = renderer.snapshot(at: t)
            let b = renderer.snapshot(at: SceneTime.quantize(t + span))
            guard a.layers.count == b.layers.count else { return false }
            for (x, y) in zip(a.layers, b.layers) where !same(x, y) { return false }
        }
        return true
    }

    static func same(_ a: LayerSnapshot, _ b: LayerSnapshot) -> Bool {
        func near(_ x: [Double], _ y: [Double]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= 1e-4 * max(1, abs($0)) }
        }
        func lanes(_ c: Color) -> [Double] { [c.red, c.green, c.blue, c.alpha] }
        guard a.index == b.index, a.parent == b.parent, a.hidden == b.hidden, a.string == b.string else {
            return false
        }
        return near(a.toParent, b.toParent)
            && near(
                [
                    a.opacity, a.bounds.origin.x, a.bounds.origin.y, a.bounds.size.x, a.bounds.size.y, a.cornerRadius,
                    a.borderWidth, a.lineWidth, a.strokeStart, a.strokeEnd, a.shadowOpacity, a.shadowRadius,
                    a.blurRadius,
                ],
                [
                    b.opacity, b.bounds.origin.x, b.bounds.origin.y, b.bounds.size.x, b.bounds.size.y, b.cornerRadius,
                    b.borderWidth, b.lineWidth, b.strokeStart, b.strokeEnd, b.shadowOpacity, b.shadowRadius,
                    b.blurRadius,
                ])
            && near(
                [a.background, a.borderColor, a.fillColor, a.strokeColor, a.foregroundColor, a.shadowColor].flatMap(
                    lanes),
                [b.background, b.borderColor, b.fillColor, b.strokeColor, b.foregroundColor, b.shadowColor].flatMap(
                    lanes))
    }
}
