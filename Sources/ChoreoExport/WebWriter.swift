import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoRaster
import Foundation

/// Writes a model for the web: CSS `@keyframes` with the `animation-*` properties that play
/// them, the same keyframes as Web Animations JSON (`element.animate(keyframes, timing)`), and
/// a self-contained HTML page that plays them.
///
/// Each layer is an absolutely positioned element in its parent's (a `CALayer` in its
/// superlayer), its box the layer's bounds, its map into the parent as CSS's individual
/// `translate`, `rotate` and `scale` properties with `transform-origin: 0 0` (and a `skewX` in
/// `transform` where the map has a skew, a `matrix3d` where it has perspective). A border is an
/// element of its own after the sublayers (Core Animation draws it over them); a shape layer's
/// path is an inline SVG, its stroke trimmed by a dash over `pathLength="1"`.
struct WebWriter {
    let model: ExportModel
    let sceneName: String?
    var scene: BakedScene { model.scene }

    /// The element id of a layer, by its position in the model: ids of the scene may hold any
    /// character, so the element ids are made (the scene's id is in `data-layer`).
    static func elementID(_ position: Int) -> String { "l\(position)" }

    /// CSS's duration of the export: its last frame's time.
    var duration: Double { max(scene.duration, 1 / scene.fps) }

    // MARK: Values as CSS

    static func number(_ value: Double, decimals: Double = 10_000) -> String {
        let r = (value * decimals).rounded() / decimals
        if r == 0 { return "0" }
        if r == r.rounded() && abs(r) < 1e15 { return String(Int(r)) }
        return String(r)
    }

    static func px(_ value: Double) -> String { value == 0 ? "0" : number(value) + "px" }

    static func color(_ lanes: ArraySlice<Double>) -> String {
        let values = Array(lanes)
        func channel(_ v: Double) -> String { number(max(0, min(1, v)) * 255, decimals: 100) }
        return
            "rgba(\(channel(values[0])), \(channel(values[1])), \(channel(values[2])), \(number(max(0, min(1, values[3])))))"
    }

    /// The colour channels, each written as four registered custom properties (`@property`,
    /// `<number>`, not inherited: `--choreo-background-r`, `-g`, `-b`, `-a`, 0…1) that the
    /// colour property reads as `color(srgb …)`: a browser keeps and interpolates numbers
    /// exactly, component by component and unpremultiplied as Core Animation does, where it
    /// rounds a legacy `rgba()` keyframe to 8 bits (and a spring's `linear()` run, whose
    /// progress leaves 0…1, then amplifies the rounding), and interpolates `color(srgb …)`
    /// keyframes in Oklab.
    static let colorProperties: [(channel: Channel, name: String, property: String)] = [
        (.background, "--choreo-background", "background-color"), (.borderColor, "--choreo-border", "border-color"),
        (.fill, "--choreo-fill", "fill"), (.stroke, "--choreo-stroke", "stroke"),
        (.foreground, "--choreo-color", "color"),
    ]

    /// A colour channel's value as its four custom properties (``colorProperties``).
    static func colorLanes(_ channel: Channel, _ lanes: ArraySlice<Double>) -> [(String, String)] {
        guard let name = colorProperties.first(where: { $0.channel == channel })?.name else { return [] }
        let values = Array(lanes)
        return zip(["r", "g", "b", "a"], values).map { ("\(name)-\($0)", number(max(0, min(1, $1)), decimals: 1e6)) }
    }

    /// The colour property that reads a channel's custom properties, as a declaration.
    static func colorReference(_ channel: Channel) -> (String, String) {
        let entry = colorProperties.first { $0.channel == channel }!
        let n = entry.name
        return (entry.property, "color(srgb var(\(n)-r) var(\(n)-g) var(\(n)-b) / var(\(n)-a))")
    }

    /// The `@property` rules that register the colours' custom properties.
    static var colorRegistrations: [(name: String, rule: String)] {
        colorProperties.flatMap { entry in
            ["r", "g", "b", "a"].map { lane in
                (
                    "\(entry.name)-\(lane)",
                    "@property \(entry.name)-\(lane) { syntax: \"<number>\"; inherits: false; initial-value: 0 }"
                )
            }
        }
    }

