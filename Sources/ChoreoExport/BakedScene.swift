import ChoreoEngine
import ChoreoRaster
import Foundation

/// A property of an exported layer, sampled at every frame, in the terms the players take: the
/// layer's map into its parent as translate, rotate, scale and skew (as CSS's individual
/// transform properties and a Lottie transform compose them), its size, opacity and colours.
enum Channel: Int, CaseIterable, Sendable {
    /// Where the layer's anchor point lies in the parent's box, points: `position` where the
    /// superlayer has no `sublayerTransform` (Lottie's `p`).
    case translate
    /// Radians, clockwise on screen (y down), unwrapped from frame to frame.
    case rotate
    case scale
    /// `tan` of the x skew applied after the scale (CSS `skewX` in `transform`, after
    /// `scale`); 0 for most layers.
    case skew
    /// The whole map as a 3 × 3 projective matrix, row-vector form, normalised (perspective).
    case matrix
    case size
    /// The layer's own opacity (0 while hidden or out of the tree).
    case opacity
    /// Opacity times every ancestor's: what a player without group opacity (Lottie) shows.
    case groupOpacity
    case background
    case cornerRadius
    case borderWidth
    case borderColor
    /// Shadow colour with `shadowOpacity` folded into its alpha.
    case shadowColor
    case shadowOffset
    case shadowRadius
    case fill
    case stroke
    case lineWidth
    /// strokeStart, strokeEnd.
    case trim
    /// A text layer's `foregroundColor`.
    case foreground
    /// The anchor point in the layer's box, points from its bounds' origin: `anchorPoint` ×
    /// `bounds.size` (Lottie's `a`, CSS's `transform-origin`), about which it turns and scales.
    case anchor
    /// Where the layer's top-left corner (its bounds' origin) lies in the parent's box: the
    /// translation of a map about the corner (CSS where the anchor moves in the box, and any
    /// map with perspective).
    case corner
    /// SwiftUI's `blur(radius:)`: the layer and its sublayers blurred together.
    case blur

    var width: Int {
        switch self {
        case .translate, .scale, .size, .shadowOffset, .trim, .anchor, .corner: 2
        case .matrix: 9
        case .background, .borderColor, .shadowColor, .fill, .stroke, .foreground: 4
        default: 1
        }
    }

    /// The change below which two samples count as equal, and a line through keyframes as
    /// exact: 1/100 point, 1/10,000 of a turn's radian or a scale, 1/1,000 of opacity or a
    /// colour channel.
    var tolerance: Double {
        switch self {
        case .translate, .size, .cornerRadius, .borderWidth, .shadowOffset, .shadowRadius, .lineWidth, .anchor,
            .corner, .blur:
            0.01
        case .rotate, .skew, .scale, .matrix, .trim: 1e-4
        default: 1e-3
        }
    }

    var isColor: Bool { width == 4 }
}

/// One layer sampled at every frame.
struct BakedLayer: Sendable {
    let index: Int
    let id: String
    let type: LayerType
    /// Its parent (a timeline index; −1 for a root), as first seen in the tree.
    let parent: Int
    /// The first and last frames it is in the tree.
    let firstFrame: Int
    var lastFrame: Int
    /// Per channel, its samples: frame × width numbers.
    var samples: [[Double]]
    /// Per channel, whether it changes over the frames.
    var animated: [Bool] = []
    /// Per channel, samples between frames: the two sides of a value that changes at once
    /// (a snap back, a state change), at fractional frames.
    var steps: [[(frame: Double, values: [Double])]] = Channel.allCases.map { _ in [] }
    /// Per channel, the stretches that follow an animation's timing curve exactly
    /// (``BakedScene/findEasedKeys(renderer:fps:count:cursor:baked:)``), in time order.
    var eased: [[EasedKey]] = Channel.allCases.map { _ in [] }
    /// Whether any frame's map has perspective.
    var projective = false
    var reparented = false
    var masksToBounds: Bool
    var masksChange = false
    var path: BezierPath?
    var pathChanges = false
    var string: String?
    /// A text layer's strings in the order first shown, and at each frame the strings shown
    /// with their alphas (two while a cross-dissolve runs).
    var strings: [String] = []
    var stringAt: [[(index: Int, alpha: Double)]] = []
    var textChanges = false
    let fontSize: Double
    /// The bounds' origin, as first seen: a path's and a string's coordinates are the
    /// layer's, whose box starts at that origin.
    let boundsOrigin: Point
    let alignment: String
    let lineCap: String
    let lineJoin: String
    var transition = false
    /// A text layer's cross-dissolve, exported as its strings' alphas.
    var transitionDissolved = false
    var particles = false
    /// Its rank among its siblings when first seen; whether it changes.
    let rank: Int
    var reordered = false

