import ChoreoEngine
import ChoreoRaster
import Foundation

/// An additive animation (`isAdditive`, as UIKit's block animations are) written on the web
/// as itself: what it adds to one channel, keyframes at its own times eased by its own curves,
/// played with CSS `animation-composition: add` (Web Animations `composite: "add"`) over the
/// animations of the value beneath it. The channels it can add to are the ones CSS adds the way
/// Core Animation does: `translate` (position, `transform.translation`), `rotate` (about z),
/// `opacity`, and `width`/`height` (the bounds' size, with the corner it moves).
struct AddedAnimation: Sendable {
    let layer: Int
    /// The key path, as the report names it.
    let keyPath: String
    let channel: Channel
    /// Key times in seconds, increasing (two at one time are a jump).
    let times: [Double]
    /// What it adds at each key, `channel.width` lanes.
    let values: [[Double]]
    /// The curve from each key to the next.
    let curves: [UnitBezier]
    /// It still adds its last value after its last key (it is attached to the end).
    let addsAfterwards: Bool

    /// The channel lanes an additive part adds to, or nil where CSS would add it differently.
    init?(_ part: AdditivePart) {
        func lanes(_ value: Value) -> [Double]? {
            switch (part.keyPath.property, part.keyPath.component, value) {
            case (.position, nil, .point(let p)): [p.x, p.y]
            case (.position, .x?, .number(let x)), (.transform, .translationX?, .number(let x)): [x, 0]
            case (.position, .y?, .number(let y)), (.transform, .translationY?, .number(let y)): [0, y]
            case (.transform, .translation?, .size(let t)): [t.x, t.y]
            case (.opacity, nil, .number(let o)), (.transform, .rotation?, .number(let o)),
                (.transform, .rotationZ?, .number(let o)):
                [o]
            // The size alone: a change of the bounds' origin moves the sublayers instead.
            case (.bounds, nil, .rect(let r)) where r.origin == .zero: [r.size.x, r.size.y]
            case (.bounds, .size?, .size(let s)): [s.x, s.y]
            case (.bounds, .sizeWidth?, .number(let w)): [w, 0]
            case (.bounds, .sizeHeight?, .number(let h)): [0, h]
            default: nil
            }
        }
        switch (part.keyPath.property, part.keyPath.component) {
        case (.opacity, nil): channel = .opacity
        case (.transform, .rotation?), (.transform, .rotationZ?): channel = .rotate
        case (.bounds, _): channel = .size
        default: channel = .translate
        }
        var values: [[Double]] = []
        for value in part.values {
            guard let lanes = lanes(value), lanes.count == channel.width, lanes.allSatisfy(\.isFinite) else {
                return nil
            }
            values.append(lanes)
        }
        guard let first = part.times.first, let last = part.times.last, last > first else { return nil }
        layer = part.layer
        keyPath = part.keyPath.description
        times = part.times
        self.values = values
        curves = part.curves
        addsAfterwards = part.addsAfterwards
    }

    /// What a change of size moves the layer's corner by, about its anchor point (`anchorPoint`
    /// in the unit square): a layer that grows about its centre moves its corner back by half
    /// the growth (where it is not turned or scaled, which the sums check).
    init(cornerOf size: AddedAnimation, anchorPoint: Point) {
        layer = size.layer
        keyPath = size.keyPath
        channel = .translate
        times = size.times
        values = size.values.map { [-anchorPoint.x * $0[0], -anchorPoint.y * $0[1]] }
        curves = size.curves
        addsAfterwards = size.addsAfterwards
    }

    /// The channel it adds to as the web formats place the layer: a position's change moves
    /// the corner where the layer is placed about it.
    func target(in layer: BakedLayer) -> Channel {
        channel == .translate && layer.anchorMoves ? .corner : channel
    }

    /// What it adds at scene time `time`: nothing before its first key or after its last
    /// (unless it adds afterwards); at a key, the value after it, as a player takes it.
    func value(at time: Double) -> [Double]? {
        guard let first = times.first, let last = times.last, time >= first else { return nil }
        if time >= last { return addsAfterwards ? values[values.count - 1] : nil }
        // The last key at or before `time`.
        var low = 0
        var high = times.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle } else { high = middle }
        }
        let span = times[low + 1] - times[low]
        guard span > 0 else { return values[low + 1] }
        let u = (time - times[low]) / span
        let progress = curves[low].isIdentity ? u : curves[low].solve(min(max(u, 0), 1))
        return zip(values[low], values[low + 1]).map { $0 + ($1 - $0) * progress }
    }
}

