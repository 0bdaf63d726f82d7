/// A stretch of scene time over which one animation's progress follows one cubic timing
/// curve from its start to its end: what an export writes as one eased keyframe (a
/// `CAMediaTimingFunction`'s control points as a Lottie keyframe's `o`/`i` handles, or as CSS
/// `cubic-bezier()`), instead of sampling it.
///
/// A span says how the animation's progress runs, not that a property follows it: another
/// animation on the same property, an additive stack or a value that is not interpolated in a
/// straight line (a decomposed transform) can make it otherwise, and an export checks each
/// property against the frames before it trusts a span.
public struct EasedSpan: Sendable, Equatable {
    /// Scene times, `start < end`.
    public let start: Double
    public let end: Double
    /// The progress from `start` (0) to `end` (1), as a unit curve.
    public let curve: UnitBezier

    package init(start: Double, end: Double, curve: UnitBezier) {
        self.start = start
        self.end = end
        self.curve = curve
    }
}

extension Timeline {
    /// Most passes one animation contributes (a long-repeating animation beyond it is sampled).
    package static let maxSpansPerAnimation = 512

    /// Every layer's eased spans between scene times 0 and `end` (by layer index), from the
    /// animations whose progress is one cubic curve per pass: `CABasicAnimation` (not springs)
    /// with a cubic timing function, and `CAKeyframeAnimation` in a linear or paced mode, one
    /// span per key-time segment (its `timingFunctions`), under a linear timing function or
    /// with one segment. Animations inside a `CAAnimationGroup`, on an animator's clock, with
    /// `steps` or a `rotationMode`, and layers whose timing (or an ancestor's) changes during
    /// the run give none. Empty once the leaves are released.
    package func easedSpans(through end: Double) -> [[EasedSpan]] {
        var spans = [[EasedSpan]](repeating: [], count: layers.count)
        guard !leavesReleased, end > 0 else { return spans }
        for animation in animations {
            guard let (layer, from, to, map) = straightTime(of: animation, through: end) else { continue }
            for index in animation.leaves {
                let leaf = leaves[index]
                guard leaf.clock < 0, leaf.body.groups.isEmpty else { continue }
                let leafFrom = max(from, leaf.addedAt)
                let leafTo = min(to, leaf.removedAt)
                guard leafTo > leafFrom else { continue }
                spans[layer] += Self.spans(of: leaf.body, from: leafFrom, to: leafTo, map: map)
            }
        }
        for layer in spans.indices where spans[layer].count > 1 {
            spans[layer].sort { ($0.start, $0.end) < ($1.start, $1.end) }
            var unique: [EasedSpan] = []
            for span in spans[layer] where unique.last != span { unique.append(span) }
            spans[layer] = unique
        }
        return spans
    }

    /// An animation's layer, the scene times it is attached for up to `end`, and its layer's
    /// time map over them: nil unless that map is one straight line of scene time (the
    /// layer's and its ancestors' timing never change, and time runs).
    func straightTime(of animation: AttachedAnimation, through end: Double) -> (
        layer: Int, from: Double, to: Double, map: TimeMap
    )? {
        let layer = animation.layer
        guard layer >= 0 && layer < layers.count else { return nil }
        let from = max(0, animation.addedAt)
        let to = min(end, animation.removedAt)
        guard to > from, timingIsConstant(layer: layer, at: from) else { return nil }
        let map = timeMap(of: layer, at: from)
        guard map.scale != 0, map == timeMap(of: layer, at: to) else { return nil }
        return (layer, from, to, map)
    }

    /// Whether the layer's timing and its ancestors' (at `time`) never change.
    func timingIsConstant(layer: Int, at time: Double) -> Bool {
        let shape = shape.value(at: time)
        var current = layer
        var steps = 0
        while current >= 0 && current < layers.count && steps <= layers.count {
            if !layers[current].timingIsConstant { return false }
            current = current < shape.parent.count ? shape.parent[current] : -1
            steps += 1
        }
        return true
    }

    /// One leaf's spans between scene times `from` and `to`.
    private static func spans(of body: AnimationLeafBody, from: Double, to: Double, map: TimeMap) -> [EasedSpan] {
        played(of: body, from: from, to: to, map: map).map(\.span)
    }

