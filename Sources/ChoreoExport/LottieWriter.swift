import ChoreoEngine
import ChoreoJSON
import ChoreoRaster
import Foundation

/// Writes a model as a Lottie (Bodymovin JSON) composition, as lottie-web, lottie-ios,
/// lottie-android and rlottie play it.
///
/// Every `CALayer` is a shape layer parented to its superlayer's (Lottie's parenting carries the
/// transform only, so each layer's opacity is its group's: its own times its ancestors').
/// Its box is a rectangle with the corner radius, filled with `backgroundColor`; a
/// `CAShapeLayer`'s path is a group of bezier shapes, filled, and stroked through a trim path
/// (`strokeStart`/`strokeEnd`, sequential over the subpaths as Core Animation trims); a border is
/// a layer of its own drawn over the sublayers. Frame `n` is scene time `n / fr`.
struct LottieWriter {
    let model: ExportModel
    let sceneName: String?
    var scene: BakedScene { model.scene }

    static func n(_ value: Double, _ decimals: Double = 10_000) -> JSONValue {
        let r = (value * decimals).rounded() / decimals
        return .number(r == 0 ? 0 : r)
    }

    /// A colour channel (0…1) to six decimals, rounded up: a player that takes the 8-bit value
    /// as `c × 255` truncated (rlottie, lottie-web) gets `n` back from `n / 255`, and one that
    /// rounds it (ThorVG, lottie-ios) too; four decimals lose a level (#F2F2F7 as 241, 241, 246).
    static func colorComponent(_ value: Double) -> JSONValue {
        let up = min(1, (value * 1_000_000 - 1e-7).rounded(.up) / 1_000_000)
        return .number(up > 0 ? up : 0)
    }

    /// A colour property (Lottie's `c`: red, green, blue, and 1 for the alpha a fill's `o`
    /// carries).
    func color(_ position: Int, _ channel: Channel) -> JSONValue {
        property(position, channel, { [$0[0], $0[1], $0[2], 1] }, number: Self.colorComponent)
    }

    /// A static or keyframed property: `transform` maps a channel's lanes to the property's.
    func property(
        _ position: Int, _ channel: Channel, _ transform: ([Double]) -> [Double], scalar: Bool = false,
        number: (Double) -> JSONValue = { n($0) }
    ) -> JSONValue {
        func value(_ lanes: [Double]) -> JSONValue {
            let mapped = transform(lanes)
            return scalar ? number(mapped[0]) : .array(mapped.map(number))
        }
        guard let keys = model.keyframes[position][channel.rawValue] else {
            return .object(
                JSONObject([("a", 0), ("k", value(Array(scene.layers[position].value(channel, frame: 0))))]))
        }
        return keyframed(
            keys.frames.indices.map { (keys.frames[$0], Array(keys.values($0))) }, value, curve: keys.curve,
            holds: keys.holds)
    }

