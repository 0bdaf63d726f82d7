import ChoreoEngine

/// One frame's presentation tree as plain values: what `CALayer.presentation()` of every layer
/// in the tree holds at a time, with each layer's map into its parent's space. Exporters read
/// frames this way (the values a picture is drawn from, not the JSON's).
package struct FrameSnapshot: Sendable {
    /// The layers in the tree at the time, in drawing order (a parent before its sublayers,
    /// siblings by zPosition, then insertion order).
    package var layers: [LayerSnapshot]
    /// Position of a layer (by index in the timeline) in ``layers``; −1 when not in the tree.
    package var slot: [Int]
}

/// One layer's presentation values at a time.
package struct LayerSnapshot: Sendable {
    /// The layer's index in the timeline, and its parent's (−1 for a root).
    package var index: Int
    package var parent: Int
    package var type: LayerType
    package var bounds: Rect
    /// `anchorPoint`, in units of the bounds' size.
    package var anchorPoint: Point
    /// Layer coordinates → the parent's layer coordinates (a root's: the canvas's points): the
    /// anchor point, `transform` and `position`, then the parent's `sublayerTransform`, as a
    /// 3 × 3 projective map in row-vector form (x, y, 1) · M.
    package var toParent: [Double]
    package var opacity: Double
    package var hidden: Bool
    package var background: Color
    package var cornerRadius: Double
    package var borderWidth: Double
    package var borderColor: Color
    package var masksToBounds: Bool
    package var shadowColor: Color
    package var shadowOpacity: Double
    package var shadowOffset: Point
    package var shadowRadius: Double
    /// SwiftUI's `blur(radius:)` (``LayerProperty/blurRadius``), points.
    package var blurRadius: Double
    /// `CAShapeLayer`: its path and how it is painted.
    package var path: BezierPath?
    package var fillColor: Color
    package var strokeColor: Color
    package var lineWidth: Double
    package var strokeStart: Double
    package var strokeEnd: Double
    package var lineCap: String
    package var lineJoin: String
    /// `CATextLayer`: its string and how it is set.
    package var string: String?
    package var fontSize: Double
    package var foregroundColor: Color
    package var alignment: String
    /// A `CATransition` in effect on the layer.
    package var inTransition: Bool
    /// A cross-dissolve in effect on a text layer (no offset, turn or curl): the outgoing
    /// string and the two faces' alphas.
    package var dissolve: (outgoing: String?, outgoingAlpha: Double, incomingAlpha: Double)?
    /// An emitter's live particles.
    package var particleCount: Int
}

extension FrameRenderer {
    /// The presentation tree at scene time `time` (``FrameSnapshot``).
    package func snapshot(at time: Double, cursor: SamplingCursor? = nil) -> FrameSnapshot {
        let frame = Frame(self, time: time, cursor: cursor ?? frames.makeCursor())
        var layers: [LayerSnapshot] = []
        var slot = [Int](repeating: -1, count: frames.timeline.layers.count)
        func visit(_ index: Int, parent: Int, parentMap: Homography?) {
            let layer = frame.layer(index)
            var map = layer.toParent()
            if let parentMap { map = map.then(parentMap) }
            slot[index] = layers.count
            layers.append(
                LayerSnapshot(
                    index: index, parent: parent, type: layer.type, bounds: layer.bounds,
                    anchorPoint: layer.point(.anchorPoint), toParent: map.m,
                    opacity: layer.opacity, hidden: layer.hidden, background: layer.background,
                    cornerRadius: layer.cornerRadius, borderWidth: layer.borderWidth, borderColor: layer.borderColor,
                    masksToBounds: layer.masksToBounds, shadowColor: layer.shadowColor,
                    shadowOpacity: layer.shadowOpacity, shadowOffset: layer.shadowOffset,
                    shadowRadius: layer.shadowRadius, blurRadius: layer.blurRadius,
                    path: layer.type == .shape ? layer.path : nil,
                    fillColor: layer.type == .shape ? layer.color(.fillColor) : .clear,
                    strokeColor: layer.type == .shape ? layer.color(.strokeColor) : .clear,
                    lineWidth: layer.type == .shape ? layer.number(.lineWidth) : 0,
                    strokeStart: layer.type == .shape ? max(0, min(1, layer.number(.strokeStart))) : 0,
                    strokeEnd: layer.type == .shape ? max(0, min(1, layer.number(.strokeEnd))) : 1,
                    lineCap: layer.type == .shape ? layer.string(.lineCap) ?? "butt" : "butt",
                    lineJoin: layer.type == .shape ? layer.string(.lineJoin) ?? "miter" : "miter",
                    string: layer.type == .text ? layer.string(.string) : nil,
                    fontSize: layer.type == .text ? layer.number(.fontSize) : 0,
                    foregroundColor: layer.type == .text ? layer.color(.foregroundColor) : .clear,
                    alignment: layer.type == .text ? layer.string(.alignmentMode) ?? "natural" : "natural",
                    inTransition: frame.transitions[index] != nil,
                    dissolve: layer.type == .text
                        ? dissolve(frame.transitions[index], index, cursor: frame.cursor) : nil,
                    particleCount: frame.particles[index]?.count ?? 0))
            let sublayers = layer.sublayerMap
            for child in frame.children(of: index) { visit(child, parent: index, parentMap: sublayers) }
        }
        for root in frame.roots { visit(root, parent: -1, parentMap: nil) }
        return FrameSnapshot(layers: layers, slot: slot)
    }

    /// A transition that only dissolves one face into the other: the string before it began,
    /// and the faces' alphas.
    private func dissolve(_ state: TransitionState?, _ index: Int, cursor: SamplingCursor) -> (
        outgoing: String?, outgoingAlpha: Double, incomingAlpha: Double
    )? {
        guard let state, state.outgoingOffset == .zero, state.incomingOffset == .zero,
            state.outgoingTransform == .identity, state.incomingTransform == .identity, state.outgoingCurl == 0,
            state.incomingCurl == 0
        else { return nil }
        let before = Frame(self, time: state.begunAt - MediaTiming.resolution, cursor: cursor)
        return (before.layer(index).string(.string), state.outgoingOpacity, state.incomingOpacity)
    }
}
