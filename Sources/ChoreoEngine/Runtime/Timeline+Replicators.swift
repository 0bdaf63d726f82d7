/// `CAReplicatorLayer`: the copies of its sublayers, made as layers of the timeline once the
/// run is recorded, so that every reader of the presentation tree (the response, the
/// pictures, the exports) sees the same copies.
///
/// Core Animation draws a replicator's sublayers `instanceCount` times; copy k (1 … count − 1)
/// is the sublayers again with:
/// * `instanceTransform` applied k times, about the centre of the replicator's bounds
///   ("applied to instance k − 1 to produce instance k … relative to the center of this
///   layer");
/// * its animations `k × instanceDelay` later, in the replicator's time: it shows the source's
///   animations as they were that long before, over the source's model values;
/// * its colours multiplied by `instanceColor` plus k times each `instance…Offset` (the
///   offsets added to instance k − 1's modulation colour), each channel clamped to 0…1;
///   instance 0 (the source layers themselves) is multiplied by `instanceColor`.
///
/// A copy of layer `dot` for instance k has the id `dot#k` (one more `#` while that id is
/// taken), and the copies of a replicator follow its sublayers in drawing order, instance by
/// instance (docs/semantics.md, decision 31).
public struct Replica: Sendable, Equatable {
    /// The layer copied (itself a copy, for a replicator inside a replicator's copies).
    public let source: Int
    /// The replicator whose instance this is.
    public let replicator: Int
    /// The instance number, 1 … `instanceCount − 1`.
    public let instance: Int
}

extension Timeline {
    /// Makes the copies of every replicator's sublayers as layers of their own and puts them in
    /// the tree shape at every time (``Replica``). Inner replicators first, so that an outer
    /// one copies their copies too. Copies stop at ``Limits/maxReplicaLayers`` in all, with a
    /// `replicas-capped` diagnostic.
    mutating func expandReplicators() {
        let replicators = layers.indices.filter { layers[$0].type == .replicator }
        guard !replicators.isEmpty else { return }
        var replicaCount = 0
        for replicator in replicators.reversed() { expand(replicator, &replicaCount) }
        // Which layers are ever below a replicator: their colours are modulated.
        for shape in shape.values {
            for index in shape.order {
                var parent = shape.parent[index]
                var steps = 0
                while parent >= 0 && steps <= layers.count {
                    if layers[parent].type == .replicator {
                        layers[index].underReplicator = true
                        break
                    }
                    parent = shape.parent[parent]
                    steps += 1
                }
            }
        }
    }

    /// The instance count of a replicator at a scene time: its model `instanceCount` (not
    /// animatable); 0 draws none of its sublayers.
    func instanceCount(_ replicator: Int, at time: Double) -> Int {
        guard case .number(let count) = layers[replicator].modelValue(.instanceCount, at: time), count.isFinite
        else { return 1 }
        return max(0, Int(min(count, Double(Limits.maxLayers))))
    }

