/// One property animation attached to a layer: the resolved animation (shared, immutable)
/// and the interval of scene time it is attached for.
///
/// Sampling copies leaves constantly, so the struct is kept to a pointer and two times; the
/// animation itself lives in ``AnimationLeafBody``.
public struct AnimationLeaf: Sendable {
    let body: AnimationLeafBody
    /// Scene times between which the leaf is attached to its layer.
    public internal(set) var addedAt: Double
    public internal(set) var removedAt: Double = .infinity

    init(
        keyPath: KeyPath, groups: [AnimationLeafBody.GroupFrame], timing: MediaTiming,
        timingFunction: TimingFunction, curve: AnimationLeafBody.Curve, additive: Bool, cumulative: Bool,
        captured: Value?, owner: Int, addedAt: Double, clock: Int = -1
    ) {
        body = AnimationLeafBody(
            keyPath: keyPath, groups: groups, timing: timing, timingFunction: timingFunction, curve: curve,
            additive: additive, cumulative: cumulative, captured: captured, owner: owner, clock: clock)
        self.addedAt = addedAt
    }

    /// The clock the leaf runs on, or −1 for its layer's time.
    public var clock: Int { body.clock }

    public var keyPath: KeyPath { body.keyPath }
    var owner: Int { body.owner }
    var additive: Bool { body.additive }

    @inline(__always)
    func localTime(layerTime: Double) -> MediaTiming.Local? { body.localTime(layerTime: layerTime) }

    @inline(__always)
    func applying(_ local: MediaTiming.Local, to value: Value, model: Value) -> Value {
        body.applying(local, to: value, model: model)
    }

    func pathRotation(layerTime: Double) -> Double? { body.pathRotation(layerTime: layerTime) }
}

/// A property animation resolved for sampling: its timing in the layer's time space, the
/// groups around it, and its interpolation curve.
///
/// A `CAAnimationGroup` is flattened into its children, each remembering the chain of group
/// timings it runs inside (outermost first). Immutable, hence `Sendable`.
final class AnimationLeafBody: Sendable {
    /// The timing of one enclosing `CAAnimationGroup`.
    struct GroupFrame: Sendable {
        let timing: MediaTiming
        let timingFunction: TimingFunction
    }

    enum Curve: Sendable {
        case basic(BasicValues, spring: Spring?)
        case keyframes(KeyframeTrack)
    }

    let keyPath: KeyPath
    let groups: [GroupFrame]
    let timing: MediaTiming
    let timingFunction: TimingFunction
    let curve: Curve
    let additive: Bool
    let cumulative: Bool
    /// The presentation value captured when added, for a basic animation with no values.
    let captured: Value?
    /// The top-level animation this leaf belongs to (index into the timeline's animations).
    let owner: Int
    /// The clock whose local time replaces the layer's (an animator's, an interactive
    /// transition's), or −1.
    let clock: Int

    init(
        keyPath: KeyPath, groups: [GroupFrame], timing: MediaTiming, timingFunction: TimingFunction, curve: Curve,
        additive: Bool, cumulative: Bool, captured: Value?, owner: Int, clock: Int = -1
    ) {
        self.clock = clock
        self.keyPath = keyPath
        self.groups = groups
        self.timing = timing
        self.timingFunction = timingFunction
        self.curve = curve
        self.additive = additive
        self.cumulative = cumulative
        self.captured = captured
        self.owner = owner
    }

    /// The leaf's basic local time for a layer-local time, through its groups; nil if not in effect.
    @inline(__always)
    func localTime(layerTime: Double) -> MediaTiming.Local? {
        var t = layerTime
        for group in groups {
            guard let local = group.timing.localTime(atParentTime: t) else { return nil }
            let duration = group.timing.duration
            t =
                group.timingFunction.isLinear || duration <= 0
                ? local.time
                : duration
                    * group.timingFunction.evaluate(
                        local.time / duration, beforeFlag: local.beforeFlag, tolerance: local.tolerance)
        }
        return timing.localTime(atParentTime: t)
    }

