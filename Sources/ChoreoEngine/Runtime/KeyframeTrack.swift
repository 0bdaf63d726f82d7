import Glibc

/// A `CAKeyframeAnimation`'s values prepared for sampling: key times resolved for the
/// calculation mode, tangents for cubic modes, and arc lengths for paths and paced modes.
/// A class: sampling shares one immutable track instead of copying its arrays.
final class KeyframeTrack: Sendable {
    enum Source: Sendable {
        case values([Value])
        case path(PathMeasure)
    }

    let source: Source
    let mode: CalculationMode
    /// Key times, one per keyframe (discrete: one per value boundary, values.count + 1).
    let keyTimes: [Double]
    let segmentFunctions: [TimingFunction]?
    /// Kochanek–Bartels tangents (outgoing and incoming) per keyframe, for cubic modes.
    let outTangents: [Value]
    let inTangents: [Value]
    let rotationMode: RotationMode?

    init(_ keyframes: Keyframes) {
        rotationMode = keyframes.rotationMode
        var mode = keyframes.calculationMode
        if let path = keyframes.path {
            let measure = PathMeasure(path)
            source = .path(measure)
            let count = measure.segments.count
            if mode == .paced || mode == .cubicPaced || keyframes.keyTimes == nil {
                var times = [0.0]
                if mode == .paced || mode == .cubicPaced {
                    var total = 0.0
                    for segment in measure.segments {
                        total += segment.length
                        times.append(measure.totalLength > 0 ? total / measure.totalLength : 1)
                    }
                } else {
                    for i in 0..<count { times.append(Double(i + 1) / Double(max(count, 1))) }
                }
                keyTimes = times
            } else {
                keyTimes = keyframes.keyTimes!
            }
            if mode == .cubic || mode == .cubicPaced { mode = .linear }
            if mode == .paced { mode = .linear }
            self.mode = mode
            segmentFunctions = keyframes.calculationMode == .paced ? nil : keyframes.timingFunctions
            outTangents = []
            inTangents = []
            return
        }
        let values = keyframes.values
        source = .values(values)
        let n = values.count
        switch mode {
        case .paced, .cubicPaced:
            var distances = [0.0]
            var total = 0.0
            for i in 1..<max(n, 1) {
                total += Value.distance(values[i - 1], values[i])
                distances.append(total)
            }
            keyTimes = n <= 1 ? [0] : distances.map { total > 0 ? $0 / total : 0 }
            segmentFunctions = nil
        case .discrete:
            if let given = keyframes.keyTimes {
                keyTimes = given
            } else {
                keyTimes = (0...n).map { Double($0) / Double(max(n, 1)) }
            }
            segmentFunctions = keyframes.timingFunctions
        default:
            keyTimes = keyframes.keyTimes ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
            segmentFunctions = keyframes.timingFunctions
        }
        if mode == .cubicPaced { mode = .cubic }
        self.mode = mode
        if mode == .cubic && n >= 2 {
            var outs: [Value] = []
            var ins: [Value] = []
            for i in 0..<n {
                let previous = values[max(i - 1, 0)]
                let next = values[min(i + 1, n - 1)]
                let tension = keyframes.tensionValues?[safe: i] ?? 0
                let continuity = keyframes.continuityValues?[safe: i] ?? 0
                let bias = keyframes.biasValues?[safe: i] ?? 0
                let incoming = Value.subtract(values[i], previous)
                let outgoing = Value.subtract(next, values[i])
                let oneMinusT = 1 - tension
                // Non-uniform key times: scale the tangents by the neighbouring intervals.
                let dtPrevious = i > 0 ? keyTimes[i] - keyTimes[i - 1] : 0
                let dtNext = i < n - 1 ? keyTimes[i + 1] - keyTimes[i] : 0
                let sum = dtPrevious + dtNext
                let outScale = (i > 0 && i < n - 1 && sum > 0) ? 2 * dtNext / sum : 1
                let inScale = (i > 0 && i < n - 1 && sum > 0) ? 2 * dtPrevious / sum : 1
                let out = Value.add(
                    Value.scale(incoming, oneMinusT * (1 + bias) * (1 + continuity) / 2),
                    Value.scale(outgoing, oneMinusT * (1 - bias) * (1 - continuity) / 2))
                let inn = Value.add(
                    Value.scale(incoming, oneMinusT * (1 + bias) * (1 - continuity) / 2),
                    Value.scale(outgoing, oneMinusT * (1 - bias) * (1 + continuity) / 2))
                outs.append(Value.scale(out, outScale))
                ins.append(Value.scale(inn, inScale))
            }
            outTangents = outs
            inTangents = ins
        } else {
            outTangents = []
            inTangents = []
        }
    }