    private mutating func expand(_ replicator: Int, _ replicaCount: inout Int) {
        let shapes = shape.values
        let countHistory = layers[replicator].model[LayerProperty.instanceCount.ordinal]
        let most = (countHistory?.values ?? []).reduce(1) { result, value in
            guard case .number(let count) = value, count.isFinite else { return result }
            return max(result, Int(min(max(count, 1), Double(Limits.maxLayers))))
        }
        let none = (countHistory?.values ?? []).contains { $0 == .number(0) || $0.isNegative }
        guard most > 1 || none else { return }
        // Every layer ever below the replicator, in order of first appearance.
        var below: [Int] = []
        var seen = Set<Int>()
        for shape in shapes {
            for index in shape.order where !seen.contains(index) && isBelow(index, replicator, in: shape) {
                seen.insert(index)
                below.append(index)
            }
        }
        guard !below.isEmpty else { return }
        // The last copy plays the sublayers' animations (count − 1) × instanceDelay later.
        if below.contains(where: { !layers[$0].animatedProperties.isEmpty }) {
            let delays = layers[replicator].model[LayerProperty.instanceDelay.ordinal]?.values ?? []
            let delay = delays.reduce(0.0) { result, value in
                guard case .number(let d) = value, d.isFinite else { return result }
                return max(result, d)
            }
            lastChange = min(lastChange + Double(most - 1) * delay, Limits.maxSceneTime)
        }
        // copies[k - 1][source] = the copy's layer index.
        var copies: [[Int: Int]] = []
        instances: for instance in 1..<most {
            var made: [Int: Int] = [:]
            for source in below {
                if replicaCount >= Limits.maxReplicaLayers {
                    if !made.isEmpty { copies.append(made) }
                    diagnostics.append(
                        .replicasCapped(
                            layer: layers[replicator].id, made: copies.reduce(0) { $0 + $1.count },
                            wanted: (most - 1) * below.count))
                    break instances
                }
                replicaCount += 1
                var track = layers[source]
                var id = "\(track.id)#\(instance)"
                while layerIndex[id] != nil { id += "#" }
                track = LayerTrack(
                    id: id, type: track.type, actions: track.actions, states: [], emitter: track.emitter,
                    joinedAt: track.joinedAt, model: track.model, timing: track.timing,
                    leavesByProperty: PropertySlots(), transitions: [],
                    animatedProperties: track.animatedProperties)
                track.replica = Replica(source: source, replicator: replicator, instance: instance)
                track.mask = layers[source].mask
                if track.animatedProperties.contains(.position) || !isIdentityInstanceTransform(replicator) {
                    track.animatedProperties.insert(.transform)
                }
                made[source] = layers.count
                layerIndex[id] = layers.count
                layers.append(track)
            }
            copies.append(made)
        }
        // The shape at every time the tree or the count changes.
        var times = Set(shape.times)
        for time in countHistory?.times ?? [] { times.insert(time) }
        let base = shape
        var rebuilt = History(initial: withCopies(base.value(at: 0), replicator, copies, at: 0))
        for time in times.sorted() where time > 0 {
            rebuilt.set(withCopies(base.value(at: time), replicator, copies, at: time), at: time)
        }
        shape = rebuilt
    }

    private func isIdentityInstanceTransform(_ replicator: Int) -> Bool {
        let track = layers[replicator]
        return track.model[LayerProperty.instanceTransform.ordinal] == nil
            && track.leavesByProperty[LayerProperty.instanceTransform.ordinal] == nil
    }

    private func isBelow(_ index: Int, _ ancestor: Int, in shape: TreeShape) -> Bool {
        var parent = index < shape.parent.count ? shape.parent[index] : -1
        var steps = 0
        while parent >= 0 && steps <= layers.count {
            if parent == ancestor { return true }
            parent = parent < shape.parent.count ? shape.parent[parent] : -1
            steps += 1
        }
        return false
    }

    /// A tree shape with the replicator's copies present at `time` inserted: after the
    /// replicator's own sublayers, instance by instance, each copy's subtree mirroring its
    /// source's.
    private func withCopies(_ shape: TreeShape, _ replicator: Int, _ copies: [[Int: Int]], at time: Double)
        -> TreeShape
    {
        var parent = shape.parent
        parent += [Int](repeating: -1, count: layers.count - parent.count)
        guard shape.order.contains(replicator) else { return TreeShape(order: shape.order, parent: parent) }
        var children = [[Int]](repeating: [], count: shape.parent.count)
        var roots: [Int] = []
        for index in shape.order {
            let up = shape.parent[index]
            if up >= 0 { children[up].append(index) } else { roots.append(index) }
        }
        let count = min(instanceCount(replicator, at: time), copies.count + 1)
        var order: [Int] = []
        order.reserveCapacity(shape.order.count * count)
        func copy(_ source: Int, _ made: [Int: Int], under up: Int) {
            guard let index = made[source] else { return }
            order.append(index)
            parent[index] = up
            for child in children[source] { copy(child, made, under: index) }
        }
        func visit(_ index: Int) {
            order.append(index)
            if index == replicator && count == 0 { return }
            for child in children[index] { visit(child) }
            if index == replicator && count > 1 {
                for instance in 1..<count {
                    for child in children[index] { copy(child, copies[instance - 1], under: index) }
                }
            }
        }
        for root in roots { visit(root) }
        if count == 0 {
            // Sublayers of a replicator that draws no instance are out of the tree.
            let present = Set(order)
            for index in parent.indices where !present.contains(index) { parent[index] = -1 }
        }
        return TreeShape(order: order, parent: parent)
    }
}