    /// Where it moves along a path, for the web formats (``OffsetPath``): its translate is then
    /// what the path leaves (the anchor's landing less the path's point, plus the anchor).
    var offsetPath: OffsetPath?

    /// Whether its anchor point moves in its box (a `bounds.size` or `anchorPoint` animation):
    /// the web formats then place it about its corner.
    var anchorMoves: Bool { animated[Channel.anchor.rawValue] }

    func value(_ channel: Channel, frame: Int) -> ArraySlice<Double> {
        let width = channel.width
        return samples[channel.rawValue][(frame * width)..<(frame * width + width)]
    }
}

/// A scene's run sampled at a fixed rate into per-layer channels: the material every export
/// format is written from.
struct BakedScene: Sendable {
    let fps: Double
    /// The frames' count (frame n is scene time n / fps).
    let frameCount: Int
    /// The stage in points, its background, and the root space's point at its top-left.
    let size: Point
    let origin: Point
    let background: Color?
    let scale: Double
    /// The layers in drawing order (a parent before its sublayers).
    var layers: [BakedLayer]
    /// The position of a layer (timeline index) in ``layers``, −1 when never in the tree.
    let slot: [Int]
    /// The renderer the samples came from, for the fidelity measurement.
    let renderer: FrameRenderer

    /// A scene that repeats for ever: the span it is exported over (``LoopSpan``).
    let loop: LoopSpan?

    var duration: Double { Double(frameCount - 1) / fps }