    /// Keyframes, the last without handles: each with its timing curve's control points as its
    /// `o` and `i` handles (an overshooting `y` included), linear (`o` at 0, 0 and `i` at 1, 1)
    /// where it has none. With `hold`, hold keyframes (each value until the next), only where
    /// the value changes. A keyframe's value is always an array (`"s": [100]`), as Bodymovin
    /// writes a scalar's and the Lottie schema requires: lottie-web reads a bare number's
    /// first element as undefined.
    func keyframed(
        _ frames: [(Double, [Double])], _ scalarOrVector: ([Double]) -> JSONValue, hold: Bool = false,
        curve: (Int) -> UnitBezier? = { _ in nil }, holds: [Bool] = []
    ) -> JSONValue {
        func value(_ lanes: [Double]) -> JSONValue {
            let written = scalarOrVector(lanes)
            if case .number = written { return [written] }
            return written
        }
        if hold {
            var kept: [JSONValue] = []
            var last: [Double]?
            for (frame, values) in frames where values != last {
                kept.append(.object(JSONObject([("t", Self.n(frame)), ("s", value(values)), ("h", 1)])))
                last = values
            }
            return .object(JSONObject([("a", 1), ("k", .array(kept))]))
        }
        let linearOut: JSONValue = .object(JSONObject([("x", [0]), ("y", [0])]))
        let linearIn: JSONValue = .object(JSONObject([("x", [1]), ("y", [1])]))
        let keys: [JSONValue] = frames.enumerated().map { index, frame in
            var key = JSONObject([("t", Self.n(frame.0)), ("s", value(frame.1))])
            if index < holds.count && holds[index] {
                // A value that changes at once: held until the next keyframe.
                key["h"] = 1
            } else if index < frames.count - 1 {
                if let curve = curve(index), !curve.isIdentity {
                    key["o"] = .object(
                        JSONObject([("x", .array([Self.handle(curve.x1)])), ("y", .array([Self.handle(curve.y1)]))]))
                    key["i"] = .object(
                        JSONObject([("x", .array([Self.handle(curve.x2)])), ("y", .array([Self.handle(curve.y2)]))]))
                } else {
                    key["o"] = linearOut
                    key["i"] = linearIn
                }
            }
            return .object(key)
        }
        return .object(JSONObject([("a", 1), ("k", .array(keys))]))
    }

    /// A property sampled at every frame from several channels (a border's rectangle).
    func everyFrame(_ position: Int, changing: [Channel], _ values: (Int) -> [Double], scalar: Bool = false)
        -> JSONValue
    {
        func value(_ lanes: [Double]) -> JSONValue { scalar ? Self.n(lanes[0]) : .array(lanes.map { Self.n($0) }) }
        guard changing.contains(where: { model.keyframes[position][$0.rawValue] != nil }) else {
            return .object(JSONObject([("a", 0), ("k", value(values(0)))]))
        }
        return keyframed((0..<scene.frameCount).map { (Double($0), values($0)) }, value)
    }

    /// A handle's coordinate, to a millionth: a timing curve's progress to about that.
    static func handle(_ value: Double) -> JSONValue { n(value, 1_000_000) }

    static func staticValue(_ value: JSONValue) -> JSONValue { .object(JSONObject([("a", 0), ("k", value)])) }

    /// The transform of a layer: its anchor point in its box (`a`), where that lands in the
    /// parent's (`p`), rotate (degrees) and scale (percent) about it, its group opacity
    /// (percent), and a skew where it has one. A map with perspective keeps its affine part
    /// about the top-left corner.
    func transform(_ position: Int) -> JSONValue {
        let layer = scene.layers[position]
        // A root carries the stage's points-to-pixels scale (a uniform scale, which commutes
        // with the turn and leaves the skew's ratio): no null layer, which Qt's player does not
        // read, holds it.
        let k = layer.parent < 0 ? scene.scale : 1
        var ks = JSONObject([
            ("a", layer.projective ? Self.staticValue([0, 0]) : property(position, .anchor, { $0 })),
            ("p", property(position, layer.projective ? .corner : .translate, { $0.map { $0 * k } })),
            ("s", property(position, .scale, { [$0[0] * 100 * k, $0[1] * 100 * k] })),
            ("r", property(position, .rotate, { [$0[0] * 180 / Double.pi] }, scalar: true)),
            ("o", property(position, .groupOpacity, { [$0[0] * 100] }, scalar: true)),
        ])
        if layer.uses(.skew) {
            // Lottie skews after the scale: R · Sk · S; the model's x skew k before the scale is
            // a skew of k·sx/sy after it, an angle whose tangent is that.
            ks["sk"] = everyFrame(
                position, changing: [.skew, .scale],
                { frame in
                    let s = Array(layer.value(.scale, frame: frame))
                    let k = layer.value(.skew, frame: frame).first ?? 0
                    let t = abs(s[1]) > 1e-12 ? k * s[0] / s[1] : 0
                    return [-atan(t) * 180 / Double.pi]
                }, scalar: true)
            ks["sa"] = Self.staticValue(0)
        }
        return .object(ks)
    }