extension Timeline {
    /// The presentation value of a copy (``Replica``), whole: its source's at the time shifted
    /// by the instance's delay, with the instance transform on a copy of a direct sublayer.
    func replicaValue(_ layer: Int, _ replica: Replica, _ property: LayerProperty, at time: Double, map: TimeMap)
        -> Value
    {
        let replicator = replica.replicator
        let replicatorMap = timeMap(of: replicator, at: time)
        var delay = 0.0
        if case .number(let value) = presentationValue(
            layer: replicator, keyPath: KeyPath(.instanceDelay), at: time, map: replicatorMap)
        {
            delay = value
        }
        // k × instanceDelay in the replicator's time is that times the speeds below it in the
        // source's own time.
        let ratio = replicatorMap.scale != 0 ? map.scale / replicatorMap.scale : 1
        let shifted = TimeMap(scale: map.scale, offset: map.offset - Double(replica.instance) * delay * ratio)
        let source = replica.source
        var value = wholeValue(source, property, at: time, map: shifted)
        guard property == .transform, shape(at: time).parent[layer] == replicator,
            case .transform(let own) = value
        else { return value }
        // Copy k is drawn with instanceTransform^k about the replicator's centre: as the
        // layer's own transform (about its position), S · T(p − c) · Mᵏ · T(c − p).
        guard
            case .transform(let step) = presentationValue(
                layer: replicator, keyPath: KeyPath(.instanceTransform), at: time, map: replicatorMap),
            case .rect(let bounds) = presentationValue(
                layer: replicator, keyPath: KeyPath(.bounds), at: time, map: replicatorMap),
            case .point(let position) = wholeValue(source, .position, at: time, map: shifted),
            case .number(let z) = wholeValue(source, .zPosition, at: time, map: shifted)
        else { return value }
        var power = Transform3D.identity
        for _ in 0..<replica.instance { power = power.concatenating(step) }
        let centre = Point(bounds.origin.x + bounds.size.x / 2, bounds.origin.y + bounds.size.y / 2)
        let d = position - centre
        let about = Transform3D.translation(d.x, d.y, z).concatenating(power).concatenating(
            .translation(-d.x, -d.y, -z))
        value = .transform(own.concatenating(about))
        return value
    }

    /// A layer's whole property without its instance colour: a copy's through its source, a
    /// layer's own from its model and animations.
    private func wholeValue(_ layer: Int, _ property: LayerProperty, at time: Double, map: TimeMap) -> Value {
        if let replica = layers[layer].replica {
            return replicaValue(layer, replica, property, at: time, map: map)
        }
        return ownValue(
            layer: layer, keyPath: KeyPath(property), at: time, map: map,
            leaves: layers[layer].leavesByProperty[property.ordinal] ?? [])
    }

    /// The modulation colour of a layer below replicators at a scene time: for each replicator
    /// above it, `instanceColor` plus the instance number times the offsets (channels clamped
    /// to 0…1), multiplied together; nil when no replicator is above it then.
    func instanceColor(of layer: Int, at time: Double) -> Color? {
        let shape = shape(at: time)
        var result: Color?
        var child = layer
        var parent = shape.parent[layer]
        var steps = 0
        while parent >= 0 && steps <= layers.count {
            if layers[parent].type == .replicator {
                let instance = layers[child].replica.map { $0.replicator == parent ? $0.instance : 0 } ?? 0
                let map = timeMap(of: parent, at: time)
                func number(_ property: LayerProperty) -> Double {
                    if case .number(let value) = presentationValue(
                        layer: parent, keyPath: KeyPath(property), at: time, map: map)
                    {
                        return value
                    }
                    return 0
                }
                var color = Color(red: 1, green: 1, blue: 1, alpha: 1)
                if case .color(let given) = presentationValue(
                    layer: parent, keyPath: KeyPath(.instanceColor), at: time, map: map)
                {
                    color = given
                }
                let k = Double(instance)
                func channel(_ base: Double, _ offset: LayerProperty) -> Double {
                    min(max(base + k * (instance > 0 ? number(offset) : 0), 0), 1)
                }
                let modulation = Color(
                    red: channel(color.red, .instanceRedOffset), green: channel(color.green, .instanceGreenOffset),
                    blue: channel(color.blue, .instanceBlueOffset), alpha: channel(color.alpha, .instanceAlphaOffset))
                let so = result ?? Color(red: 1, green: 1, blue: 1, alpha: 1)
                result = Color(
                    red: so.red * modulation.red, green: so.green * modulation.green,
                    blue: so.blue * modulation.blue, alpha: so.alpha * modulation.alpha)
            }
            child = parent
            parent = shape.parent[parent]
            steps += 1
        }
        return result
    }
}

extension Value {
    fileprivate var isNegative: Bool {
        if case .number(let n) = self { return n < 0 }
        return false
    }
}