    /// The CSS declarations of one channel's value.
    func declarations(_ channel: Channel, _ v: ArraySlice<Double>, layer: BakedLayer) -> [(String, String)] {
        let v = Array(v)
        switch channel {
        case .translate:
            // About the anchor point (the element's `transform-origin`, which stays put).
            let a = layer.value(.anchor, frame: 0)
            return [("translate", "\(Self.px(v[0] - a[a.startIndex])) \(Self.px(v[1] - a[a.startIndex + 1]))")]
        case .corner: return [("translate", "\(Self.px(v[0])) \(Self.px(v[1]))")]
        case .rotate:
            guard layer.offsetPath != nil else { return [("rotate", "\(Self.number(v[0], decimals: 1e7))rad")] }
            // Along a path the offset comes before the turn, scale and skew: one `transform`
            // after it (its scale and skew hold still).
            let scale = layer.value(.scale, frame: 0)
            let skew = layer.value(.skew, frame: 0)[layer.value(.skew, frame: 0).startIndex]
            var transform = "rotate(\(Self.number(v[0], decimals: 1e7))rad)"
            transform +=
                " scale(\(Self.number(scale[scale.startIndex], decimals: 1e6)), \(Self.number(scale[scale.startIndex + 1], decimals: 1e6)))"
            if skew != 0 { transform += " skewX(\(Self.number(atan(skew), decimals: 1e7))rad)" }
            return [("transform", transform)]
        case .scale: return [("scale", "\(Self.number(v[0], decimals: 1e6)) \(Self.number(v[1], decimals: 1e6))")]
        case .skew: return [("transform", "skewX(\(Self.number(atan(v[0]), decimals: 1e7))rad)")]
        case .matrix:
            let m = v
            let parts = [m[0], m[1], 0, m[2], m[3], m[4], 0, m[5], 0, 0, 1, 0, m[6], m[7], 0, m[8]]
            return [("transform", "matrix3d(\(parts.map { Self.number($0, decimals: 1e7) }.joined(separator: ", ")))")]
        case .size: return [("width", Self.px(v[0])), ("height", Self.px(v[1]))]
        case .opacity: return [("opacity", Self.number(v[0]))]
        case .background: return Self.colorLanes(.background, v[...])
        case .cornerRadius: return [("border-radius", Self.px(v[0]))]
        case .shadowColor, .shadowOffset, .shadowRadius:
            // One box-shadow carries the three (``shadow(_:frame:)``).
            return []
        case .fill: return Self.colorLanes(.fill, v[...])
        case .stroke: return Self.colorLanes(.stroke, v[...])
        case .lineWidth: return [("stroke-width", Self.number(v[0]))]
        case .trim:
            let length = max(0, v[1] - v[0])
            return [
                ("stroke-dasharray", "\(Self.number(length, decimals: 1e6)) 2"),
                ("stroke-dashoffset", Self.number(-v[0], decimals: 1e6)),
            ]
        case .foreground: return Self.colorLanes(.foreground, v[...])
        case .anchor:
            return [("transform-origin", "\(Self.px(v[0])) \(Self.px(v[1]))")]
        case .blur:
            // CSS's blur() takes the Gaussian's deviation; choreo's blur of a radius has about
            // half of it (as a shadow's radius does).
            return [("filter", "blur(\(Self.px(v[0] / 2)))")]
        case .borderWidth, .borderColor, .groupOpacity: return []
        }
    }

    /// The channels that style a layer's own element, where each is written.
    func elementChannels(_ layer: BakedLayer) -> [Channel] {
        // About the anchor point where it stays put in the box, about the corner where it moves.
        var channels: [Channel] =
            layer.projective
            ? [.matrix] : layer.anchorMoves ? [.corner, .rotate, .scale] : [.anchor, .translate, .rotate, .scale]
        if layer.offsetPath != nil {
            // The turn carries the scale and skew (``declarations(_:_:layer:)``).
            channels = [.anchor, .translate, .rotate]
        } else if !layer.projective && layer.uses(.skew) {
            channels.append(.skew)
        }
        channels += [.size, .opacity, .background]
        if layer.uses(.cornerRadius) { channels.append(.cornerRadius) }
        if layer.uses(.blur) { channels.append(.blur) }
        return channels
    }

    /// A box-shadow for frame `frame` of a layer: offset, a blur twice the radius (CSS's blur
    /// is twice the Gaussian's deviation, as `shadowRadius` is about one), the colour.
    func shadow(_ layer: BakedLayer, frame: Int) -> String {
        let color = layer.value(.shadowColor, frame: frame)
        let offset = Array(layer.value(.shadowOffset, frame: frame))
        let radius = layer.value(.shadowRadius, frame: frame).first ?? 0
        return "\(Self.px(offset[0])) \(Self.px(offset[1])) \(Self.px(radius * 2)) \(Self.color(color))"
    }

    // MARK: Keyframes

    /// One animation of a layer: a name, the element it plays on, and its keyframes as
    /// (offset, declarations).
    struct Animation {
        let name: String
        let element: String
        let keyframes: [(offset: Double, declarations: [(String, String)])]
        /// Per keyframe, the easing to the next one (`cubic-bezier()`), nil for linear.
        var easings: [String?] = []
        /// A repeating animation's own timing; nil for one over the whole scene, linear
        /// between its keyframes, filling both ways.
        var repeating: Repeat?
        /// Added to the value beneath (CSS `animation-composition: add`, Web Animations
        /// `composite: "add"`) instead of replacing it.
        var composite = false

        func easing(_ index: Int) -> String? { index < easings.count ? easings[index] : nil }
    }

    /// A `repeatCount` or `repeatDuration` as CSS says it: one pass from its first value to its
    /// second, `delay` seconds into the scene, `duration` seconds a pass, `iterations` passes
    /// (a fraction for a last pass cut short), `alternate` for `autoreverses` (every other pass
    /// backwards, its curve applied to the directed progress as Core Animation mirrors it),
    /// not filling: outside it the whole-scene animation of the property shows.
    struct Repeat: Equatable {
        let delay: Double
        let duration: Double
        let iterations: Double
        let alternate: Bool
        let easing: String
        /// `none`, or `forwards` for an animation still adding at the end.
        var fill = "none"
    }