    static func groupTransform() -> JSONValue {
        .object(
            JSONObject([
                ("ty", "tr"), ("p", staticValue([0, 0])), ("a", staticValue([0, 0])), ("s", staticValue([100, 100])),
                ("r", staticValue(0)), ("o", staticValue(100)), ("sk", staticValue(0)), ("sa", staticValue(0)),
            ]))
    }

    /// Whether a colour channel is ever seen (its alpha above 0 at a frame or between frames):
    /// a paint that never is is not written, which every player reads alike and Qt's, which
    /// draws a fill of opacity 0 opaque, needs.
    func everSeen(_ position: Int, _ channel: Channel) -> Bool {
        let layer = scene.layers[position]
        let samples = layer.samples[channel.rawValue]
        return stride(from: 3, to: samples.count, by: 4).contains { samples[$0] > 0 }
            || layer.steps[channel.rawValue].contains { ($0.values.last ?? 0) > 0 }
    }

    /// A fill of a colour channel: its RGB and its alpha as the fill's opacity.
    func fill(_ position: Int, _ channel: Channel) -> JSONValue {
        .object(
            JSONObject([
                ("ty", "fl"), ("c", color(position, channel)),
                ("o", property(position, channel, { [$0[3] * 100] }, scalar: true)), ("r", 1),
            ]))
    }

    static func group(_ name: String, _ items: [JSONValue]) -> JSONValue {
        .object(JSONObject([("ty", "gr"), ("nm", .string(name)), ("it", .array(items + [groupTransform()]))]))
    }

    /// A path's subpaths as Lottie bezier shapes, in the layer's box.
    static func shapes(_ path: BezierPath, origin: Point) -> [JSONValue] {
        paths(path, origin: origin).map { .object(JSONObject([("ty", "sh"), ("ks", staticValue($0))])) }
    }

    /// A path's subpaths as Lottie path values (vertices with in and out tangents relative to
    /// them), in the box whose origin is `origin`.
    static func paths(_ path: BezierPath, origin: Point) -> [JSONValue] {
        var result: [JSONValue] = []
        var vertices: [Point] = []
        var ins: [Point] = []
        var outs: [Point] = []
        var closed = false
        func flush() {
            if vertices.count > 0 {
                // A closing segment back to the start, when the subpath ends on its start point,
                // is the closed shape's own.
                if closed, vertices.count > 1, let first = vertices.first, let last = vertices.last,
                    abs(first.x - last.x) < 1e-9, abs(first.y - last.y) < 1e-9
                {
                    ins[0] = ins[ins.count - 1]
                    vertices.removeLast()
                    ins.removeLast()
                    outs.removeLast()
                }
                func list(_ points: [Point]) -> JSONValue {
                    .array(points.map { .array([n($0.x), n($0.y)]) })
                }
                result.append(
                    .object(
                        JSONObject([
                            ("i", list(ins)), ("o", list(outs)), ("v", list(vertices)), ("c", .bool(closed)),
                        ])))
            }
            vertices = []
            ins = []
            outs = []
            closed = false
        }
        func local(_ p: Point) -> Point { Point(p.x - origin.x, p.y - origin.y) }
        for element in path.elements {
            switch element {
            case .move(let p):
                flush()
                vertices = [local(p)]
                ins = [.zero]
                outs = [.zero]
            case .line(let p):
                if vertices.isEmpty {
                    vertices = [.zero]
                    ins = [.zero]
                    outs = [.zero]
                }
                vertices.append(local(p))
                ins.append(.zero)
                outs.append(.zero)
            case .quad(let c, let p):
                let start = vertices.last ?? .zero
                let end = local(p)
                let control = local(c)
                let c1 = Point(start.x + 2 / 3 * (control.x - start.x), start.y + 2 / 3 * (control.y - start.y))
                let c2 = Point(end.x + 2 / 3 * (control.x - end.x), end.y + 2 / 3 * (control.y - end.y))
                if vertices.isEmpty {
                    vertices = [.zero]
                    ins = [.zero]
                    outs = [.zero]
                }
                outs[outs.count - 1] = Point(c1.x - start.x, c1.y - start.y)
                vertices.append(end)
                ins.append(Point(c2.x - end.x, c2.y - end.y))
                outs.append(.zero)
            case .cubic(let a, let b, let p):
                let start = vertices.last ?? .zero
                let end = local(p)
                if vertices.isEmpty {
                    vertices = [.zero]
                    ins = [.zero]
                    outs = [.zero]
                }
                let c1 = local(a)
                let c2 = local(b)
                outs[outs.count - 1] = Point(c1.x - start.x, c1.y - start.y)
                vertices.append(end)
                ins.append(Point(c2.x - end.x, c2.y - end.y))
                outs.append(.zero)
            case .close:
                closed = true
                let start = vertices.first
                flush()
                // A new subpath after a close starts where the closed one did.
                if let start {
                    vertices = [start]
                    ins = [.zero]
                    outs = [.zero]
                }
            }
        }
        if vertices.count > 1 || closed { flush() }
        return result
    }