extension BakedScene {
    /// The web formats' material for a timeline with additive animations: the scene baked
    /// without the ones written as added animations, which must add up to the engine's values
    /// at every frame, channel by channel (a layer where they do not, because a later
    /// animation replaces the value they add to or its map is not one CSS adds to, keeps them
    /// in its samples instead). Returns the baked scene and its added animations by layer
    /// (timeline index).
    static func withAddedAnimations(
        _ full: FrameRenderer, end: Double, fps: Double, scale: Double, shouldStop: () -> Bool
    ) throws(ExportError) -> (scene: BakedScene, added: [Int: [AddedAnimation]])? {
        let timeline = full.timeline
        let parts = timeline.additiveParts(through: end)
        var chosen: [(leaf: Int, animation: AddedAnimation)] = []
        for part in parts {
            guard let animation = AddedAnimation(part) else { continue }
            chosen.append((part.leaf, animation))
            if animation.channel == .size,
                case .point(let anchorPoint) = timeline.layers[part.layer].modelValue(.anchorPoint, at: part.times[0])
            {
                chosen.append((part.leaf, AddedAnimation(cornerOf: animation, anchorPoint: anchorPoint)))
            }
        }
        // A second round leaves out the layers whose sums failed in the first; then, none.
        for _ in 0..<2 where !chosen.isEmpty {
            let base = FrameRenderer(timeline: timeline.removingLeaves(chosen.map(\.leaf)), stageOf: full)
            let scene = try BakedScene(renderer: base, end: end, fps: fps, scale: scale, shouldStop: shouldStop)
            var added: [Int: [AddedAnimation]] = [:]
            for entry in chosen { added[entry.animation.layer, default: []].append(entry.animation) }
            let failed = try scene.layersNotAddingUp(added, engine: full, shouldStop: shouldStop)
            if failed.isEmpty { return (scene, added) }
            chosen.removeAll { failed.contains($0.animation.layer) }
        }
        return nil
    }

    /// The layers (timeline indices) among `added`'s whose channels, as the web formats write
    /// them, are not the baked values plus what the added animations add, at some frame.
    func layersNotAddingUp(
        _ added: [Int: [AddedAnimation]], engine: FrameRenderer, shouldStop: () -> Bool
    ) throws(ExportError) -> Set<Int> {
        var failed = Set<Int>()
        var baked: [Int: BakedLayer] = [:]
        for layer in layers where added[layer.index] != nil { baked[layer.index] = layer }
        // A layer never in the tree adds nothing that shows.
        let only = Set(baked.keys)
        guard !only.isEmpty else { return failed }
        for (index, list) in added {
            guard let layer = baked[index] else { continue }
            // Chromium (156) adds to a `rotate` that holds still, not to an animated one: a turn
            // is added only over a layer's still rotation.
            if layer.projective || (layer.animated[Channel.rotate.rawValue] && list.contains { $0.channel == .rotate })
            {
                failed.insert(index)
            }
            // A size added moves the anchor in the box: the layer must be placed about its corner.
            if !layer.anchorMoves && list.contains(where: { $0.channel == .size }) { failed.insert(index) }
        }
        let cursor = engine.frames.makeCursor()
        for frame in 0..<frameCount {
            if shouldStop() { throw .cancelled }
            let time = SceneTime.quantize(Double(frame) / fps)
            let rows = Self.rows(
                engine.snapshot(at: time, cursor: cursor), near: frame, renderer: engine, baked: baked, only: only)
            for (index, row) in rows where !failed.contains(index) {
                guard let layer = baked[index], frame >= layer.firstFrame, frame <= layer.lastFrame else { continue }
                // The channels the web formats write for its map, and its opacity.
                let channels: [Channel] =
                    layer.anchorMoves
                    ? [.corner, .rotate, .scale, .skew, .size, .opacity]
                    : [.translate, .rotate, .scale, .skew, .size, .opacity]
                for channel in channels {
                    var expected = Array(layer.value(channel, frame: frame))
                    for animation in added[index] ?? [] {
                        guard animation.target(in: layer) == channel, let adds = animation.value(at: time) else {
                            continue
                        }
                        for lane in expected.indices { expected[lane] += adds[lane] }
                    }
                    let actual = row[channel.rawValue]
                    for lane in expected.indices {
                        var difference = abs(actual[lane] - expected[lane])
                        if channel == .rotate {
                            // The same turn, whichever way round it was unwrapped.
                            difference = abs(remainder(difference, 2 * Double.pi))
                        }
                        if difference > channel.tolerance / 2 { failed.insert(index) }
                    }
                }
            }
        }
        return failed
    }
}