    /// Samples `renderer`'s frames at `fps` from 0 through `end` (a repeating scene's through
    /// a whole number of its common period, ``LoopSpan``, where `end` is its horizon).
    init(
        renderer: FrameRenderer, end: Double, fps: Double, scale: Double, shouldStop: () -> Bool = { false }
    ) throws(ExportError) {
        loop = LoopSpan.find(renderer, end: end, fps: fps)
        let end = loop?.end ?? end
        self.fps = fps
        self.scale = scale
        self.renderer = renderer
        size = renderer.size
        origin = renderer.origin
        background = renderer.background
        let count = max(0, Int((end * fps - 1e-6).rounded(.up))) + 1
        let layerCount = renderer.timeline.layers.count
        if count * max(1, layerCount) > ExportLimits.maxLayerFrames {
            throw ExportError.tooLarge(
                "query.fps",
                "\(count) frames of \(layerCount) layers are \(count * layerCount) layer-frames, over the \(ExportLimits.maxLayerFrames) one export samples (a lower fps)"
            )
        }
        frameCount = count
        let cursor = renderer.frames.makeCursor()
        var baked: [Int: BakedLayer] = [:]
        var firstOrder: [Int] = []
        for frame in 0..<count {
            if shouldStop() { throw .cancelled }
            let time = SceneTime.quantize(Double(frame) / fps)
            let snapshot = renderer.snapshot(at: time, cursor: cursor)
            var ranks: [Int: Int] = [:]
            var siblings: [Int: Int] = [:]
            var groupOpacity = [Double](repeating: 1, count: snapshot.layers.count)
            // A sublayer is placed in its parent's box, whose origin is the parent's bounds
            // origin at the same frame; a root in the stage.
            func parentOrigin(_ layer: LayerSnapshot) -> Point {
                layer.parent >= 0 ? snapshot.layers[snapshot.slot[layer.parent]].bounds.origin : renderer.origin
            }
            for (position, layer) in snapshot.layers.enumerated() {
                let rank = siblings[layer.parent, default: 0]
                siblings[layer.parent] = rank + 1
                ranks[layer.index] = rank
                let own = layer.hidden ? 0 : layer.opacity
                let parentGroup = layer.parent >= 0 ? groupOpacity[snapshot.slot[layer.parent]] : 1
                groupOpacity[position] = own * parentGroup
                if baked[layer.index] == nil {
                    let track = renderer.timeline.layers[layer.index]
                    var fresh = BakedLayer(
                        index: layer.index, id: track.id, type: layer.type, parent: layer.parent, firstFrame: frame,
                        lastFrame: frame,
                        samples: Channel.allCases.map { [Double](repeating: 0, count: count * $0.width) },
                        masksToBounds: layer.masksToBounds, path: layer.path, string: layer.string,
                        fontSize: layer.fontSize,
                        boundsOrigin: layer.bounds.origin, alignment: layer.alignment, lineCap: layer.lineCap,
                        lineJoin: layer.lineJoin, rank: rank)
                    // Frames before it joined the tree hold its first values, transparent.
                    for earlier in 0..<frame {
                        fresh.store(layer, frame: earlier, parentOrigin: parentOrigin(layer), group: 0, present: false)
                    }
                    baked[layer.index] = fresh
                    firstOrder.append(layer.index)
                }
                baked[layer.index]!.record(
                    layer, frame: frame, rank: rank, parentOrigin: parentOrigin(layer), group: groupOpacity[position])
            }
            // Layers out of the tree at this frame: as they were last, transparent.
            for (index, layer) in baked where snapshot.slot[index] < 0 {
                baked[index]!.hold(frame: frame, from: max(layer.firstFrame, frame - 1))
            }
        }
        try Self.findSteps(
            renderer: renderer, fps: fps, count: count, cursor: cursor, baked: &baked, shouldStop: shouldStop)
        for index in baked.keys { baked[index]!.finish() }
        try Self.findEasedKeys(
            renderer: renderer, fps: fps, count: count, cursor: cursor, baked: &baked, shouldStop: shouldStop)
        // Drawing order: a parent before its sublayers, siblings by their first rank.
        var children: [Int: [Int]] = [:]
        for index in firstOrder { children[baked[index]!.parent, default: []].append(index) }
        var ordered: [BakedLayer] = []
        var slot = [Int](repeating: -1, count: layerCount)
        func place(_ parent: Int) {
            let list = (children[parent] ?? []).sorted {
                baked[$0]!.rank < baked[$1]!.rank || ($0 < $1 && baked[$0]!.rank == baked[$1]!.rank)
            }
            for index in list {
                let layer = baked[index]!
                slot[index] = ordered.count
                ordered.append(layer)
                place(index)
            }
        }
        place(-1)
        layers = ordered
        self.slot = slot
    }
}

extension BakedScene {

    /// Every layer's channels in a snapshot between frames `near` and `near` + 1, as they are
    /// stored: a layer out of the tree is as it was at `near`, transparent; rotation is
    /// unwrapped against frame `near`'s. With `only`, those layers' alone (the group opacities
    /// are still every layer's: a layer's is its ancestors' too).
    static func rows(
        _ snapshot: FrameSnapshot, near: Int, renderer: FrameRenderer, baked: [Int: BakedLayer],
        only: Set<Int>? = nil
    ) -> [Int: [[Double]]] {
        var result: [Int: [[Double]]] = [:]
        var group = [Double](repeating: 1, count: snapshot.layers.count)
        for (position, layer) in snapshot.layers.enumerated() {
            let parentGroup = layer.parent >= 0 ? group[snapshot.slot[layer.parent]] : 1
            group[position] = (layer.hidden ? 0 : layer.opacity) * parentGroup
            if let only, !only.contains(layer.index) { continue }
            guard let known = baked[layer.index] else { continue }
            let origin =
                layer.parent >= 0 ? snapshot.layers[snapshot.slot[layer.parent]].bounds.origin : renderer.origin
            let previous = known.samples[Channel.rotate.rawValue][near]
            result[layer.index] =
                BakedLayer.row(
                    layer, parentOrigin: origin, group: group[position], present: true, previousAngle: previous
                )
                .row
        }
        for (index, layer) in baked where result[index] == nil && only?.contains(index) ?? true {
            var row = Channel.allCases.map { Array(layer.value($0, frame: near)) }
            row[Channel.opacity.rawValue] = [0]
            row[Channel.groupOpacity.rawValue] = [0]
            result[index] = row
        }
        return result
    }
    /// Most intervals between frames bisected for a step, per export: about 12 frames drawn
    /// each (`choreo-bench` shows an export's time; a scene of many steps keeps the rest as
    /// one-frame ramps, which the report measures).
    static let maxStepSearches = 256

