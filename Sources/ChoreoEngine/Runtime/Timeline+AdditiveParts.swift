/// What one additive animation (`CAPropertyAnimation.isAdditive`, as UIKit's block animations
/// are) adds to its key path over time, on its own: the values it adds at `times`, and the
/// cubic curve from each to the next (a pass of a `CABasicAnimation`, a key-time segment of a
/// `CAKeyframeAnimation`, a fill's hold as the identity). Two keys at one time are a jump (a
/// cumulative pass beginning). The animation adds nothing before the first time or after the
/// last, unless `addsAfterwards` (it is still attached at the end asked for). Web Animations'
/// `composite: "add"`, CSS's `animation-composition: add`.
public struct AdditivePart: Sendable {
    /// The leaf, an index into ``Timeline/leaves``.
    public let leaf: Int
    public let layer: Int
    public let keyPath: KeyPath
    public let times: [Double]
    public let values: [Value]
    /// One per stretch between keys (`times.count − 1`).
    public let curves: [UnitBezier]
    public let addsAfterwards: Bool
}

extension Timeline {
    /// The additive leaves whose contribution is a cubic curve per stretch from their own
    /// values alone, between scene times 0 and `end`: on the layer's clock (not an animator's),
    /// outside groups, on a layer whose timing never changes, a `CABasicAnimation` (not a
    /// spring) with a cubic timing function and two of `fromValue`, `toValue`, `byValue`, or a
    /// `CAKeyframeAnimation` of values (not a path) in a linear or paced mode with cubic
    /// segment functions. A leaf paused or left out between passes gives none.
    package func additiveParts(through end: Double) -> [AdditivePart] {
        var parts: [AdditivePart] = []
        guard !leavesReleased, end > 0 else { return parts }
        for animation in animations {
            guard let (layer, from, to, map) = straightTime(of: animation, through: end) else { continue }
            for index in animation.leaves {
                let leaf = leaves[index]
                guard leaf.additive, leaf.clock < 0, leaf.body.groups.isEmpty,
                    let sample = Self.ownValue(of: leaf.body)
                else { continue }
                let leafFrom = max(from, leaf.addedAt)
                let leafTo = min(to, leaf.removedAt)
                guard leafTo > leafFrom,
                    let part = Self.additivePart(
                        leaf: index, layer: layer, body: leaf.body, from: leafFrom, to: leafTo, map: map,
                        sample: sample, attachedAfter: leaf.removedAt > end)
                else { continue }
                parts.append(part)
            }
        }
        return parts
    }

    /// A value of the kind the leaf adds, when what it adds depends on its own values alone
    /// (not the model's): nil otherwise.
    private static func ownValue(of body: AnimationLeafBody) -> Value? {
        switch body.curve {
        case .basic(let values, let spring):
            guard spring == nil else { return nil }
            switch (values.from, values.to, values.by) {
            case (let from?, _?, _), (let from?, nil, _?): return from
            case (nil, let to?, _?): return to
            default: return nil
            }
        case .keyframes(let track):
            guard case .values(let values) = track.source else { return nil }
            return values.first
        }
    }

    private static func additivePart(
        leaf: Int, layer: Int, body: AnimationLeafBody, from: Double, to: Double, map: TimeMap, sample: Value,
        attachedAfter: Bool
    ) -> AdditivePart? {
        let played = played(of: body, from: from, to: to, map: map)
        guard let first = played.first, let last = played.last else { return nil }
        let duration = body.timing.duration
        func value(at progress: Double, passTime: Double) -> Value? {
            guard let local = body.timing.localTime(atParentTime: passTime) else { return nil }
            return body.value(
                at: MediaTiming.Local(time: progress * duration, iteration: local.iteration, phase: .active),
                model: sample)
        }
        // What the leaf adds while it fills (before its first pass, after its last): one value
        // throughout, or nil where it adds nothing.
        func fill(_ a: Double, _ b: Double) -> Value?? {
            let times = [a, (a + b) / 2, b - min(1e-6, (b - a) / 4)]
            let locals = times.map { body.localTime(layerTime: map.local($0)) }
            if locals.allSatisfy({ $0 == nil }) { return .some(nil) }
            guard locals.allSatisfy({ $0 != nil }) else { return nil }
            let values = locals.map { body.value(at: $0!, model: sample) }
            return values.allSatisfy({ $0 == values[0] }) ? values[0] : nil
        }
        var times: [Double] = []
        var values: [Value] = []
        var curves: [UnitBezier] = []
        let identity = UnitBezier(0, 0, 1, 1)
        // A key, `curve` the stretch from the key before to it.
        func key(_ time: Double, _ value: Value, _ curve: UnitBezier = UnitBezier(0, 0, 1, 1)) {
            if !times.isEmpty { curves.append(curve) }
            times.append(time)
            values.append(value)
        }
        if first.span.start > from + 1e-9 {
            guard let before = fill(from, first.span.start) else { return nil }
            if let before { key(from, before) }
        }
        for (index, piece) in played.enumerated() {
            // Passes and segments follow one another without a gap.
            if index > 0 && abs(piece.span.start - played[index - 1].span.end) >= 1e-9 { return nil }
            guard let a = value(at: piece.progressAtStart, passTime: piece.passTime),
                let b = value(at: piece.progressAtEnd, passTime: piece.passTime)
            else { return nil }
            if let time = times.last, let held = values.last {
                // The end of a fill held to here; a jump (a cumulative pass, a pass over again).
                if time < piece.span.start - 1e-12 { key(piece.span.start, held) }
                if held != a { key(piece.span.start, a, identity) }
            } else {
                key(piece.span.start, a)
            }
            key(piece.span.end, b, piece.span.curve)
        }
        var afterwards = attachedAfter
        if last.span.end < to - 1e-9 {
            guard let after = fill(last.span.end, to) else { return nil }
            if let after {
                if after != values.last { key(last.span.end, after) }
                key(to, after)
            } else {
                afterwards = false
            }
        }
        guard times.count >= 2, curves.count == times.count - 1 else { return nil }
        return AdditivePart(
            leaf: leaf, layer: layer, keyPath: body.keyPath, times: times, values: values, curves: curves,
            addsAfterwards: afterwards)
    }

    /// This timeline without the given leaves: as if they had never been added (their
    /// animations' events stay). What the presentation would be beneath them.
    package func removingLeaves(_ indices: some Sequence<Int>) -> Timeline {
        var copy = self
        for index in indices where index >= 0 && index < copy.leaves.count {
            copy.leaves[index].removedAt = copy.leaves[index].addedAt
        }
        return copy
    }
}