    /// The shapes of a layer: its content (a path's stroke over its fill) over its box.
    func content(_ position: Int) -> [JSONValue] {
        let layer = scene.layers[position]
        var items: [JSONValue] = []
        if layer.type == .shape, let path = layer.path {
            let subpaths = Self.shapes(path, origin: layer.boundsOrigin)
            let lineCap: Double = ["round": 2, "square": 3][layer.lineCap] ?? 1
            let lineJoin: Double = ["round": 2, "bevel": 3][layer.lineJoin] ?? 1
            let stroke: JSONValue = .object(
                JSONObject([
                    ("ty", "st"), ("c", color(position, .stroke)),
                    ("o", property(position, .stroke, { [$0[3] * 100] }, scalar: true)),
                    ("w", property(position, .lineWidth, { $0 }, scalar: true)), ("lc", .number(lineCap)),
                    ("lj", .number(lineJoin)), ("ml", 10),
                ]))
            let trim: JSONValue = .object(
                JSONObject([
                    ("ty", "tm"), ("s", property(position, .trim, { [$0[0] * 100] }, scalar: true)),
                    ("e", property(position, .trim, { [$0[1] * 100] }, scalar: true)), ("o", Self.staticValue(0)),
                    ("m", 2),
                ]))
            if everSeen(position, .stroke) { items.append(Self.group("stroke", subpaths + [trim, stroke])) }
            if everSeen(position, .fill) { items.append(Self.group("fill", subpaths + [fill(position, .fill)])) }
        }
        if layer.type == .text {
            // Text as the outlines of the glyphs choreo sets (a player has no fonts of its own),
            // one group per string the layer shows, each opaque while it is the one shown.
            for (index, string) in layer.strings.enumerated().reversed() {
                guard let outline = textOutline(position, string) else { continue }
                let shown = (0..<scene.frameCount).map { frame in
                    layer.stringAt[frame].first { $0.index == index }?.alpha ?? 0
                }
                let opacity: JSONValue
                if shown.allSatisfy({ $0 == 1 }) {
                    opacity = property(position, .foreground, { [$0[3] * 100] }, scalar: true)
                } else {
                    // Hold keyframes where a string comes and goes at once; linear through a
                    // cross-dissolve.
                    let dissolving = shown.contains { $0 > 0 && $0 < 1 }
                    opacity = keyframed(
                        (0..<scene.frameCount).map { frame in
                            (Double(frame), [shown[frame] * (layer.value(.foreground, frame: frame).last ?? 1) * 100])
                        }, { Self.n($0[0]) },
                        hold: !dissolving && model.keyframes[position][Channel.foreground.rawValue] == nil)
                }
                let fill: JSONValue = .object(
                    JSONObject([
                        ("ty", "fl"), ("c", color(position, .foreground)),
                        ("o", opacity), ("r", 1),
                    ]))
                items.append(Self.group("text \(index)", Self.shapes(outline, origin: layer.boundsOrigin) + [fill]))
            }
        }
        let rectangle: JSONValue = .object(
            JSONObject([
                ("ty", "rc"), ("d", 1), ("s", property(position, .size, { $0 })),
                ("p", property(position, .size, { [$0[0] / 2, $0[1] / 2] })),
                ("r", property(position, .cornerRadius, { $0 }, scalar: true)),
            ]))
        if everSeen(position, .background) {
            items.append(Self.group("background", [rectangle, fill(position, .background)]))
        }
        return items
    }