    /// Runs of eased keyframes that repeat one pass (`first` to `last`, keyframe indices): the
    /// same curve and values each pass, back and forth (each pass the way back of the one
    /// before, its curve mirrored) or over again (a step back between passes), at least two
    /// whole passes, and a last pass cut short where it plays the curve's beginning.
    /// A run's pass goes from keyframe `first`'s value to the next one's.
    static func repeatRuns(_ keys: Keyframes) -> [(first: Int, last: Int, repeat: Repeat)] {
        let count = keys.frames.count
        func close(_ a: Int, _ b: Int) -> Bool {
            zip(keys.values(a), keys.values(b)).allSatisfy { abs($0 - $1) <= keys.tolerance / 2 }
        }
        func same(_ a: UnitBezier?, _ b: UnitBezier?) -> Bool {
            guard let a, let b else { return false }
            return abs(a.x1 - b.x1) < 1e-6 && abs(a.y1 - b.y1) < 1e-6 && abs(a.x2 - b.x2) < 1e-6
                && abs(a.y2 - b.y2) < 1e-6
        }
        // A pass that ends where its animation is removed ends 1/2,048 of a frame early
        // (``Keyframes``): still a whole pass.
        let slack = 1.0 / 1_024
        // The fraction of a pass that a last pass `length` long plays, where its curve is the
        // beginning of the whole pass's (to its end, or to 1/2,048 of a frame past it).
        func cut(_ length: Double, of pass: Double, _ played: UnitBezier?, _ whole: UnitBezier) -> Double? {
            for fraction in [length / pass, (length + 1.0 / 2_048) / pass] where fraction < 1 - slack / pass {
                if let piece = whole.piece(from: 0, to: fraction), same(played, piece) { return fraction }
            }
            return nil
        }
        var runs: [(first: Int, last: Int, repeat: Repeat)] = []
        func found(_ start: Int, _ end: Int, _ curve: UnitBezier, pass: Double, passes: Double, alternate: Bool) {
            let timing = Repeat(
                delay: keys.frames[start], duration: pass, iterations: passes, alternate: alternate,
                easing: cubicBezier(curve) ?? "linear")
            runs.append((start, end, timing))
        }
        var start = 0
        while start + 1 < count {
            guard let curve = keys.curve(start) else {
                start += 1
                continue
            }
            let pass = keys.frames[start + 1] - keys.frames[start]
            // Back and forth: each pass from where the one before ended.
            var end = start + 1
            var passes = 1.0
            while end + 1 < count, let next = keys.curve(end) {
                let forwards = Int(passes) % 2 == 0
                let from = forwards ? start : start + 1
                let to = forwards ? start + 1 : start
                let expected = forwards ? curve : curve.mirrored
                let length = keys.frames[end + 1] - keys.frames[end]
                guard close(end, from) else { break }
                if abs(length - pass) <= slack && close(end + 1, to) && same(next, expected) {
                    passes += 1
                    end += 1
                    continue
                }
                // A last pass cut short.
                if let fraction = cut(length, of: pass, next, expected) {
                    passes += fraction
                    end += 1
                }
                break
            }
            if passes >= 2 {
                found(start, end, curve, pass: pass, passes: passes, alternate: true)
                start = end
                continue
            }
            // Over again: a pass, a step back to its first value, the same pass.
            var period = 0.0
            var over = 0.0
            end = start
            while end + 1 < count, keys.curve(end) != nil, close(end, start) {
                let length = keys.frames[end + 1] - keys.frames[end]
                let whole = same(keys.curve(end), curve) && abs(length - pass) <= slack && close(end + 1, start + 1)
                if whole, end + 2 < count, keys.holds[end + 1], close(end + 2, start) {
                    period = keys.frames[end + 2] - keys.frames[end]
                    over += 1
                    end += 2
                    continue
                }
                if over >= 1 && whole {
                    // The last whole pass, which no step back follows at once.
                    over += 1
                    end += 1
                } else if over >= 1, let fraction = cut(length, of: period, keys.curve(end), curve) {
                    over += fraction
                    end += 1
                }
                break
            }
            if over >= 2 {
                found(start, end, curve, pass: period, passes: over, alternate: false)
                start = end
                continue
            }
            start += 1
        }
        return runs
    }

    /// Each keyframe's easing to the next: `steps(1, end)` where the value changes at once,
    /// its timing curve, or nil for linear.
    static func easings(_ keys: Keyframes) -> [String?] {
        keys.frames.indices.map { keys.holds[$0] ? "steps(1, end)" : cubicBezier(keys.curve($0)) }
    }

    /// The keyframes a web player needs, each with its easing to the next: a run of three or
    /// more straight stretches along one line (every lane moving in proportion, as a spring's
    /// samples do) is one keyframe with CSS `linear()` easing whose stops are the run's
    /// samples, its progress to a millionth at their places (a percentage of the run), up to
    /// 256 stretches a run; the others as they are (``easings(_:)``).
    static func foldedLinearRuns(_ keys: Keyframes) -> [(index: Int, easing: String?)] {
        let count = keys.frames.count
        let easings = easings(keys)
        var result: [(index: Int, easing: String?)] = []
        var start = 0
        while start < count {
            // The longest run of straight stretches from `start` along one line.
            var end = start
            while end + 1 < count && end - start < 256 && easings[end] == nil && !keys.holds[end]
                && Self.proportional(keys, from: start, through: end + 1)
            {
                end += 1
            }
            if end - start >= 3 {
                let a = Array(keys.values(start))
                let b = Array(keys.values(end))
                let lane = (0..<keys.width).max { abs(b[$0] - a[$0]) < abs(b[$1] - a[$1]) } ?? 0
                let span = keys.frames[end] - keys.frames[start]
                var stops: [String] = ["0"]
                for index in (start + 1)..<end {
                    let progress =
                        (keys.values(index)[keys.values(index).startIndex + lane] - a[lane]) / (b[lane] - a[lane])
                    let place = (keys.frames[index] - keys.frames[start]) / span * 100
                    stops.append("\(number(progress, decimals: 1e6)) \(number(place, decimals: 1e6))%")
                }
                stops.append("1")
                result.append((start, "linear(\(stops.joined(separator: ", ")))"))
                start = end
            } else {
                result.append((start, easings[start]))
                start += 1
            }
        }
        return result
    }

