/// Arc-length measurement of a ``BezierPath``: the table behind paced keyframes and
/// `rotationMode`, built by flattening every curve into short chords.
public struct PathMeasure: Sendable {
    /// Chords per curve segment; enough for sub-0.1% length error on typical UI arcs.
    static let chordsPerCurve = 32

    /// A drawable segment of the path (moves are not segments).
    public struct Segment: Sendable {
        public let start: Point
        public let element: BezierPath.Element
        /// Cumulative chord lengths from the segment's start, `chordsPerCurve + 1` entries (lines: 2).
        let cumulative: [Double]
        public var length: Double { cumulative[cumulative.count - 1] }

        /// The point at curve parameter `t` in 0…1.
        public func point(at t: Double) -> Point {
            switch element {
            case .line(let p), .move(let p): return start + (p - start) * t
            case .quad(let c, let p):
                let u = 1 - t
                return start * (u * u) + c * (2 * u * t) + p * (t * t)
            case .cubic(let c1, let c2, let p):
                let u = 1 - t
                return start * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + p * (t * t * t)
            case .close: return start
            }
        }

        /// The tangent direction at curve parameter `t`.
        public func tangent(at t: Double) -> Point {
            let e = 1e-4
            let a = point(at: max(0, t - e))
            let b = point(at: min(1, t + e))
            return b - a
        }

        /// The curve parameter at which `distance` along the segment is reached.
        public func parameter(atDistance distance: Double) -> Double {
            let count = cumulative.count - 1
            guard length > 0 else { return 0 }
            var low = 0
            var high = count
            while high - low > 1 {
                let mid = (low + high) / 2
                if cumulative[mid] < distance { low = mid } else { high = mid }
            }
            let span = cumulative[high] - cumulative[low]
            let fraction = span > 0 ? (distance - cumulative[low]) / span : 0
            return (Double(low) + fraction) / Double(count)
        }
    }

    public let segments: [Segment]
    public let totalLength: Double

    public init(_ path: BezierPath) {
        var segments: [Segment] = []
        var current = Point.zero
        var subpathStart = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                current = p
                subpathStart = p
            case .close:
                let segment = Self.makeSegment(start: current, element: .line(subpathStart))
                segments.append(segment)
                current = subpathStart
            case .line(let p), .quad(_, let p), .cubic(_, _, let p):
                segments.append(Self.makeSegment(start: current, element: element))
                current = p
            }
        }
        self.segments = segments
        totalLength = segments.reduce(0) { $0 + $1.length }
    }

    private static func makeSegment(start: Point, element: BezierPath.Element) -> Segment {
        if case .line(let p) = element {
            return Segment(start: start, element: element, cumulative: [0, (p - start).length])
        }
        var cumulative = [0.0]
        cumulative.reserveCapacity(chordsPerCurve + 1)
        let probe = Segment(start: start, element: element, cumulative: [0, 0])
        var previous = start
        var total = 0.0
        for i in 1...chordsPerCurve {
            let p = probe.point(at: Double(i) / Double(chordsPerCurve))
            total += (p - previous).length
            cumulative.append(total)
            previous = p
        }
        return Segment(start: start, element: element, cumulative: cumulative)
    }
}
