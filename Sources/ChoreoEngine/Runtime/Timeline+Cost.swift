/// What drawing a layer can cost, known once the scene has run: so a picture's work is decided
/// before any frame is drawn (`CAShapeLayer` paths are the one content whose size a scene sets
/// freely).
extension Timeline {
    /// The most elements the layer's `path` has at any time: its model values and every value
    /// an animation on `path` interpolates between (matching paths keep their element count).
    public func pathElementBound(layer: Int) -> Int {
        var most = 0
        for case .path(let path) in valuesTaken(layer: layer, property: .path) {
            most = max(most, path.elements.count)
        }
        return most
    }

    /// The longest `string` the layer shows at any time, in characters (Unicode scalars).
    public func stringLengthBound(layer: Int) -> Int {
        var most = 0
        for case .string(let text) in valuesTaken(layer: layer, property: .string) {
            most = max(most, text.unicodeScalars.count)
        }
        return most
    }

    /// The largest area, in square points, of the layer's shadow at any time: its bounds and
    /// the blur and offset around them; 0 for a layer that never has a shadow.
    public func shadowAreaBound(layer: Int) -> Double {
        guard layers[layer].hasTrack(.shadowOpacity) else { return 0 }
        var side = 0.0
        for case .number(let n) in valuesTaken(layer: layer, property: .shadowRadius) { side = max(side, abs(n)) }
        var offset = 0.0
        for value in valuesTaken(layer: layer, property: .shadowOffset) {
            if case .size(let p) = value { offset = max(offset, abs(p.x), abs(p.y)) }
            if case .point(let p) = value { offset = max(offset, abs(p.x), abs(p.y)) }
        }
        let margin = 2 * (3 * side + offset)
        var area = 0.0
        for case .rect(let r) in valuesTaken(layer: layer, property: .bounds) {
            area = max(area, (abs(r.size.x) + margin) * (abs(r.size.y) + margin))
        }
        return area.isFinite ? area : .greatestFiniteMagnitude
    }

    /// Whether the layer is ever blurred (`blurRadius` above 0 at some time): its picture is a
    /// group blurred as a whole.
    public func isBlurred(layer: Int) -> Bool {
        valuesTaken(layer: layer, property: .blurRadius).contains { value in
            if case .number(let n) = value { return n > 0 }
            return false
        }
    }

    /// The most area, in square points of the canvas, each layer can cover at any time: its
    /// largest bounds, scaled by the largest scale of its transform and of every ancestor's in
    /// any of the tree's shapes. Unbounded (infinite) where a transform has no finite bound;
    /// a picture caps each by its canvas. Layers of a tree that changed shape more than
    /// ``coverageShapesExamined`` times are given infinity (the whole canvas).
    public func coverageBounds() -> [Double] {
        let count = layers.count
        var own = [Double](repeating: 1, count: count)
        var area = [Double](repeating: 0, count: count)
        for layer in 0..<count {
            own[layer] = transformScaleBound(layer: layer)
            for case .rect(let r) in valuesTaken(layer: layer, property: .bounds) {
                area[layer] = max(area[layer], abs(r.size.x) * abs(r.size.y))
            }
        }
        guard shape.values.count <= Self.coverageShapesExamined else {
            return [Double](repeating: .infinity, count: count)
        }
        var world = [Double](repeating: 0, count: count)
        for tree in shape.values {
            // `order` is depth first: a parent comes before its sublayers.
            var chain = [Double](repeating: 1, count: count)
            for index in tree.order {
                let parent = tree.parent[index]
                chain[index] = own[index] * (parent >= 0 ? chain[parent] : 1)
                world[index] = max(world[index], chain[index])
            }
        }
        return (0..<count).map { layer in
            let product = area[layer] * world[layer] * world[layer]
            return product.isNaN ? .infinity : product
        }
    }

    /// Tree shapes ``coverageBounds()`` walks at most.
    public static let coverageShapesExamined = 256

    /// The largest factor by which the layer's own `transform` scales lengths at any time (the
    /// Frobenius norm of its 2 × 2 part, which bounds it; a sub-key-path scale by its value);
    /// infinity for a perspective transform, which can magnify without bound.
    func transformScaleBound(layer: Int) -> Double {
        var most = 1.0
        for value in valuesTaken(layer: layer, property: .transform) {
            switch value {
            case .transform(let m):
                if m.m14 != 0 || m.m24 != 0 || m.m34 != 0 { return .infinity }
                most = max(most, (m.m11 * m.m11 + m.m12 * m.m12 + m.m21 * m.m21 + m.m22 * m.m22).squareRoot())
            case .number(let n): most = max(most, abs(n))
            case .point(let p), .size(let p): most = max(most, abs(p.x), abs(p.y))
            default: continue
            }
        }
        return most.isFinite ? most : .infinity
    }

    /// Whether the layer is ever drawn as a group for its opacity (translucent, with sublayers
    /// in some shape of the tree): its subtree is composited once more.
    public func isCompositedGroup(layer: Int) -> Bool {
        let translucent = valuesTaken(layer: layer, property: .opacity).contains {
            if case .number(let n) = $0 { n < 1 } else { false }
        }
        return translucent && shape.values.contains { $0.parent.contains(layer) }
    }

    /// Every value a property of a layer takes from its model or an animation's own values
    /// (`fromValue`, `toValue`, `byValue`, keyframes; a `byValue` also added to each model
    /// value): what bounds its size at any time, whatever the interpolation in between.
    func valuesTaken(layer: Int, property: LayerProperty) -> [Value] {
        precondition(!leavesReleased, "values read through a timeline whose leaves were released")
        let ordinal = property.ordinal
        var values = layers[layer].model[ordinal]?.values ?? [property.defaultValue]
        let models = values
        for index in layers[layer].leavesByProperty[ordinal] ?? [] {
            switch leaves[index].body.curve {
            case .basic(let basic, _):
                for value in [basic.from, basic.to].compactMap({ $0 }) { values.append(value) }
                if let by = basic.by {
                    values.append(by)
                    for model in models { values.append(Value.add(model, by)) }
                }
            case .keyframes(let track):
                if case .values(let keyframes) = track.source { values += keyframes }
            }
        }
        return values
    }
}
