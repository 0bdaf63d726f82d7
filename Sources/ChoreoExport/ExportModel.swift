import ChoreoEngine
import ChoreoRaster
import Foundation

/// A baked scene with each changing channel reduced to keyframes: what every format writes,
/// and what the fidelity measurement plays back against the engine.
struct ExportModel: Sendable {
    let scene: BakedScene
    /// Per layer (in ``BakedScene/layers`` order), per channel: its keyframes when it changes.
    let keyframes: [[Keyframes?]]
    /// Per layer, the additive animations written as themselves (the web formats), whose
    /// values the channels' keyframes do not hold.
    let added: [[AddedAnimation]]
    /// The frames of the scene itself, which the fidelity measurement compares with: the baked
    /// scene's renderer is without the added animations.
    let engine: FrameRenderer
    /// Per layer moved along a path (``OffsetPath``), the distance along it as keyframes (one
    /// lane, points); nil for the others, and where the distance never changes.
    let distances: [Keyframes?]

    init(_ scene: BakedScene, added: [Int: [AddedAnimation]] = [:], engine: FrameRenderer? = nil) {
        self.scene = scene
        self.engine = engine ?? scene.renderer
        self.added = scene.layers.map { added[$0.index] ?? [] }
        distances = scene.layers.map { layer in
            guard let offset = layer.offsetPath, let first = offset.samples.first,
                offset.samples.contains(where: { abs($0 - first) > Channel.translate.tolerance / 4 })
                    || offset.steps.contains(where: { abs($0.values[0] - first) > Channel.translate.tolerance / 4 })
            else { return nil }
            return Keyframes(
                samples: offset.samples, width: 1, tolerance: Channel.translate.tolerance, steps: offset.steps)
        }
        keyframes = scene.layers.map { layer in
            Channel.allCases.map { channel in
                guard layer.animated[channel.rawValue] else { return nil }
                return Keyframes(
                    samples: layer.samples[channel.rawValue], width: channel.width, tolerance: channel.tolerance,
                    steps: layer.steps[channel.rawValue], eased: layer.eased[channel.rawValue])
            }
        }
    }

    /// A channel's value at (fractional) frame `frame`, as the export plays it.
    func value(_ layer: Int, _ channel: Channel, at frame: Double) -> [Double] {
        var value =
            keyframes[layer][channel.rawValue]?.value(at: frame) ?? Array(scene.layers[layer].value(channel, frame: 0))
        for animation in added[layer] where animation.target(in: scene.layers[layer]) == channel {
            guard let adds = animation.value(at: frame / scene.fps) else { continue }
            for lane in value.indices { value[lane] += adds[lane] }
        }
        return value
    }

    /// The 2 × 2 part of a text layer's map to the stage's pixels at frame 0, which its text is
    /// laid out under as choreo's pictures lay it out (Pango rounds the advances and the baseline
    /// to the pixels it draws in). A map that changes keeps frame 0's layout.
    func textLinear(_ position: Int) -> (Double, Double, Double, Double) {
        var map: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var current = position
        var depth = 0
        while current >= 0, depth <= scene.layers.count {
            map = Planar.then(map, localMap(current, at: 0))
            let parent = scene.layers[current].parent
            current = parent >= 0 ? scene.slot[parent] : -1
            depth += 1
        }
        let k = scene.scale
        return (map[0] * k, map[1] * k, map[3] * k, map[4] * k)
    }

    /// The map from layer `layer`'s box to its parent's as the export plays it at `frame`:
    /// skewX, scale and rotate about the anchor point, which lands on `translate` (or, with
    /// `aboutCorner`, about the top-left corner, which lands on `corner`); the baked matrix
    /// where the layer has perspective.
    func localMap(_ layer: Int, at frame: Double, aboutCorner: Bool = false) -> [Double] {
        if scene.layers[layer].projective { return value(layer, .matrix, at: frame) }
        let angle = value(layer, .rotate, at: frame)[0]
        let s = value(layer, .scale, at: frame)
        let k = value(layer, .skew, at: frame)[0]
        if aboutCorner {
            let t = value(layer, .corner, at: frame)
            return Self.affine(translate: (t[0], t[1]), angle: angle, scale: (s[0], s[1]), skew: k)
        }
        var p = value(layer, .translate, at: frame)
        let a = value(layer, .anchor, at: frame)
        if let offset = scene.layers[layer].offsetPath {
            // Moved along its path: the translate is what the path's point leaves, plus the anchor.
            let point = offset.point(atDistance: distance(layer, at: frame))
            p = [p[0] - a[0] + point.x, p[1] - a[1] + point.y]
        }
        var m = Self.affine(translate: (p[0], p[1]), angle: angle, scale: (s[0], s[1]), skew: k)
        m[6] -= a[0] * m[0] + a[1] * m[3]
        m[7] -= a[0] * m[1] + a[1] * m[4]
        return m
    }

    /// How far along its path layer `layer` is at frame `frame`, as the export plays it.
    func distance(_ layer: Int, at frame: Double) -> Double {
        if let keys = distances[layer] { return keys.value(at: frame)[0] }
        return scene.layers[layer].offsetPath?.samples.first ?? 0
    }

    /// Whether the web formats place layer `layer` about its top-left corner: where its anchor
    /// moves in its box (CSS would need its `transform-origin` and `translate` to move as one).
    func webAboutCorner(_ layer: Int) -> Bool { scene.layers[layer].anchorMoves }

    /// translate · rotate · scale · skewX(atan k), as a 3 × 3 row-vector matrix.
    static func affine(translate: (Double, Double), angle: Double, scale: (Double, Double), skew: Double) -> [Double] {
        let cosine = cos(angle)
        let sine = sin(angle)
        let a = cosine * scale.0
        let b = sine * scale.0
        let c = cosine * scale.0 * skew - sine * scale.1
        let d = sine * scale.0 * skew + cosine * scale.1
        return [a, b, 0, c, d, 0, translate.0, translate.1, 1]
    }
}

/// Points through a 3 × 3 row-vector matrix, and matrices composed.
enum Planar {
    static func apply(_ m: [Double], _ p: Point) -> Point {
        let w = p.x * m[2] + p.y * m[5] + m[8]
        let safe = abs(w) > 1e-12 ? w : 1e-12
        return Point((p.x * m[0] + p.y * m[3] + m[6]) / safe, (p.x * m[1] + p.y * m[4] + m[7]) / safe)
    }

    /// The inverse of an affine map (its last column 0, 0, 1); the identity where it has none.
    static func inverse(_ m: [Double]) -> [Double] {
        let det = m[0] * m[4] - m[1] * m[3]
        guard abs(det) > 1e-12 else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        let a = m[4] / det
        let b = -m[1] / det
        let c = -m[3] / det
        let d = m[0] / det
        return [a, b, 0, c, d, 0, -(m[6] * a + m[7] * c), -(m[6] * b + m[7] * d), 1]
    }

    /// `a`, then `b`.
    static func then(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 { r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j] }
        }
        return r
    }
}
