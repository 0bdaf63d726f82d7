import ChoreoEngine

/// Sutherland–Hodgman clipping of a polygon to a rectangle, in pixels: geometry millions of
/// pixels across (a layer scaled by 10^15) is cut to the canvas before Cairo sees it, whose
/// fixed-point coordinates end near ±8 million pixels.
enum PolygonClip {
    static func clip(_ polygon: [Point], to box: Rect) -> [Point] {
        var points = polygon.filter { $0.x.isFinite && $0.y.isFinite }
        let edges: [(Point) -> Double] = [
            { $0.x - box.origin.x }, { box.origin.x + box.size.x - $0.x },
            { $0.y - box.origin.y }, { box.origin.y + box.size.y - $0.y },
        ]
        for inside in edges {
            guard !points.isEmpty else { break }
            var result: [Point] = []
            for (index, current) in points.enumerated() {
                let previous = points[(index + points.count - 1) % points.count]
                let a = inside(previous)
                let b = inside(current)
                if b >= 0 {
                    if a < 0 { result.append(cross(previous, current, a, b)) }
                    result.append(current)
                } else if a >= 0 {
                    result.append(cross(previous, current, a, b))
                }
            }
            points = result
        }
        return points
    }

    /// Where the segment from `p` to `q` crosses the edge, given their signed distances.
    private static func cross(_ p: Point, _ q: Point, _ a: Double, _ b: Double) -> Point {
        let t = a / (a - b)
        return Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t)
    }
}
