/// What drawing a layer can cost, known once the scene has run: so a picture's work is decided
/// before any frame is drawn (`CAShapeLayer` paths are the one content whose size a scene sets
/// freely).
extension Timeline {
    /// The most elements the layer's `path` has at any time: its model values and every value
    /// an animation on `path` interpolates between (matching paths keep their element count).
    public func pathElementBound(layer: Int) -> Int {
        var most = 0
        func consider(_ value: Value?) {
            if case .path(let path)? = value { most = max(most, path.elements.count) }
        }
        let ordinal = LayerProperty.path.ordinal
        for value in layers[layer].model[ordinal]?.values ?? [] { consider(value) }
        for index in layers[layer].leavesByProperty[ordinal] {
            switch leaves[index].body.curve {
            case .basic(let values, _):
                consider(values.from)
                consider(values.to)
                consider(values.by)
            case .keyframes(let track):
                if case .values(let values) = track.source { values.forEach { consider($0) } }
            }
        }
        return most
    }
}
