/// A `CAKeyframeAnimation` that moves a layer's `position` along a `path` (CSS's
/// `offset-path`): the leaf, its layer, the path measured (its drawn segments, in the
/// superlayer's coordinates, as `position` is), and the scene times between which it is
/// attached.
public struct PathPart: Sendable {
    /// The leaf, an index into ``Timeline/leaves``.
    public let leaf: Int
    public let layer: Int
    public let measure: PathMeasure
    public let from: Double
    public let to: Double
}

extension Timeline {
    /// The path animations of `position` attached between scene times 0 and `end`: not
    /// additive or cumulative, on the layer's own clock, outside groups.
    package func pathParts(through end: Double) -> [PathPart] {
        var parts: [PathPart] = []
        guard !leavesReleased, end > 0 else { return parts }
        for animation in animations where animation.layer >= 0 && animation.layer < layers.count {
            for index in animation.leaves {
                let leaf = leaves[index]
                let body = leaf.body
                guard body.keyPath == KeyPath(.position), !body.additive, !body.cumulative, body.clock < 0,
                    body.groups.isEmpty, case .keyframes(let track) = body.curve,
                    case .path(let measure) = track.source,
                    !measure.segments.isEmpty
                else { continue }
                let from = max(0, leaf.addedAt)
                let to = min(end, leaf.removedAt)
                guard to > from else { continue }
                parts.append(
                    PathPart(leaf: index, layer: animation.layer, measure: measure, from: from, to: to))
            }
        }
        return parts
    }

    /// Where a path animation (a leaf of ``pathParts(through:)``) places its layer at scene time
    /// `time`: a segment of the path's ``PathMeasure`` and the curve parameter in it; nil where
    /// it is not attached or not in effect.
    package func pathLocation(leaf index: Int, at time: Double) -> (segment: Int, parameter: Double)? {
        guard !leavesReleased, index >= 0, index < leaves.count else { return nil }
        let leaf = leaves[index]
        guard leaf.addedAt <= time, time < leaf.removedAt, leaf.body.owner >= 0, leaf.body.owner < animations.count
        else { return nil }
        let layer = animations[leaf.body.owner].layer
        guard layer >= 0, layer < layers.count else { return nil }
        return leaf.body.pathLocation(layerTime: timeMap(of: layer, at: time).local(time))
    }
}