    /// The outlines of a text layer's glyphs (nil where Pango cannot be loaded), laid out under
    /// the layer's map to the stage's pixels at frame 0 as choreo's pictures lay them out: Pango
    /// rounds the advances to the pixels it draws in, so outlines set at 1 point a pixel and
    /// scaled by 2 were wider than the picture's text by up to a pixel a glyph (a mean 4 levels
    /// off over a scaled label in rlottie and ThorVG alike). A map that changes keeps frame
    /// 0's layout.
    func textOutline(_ position: Int, _ string: String) -> BezierPath? {
        guard case .success = CairoCanvas.library else { return nil }
        let layer = scene.layers[position]
        return CairoCanvas.textOutline(
            string, fontSize: layer.fontSize, width: layer.value(.size, frame: 0).first ?? 0,
            alignment: layer.alignment, linear: model.textLinear(position))
    }

    /// A border's rectangle, inset by half its width, stroked.
    func border(_ position: Int) -> [JSONValue] {
        let layer = scene.layers[position]
        let changing: [Channel] = [.size, .borderWidth, .cornerRadius]
        func inset(_ frame: Int) -> (size: [Double], width: Double, radius: Double) {
            let size = Array(layer.value(.size, frame: frame))
            let width = layer.value(.borderWidth, frame: frame).first ?? 0
            let w = min(width, min(abs(size[0]), abs(size[1])) / 2)
            let radius = max(0, (layer.value(.cornerRadius, frame: frame).first ?? 0) - w / 2)
            return ([size[0] - w, size[1] - w], w, radius)
        }
        let rectangle: JSONValue = .object(
            JSONObject([
                ("ty", "rc"), ("d", 1), ("s", everyFrame(position, changing: changing, { inset($0).size })),
                (
                    "p",
                    everyFrame(
                        position, changing: [.size],
                        { frame in
                            let size = Array(layer.value(.size, frame: frame))
                            return [size[0] / 2, size[1] / 2]
                        })
                ),
                ("r", everyFrame(position, changing: changing, { [inset($0).radius] }, scalar: true)),
            ]))
        let stroke: JSONValue = .object(
            JSONObject([
                ("ty", "st"), ("c", color(position, .borderColor)),
                ("o", property(position, .borderColor, { [$0[3] * 100] }, scalar: true)),
                ("w", everyFrame(position, changing: changing, { [inset($0).width] }, scalar: true)), ("lc", 1),
                ("lj", 1), ("ml", 10),
            ]))
        return [Self.group("border", [rectangle, stroke])]
    }

    // MARK: Shadows

