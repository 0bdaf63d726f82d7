import Glibc

/// The layer tree: registering layers, adding and removing them, the shape recorded over time.
extension RunnerState {
    /// Reserves room for `count` more layers in the timeline and the tree.
    func reserveLayers(_ count: Int) {
        let total = timeline.layers.count + count
        timeline.layers.reserveCapacity(total)
        timeline.layerIndex.reserveCapacity(total)
        live.animations.reserveCapacity(total)
        live.leaves.reserveCapacity(total)
        tree.children.reserveCapacity(total)
        tree.parent.reserveCapacity(total)
        tree.present.reserveCapacity(total)
    }

    func register(_ node: LayerNode) -> Int {
        let index = timeline.layers.count
        var model = PropertySlots<History<Value>>()
        for (property, value) in node.values {
            model[property.ordinal] = History(initial: value)
        }
        let track = Timeline.LayerTrack(
            id: node.id, type: node.type, actions: node.actions, states: node.states, emitter: node.emitter,
            joinedAt: now, model: model,
            timing: History(initial: node.timing),
            leavesByProperty: PropertySlots(), transitions: [])
        timeline.layers.append(track)
        timeline.layerIndex[node.id] = index
        live.animations.append([])
        live.leaves.append(PropertySlots())
        tree.children.append([])
        tree.parent.append(-1)
        tree.present.append(false)
        for sublayer in node.sublayers {
            let child = register(sublayer)
            tree.children[index].append(child)
            tree.parent[child] = index
        }
        if let mask = node.mask {
            // Out of the tree: drawn only as the layer's alpha.
            let masking = register(mask)
            timeline.layers[index].mask = masking
            timeline.layers[masking].maskOf = index
        }
        return index
    }

    func markPresent(_ index: Int, _ value: Bool) {
        tree.present[index] = value
        for child in tree.children[index] { markPresent(child, value) }
    }

    func snapshotShape(at time: Double, force: Bool) {
        var order: [Int] = []
        order.reserveCapacity(timeline.layers.count)
        func visit(_ index: Int) {
            order.append(index)
            for child in tree.children[index] { visit(child) }
        }
        for root in tree.roots { visit(root) }
        var parents = [Int](repeating: -1, count: timeline.layers.count)
        for index in order { parents[index] = tree.parent[index] }
        let shape = Timeline.TreeShape(order: order, parent: parents)
        if force {
            timeline.shape = History(initial: shape)
        } else {
            timeline.shape.set(shape, at: time)
        }
    }

    func layer(_ id: String, path: String) throws(RuntimeError) -> Int {
        guard let index = timeline.layerIndex[id] else {
            throw RuntimeError(path: path, message: "no layer with id \"\(id)\" exists at this time")
        }
        return index
    }

    func subtree(_ index: Int) -> [Int] {
        var result = [index]
        for child in tree.children[index] { result += subtree(child) }
        return result
    }

    /// `addSublayer` / `insertSublayer(_:at:)` into a parent, or among the roots: in the tree,
    /// present when its parent is, with a `layerAdded` event.
    func place(_ index: Int, in parentIndex: Int?, at position: Int?) {
        if let parentIndex {
            let at = min(max(position ?? tree.children[parentIndex].count, 0), tree.children[parentIndex].count)
            tree.children[parentIndex].insert(index, at: at)
            tree.parent[index] = parentIndex
            markPresent(index, tree.present[parentIndex])
        } else {
            let at = min(max(position ?? tree.roots.count, 0), tree.roots.count)
            tree.roots.insert(index, at: at)
            tree.parent[index] = -1
            markPresent(index, true)
        }
        tree.structureChanged = true
        timeline.events.append(Event(time: now, kind: .layerAdded(layer: timeline.layers[index].id)))
    }
}