    /// Values that change at once between two frames (an animation removed and its layer back
    /// at its model value, a state change, a hidden layer shown): each interval's middle is
    /// sampled, and where a channel there equals one end and not the other, the time of the
    /// change is found by bisection (to 1/2,048 of a frame) and both sides are kept as samples,
    /// so that a linear player steps where the engine does instead of ramping over a frame.
    static func findSteps(
        renderer: FrameRenderer, fps: Double, count: Int, cursor: SamplingCursor, baked: inout [Int: BakedLayer],
        shouldStop: () -> Bool = { false }
    ) throws(ExportError) {
        guard count > 1 else { return }
        func rows(_ snapshot: FrameSnapshot, near: Int, only: Set<Int>? = nil) -> [Int: [[Double]]] {
            Self.rows(snapshot, near: near, renderer: renderer, baked: baked, only: only)
        }
        func distance(_ a: [Double], _ b: ArraySlice<Double>, _ tolerance: Double) -> Double {
            zip(a, b).map { abs($0 - $1) }.max().map { $0 / tolerance } ?? 0
        }
        // Candidates: intervals whose middle is off the straight line between their ends, the
        // farthest first.
        var candidates: [(frame: Int, layer: Int, channel: Channel, off: Double)] = []
        // The middles off the line, kept as samples where the interval holds no step: a fast
        // curve (a spring's first frames) is followed at twice the rate there.
        var middles: [(frame: Int, layer: Int, channel: Channel, values: [Double])] = []
        for frame in 0..<(count - 1) {
            if shouldStop() { throw .cancelled }
            let middle = SceneTime.quantize((Double(frame) + 0.5) / fps)
            var worst: (layer: Int, channel: Channel, off: Double)?
            for (index, row) in rows(renderer.snapshot(at: middle, cursor: cursor), near: frame) {
                guard let layer = baked[index] else { continue }
                for channel in Channel.allCases where channel != .matrix {
                    let before = layer.value(channel, frame: frame)
                    let after = layer.value(channel, frame: frame + 1)
                    let line = zip(before, after).map { ($0 + $1) / 2 }
                    let off = distance(line, row[channel.rawValue][...], channel.tolerance)
                    if off > 4 { middles.append((frame, index, channel, row[channel.rawValue])) }
                    if off > 4, off > worst?.off ?? 0 { worst = (index, channel, off) }
                }
            }
            if let worst { candidates.append((frame, worst.layer, worst.channel, worst.off)) }
        }
        candidates.sort { $0.off != $1.off ? $0.off > $1.off : $0.frame < $1.frame }
        var stepped = Set<Int>()
        defer {
            for middle in middles where !stepped.contains(middle.frame) {
                baked[middle.layer]!.steps[middle.channel.rawValue].append((Double(middle.frame) + 0.5, middle.values))
            }
        }
        for candidate in candidates.prefix(maxStepSearches) {
            if shouldStop() { throw .cancelled }
            // Halve the interval towards the larger change: a value that changes at once keeps
            // its whole change in an interval 1/2,048 of a frame long; a fast but smooth one
            // does not.
            var low = SceneTime.quantize(Double(candidate.frame) / fps)
            var high = SceneTime.quantize(Double(candidate.frame + 1) / fps)
            guard let layer = baked[candidate.layer] else { continue }
            var lowValue = Array(layer.value(candidate.channel, frame: candidate.frame))
            var highValue = Array(layer.value(candidate.channel, frame: candidate.frame + 1))
            let tolerance = candidate.channel.tolerance
            for _ in 0..<11 {
                let time = (low + high) / 2
                guard
                    let row = rows(
                        renderer.snapshot(at: time, cursor: cursor), near: candidate.frame, only: [candidate.layer])[
                            candidate.layer]
                else { break }
                let value = row[candidate.channel.rawValue]
                if distance(lowValue, value[...], tolerance) >= distance(value, highValue[...], tolerance) {
                    high = time
                    highValue = value
                } else {
                    low = time
                    lowValue = value
                }
            }
            guard distance(lowValue, highValue[...], tolerance) > 4 else { continue }
            stepped.insert(candidate.frame)
            // Every channel that changes there keeps both sides.
            let lowRows = rows(renderer.snapshot(at: low, cursor: cursor), near: candidate.frame)
            let highRows = rows(renderer.snapshot(at: high, cursor: cursor), near: candidate.frame)
            for (index, before) in lowRows {
                guard let after = highRows[index] else { continue }
                for channel in Channel.allCases where channel != .matrix {
                    guard distance(before[channel.rawValue], after[channel.rawValue][...], channel.tolerance) > 4
                    else { continue }
                    baked[index]!.steps[channel.rawValue] += [
                        (low * fps, before[channel.rawValue]), (high * fps, after[channel.rawValue]),
                    ]
                }
            }
        }
    }
}