    /// The value at keyframe progress `u` (after the animation's own timing function: an
    /// overshooting curve takes it outside 0…1). `tolerance`: one nanosecond in `u`, for the
    /// segments' `steps`. Segment curves take no before flag (in Web Animations only the
    /// effect's own timing function sees it).
    func value(at u: Double, tolerance: Double = MediaTiming.resolution) -> Value {
        switch source {
        case .values(let values):
            return valueFromValues(values, u, tolerance: tolerance)
        case .path(let measure):
            return .point(pointOnPath(measure, u, tolerance: tolerance).point)
        }
    }

    /// The tangent angle (radians) along a path at `u`, for `rotationMode`.
    func rotation(at u: Double, tolerance: Double = MediaTiming.resolution) -> Double? {
        guard let rotationMode, case .path(let measure) = source else { return nil }
        let tangent = pointOnPath(measure, u, tolerance: tolerance).tangent
        var angle = atan2(tangent.y, tangent.x)
        if rotationMode == .autoReverse { angle += Double.pi }
        return angle
    }

    private func segmentIndex(_ u: Double, count: Int) -> Int {
        // The last key time ≤ u, clamped to a valid segment start.
        var index = 0
        while index + 1 < count && keyTimes[index + 1] <= u { index += 1 }
        return min(index, max(count - 2, 0))
    }

    /// Progress inside segment `i`, through its timing function; `extended` leaves it unclamped
    /// (progress beyond the first or last key time, docs/semantics.md decision 5).
    private func localProgress(_ u: Double, segment i: Int, extended: Bool = false, tolerance: Double) -> Double {
        let t0 = keyTimes[i]
        let t1 = keyTimes[i + 1]
        var s = t1 > t0 ? (u - t0) / (t1 - t0) : 1
        if !extended { s = min(max(s, 0), 1) }
        if let functions = segmentFunctions, i < functions.count {
            s = functions[i].evaluate(s, tolerance: t1 > t0 ? tolerance / (t1 - t0) : tolerance)
        }
        return s
    }

    private func valueFromValues(_ values: [Value], _ u: Double, tolerance: Double) -> Value {
        let n = values.count
        guard n > 1 else { return values[0] }
        if mode == .discrete {
            var index = 0
            while index + 1 < keyTimes.count && keyTimes[index + 1] <= u { index += 1 }
            return values[min(index, n - 1)]
        }
        // Eased progress below 0 extends the first segment, above 1 the last (Web Animations'
        // interval endpoints); between 0 and a first key time above it the first value holds.
        let before = u < 0 && keyTimes[0] == 0
        let beyond = u > 1 && keyTimes[n - 1] == 1
        if u < keyTimes[0] && !before { return values[0] }
        if u >= keyTimes[n - 1] && !beyond { return values[n - 1] }
        let i = segmentIndex(u, count: n)
        let s = localProgress(u, segment: i, extended: before || beyond, tolerance: tolerance)
        if mode == .cubic {
            // Outside the segment the spline continues along its end tangent.
            if s > 1 { return Value.add(values[i + 1], Value.scale(inTangents[i + 1], s - 1)) }
            if s < 0 { return Value.add(values[i], Value.scale(outTangents[i], s)) }
            return Value.hermite(values[i], values[i + 1], outTangents[i], inTangents[i + 1], s)
        }
        return Value.interpolate(values[i], values[i + 1], s)
    }

    /// Where on its path (a segment of ``PathMeasure``, and the curve parameter in it) the
    /// animation is at keyframe progress `u`; nil for an animation of values.
    func pathLocation(at u: Double, tolerance: Double = MediaTiming.resolution) -> (segment: Int, parameter: Double)? {
        guard case .path(let measure) = source else { return nil }
        return location(measure, u, tolerance: tolerance)
    }

    /// The segment and curve parameter at keyframe progress `u`: the key-time segment, its
    /// progress through its function, that fraction of its length; nil on an empty path.
    private func location(_ measure: PathMeasure, _ u: Double, tolerance: Double) -> (segment: Int, parameter: Double)?
    {
        let segments = measure.segments
        guard !segments.isEmpty else { return nil }
        let clamped = min(max(u, 0), 1)
        let i = segmentIndex(clamped, count: segments.count + 1)
        let s = localProgress(clamped, segment: i, tolerance: tolerance)
        let index = min(i, segments.count - 1)
        return (index, segments[index].parameter(atDistance: s * segments[index].length))
    }

    private func pointOnPath(_ measure: PathMeasure, _ u: Double, tolerance: Double) -> (point: Point, tangent: Point) {
        guard let (index, t) = location(measure, u, tolerance: tolerance) else { return (.zero, Point(1, 0)) }
        let segment = measure.segments[index]
        return (segment.point(at: t), segment.tangent(at: t))
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
