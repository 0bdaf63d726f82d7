/// Reading the presentation tree: `CALayer.presentation()` at any scene time.
extension Timeline {
    /// The tree shape at a scene time.
    public func shape(at time: Double) -> TreeShape { shape.value(at: time) }

    /// Scene-to-local time maps of every layer at a scene time (`convertTime(_:from: nil)`).
    ///
    /// Layers outside the tree keep their own timing from the root.
    public func timeMaps(at time: Double, shape: TreeShape) -> [TimeMap] {
        var maps = [TimeMap](repeating: .identity, count: layers.count)
        var done = [Bool](repeating: false, count: layers.count)
        for index in shape.order {
            let parent = shape.parent[index]
            let base = parent >= 0 ? maps[parent] : .identity
            maps[index] = base.then(layers[index].timing.value(at: time))
            done[index] = true
        }
        for index in layers.indices where !done[index] {
            // A mask keeps the time of the layer it masks (which comes before it).
            let owner = layers[index].maskOf
            let base = owner >= 0 && owner < index ? maps[owner] : .identity
            maps[index] = base.then(layers[index].timing.value(at: time))
        }
        return maps
    }

    /// The time map of one layer at a scene time, walking up its ancestors.
    func timeMap(of layer: Int, at time: Double) -> TimeMap {
        let shape = shape.value(at: time)
        var chain: [Int] = []
        var current = layer
        while current >= 0 && current < shape.parent.count {
            chain.append(current)
            current = shape.parent[current]
        }
        if chain.isEmpty { chain = [layer] }
        var map = TimeMap.identity
        for index in chain.reversed() { map = map.then(layers[index].timing.value(at: time)) }
        return map
    }

    /// The presentation value of a key path of a layer at a scene time.
    ///
    /// Starts from the model value and applies every animation attached at that time on the
    /// property, in the order they were added (semantics rule 9.3): a non-additive one replaces
    /// the value so far, an additive one adds to it; sub-path animations act on their part.
    public func presentationValue(layer: Int, keyPath: KeyPath, at time: Double, map: TimeMap) -> Value {
        presentationValue(
            layer: layer, keyPath: keyPath, at: time, map: map,
            leaves: layers[layer].leavesByProperty[keyPath.property.ordinal] ?? [])
    }

    /// The same, considering only the given leaves of the property (in the order added): the
    /// runner passes the ones still attached.
    func presentationValue(layer: Int, keyPath: KeyPath, at time: Double, map: TimeMap, leaves indices: [Int]) -> Value
    {
        let track = layers[layer]
        guard track.replica != nil || track.underReplicator else {
            return ownValue(layer: layer, keyPath: keyPath, at: time, map: map, leaves: indices)
        }
        // A replicator's copy, or a layer below one (Timeline+Replicators).
        let property = keyPath.property
        var value =
            if let replica = track.replica {
                replicaValue(layer, replica, property, at: time, map: map)
            } else {
                ownValue(layer: layer, keyPath: KeyPath(property), at: time, map: map, leaves: indices)
            }
        if property.kind == .color, case .color(let color) = value,
            let modulation = instanceColor(of: layer, at: time)
        {
            value = .color(
                Color(
                    red: color.red * modulation.red, green: color.green * modulation.green,
                    blue: color.blue * modulation.blue, alpha: color.alpha * modulation.alpha))
        }
        return keyPath.extract(from: value)
    }

    /// A layer's own presentation value: its model value and its animations.
    func ownValue(layer: Int, keyPath: KeyPath, at time: Double, map: TimeMap, leaves indices: [Int]) -> Value {
        precondition(!leavesReleased, "a value read through a timeline whose leaves were released")
        let property = keyPath.property
        let ordinal = property.ordinal
        let model = layers[layer].model[ordinal]?.value(at: time) ?? property.defaultValue
        var value = model
        let count = indices.count
        if count > 0 {
            let layerTime = map.local(time)
            for position in 0..<count {
                let index = indices[position]
                let clock = leaves[index].clock
                guard leaves[index].addedAt <= time && time < leaves[index].removedAt,
                    let local = leaves[index].localTime(
                        layerTime: clock < 0 ? layerTime : clocks[clock].local(at: time))
                else { continue }
                value = leaves[index].applying(local, to: value, model: model)
            }
        }
        if property == .transform && layers[layer].hasPathRotation {
            value = applyPathRotation(layer: layer, to: value, at: time, map: map)
        }
        return keyPath.extract(from: value)
    }

    /// `rotationMode`: a path keyframe animation on `position` also turns the layer along the path.
    private func applyPathRotation(layer: Int, to value: Value, at time: Double, map: TimeMap) -> Value {
        let indices = layers[layer].leavesByProperty[LayerProperty.position.ordinal] ?? []
        guard !indices.isEmpty, case .transform(let matrix) = value else { return value }
        var result = matrix
        for index in indices {
            let leaf = leaves[index]
            guard leaf.addedAt <= time && time < leaf.removedAt,
                let angle = leaf.pathRotation(
                    layerTime: leaf.clock < 0 ? map.local(time) : clocks[leaf.clock].local(at: time))
            else { continue }
            result = Transform3D.rotation(angle, x: 0, y: 0, z: 1).concatenating(result)
        }
        return .transform(result)
    }