extension BakedLayer {
    /// Records the layer's values at `frame`, and what the formats cannot follow (a new parent,
    /// a new rank, a changed path or string).
    mutating func record(_ layer: LayerSnapshot, frame: Int, rank: Int, parentOrigin: Point, group: Double) {
        if layer.parent != parent { reparented = true }
        if rank != self.rank { reordered = true }
        if layer.masksToBounds != masksToBounds { masksChange = true }
        if layer.path != path { pathChanges = true }
        if layer.string != string { textChanges = true }
        if type == .text {
            func index(_ shown: String) -> Int {
                if let known = strings.firstIndex(of: shown) { return known }
                strings.append(shown)
                return strings.count - 1
            }
            var faces = [(index: index(layer.string ?? ""), alpha: 1.0)]
            if let dissolve = layer.dissolve {
                transitionDissolved = true
                faces = [
                    (index(dissolve.outgoing ?? ""), dissolve.outgoingAlpha),
                    (faces[0].index, dissolve.incomingAlpha),
                ]
                if faces[0].index == faces[1].index { faces = [(faces[0].index, 1)] }
            }
            // Frames before this layer joined the tree show its first string.
            while stringAt.count < frame { stringAt.append(stringAt.last ?? faces) }
            stringAt.append(faces)
        }
        if layer.inTransition && (layer.dissolve == nil || type != .text) { transition = true }
        if layer.particleCount > 0 { particles = true }
        lastFrame = frame
        store(layer, frame: frame, parentOrigin: parentOrigin, group: group, present: true)
    }

    /// Frame `frame` as frame `source` was, transparent (the layer is out of the tree).
    mutating func hold(frame: Int, from source: Int) {
        for channel in Channel.allCases {
            let width = channel.width
            for lane in 0..<width {
                samples[channel.rawValue][frame * width + lane] = samples[channel.rawValue][source * width + lane]
            }
        }
        samples[Channel.opacity.rawValue][frame] = 0
        samples[Channel.groupOpacity.rawValue][frame] = 0
        if type == .text {
            while stringAt.count <= frame { stringAt.append(stringAt.last ?? [(0, 1)]) }
        }
    }

    mutating func store(_ layer: LayerSnapshot, frame: Int, parentOrigin: Point, group: Double, present: Bool) {
        let previous = frame > 0 ? samples[Channel.rotate.rawValue][frame - 1] : nil
        let (row, perspective) = Self.row(
            layer, parentOrigin: parentOrigin, group: group, present: present, previousAngle: previous)
        if perspective { projective = true }
        for channel in Channel.allCases {
            let width = channel.width
            samples[channel.rawValue].replaceSubrange(
                (frame * width)..<(frame * width + width), with: row[channel.rawValue])
        }
    }