    /// Whether kept samples `from` through `through` lie along one line: every lane's change
    /// from the first is the same fraction of its whole change, to the channel's tolerance.
    static func proportional(_ keys: Keyframes, from: Int, through: Int) -> Bool {
        let a = Array(keys.values(from))
        let b = Array(keys.values(through))
        guard let lane = (0..<keys.width).max(by: { abs(b[$0] - a[$0]) < abs(b[$1] - a[$1]) }),
            abs(b[lane] - a[lane]) > keys.tolerance
        else { return false }
        for index in (from + 1)..<through {
            let v = Array(keys.values(index))
            let progress = (v[lane] - a[lane]) / (b[lane] - a[lane])
            for other in 0..<keys.width
            where abs(a[other] + (b[other] - a[other]) * progress - v[other]) > keys.tolerance / 2 {
                return false
            }
        }
        return true
    }

    /// A timing curve as CSS `cubic-bezier()` (nil for linear).
    static func cubicBezier(_ curve: UnitBezier?) -> String? {
        guard let curve, !curve.isIdentity else { return nil }
        let numbers = [curve.x1, curve.y1, curve.x2, curve.y2].map { number($0, decimals: 1e6) }
        return "cubic-bezier(\(numbers.joined(separator: ", ")))"
    }

    /// Every animation of the model: per layer, one per changing channel of each element.
    func animations() -> [Animation] {
        var all: [Animation] = []
        let last = Double(max(1, scene.frameCount - 1))
        for (position, layer) in scene.layers.enumerated() {
            let id = Self.elementID(position)
            func add(_ channel: Channel, element: String, suffix: String) {
                guard let keys = model.keyframes[position][channel.rawValue] else { return }
                // Repeating passes as animations of their own; the whole-scene animation keeps
                // their first and last keyframes, a straight line between that they cover.
                let runs = Self.repeatRuns(keys)
                var inside = Set<Int>()
                var starts = Set<Int>()
                for run in runs {
                    starts.insert(run.first)
                    for index in (run.first + 1)..<run.last { inside.insert(index) }
                }
                let kept = Self.foldedLinearRuns(keys).filter { !inside.contains($0.index) }.map {
                    starts.contains($0.index) ? (index: $0.index, easing: nil) : $0
                }
                let frames = kept.map { key in
                    (
                        offset: Double(keys.frames[key.index]) / last,
                        declarations: declarations(channel, keys.values(key.index), layer: layer)
                    )
                }
                guard !(frames.first?.declarations.isEmpty ?? true) else { return }
                all.append(
                    Animation(
                        name: "\(id)-\(suffix)", element: element, keyframes: frames, easings: kept.map(\.easing)))
                for (number, run) in runs.enumerated() {
                    let timing = run.repeat
                    all.append(
                        Animation(
                            name: "\(id)-\(suffix)-r\(number)", element: element,
                            keyframes: [
                                (0, declarations(channel, keys.values(run.first), layer: layer)),
                                (1, declarations(channel, keys.values(run.first + 1), layer: layer)),
                            ],
                            repeating: Repeat(
                                delay: timing.delay / scene.fps, duration: timing.duration / scene.fps,
                                iterations: timing.iterations, alternate: timing.alternate, easing: timing.easing)))
                }
            }
            for channel in elementChannels(layer) { add(channel, element: id, suffix: "\(channel)") }
            if let keys = model.distances[position] {
                // How far along its path.
                let frames = keys.frames.indices.map { index in
                    (
                        offset: Double(keys.frames[index]) / last,
                        declarations: [("offset-distance", Self.px(keys.values(index).first ?? 0))]
                    )
                }
                all.append(
                    Animation(name: "\(id)-offset", element: id, keyframes: frames, easings: Self.easings(keys)))
            }
            all += addedAnimations(position)
            if layer.uses(.shadowColor)
                && [Channel.shadowColor, .shadowOffset, .shadowRadius].contains(where: {
                    model.keyframes[position][$0.rawValue] != nil
                })
            {
                // The shadow's three channels change together as one box-shadow, every frame.
                let frames = (0..<scene.frameCount).map { frame in
                    (offset: Double(frame) / last, declarations: [("box-shadow", shadow(layer, frame: frame))])
                }
                all.append(Animation(name: "\(id)-shadow", element: id, keyframes: frames))
            }
            if layer.uses(.borderWidth) {
                for channel in [Channel.borderWidth, .borderColor, .cornerRadius] {
                    guard let keys = model.keyframes[position][channel.rawValue] else { continue }
                    let frames = keys.frames.indices.map {
                        index -> (offset: Double, declarations: [(String, String)]) in
                        let v = Array(keys.values(index))
                        let declarations: [(String, String)] =
                            switch channel {
                            case .borderWidth: [("border-width", Self.px(v[0]))]
                            case .borderColor: Self.colorLanes(.borderColor, v[...])
                            default: [("border-radius", Self.px(v[0]))]
                            }
                        return (Double(keys.frames[index]) / last, declarations)
                    }
                    all.append(
                        Animation(
                            name: "\(id)-border-\(channel)", element: "\(id)b", keyframes: frames,
                            easings: Self.easings(keys)))
                }
            }
            if layer.type == .shape {
                for channel in [Channel.fill, .stroke, .lineWidth, .trim] {
                    add(channel, element: "\(id)p", suffix: "\(channel)")
                }
            }
            if layer.type == .text {
                add(.foreground, element: "\(id)t", suffix: "foreground")
                // Each string shown with its alpha (a cross-dissolve's two faces), held between
                // the frames where it changes.
                for index in layer.strings.indices {
                    let alphas = Self.faceAlphas(layer, index)
                    guard alphas.contains(where: { $0 != alphas[0] }) else { continue }
                    var frames: [(offset: Double, declarations: [(String, String)])] = []
                    for frame in alphas.indices
                    where frame == 0 || frame == alphas.count - 1 || alphas[frame] != alphas[frame - 1]
                        || alphas[frame] != alphas[frame + 1]
                    {
                        frames.append((Double(frame) / last, [("opacity", Self.number(alphas[frame]))]))
                    }
                    all.append(Animation(name: "\(id)-face\(index)", element: "\(id)t\(index)", keyframes: frames))
                }
            }
        }
        return all
    }

