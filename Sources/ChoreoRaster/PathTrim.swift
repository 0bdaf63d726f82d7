import ChoreoEngine

/// `strokeStart` / `strokeEnd`: the part of a path between two fractions of its length, as
/// `CAShapeLayer` strokes it. Curves are followed through the engine's ``PathMeasure`` and
/// drawn as short lines (up to 64 per curve; lines stay lines).
enum PathTrim {
    static func trim(_ path: BezierPath, from start: Double, to end: Double) -> BezierPath {
        let measure = PathMeasure(path)
        let total = measure.totalLength
        guard total > 0 else { return BezierPath() }
        let from = start * total
        let to = end * total
        var result = BezierPath()
        var travelled = 0.0
        var open = false
        for segment in measure.segments {
            let length = segment.length
            defer { travelled += length }
            let segmentEnd = travelled + length
            guard segmentEnd > from, travelled < to, length > 0 else {
                if case .move = segment.element { open = false }
                continue
            }
            let low = max(0, (from - travelled)) / length
            let high = min(length, to - travelled) / length
            // A line needs its two ends; a curve is followed in up to 64 steps.
            var steps = max(1, Int(((high - low) * 64).rounded(.up)))
            if case .line = segment.element { steps = 1 }
            for step in 0...steps {
                let fraction = low + (high - low) * Double(step) / Double(steps)
                let point = segment.point(at: segment.parameter(atDistance: fraction * length))
                if !open {
                    result.move(to: point)
                    open = true
                } else {
                    result.line(to: point)
                }
            }
        }
        return result
    }
}