    /// Applies this animation, at basic local time `local`, to `value` (the whole property so far).
    /// A non-additive animation replaces its key path's part, an additive one adds to it; the
    /// missing ends of a basic animation read `model` live (semantics rule 9.4).
    @inline(__always)
    func applying(_ local: MediaTiming.Local, to value: Value, model: Value) -> Value {
        guard keyPath.component != nil else {
            let own = self.value(at: local, model: model)
            return additive ? Value.add(value, own) : own
        }
        let own = self.value(at: local, model: keyPath.extract(from: model))
        return keyPath.insert(additive ? Value.add(keyPath.extract(from: value), own) : own, into: value)
    }

    /// The animation's own value at a basic local time.
    @inline(__always)
    func value(at local: MediaTiming.Local, model: Value) -> Value {
        let duration = timing.duration
        switch curve {
        case .basic(let values, let spring):
            let (start, end) = endpoints(values, model: model)
            let progress: Double
            if let spring {
                progress = spring.progress(at: local.time)
            } else {
                let linear = duration > 0 ? local.time / duration : 1
                progress = timingFunction.evaluate(linear, beforeFlag: local.beforeFlag, tolerance: local.tolerance)
            }
            var result = Value.interpolate(start, end, progress)
            if cumulative && local.iteration > 0 {
                result = Value.add(result, Value.scale(end, local.iteration))
            }
            return result
        case .keyframes(let track):
            let linear = duration > 0 ? local.time / duration : 1
            var result = track.value(
                at: timingFunction.evaluate(linear, beforeFlag: local.beforeFlag, tolerance: local.tolerance),
                tolerance: local.tolerance)
            if cumulative && local.iteration > 0 {
                result = Value.add(result, Value.scale(track.value(at: 1), local.iteration))
            }
            return result
        }
    }

    /// The tangent rotation of a path keyframe animation with `rotationMode`, at a layer-local time.
    func pathRotation(layerTime: Double) -> Double? {
        guard case .keyframes(let track) = curve, track.rotationMode != nil,
            let (progress, local) = keyframeProgress(layerTime: layerTime)
        else { return nil }
        return track.rotation(at: progress, tolerance: local.tolerance)
    }

    /// Where a path keyframe animation places its layer on its path at a layer-local time:
    /// the ``PathMeasure`` segment and the curve parameter in it.
    func pathLocation(layerTime: Double) -> (segment: Int, parameter: Double)? {
        guard case .keyframes(let track) = curve, let (progress, local) = keyframeProgress(layerTime: layerTime)
        else { return nil }
        return track.pathLocation(at: progress, tolerance: local.tolerance)
    }

    /// The keyframe progress (local time through the timing function) at a layer-local time,
    /// with the local time; nil where the animation is not in effect.
    private func keyframeProgress(layerTime: Double) -> (Double, MediaTiming.Local)? {
        guard let local = localTime(layerTime: layerTime) else { return nil }
        let duration = timing.duration
        let linear = duration > 0 ? local.time / duration : 1
        return (timingFunction.evaluate(linear, beforeFlag: local.beforeFlag, tolerance: local.tolerance), local)
    }

    /// The interpolation endpoints of a basic animation (`CABasicAnimation`'s seven combinations).
    @inline(__always)
    func endpoints(_ values: BasicValues, model: Value) -> (Value, Value) {
        switch (values.from, values.to, values.by) {
        case (let from?, let to?, _): return (from, to)
        case (let from?, nil, let by?): return (from, Value.add(from, by))
        case (nil, let to?, let by?): return (Value.subtract(to, by), to)
        case (let from?, nil, nil): return (from, model)
        case (nil, let to?, nil): return (model, to)
        case (nil, nil, let by?): return (model, Value.add(model, by))
        case (nil, nil, nil): return (captured ?? model, model)
        }
    }
}