    /// How far before a jump the value before it is held from, as a fraction of the animation
    /// (CSS merges keyframes at one offset; its percentages are written to 10⁻⁶ %).
    static let jumpOffset = 1e-8

    /// Layer `position`'s additive animations, each an animation of its own at its own times,
    /// added to the value beneath: keyframes at its keys (a jump held with `steps(1, end)`
    /// from a keyframe ``jumpOffset`` before it, as CSS merges keyframes at one offset), each
    /// eased by its curve.
    func addedAnimations(_ position: Int) -> [Animation] {
        let layer = scene.layers[position]
        let id = Self.elementID(position)
        var result: [Animation] = []
        for (number, animation) in model.added[position].enumerated() {
            let channel = animation.target(in: layer)
            guard elementChannels(layer).contains(channel), let first = animation.times.first,
                let last = animation.times.last, last > first
            else { continue }
            let length = last - first
            var keyframes: [(offset: Double, declarations: [(String, String)])] = []
            var easings: [String?] = []
            for (index, time) in animation.times.enumerated() {
                let offset = (time - first) / length
                if let previous = keyframes.last?.offset, offset <= previous + 1e-7 {
                    // A jump at its own time: the value before it reaches its keyframe a
                    // hundred-millionth of the animation earlier (the finest offset the CSS
                    // percentages write) and holds there.
                    let before = keyframes.count > 1 ? keyframes[keyframes.count - 2].offset : -1
                    keyframes[keyframes.count - 1].offset = max(offset - Self.jumpOffset, (before + offset) / 2)
                    easings[easings.count - 1] = "steps(1, end)"
                }
                keyframes.append((offset, addedDeclarations(channel, animation.values[index], layer: layer)))
                easings.append(index < animation.curves.count ? Self.cubicBezier(animation.curves[index]) : nil)
            }
            result.append(
                Animation(
                    name: "\(id)-\(channel)-a\(number)", element: id, keyframes: keyframes, easings: easings,
                    repeating: Repeat(
                        delay: first, duration: length, iterations: 1, alternate: false, easing: "linear",
                        fill: animation.addsAfterwards ? "forwards" : "none"),
                    composite: true))
        }
        return result
    }

    /// The declarations of what an added animation adds: `translate` as it is (not about the
    /// anchor), a negative width or height as `calc(0px - …)` (CSS refuses a negative length
    /// but adds one that a `calc()` makes).
    func addedDeclarations(_ channel: Channel, _ lanes: [Double], layer: BakedLayer) -> [(String, String)] {
        switch channel {
        case .translate: return declarations(.corner, lanes[...], layer: layer)
        case .size:
            func length(_ value: Double) -> String {
                Self.number(value) == "0" || value > 0 ? Self.px(value) : "calc(0px - \(Self.px(-value)))"
            }
            return [("width", length(lanes[0])), ("height", length(lanes[1]))]
        default: return declarations(channel, lanes[...], layer: layer)
        }
    }

