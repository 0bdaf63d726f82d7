import ChoreoEngine
import ChoreoRaster

/// A layer moved along a path (`CAKeyframeAnimation.path` on `position`) written on the web as
/// CSS `offset-path`: the element follows the path itself between keyframes, and its keyframes
/// say how far along it is (`offset-distance`), instead of where.
///
/// The path is written as straight lines within ``flatness`` of it: a browser measures a curve's
/// length by its own approximation (Chromium's puts the middle of a 781 pt orbit 0.17 pt off the
/// curve, its last tenth 0.3 pt), a line's exactly, so the distances choreo writes land where it
/// measured them.
struct OffsetPath: Sendable {
    /// How far the lines may stray from the path, points.
    static let flatness = 0.002
    /// Most lines a path may take (a longer one stays sampled as positions).
    static let maxPoints = 20_000
    /// Most lines all of an export's paths may take together (about 4 MB of path data); the
    /// layers beyond them stay sampled as positions.
    static let maxTotalPoints = 200_000

    /// The lines' ends (rounded as the path data writes them), each a move or a line.
    let points: [Point]
    let moves: [Bool]
    /// Distance along the lines to each point.
    let cumulative: [Double]
    /// Per segment of the engine's ``PathMeasure``: the curve parameters of its points, and
    /// the index of its first point in ``points``.
    let parameters: [[Double]]
    let firsts: [Int]
    /// Per frame, the distance along the path (points); and between frames, where a change
    /// bends, more samples (fractional frames).
    var samples: [Double] = []
    var steps: [(frame: Double, values: [Double])] = []

    init?(_ measure: PathMeasure) {
        var points: [Point] = []
        var moves: [Bool] = []
        var parameters: [[Double]] = []
        var firsts: [Int] = []
        func rounded(_ p: Point) -> Point {
            Point((p.x * 10_000).rounded() / 10_000, (p.y * 10_000).rounded() / 10_000)
        }
        for segment in measure.segments {
            var ts: [Double] = [0]
            if case .line = segment.element {
                ts.append(1)
            } else {
                // Halve until the middle of each piece lies within the flatness of its chord.
                func flatten(_ a: Double, _ b: Double, depth: Int) {
                    let pa = segment.point(at: a)
                    let pb = segment.point(at: b)
                    let middle = (a + b) / 2
                    let pm = segment.point(at: middle)
                    let chord = pb - pa
                    let length = chord.length
                    let off =
                        length > 1e-12
                        ? abs((pm.x - pa.x) * chord.y - (pm.y - pa.y) * chord.x) / length : (pm - pa).length
                    if depth < 20 && (depth < 3 || off > Self.flatness / 2) {
                        flatten(a, middle, depth: depth + 1)
                        flatten(middle, b, depth: depth + 1)
                    } else {
                        ts.append(b)
                    }
                }
                flatten(0, 1, depth: 0)
            }
            let start = rounded(segment.start)
            if points.last != start {
                points.append(start)
                moves.append(true)
            }
            firsts.append(points.count - 1)
            for t in ts.dropFirst() {
                points.append(rounded(segment.point(at: t)))
                moves.append(false)
            }
            parameters.append(ts)
            if points.count > Self.maxPoints { return nil }
        }
        guard points.count >= 2 else { return nil }
        var cumulative = [0.0]
        for index in 1..<points.count {
            cumulative.append(cumulative[index - 1] + (moves[index] ? 0 : (points[index] - points[index - 1]).length))
        }
        self.points = points
        self.moves = moves
        self.cumulative = cumulative
        self.parameters = parameters
        self.firsts = firsts
    }

    var length: Double { cumulative[cumulative.count - 1] }

    /// The distance along the lines to the point of segment `segment` at curve parameter
    /// `parameter` (the engine's place on the path), projected onto its line.
    func distance(segment: Int, parameter: Double, measure: PathMeasure) -> Double {
        guard segment >= 0, segment < parameters.count else { return 0 }
        let ts = parameters[segment]
        var piece = 0
        while piece + 2 < ts.count && ts[piece + 1] <= parameter { piece += 1 }
        let a = points[firsts[segment] + piece]
        let b = points[firsts[segment] + piece + 1]
        let p = measure.segments[segment].point(at: parameter)
        let chord = b - a
        let length = chord.length
        guard length > 1e-12 else { return cumulative[firsts[segment] + piece] }
        let along = ((p.x - a.x) * chord.x + (p.y - a.y) * chord.y) / length
        return cumulative[firsts[segment] + piece] + min(max(along, 0), length)
    }

    /// The point at distance `distance` along the lines, as a browser places it.
    func point(atDistance distance: Double) -> Point {
        let d = min(max(distance, 0), length)
        var low = 0
        var high = cumulative.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if cumulative[middle] < d { low = middle } else { high = middle }
        }
        // Past a move, the next subpath's start.
        while high < points.count - 1 && moves[high] && cumulative[high] <= d { high += 1 }
        let span = cumulative[high] - cumulative[high - 1]
        guard span > 0 else { return points[high] }
        let a = points[high - 1]
        let b = points[high]
        return a + (b - a) * ((d - cumulative[high - 1]) / span)
    }

    /// SVG path data of the lines, for `offset-path: path()`.
    var pathData: String {
        var out = ""
        for (index, p) in points.enumerated() {
            if !out.isEmpty { out += " " }
            out += (moves[index] ? "M " : "L ") + WebWriter.number(p.x) + " " + WebWriter.number(p.y)
        }
        return out
    }
}