    /// A view-controller transition's `percentComplete` at a scene time: the interaction's clock,
    /// or the time elapsed over the duration when it is not interactive; frozen once completed.
    public func percentComplete(_ transition: TransitionTrack, at time: Double) -> Double {
        if let completed = transition.phase.value(at: time).completedPercent { return completed }
        let duration = transition.duration
        guard duration > 0 else { return 1 }
        let value =
            transition.clock >= 0
            ? clocks[transition.clock].local(at: time) / duration : (time - transition.begunAt) / duration
        return min(max(value, 0), 1)
    }

    /// The state of a `CATransition` in effect on a layer at a scene time, if any.
    public func transitionState(layer: Int, at time: Double, map: TimeMap) -> TransitionState? {
        var result: TransitionState?
        for index in layers[layer].transitions {
            let animation = animations[index]
            let input = animation.clock < 0 ? map.local(time) : clocks[animation.clock].local(at: time)
            guard animation.addedAt <= time && time < animation.removedAt, let record = animation.transition,
                let local = record.timing.localTime(atParentTime: input)
            else { continue }
            let transition = record.transition
            let duration = record.timing.duration
            let linear = duration > 0 ? local.time / duration : 1
            let eased = record.timingFunction.evaluate(linear, beforeFlag: local.beforeFlag)
            let progress = transition.startProgress + (transition.endProgress - transition.startProgress) * eased
            let bounds: Rect
            if case .rect(let rect) = layers[layer].modelValue(.bounds, at: time) {
                bounds = rect
            } else {
                bounds = .zero
            }
            result = TransitionState(
                transition: transition, progress: progress, size: bounds.size, begunAt: animation.addedAt)
        }
        return result
    }
}

/// What a `CATransition` shows at one moment: its progress and the outgoing and incoming content.
public struct TransitionState: Sendable, Equatable {
    public let transition: Transition
    /// Progress between `startProgress` and `endProgress`, after the timing function.
    public let progress: Double
    public let outgoingOpacity: Double
    public let incomingOpacity: Double
    /// Offsets of the outgoing and incoming content from the layer's place, in points.
    public let outgoingOffset: Point
    public let incomingOffset: Point
    /// The 3-D turn of each content about the layer's centre (flips; identity otherwise).
    public let outgoingTransform: Transform3D
    public let incomingTransform: Transform3D
    /// How much of each content is curled away, 0 (flat) to 1 (gone): curls only.
    public let outgoingCurl: Double
    public let incomingCurl: Double
    /// When the transition was added: the outgoing content is the layer as it was just before.
    public let begunAt: Double

    init(transition: Transition, progress p: Double, size: Point, begunAt: Double = 0) {
        self.transition = transition
        self.begunAt = begunAt
        progress = p
        // The direction the incoming content travels from: fromRight comes in from +x.
        let direction: Point
        switch transition.subtype {
        case .fromRight: direction = Point(size.x, 0)
        case .fromLeft: direction = Point(-size.x, 0)
        case .fromTop: direction = Point(0, -size.y)
        case .fromBottom: direction = Point(0, size.y)
        }
        var outgoingTransform = Transform3D.identity
        var incomingTransform = Transform3D.identity
        var outgoingCurl = 0.0
        var incomingCurl = 0.0
        switch transition.kind {
        case .fade:
            outgoingOpacity = 1 - p
            incomingOpacity = p
            outgoingOffset = .zero
            incomingOffset = .zero
        case .moveIn:
            outgoingOpacity = 1
            incomingOpacity = 1
            outgoingOffset = .zero
            incomingOffset = direction * (1 - p)
        case .push:
            outgoingOpacity = 1
            incomingOpacity = 1
            outgoingOffset = direction * -p
            incomingOffset = direction * (1 - p)
        case .reveal:
            outgoingOpacity = 1
            incomingOpacity = 1
            outgoingOffset = direction * -p
            incomingOffset = .zero
        case .flip:
            // A half turn about the centre line: the outgoing face for the first half, then
            // the incoming face (its back) for the second; perspective at twice the extent.
            let horizontal = transition.subtype == .fromLeft || transition.subtype == .fromRight
            let sign: Double = transition.subtype == .fromLeft || transition.subtype == .fromTop ? 1 : -1
            let extent = max(horizontal ? size.x : size.y, 1)
            var perspective = Transform3D.identity
            perspective.m34 = -1 / (2 * extent)
            func turn(_ angle: Double) -> Transform3D {
                Transform3D.rotation(angle, x: horizontal ? 0 : 1, y: horizontal ? 1 : 0, z: 0)
                    .concatenating(perspective)
            }
            let angle = sign * Double.pi * p
            outgoingTransform = turn(angle)
            incomingTransform = turn(angle - sign * Double.pi)
            outgoingOpacity = p < 0.5 ? 1 : 0
            incomingOpacity = p < 0.5 ? 0 : 1
            outgoingOffset = .zero
            incomingOffset = .zero
        case .curlUp:
            // The outgoing page curls away upwards, uncovering the incoming one beneath.
            outgoingOpacity = p < 1 ? 1 : 0
            incomingOpacity = 1
            outgoingCurl = p
            outgoingOffset = .zero
            incomingOffset = .zero
        case .curlDown:
            // The incoming page uncurls downwards over the outgoing one.
            outgoingOpacity = 1
            incomingOpacity = p > 0 ? 1 : 0
            incomingCurl = 1 - p
            outgoingOffset = .zero
            incomingOffset = .zero
        }
        self.outgoingTransform = outgoingTransform
        self.incomingTransform = incomingTransform
        self.outgoingCurl = outgoingCurl
        self.incomingCurl = incomingCurl
    }
}