    /// The static declarations of every element, by element id.
    func baseRules() -> [(element: String, declarations: [(String, String)])] {
        var rules: [(String, [(String, String)])] = []
        for (position, layer) in scene.layers.enumerated() {
            let id = Self.elementID(position)
            var own: [(String, String)] = []
            let channels = elementChannels(layer)
            // Turned and scaled about the anchor point (``Channel/anchor``) or the corner.
            if !channels.contains(.anchor) { own.append(("transform-origin", "0 0")) }
            for channel in channels {
                if channel == .background { own.append(Self.colorReference(.background)) }
                own += declarations(channel, layer.value(channel, frame: 0), layer: layer)
            }
            if let offset = layer.offsetPath {
                // Along its path: the anchor point on it, not turned by it.
                let anchor = layer.value(.anchor, frame: 0)
                own += [
                    ("offset-path", "path(\"\(offset.pathData)\")"),
                    (
                        "offset-anchor",
                        "\(Self.px(anchor[anchor.startIndex])) \(Self.px(anchor[anchor.startIndex + 1]))"
                    ),
                    ("offset-rotate", "0deg"),
                    ("offset-distance", Self.px(offset.samples.first ?? 0)),
                ]
            }
            if layer.uses(.shadowColor) { own.append(("box-shadow", shadow(layer, frame: 0))) }
            if layer.masksToBounds { own.append(("overflow", "hidden")) }
            rules.append((id, own))
            if layer.uses(.borderWidth) {
                let color = layer.value(.borderColor, frame: 0)
                rules.append(
                    (
                        "\(id)b",
                        [
                            ("border-width", Self.px(layer.value(.borderWidth, frame: 0).first ?? 0)),
                            Self.colorReference(.borderColor),
                            ("border-radius", Self.px(layer.value(.cornerRadius, frame: 0).first ?? 0)),
                        ] + Self.colorLanes(.borderColor, color)
                    ))
            }
            if layer.type == .shape {
                var path: [(String, String)] = [Self.colorReference(.fill), Self.colorReference(.stroke)]
                for channel in [Channel.fill, .stroke, .lineWidth, .trim] {
                    path += declarations(channel, layer.value(channel, frame: 0), layer: layer)
                }
                path += [
                    ("stroke-linecap", layer.lineCap), ("stroke-linejoin", layer.lineJoin),
                    ("stroke-miterlimit", "10"),
                ]
                rules.append(("\(id)p", path))
            }
            if layer.type == .text {
                var text: [(String, String)] = [
                    ("font-size", Self.px(layer.fontSize)), Self.colorReference(.foreground),
                ]
                text += declarations(.foreground, layer.value(.foreground, frame: 0), layer: layer)
                let alignment =
                    switch layer.alignment {
                    case "center": "center"
                    case "right": "right"
                    case "justified": "justify"
                    default: "left"
                    }
                text.append(("text-align", alignment))
                rules.append(("\(id)t", text))
                for index in layer.strings.indices {
                    rules.append(("\(id)t\(index)", [("opacity", Self.number(Self.faceAlphas(layer, index)[0]))]))
                }
            }
        }
        return rules
    }

    /// A text layer's string `index` at every frame: its alpha (0 when another is shown).
    static func faceAlphas(_ layer: BakedLayer, _ index: Int) -> [Double] {
        layer.stringAt.map { faces in faces.first { $0.index == index }?.alpha ?? 0 }
    }

    // MARK: CSS

    /// The stylesheet: the stage, each element's static style and its animations, and the
    /// keyframes; the report as a comment block at its head.
    func css(report: FidelityReport) -> String {
        var out = "/*\n"
        for line in report.commentLines { out += " * \(line.replacingOccurrences(of: "*/", with: "* /"))\n" }
        out += " *\n * Elements: #stage holds the layers as nested elements #l0, #l1, … (a sublayer inside its\n"
        out += " * superlayer's element, in drawing order); #lNb is a layer's border, #lNp its path, #lNt its text.\n"
        out += " * Scene time t is the animations' currentTime t × 1000 ms.\n */\n"
        // Whole pixels, as choreo's pictures and the Lottie file's w and h are: the canvas's
        // last part-pixel shows what lies under it.
        let stageWidth = Self.px((scene.size.x * scene.scale).rounded(.up))
        let stageHeight = Self.px((scene.size.y * scene.scale).rounded(.up))
        out +=
            "#stage { position: absolute; left: 0; top: 0; margin: 0; width: \(stageWidth); height: \(stageHeight); overflow: hidden"
        if let background = scene.background {
            out +=
                "; background: \(Self.color([background.red, background.green, background.blue, background.alpha][...]))"
        }
        out += " }\n"
        for registration in Self.colorRegistrations { out += registration.rule + "\n" }
        out +=
            "#stage > .choreo-scale { position: absolute; left: 0; top: 0; transform-origin: 0 0; scale: \(Self.number(scene.scale)) }\n"
        out +=
            "#stage .choreo-layer { position: absolute; left: 0; top: 0; box-sizing: border-box }\n"
        out +=
            "#stage .choreo-border { position: absolute; left: 0; top: 0; width: 100%; height: 100%; box-sizing: border-box; border-style: solid }\n"
        out += "#stage .choreo-path { position: absolute; overflow: visible }\n"
        out +=
            "#stage .choreo-text { position: absolute; line-height: normal; font-family: \"DejaVu Sans\", \"Noto Sans CJK SC\", sans-serif }\n"
        out +=
            "#stage .choreo-face { position: absolute; left: 0; top: 0; width: 100%; white-space: pre-wrap; overflow-wrap: break-word }\n"
        out +=
            "#stage .choreo-lines { position: absolute; left: 0; top: 0; overflow: visible; white-space: pre; fill: currentColor }\n"
        let animations = animations()
        var byElement: [String: [Animation]] = [:]
        for animation in animations { byElement[animation.element, default: []].append(animation) }
        let seconds = Self.number(duration, decimals: 1e9)
        for (element, declarations) in baseRules() {
            var list = declarations
            if let own = byElement[element] {
                func each(_ value: (Animation) -> String) -> String { own.map(value).joined(separator: ", ") }
                list.append(("animation-name", each(\.name)))
                if own.allSatisfy({ $0.repeating == nil }) {
                    list.append(("animation-duration", "\(seconds)s"))
                    list.append(("animation-timing-function", "linear"))
                    list.append(("animation-fill-mode", "both"))
                } else {
                    // A repeating pass's own timing beside the whole-scene animations'.
                    list.append(
                        (
                            "animation-duration",
                            each { "\(Self.number($0.repeating?.duration ?? duration, decimals: 1e9))s" }
                        ))
                    list.append(
                        ("animation-delay", each { "\(Self.number($0.repeating?.delay ?? 0, decimals: 1e9))s" }))
                    list.append(
                        (
                            "animation-iteration-count",
                            each { Self.number($0.repeating?.iterations ?? 1, decimals: 1e6) }
                        ))
                    list.append(
                        ("animation-direction", each { $0.repeating?.alternate == true ? "alternate" : "normal" }))
                    list.append(("animation-timing-function", each { $0.repeating?.easing ?? "linear" }))
                    list.append(("animation-fill-mode", each { $0.repeating?.fill ?? "both" }))
                }
                if own.contains(where: \.composite) {
                    list.append(("animation-composition", each { $0.composite ? "add" : "replace" }))
                }
            }
            out += "#\(element) { " + list.map { "\($0.0): \($0.1)" }.joined(separator: "; ") + " }\n"
        }
        for animation in animations {
            out += "@keyframes \(animation.name) {\n"
            for (index, frame) in animation.keyframes.enumerated() {
                let percent = Self.number(frame.offset * 100, decimals: 1e6)
                var declarations = frame.declarations
                if let easing = animation.easing(index) { declarations.append(("animation-timing-function", easing)) }
                out += "  \(percent)% { " + declarations.map { "\($0.0): \($0.1)" }.joined(separator: "; ") + " }\n"
            }
            out += "}\n"
        }
        return out
    }