extension BakedScene {
    /// Places the layers that a path animation moves along their paths (the web formats):
    /// each such layer, where its map can be written with its turn, scale and skew after the
    /// offset (it is placed about its anchor point, has no perspective, and its scale and skew
    /// hold still), gets its ``OffsetPath`` with the distance along it at every frame and
    /// sample, and its translate becomes the anchor's landing less the path's point (plus the
    /// anchor, as it is written): still while the animation runs. Every layer's animations on
    /// `position` must share one path.
    mutating func placeAlongPaths(_ timeline: Timeline, shouldStop: () -> Bool) throws(ExportError) {
        let parts = timeline.pathParts(through: duration + 1 / fps)
        guard !parts.isEmpty else { return }
        var total = 0
        var byLayer: [Int: [PathPart]] = [:]
        for part in parts { byLayer[part.layer, default: []].append(part) }
        for (index, list) in byLayer.sorted(by: { $0.key < $1.key }) {
            let position = index < slot.count ? slot[index] : -1
            guard position >= 0 else { continue }
            var layer = layers[position]
            let measure = list[0].measure
            guard !layer.anchorMoves, !layer.projective, !layer.animated[Channel.scale.rawValue],
                !layer.animated[Channel.skew.rawValue],
                list.allSatisfy({ Self.samePath($0.measure, measure) }), var offset = OffsetPath(measure),
                total + offset.points.count <= OffsetPath.maxTotalPoints
            else { continue }
            total += offset.points.count
            // The latest-added animation in effect decides; before any, the first place it takes.
            let ordered = list.sorted { $0.leaf > $1.leaf }
            func distance(_ frame: Double) -> Double? {
                let time = SceneTime.quantize(frame / fps)
                for part in ordered {
                    if let location = timeline.pathLocation(leaf: part.leaf, at: time) {
                        return offset.distance(
                            segment: location.segment, parameter: location.parameter, measure: measure)
                    }
                }
                return nil
            }
            var samples = [Double?](repeating: nil, count: frameCount)
            for frame in 0..<frameCount {
                if shouldStop() { throw .cancelled }
                samples[frame] = distance(Double(frame))
            }
            guard let first = samples.first(where: { $0 != nil }) ?? nil else { continue }
            var held = first
            offset.samples = samples.map { value in
                if let value { held = value }
                return held
            }
            func at(_ frame: Double) -> Double {
                if let value = distance(frame) { return value }
                // Outside the animations: as at the frame before (or the first).
                return offset.samples[min(max(0, Int(frame.rounded(.down))), frameCount - 1)]
            }
            // The translate's steps, and between frames, wherever the distance is off the line
            // between two samples by more than half the tolerance, the middle, halving again
            // down to 1/4,096 of a frame: a bend is followed, and a change at once (a pass over
            // again) keeps both sides that close to it.
            let tolerance = Channel.translate.tolerance
            var times = Set(layer.steps[Channel.translate.rawValue].map(\.frame))
            func refine(_ a: Double, _ va: Double, _ b: Double, _ vb: Double, depth: Int) {
                let middle = (a + b) / 2
                let value = at(middle)
                guard depth < 12, abs(value - (va + vb) / 2) > tolerance / 2 else { return }
                times.insert(middle)
                refine(a, va, middle, value, depth: depth + 1)
                refine(middle, value, b, vb, depth: depth + 1)
            }
            // Between every two samples: frames and the translate's steps.
            let known = Set((0..<frameCount).map(Double.init)).union(times).sorted()
            for index in 0..<max(0, known.count - 1) {
                if shouldStop() { throw .cancelled }
                let a = known[index]
                let b = known[index + 1]
                refine(a, at(a), b, at(b), depth: 0)
            }
            offset.steps = times.sorted().map { ($0, [at($0)]) }
            // Translate: the landing less the path's point, plus the anchor (written less it).
            let anchor = Array(layer.value(.anchor, frame: 0))
            func rewritten(_ lanes: ArraySlice<Double>, _ d: Double) -> [Double] {
                let p = offset.point(atDistance: d)
                let x = Array(lanes)
                return [x[0] - p.x + anchor[0], x[1] - p.y + anchor[1]]
            }
            let channel = Channel.translate.rawValue
            for frame in 0..<frameCount {
                let lanes = rewritten(layer.value(.translate, frame: frame), offset.samples[frame])
                layer.samples[channel][frame * 2] = lanes[0]
                layer.samples[channel][frame * 2 + 1] = lanes[1]
            }
            layer.steps[channel] = layer.steps[channel].map { step in
                (step.frame, rewritten(step.values[...], at(step.frame)))
            }
            layer.eased[channel] = []
            layer.offsetPath = offset
            layer.finish()
            layers[position] = layer
        }
    }

    static func samePath(_ a: PathMeasure, _ b: PathMeasure) -> Bool {
        a.segments.count == b.segments.count
            && zip(a.segments, b.segments).allSatisfy { $0.start == $1.start && $0.element == $1.element }
    }
}
