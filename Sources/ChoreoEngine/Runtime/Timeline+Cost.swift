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