    // MARK: HTML

    /// The page: the CSS above, the elements, and a script that pauses at `?t=` seconds.
    func html(report: FidelityReport) -> String {
        var out = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<title>\(Self.escape(sceneName ?? "choreo export"))</title>\n"
        out += "<style>\nhtml, body { margin: 0; padding: 0 }\n"
        out += css(report: report)
        out += "</style>\n</head>\n<body>\n<div id=\"stage\"><div class=\"choreo-scale\">\n"
        var children: [Int: [Int]] = [:]
        for (position, layer) in scene.layers.enumerated() {
            children[layer.parent >= 0 ? scene.slot[layer.parent] : -1, default: []].append(position)
        }
        func element(_ position: Int, indent: String) {
            let layer = scene.layers[position]
            let id = Self.elementID(position)
            out += "\(indent)<div class=\"choreo-layer\" id=\"\(id)\" data-layer=\"\(Self.escape(layer.id))\">"
            let origin = layer.boundsOrigin
            if layer.type == .shape, let path = layer.path {
                out +=
                    "<svg class=\"choreo-path\" style=\"left: \(Self.px(-origin.x)); top: \(Self.px(-origin.y))\" width=\"1\" height=\"1\"><path id=\"\(id)p\" pathLength=\"1\" d=\"\(path.svgPathData)\"/></svg>"
            }
            if layer.type == .text {
                out +=
                    "<div class=\"choreo-text\" id=\"\(id)t\" style=\"left: \(Self.px(-origin.x)); top: \(Self.px(-origin.y)); width: \(Self.px(layer.value(.size, frame: 0).first ?? 0))\">"
                for (index, string) in layer.strings.enumerated() {
                    out += "<div class=\"choreo-face\" id=\"\(id)t\(index)\">\(face(position, string))</div>"
                }
                out += "</div>"
            }
            let list = children[position] ?? []
            if !list.isEmpty {
                out += "\n"
                for child in list { element(child, indent: indent + "  ") }
                out += indent
            }
            if layer.uses(.borderWidth) { out += "<div class=\"choreo-border\" id=\"\(id)b\"></div>" }
            out += "</div>\n"
        }
        for root in children[-1] ?? [] { element(root, indent: "") }
        out += "</div></div>\n"
        out += """
            <script>
            // ?paused pauses every animation at 0; ?t=SECONDS shows the scene at that time as a
            // still: the animations set to it, their values committed to the elements' style
            // and the animations cancelled (a paused animation stays on the compositor, which
            // draws a turning or scaling layer from a picture rastered at another scale).
            (function () {
              var query = new URLSearchParams(location.search);
              if (!query.has("t") && !query.has("paused")) return;
              var t = parseFloat(query.get("t") || "0") * 1000;
              var animations = document.getAnimations();
              animations.forEach(function (a) { a.pause(); a.currentTime = t; });
              if (!query.has("t")) return;
              // An element the browser does not render keeps its paused animation.
              var committed = animations.filter(function (a) {
                try { a.commitStyles(); return true; } catch (error) { return false; }
              });
              committed.forEach(function (a) { a.cancel(); });
            })();
            </script>
            </body>
            </html>

            """
        return out
    }

    static func escape(_ text: String) -> String { MarkupText.escaped(text) }