    /// A layer's channels at one time, and whether its map has perspective; `previousAngle`
    /// is the rotation of the sample before, which the rotation is unwrapped against.
    static func row(
        _ layer: LayerSnapshot, parentOrigin: Point, group: Double, present: Bool, previousAngle: Double?
    ) -> (row: [[Double]], perspective: Bool) {
        var row = Channel.allCases.map { [Double](repeating: 0, count: $0.width) }
        func set(_ channel: Channel, _ values: Double...) {
            for (lane, value) in values.enumerated() { row[channel.rawValue][lane] = value.isFinite ? value : 0 }
        }
        func color(_ channel: Channel, _ c: Color, alpha: Double = 1) {
            set(channel, c.red, c.green, c.blue, c.alpha * alpha)
        }
        // The map from this layer's box (its bounds' origin at 0, 0) to its parent's box.
        let b = layer.bounds.origin
        let h = layer.toParent
        // T(b) · H · T(−pb), row-vector form.
        var m = [Double](repeating: 0, count: 9)
        let t = [1, 0, 0, 0, 1, 0, b.x, b.y, 1]
        for i in 0..<3 {
            for j in 0..<3 { m[i * 3 + j] = t[i * 3] * h[j] + t[i * 3 + 1] * h[3 + j] + t[i * 3 + 2] * h[6 + j] }
        }
        for i in 0..<3 {
            m[i * 3] -= m[i * 3 + 2] * parentOrigin.x
            m[i * 3 + 1] -= m[i * 3 + 2] * parentOrigin.y
        }
        let w = abs(m[8]) > 1e-12 ? m[8] : 1
        m = m.map { $0 / w }
        let perspective = abs(m[2]) > 1e-9 || abs(m[5]) > 1e-9
        row[Channel.matrix.rawValue] = m.map { $0.isFinite ? $0 : 0 }
        let a = m[0]
        let bb = m[1]
        let c = m[3]
        let d = m[4]
        let sx = (a * a + bb * bb).squareRoot()
        var angle = sx > 1e-12 ? atan2(bb, a) : previousAngle ?? 0
        if let previousAngle {
            angle += 2 * Double.pi * ((previousAngle - angle) / (2 * Double.pi)).rounded()
        }
        let cosine = cos(angle)
        let sine = sin(angle)
        let c1 = cosine * c + sine * d
        let sy = -sine * c + cosine * d
        // R · S · K: the skew after the scale (x' = x + k·y), as `scale` then `transform: skewX`.
        let k = abs(sx) > 1e-12 ? c1 / sx : 0
        // The anchor in the box, and where the map takes it.
        let anchor = Point(layer.anchorPoint.x * layer.bounds.size.x, layer.anchorPoint.y * layer.bounds.size.y)
        let anchorW = anchor.x * m[2] + anchor.y * m[5] + m[8]
        let safeW = abs(anchorW) > 1e-12 ? anchorW : 1
        set(
            .translate, (anchor.x * m[0] + anchor.y * m[3] + m[6]) / safeW,
            (anchor.x * m[1] + anchor.y * m[4] + m[7]) / safeW)
        set(.anchor, anchor.x, anchor.y)
        set(.corner, m[6], m[7])
        set(.rotate, angle)
        set(.scale, sx, sy)
        set(.skew, k)
        set(.size, layer.bounds.size.x, layer.bounds.size.y)
        set(.opacity, present && !layer.hidden ? layer.opacity : 0)
        set(.groupOpacity, present ? group : 0)
        color(.background, layer.background)
        set(.cornerRadius, layer.cornerRadius)
        set(.borderWidth, layer.borderWidth)
        color(.borderColor, layer.borderColor)
        color(.shadowColor, layer.shadowColor, alpha: layer.shadowOpacity)
        set(.shadowOffset, layer.shadowOffset.x, layer.shadowOffset.y)
        set(.shadowRadius, layer.shadowRadius)
        color(.fill, layer.fillColor)
        color(.stroke, layer.strokeColor)
        set(.lineWidth, layer.lineWidth)
        set(.trim, layer.strokeStart, layer.strokeEnd)
        color(.foreground, layer.foregroundColor)
        set(.blur, layer.blurRadius)
        return (row, perspective)
    }

    /// Marks the channels that change.
    mutating func finish() {
        animated = Channel.allCases.map { channel in
            let values = samples[channel.rawValue]
            let width = channel.width
            let frames = values.count / width
            guard frames > 1 else { return false }
            for frame in 1..<frames {
                for lane in 0..<width where abs(values[frame * width + lane] - values[lane]) > channel.tolerance / 4 {
                    return true
                }
            }
            return false
        }
    }
}