    /// A layer's shadow as Lottie's drop-shadow layer effect (`ty` 25, After Effects' "Drop
    /// Shadow", lottie-ios's and lottie-android's `DropShadowEffect`): its colour, its opacity
    /// (0…255: `shadowOpacity` times the colour's alpha), its direction (degrees clockwise
    /// from up) and distance (`shadowOffset`), and its softness (four times `shadowRadius`, as
    /// a player takes a Gaussian's deviation as a quarter of it). It shadows the layer's own
    /// shapes, where Core Animation's shadows the layer with its sublayers.
    func dropShadow(_ position: Int) -> JSONValue {
        func value(_ type: Double, _ name: String, _ index: Double, _ v: JSONValue) -> JSONValue {
            .object(
                JSONObject([
                    ("ty", .number(type)), ("nm", .string(name)), ("mn", .string("ADBE Drop Shadow-000\(Int(index))")),
                    ("ix", .number(index)), ("v", v),
                ]))
        }
        let direction = property(
            position, .shadowOffset, { [atan2($0[0], -$0[1]) * 180 / Double.pi] }, scalar: true)
        let distance = property(
            position, .shadowOffset, { [($0[0] * $0[0] + $0[1] * $0[1]).squareRoot()] }, scalar: true)
        return .object(
            JSONObject([
                ("ty", 25), ("nm", "Drop Shadow"), ("mn", "ADBE Drop Shadow"), ("ix", 1), ("en", 1), ("np", 8),
                (
                    "ef",
                    .array([
                        value(2, "Shadow Color", 1, color(position, .shadowColor)),
                        value(0, "Opacity", 2, property(position, .shadowColor, { [$0[3] * 255] }, scalar: true)),
                        value(0, "Direction", 3, direction), value(0, "Distance", 4, distance),
                        value(0, "Softness", 5, property(position, .shadowRadius, { [$0[0] * 4] }, scalar: true)),
                        value(7, "Shadow Only", 6, Self.staticValue(0)),
                    ])
                ),
            ]))
    }

    // MARK: masksToBounds

    /// The superlayers (positions in the scene's layers, nearest first) that clip layer
    /// `position` by their `masksToBounds`.
    func clippingAncestors(_ position: Int) -> [Int] {
        var result: [Int] = []
        var parent = scene.layers[position].parent
        while parent >= 0, result.count <= scene.layers.count {
            let slot = scene.slot[parent]
            guard slot >= 0 else { break }
            if scene.layers[slot].masksToBounds { result.append(slot) }
            parent = scene.layers[slot].parent
        }
        return result
    }

    /// Layer `position`'s masks, one per clipping superlayer: its rounded box, in the layer's
    /// own space, the first added and the others intersected (Lottie's parenting carries the
    /// transform, not the clip). The box follows the layers between them frame by frame where
    /// any of them moves, turns or scales, or the box itself changes.
    func clipMasks(_ position: Int) -> [JSONValue] {
        let clips = clippingAncestors(position)
        guard !clips.isEmpty else { return [] }
        let moving: [Channel] = [.translate, .rotate, .scale, .skew, .anchor, .matrix]
        return clips.enumerated().map { index, clip in
            // The layers whose maps lie between this one and the clip.
            var chain: [Int] = []
            var current = position
            while current != clip {
                chain.append(current)
                current = scene.slot[scene.layers[current].parent]
            }
            let changing =
                chain.contains { layer in moving.contains { model.keyframes[layer][$0.rawValue] != nil } }
                || [Channel.size, .cornerRadius].contains { model.keyframes[clip][$0.rawValue] != nil }
            func shape(_ frame: Int) -> JSONValue {
                // From the clip's box to this layer's: the inverse of this layer's chain.
                var map: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
                for layer in chain { map = Planar.then(map, model.localMap(layer, at: Double(frame))) }
                let size = Array(scene.layers[clip].value(.size, frame: frame))
                let radius = scene.layers[clip].value(.cornerRadius, frame: frame).first ?? 0
                return Self.roundedBox(size: size, radius: radius, through: Planar.inverse(map))
            }
            let path: JSONValue =
                changing
                ? .object(
                    JSONObject([
                        ("a", 1),
                        (
                            "k",
                            .array(
                                (0..<scene.frameCount).map { frame in
                                    var key = JSONObject([("t", .number(Double(frame))), ("s", .array([shape(frame)]))])
                                    if frame < scene.frameCount - 1 {
                                        key["o"] = .object(JSONObject([("x", [0]), ("y", [0])]))
                                        key["i"] = .object(JSONObject([("x", [1]), ("y", [1])]))
                                    }
                                    return .object(key)
                                })
                        ),
                    ]))
                : Self.staticValue(shape(0))
            return .object(
                JSONObject([
                    ("inv", false), ("mode", .string(index == 0 ? "a" : "i")), ("pt", path),
                    ("o", Self.staticValue(100)),
                    ("x", Self.staticValue(0)), ("nm", .string(scene.layers[clip].id + " bounds")),
                ]))
        }
    }