    /// A string of a text layer on the page: its lines as Pango breaks and places them for
    /// choreo's pictures (laid out under the layer's map at frame 0, ``ExportModel/textLinear(_:)``),
    /// each an SVG `text` at its own start and baseline, which the browser's font engine draws.
    /// A line box of the browser's own would put the baseline at its rounded ascent (DejaVu Sans
    /// at 36 px: a pixel above Pango's) and may break the lines elsewhere. Without Pango, the
    /// string for the browser to set.
    func face(_ position: Int, _ string: String) -> String {
        guard case .success = CairoCanvas.library else { return Self.escape(string) }
        let layer = scene.layers[position]
        let lines = CairoCanvas.textLines(
            string, fontSize: layer.fontSize, width: layer.value(.size, frame: 0).first ?? 0,
            alignment: layer.alignment, linear: model.textLinear(position))
        var out = "<svg class=\"choreo-lines\" width=\"1\" height=\"1\">"
        for line in lines where !line.text.isEmpty {
            // Each character at Pango's place where one character is one glyph's place (no
            // scalar beyond 16 bits, which SVG counts as two, no combining mark or format
            // character, no right-to-left or shaped script); else the line from its start.
            let simple = line.text.unicodeScalars.allSatisfy { scalar in
                let v = scalar.value
                let plain = v < 0x0590 || (0x1E00..<0xD800).contains(v) || (0xF900..<0xFB1D).contains(v)
                let joining: [Range<UInt32>] = [
                    0x0300..<0x0370, 0x200B..<0x2010, 0x202A..<0x202F, 0x2066..<0x2070, 0x20D0..<0x2100,
                ]
                return plain && !joining.contains { $0.contains(v) }
            }
            let starts = simple && line.starts.count == line.text.unicodeScalars.count ? line.starts : [line.x]
            let x = starts.map { Self.number($0) }.joined(separator: " ")
            out += "<text x=\"\(x)\" y=\"\(Self.number(line.baseline))\">\(Self.escape(line.text))</text>"
        }
        return out + "</svg>"
    }

    // MARK: Web Animations

    /// The keyframes and timings as JSON for `element.animate(keyframes, timing)`.
    func waapi(report: FidelityReport) -> JSONValue {
        let animations = animations()
        var byElement: [String: [Animation]] = [:]
        for animation in animations { byElement[animation.element, default: []].append(animation) }
        let timing: JSONValue = .object(
            JSONObject([
                ("duration", .number((duration * 1000 * 1e6).rounded() / 1e6)), ("easing", "linear"),
                ("fill", "both"), ("iterations", 1),
            ]))
        var elements: [JSONValue] = []
        for (element, declarations) in baseRules() {
            let style = JSONObject(declarations.map { ($0.0, .string($0.1)) })
            var object = JSONObject([("element", .string(element)), ("style", .object(style))])
            if let position = Int(element.dropFirst().prefix { $0.isNumber }), element == Self.elementID(position) {
                object["layer"] = .string(scene.layers[position].id)
                let parent = scene.layers[position].parent
                object["parent"] = parent >= 0 ? .string(Self.elementID(scene.slot[parent])) : .null
            }
            object["animations"] = .array(
                (byElement[element] ?? []).map { animation in
                    .object(
                        JSONObject([
                            ("name", .string(animation.name)),
                            (
                                "keyframes",
                                .array(
                                    animation.keyframes.enumerated().map { index, frame in
                                        let offset = (frame.offset * 1e12).rounded() / 1e12
                                        var key = JSONObject([("offset", .number(offset))])
                                        for (property, value) in frame.declarations {
                                            key[Self.camelCase(property)] = .string(value)
                                        }
                                        if let easing = animation.easing(index) { key["easing"] = .string(easing) }
                                        return .object(key)
                                    })
                            ),
                            (
                                "timing",
                                animation.repeating.map { Self.timing($0, composite: animation.composite) } ?? timing
                            ),
                        ]))
                })
            elements.append(.object(object))
        }
        return .object(
            JSONObject([
                (
                    "stage",
                    .object(
                        JSONObject([
                            ("width", .number(scene.size.x * scene.scale)),
                            ("height", .number(scene.size.y * scene.scale)),
                            ("scale", .number(scene.scale)),
                        ]))
                ),
                ("duration", .number((duration * 1000 * 1e6).rounded() / 1e6)),
                // For `CSS.registerProperty` before `element.animate`: the colours' numbers.
                (
                    "properties",
                    .array(
                        Self.colorRegistrations.map { registration in
                            .object(
                                JSONObject([
                                    ("name", .string(registration.name)), ("syntax", "<number>"), ("inherits", false),
                                    ("initialValue", "0"),
                                ]))
                        })
                ),
                ("elements", .array(elements)), ("report", report.json),
            ]))
    }

    /// A repeating pass's timing for `element.animate`.
    static func timing(_ repeating: Repeat, composite: Bool = false) -> JSONValue {
        var timing = JSONObject([
            ("duration", .number((repeating.duration * 1000 * 1e6).rounded() / 1e6)),
            ("delay", .number((repeating.delay * 1000 * 1e6).rounded() / 1e6)),
            ("iterations", .number((repeating.iterations * 1e6).rounded() / 1e6)),
            ("direction", .string(repeating.alternate ? "alternate" : "normal")),
            ("easing", .string(repeating.easing)), ("fill", .string(repeating.fill)),
        ])
        // `element.animate(keyframes, timing)` takes the effect's composite with the timing.
        if composite { timing["composite"] = "add" }
        return .object(timing)
    }

    /// `stroke-dashoffset` → `strokeDashoffset`, as Web Animations names CSS properties (a
    /// custom property keeps its name).
    static func camelCase(_ property: String) -> String {
        if property.hasPrefix("--") { return property }
        var out = ""
        var upper = false
        for c in property {
            if c == "-" {
                upper = true
            } else {
                out += upper ? c.uppercased() : String(c)
                upper = false
            }
        }
        return out
    }
}