    /// One leaf's spans between scene times `from` and `to`, each with the leaf's linear
    /// progress (local time ÷ duration) at the span's start and end, and a parent time inside
    /// its pass (whose local time says which cycle it is).
    static func played(of body: AnimationLeafBody, from: Double, to: Double, map: TimeMap) -> [PlayedSpan] {
        // The pieces of progress (linear progress x = local time ÷ duration) each following one curve.
        var pieces: [(low: Double, high: Double, curve: UnitBezier)] = []
        switch body.curve {
        case .basic(_, let spring):
            guard spring == nil, case .bezier(let curve) = body.timingFunction else { return [] }
            pieces = [(0, 1, curve)]
        case .keyframes(let track):
            guard track.rotationMode == nil, track.mode == .linear || track.mode == .paced else { return [] }
            let times = track.keyTimes
            guard times.count >= 2, times.first == 0, times.last == 1 else { return [] }
            func segmentCurve(_ index: Int) -> UnitBezier? {
                guard let functions = track.segmentFunctions, index < functions.count else {
                    return UnitBezier(0, 0, 1, 1)
                }
                if case .bezier(let curve) = functions[index] { return curve }
                return nil
            }
            if times.count == 2 {
                // One segment under the animation's own curve: linear segment, any cubic curve.
                guard case .bezier(let own) = body.timingFunction, let segment = segmentCurve(0) else { return [] }
                if segment.isIdentity {
                    pieces = [(0, 1, own)]
                } else if body.timingFunction.isLinear {
                    pieces = [(0, 1, segment)]
                } else {
                    return []
                }
            } else {
                guard body.timingFunction.isLinear else { return [] }
                for index in 0..<(times.count - 1) where times[index + 1] > times[index] {
                    guard let curve = segmentCurve(index) else { return [] }
                    pieces.append((times[index], times[index + 1], curve))
                }
            }
        }
        guard !pieces.isEmpty else { return [] }
        // The scene window in the leaf's parent time (its layer's time).
        let a = map.local(from)
        let b = map.local(to)
        guard let passes = body.timing.passes(in: min(a, b)...max(a, b), limit: maxSpansPerAnimation) else {
            return []
        }
        let duration = body.timing.duration
        var result: [PlayedSpan] = []
        for pass in passes {
            let x0 = pass.localStart / duration
            let x1 = pass.localEnd / duration
            guard x0 != x1 else { continue }
            for piece in pieces {
                // The part of the pass inside this piece, in linear progress.
                let low = max(min(x0, x1), piece.low)
                let high = min(max(x0, x1), piece.high)
                guard high - low > 1e-12 else { continue }
                let span = piece.high - piece.low
                let forwards = x1 > x0
                let (first, last) = forwards ? (low, high) : (high, low)
                guard
                    let curve = piece.curve.piece(
                        from: (first - piece.low) / span, to: (last - piece.low) / span)
                else { continue }
                // Parent times of `first` and `last` along the pass, then scene times.
                func parent(_ x: Double) -> Double {
                    pass.parentStart + (pass.parentEnd - pass.parentStart) * (x - x0) / (x1 - x0)
                }
                guard let t0 = map.sceneTime(forLocal: parent(first)), let t1 = map.sceneTime(forLocal: parent(last))
                else { continue }
                let start = min(t0, t1)
                let end = max(t0, t1)
                guard end - start > 1e-9 else { continue }
                // A layer whose time runs backwards plays the curve from its end.
                let played = t0 <= t1 ? curve : curve.mirrored
                result.append(
                    PlayedSpan(
                        span: EasedSpan(start: start, end: end, curve: played),
                        progressAtStart: t0 <= t1 ? first : last,
                        progressAtEnd: t0 <= t1 ? last : first, passTime: (pass.parentStart + pass.parentEnd) / 2))
            }
        }
        return result
    }
}

/// An eased span as one leaf plays it: where it lies in the leaf's linear progress, and a
/// parent time inside its pass.
struct PlayedSpan {
    let span: EasedSpan
    let progressAtStart: Double
    let progressAtEnd: Double
    let passTime: Double
}

extension UnitBezier {
    /// Whether this is the identity curve (linear progress).
    package var isIdentity: Bool { x1 == y1 && x2 == y2 }
}