    /// A box from 0, 0 to `size` with corners of `radius` (clamped to half the shorter side),
    /// each corner's arc a cubic with handles 0.5523 of the radius along the sides, through a
    /// planar map (an affine map takes a Bézier's points to the mapped curve's), as a Lottie
    /// path value.
    static func roundedBox(size: [Double], radius: Double, through map: [Double]) -> JSONValue {
        let w = size[0]
        let h = size[1]
        let r = max(0, min(radius, min(abs(w), abs(h)) / 2))
        let k = r * (1 - 0.552_284_749_8)
        func p(_ x: Double, _ y: Double) -> Point { Planar.apply(map, Point(x, y)) }
        var box = BezierPath()
        guard r > 0 else {
            box.move(to: p(0, 0))
            box.line(to: p(w, 0))
            box.line(to: p(w, h))
            box.line(to: p(0, h))
            box.close()
            return paths(box, origin: .zero)[0]
        }
        box.move(to: p(r, 0))
        box.line(to: p(w - r, 0))
        box.cubic(to: p(w, r), control1: p(w - k, 0), control2: p(w, k))
        box.line(to: p(w, h - r))
        box.cubic(to: p(w - r, h), control1: p(w, h - k), control2: p(w - k, h))
        box.line(to: p(r, h))
        box.cubic(to: p(0, h - r), control1: p(k, h), control2: p(0, h - k))
        box.line(to: p(0, r))
        box.cubic(to: p(r, 0), control1: p(0, k), control2: p(k, 0))
        box.close()
        return paths(box, origin: .zero)[0]
    }

    func document(report: FidelityReport) -> JSONValue {
        // The frames ip … op − 1 are shown; a repeating scene's last frame is its first again, so
        // a player looping from op back to ip is seamless (its keyframe at op − 1 … op is kept).
        // Where something before the repeating part does not repeat, ip is where the repeating
        // part starts: the players that loop a file loop ip … op, and count its frames from ip.
        let loop = scene.loop?.period != nil ? scene.loop : nil
        let frames = Double(scene.frameCount - (loop != nil ? 1 : 0))
        let first = loop.map { ($0.start * scene.fps).rounded() } ?? 0
        // Lottie's layers are listed top first; choreo's drawing order is bottom first, a
        // layer's border after its sublayers.
        var drawing: [(position: Int, border: Bool)] = []
        var children: [Int: [Int]] = [:]
        for (position, layer) in scene.layers.enumerated() {
            children[layer.parent >= 0 ? scene.slot[layer.parent] : -1, default: []].append(position)
        }
        func visit(_ position: Int) {
            drawing.append((position, false))
            for child in children[position] ?? [] { visit(child) }
            if scene.layers[position].uses(.borderWidth) { drawing.append((position, true)) }
        }
        for root in children[-1] ?? [] { visit(root) }
        // Indices: each layer at 2 + its position, and borders after.
        var borderIndex = Double(scene.layers.count + 2)
        var layers: [JSONValue] = []
        for (position, isBorder) in drawing.reversed() {
            let layer = scene.layers[position]
            let parent: Double? = layer.parent >= 0 ? Double(scene.slot[layer.parent] + 2) : nil
            var object = JSONObject([
                ("ddd", 0), ("ty", 4), ("sr", 1), ("ao", 0), ("ip", 0), ("op", .number(frames)), ("st", 0), ("bm", 0),
            ])
            if isBorder {
                object["ind"] = .number(borderIndex)
                borderIndex += 1
                object["nm"] = .string(layer.id + " border")
                object["parent"] = .number(Double(position + 2))
                // Parented to its layer for the transform; the opacity is the layer's group's.
                object["ks"] = .object(
                    JSONObject([
                        ("a", Self.staticValue([0, 0])), ("p", Self.staticValue([0, 0])),
                        ("s", Self.staticValue([100, 100])), ("r", Self.staticValue(0)),
                        ("o", property(position, .groupOpacity, { [$0[0] * 100] }, scalar: true)),
                    ]))
                object["shapes"] = .array(border(position))
            } else {
                object["ind"] = .number(Double(position + 2))
                object["nm"] = .string(layer.id)
                if let parent { object["parent"] = .number(parent) }
                object["ks"] = transform(position)
                object["shapes"] = .array(content(position))
                if layer.uses(.shadowColor) { object["ef"] = .array([dropShadow(position)]) }
            }
            // Clipped by superlayers' `masksToBounds`: their boxes as masks (a border is in
            // its layer's space).
            let masks = clipMasks(position)
            if !masks.isEmpty {
                object["hasMask"] = true
                object["masksProperties"] = .array(masks)
            }
            layers.append(.object(object))
        }
        if let background = scene.background, background.alpha > 0 {
            // The canvas's background: a rectangle under everything, in pixels.
            let rectangle: JSONValue = .object(
                JSONObject([
                    ("ty", "rc"), ("d", 1),
                    ("s", Self.staticValue([Self.n(scene.size.x * scene.scale), Self.n(scene.size.y * scene.scale)])),
                    (
                        "p",
                        Self.staticValue([
                            Self.n(scene.size.x * scene.scale / 2), Self.n(scene.size.y * scene.scale / 2),
                        ])
                    ),
                    ("r", Self.staticValue(0)),
                ]))
            let fill: JSONValue = .object(
                JSONObject([
                    ("ty", "fl"),
                    (
                        "c",
                        Self.staticValue([
                            Self.colorComponent(background.red), Self.colorComponent(background.green),
                            Self.colorComponent(background.blue), 1,
                        ])
                    ),
                    ("o", Self.staticValue(Self.n(background.alpha * 100))), ("r", 1),
                ]))
            layers.append(
                .object(
                    JSONObject([
                        ("ddd", 0), ("ind", .number(borderIndex)), ("ty", 4), ("nm", "canvas"), ("sr", 1),
                        (
                            "ks",
                            .object(
                                JSONObject([
                                    ("a", Self.staticValue([0, 0])), ("p", Self.staticValue([0, 0])),
                                    ("s", Self.staticValue([100, 100])), ("r", Self.staticValue(0)),
                                    ("o", Self.staticValue(100)),
                                ]))
                        ),
                        ("ao", 0), ("ip", 0), ("op", .number(frames)), ("st", 0), ("bm", 0),
                        ("shapes", .array([Self.group("canvas", [rectangle, fill])])),
                    ])))
        }
        var markers: [JSONValue] = []
        if let loop, loop.start > 0 {
            // Where the repeating part starts, through the end: the file's frames, for a player
            // that plays a marker's segment.
            markers.append(
                .object(
                    JSONObject([
                        ("cm", "loop"), ("tm", Self.n(loop.start * scene.fps)),
                        ("dr", Self.n((loop.end - loop.start) * scene.fps)),
                    ])))
        }
        return .object(
            JSONObject([
                ("v", "5.7.0"), ("fr", .number(scene.fps)), ("ip", .number(first)), ("op", .number(frames)),
                ("w", .number((scene.size.x * scene.scale).rounded(.up))),
                ("h", .number((scene.size.y * scene.scale).rounded(.up))), ("nm", .string(sceneName ?? "choreo")),
                ("ddd", 0), ("assets", []), ("layers", .array(layers)), ("markers", .array(markers)),
                ("choreo", report.json),
            ]))
    }
}
