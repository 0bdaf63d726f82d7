import Glibc

/// A path of lines and Bézier curves: `UIBezierPath` / `CGPath`.
///
/// Arcs are stored as cubic Béziers (at most a quarter turn each), as `UIBezierPath` does, so
/// every element is a move, line, quadratic, cubic or close.
public struct BezierPath: Sendable, Equatable, Hashable {
    /// One path element.
    public enum Element: Sendable, Equatable, Hashable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)
        case cubic(Point, Point, Point)
        case close
    }

    public private(set) var elements: [Element] = []
    private var subpathStart = Point.zero
    private var current = Point.zero

    public init() {}

    public init(elements: [Element]) {
        for element in elements {
            switch element {
            case .move(let p): move(to: p)
            case .line(let p): line(to: p)
            case .quad(let c, let p): quad(to: p, control: c)
            case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
            case .close: close()
            }
        }
    }

    public static func == (a: BezierPath, b: BezierPath) -> Bool { a.elements == b.elements }
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    /// The current point (where the next element starts).
    public var currentPoint: Point { current }
    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point) {
        elements.append(.move(p))
        subpathStart = p
        current = p
    }

    public mutating func line(to p: Point) {
        if elements.isEmpty { move(to: current) }
        elements.append(.line(p))
        current = p
    }

    public mutating func quad(to p: Point, control c: Point) {
        if elements.isEmpty { move(to: current) }
        elements.append(.quad(c, p))
        current = p
    }

    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        if elements.isEmpty { move(to: current) }
        elements.append(.cubic(c1, c2, p))
        current = p
    }

    public mutating func close() {
        guard !elements.isEmpty else { return }
        elements.append(.close)
        current = subpathStart
    }

    /// `addArc(withCenter:radius:startAngle:endAngle:clockwise:)` with UIKit's meaning: in a
    /// y-down coordinate space, `clockwise` runs from `startAngle` towards larger angles. A line
    /// joins the current point to the arc's start when a subpath is open.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        let start = Point(center.x + radius * cos(startAngle), center.y + radius * sin(startAngle))
        if elements.isEmpty {
            move(to: start)
        } else if current != start {
            line(to: start)
        }
        var sweep = endAngle - startAngle
        let fullTurn = 2 * Double.pi
        // Angles so far apart that their difference overflows (1.8e308 and −1e300): a full turn.
        if !sweep.isFinite { sweep = clockwise ? fullTurn : -fullTurn }
        if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: fullTurn) + fullTurn }
            if sweep > fullTurn { sweep = fullTurn }
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: fullTurn) - fullTurn }
            if sweep < -fullTurn { sweep = -fullTurn }
        }
        appendArc(center: center, radiusX: radius, radiusY: radius, rotation: 0, start: startAngle, sweep: sweep)
    }

    /// Appends cubic segments approximating an elliptical arc, at most a quarter turn each.
    mutating func appendArc(
        center: Point, radiusX: Double, radiusY: Double, rotation: Double, start: Double, sweep: Double
    ) {
        guard sweep != 0, sweep.isFinite, abs(sweep) <= 4 * Double.pi else { return }
        let segments = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(segments)
        let k = 4.0 / 3.0 * tan(step / 4)
        let (cr, sr) = (cos(rotation), sin(rotation))
        func map(_ x: Double, _ y: Double) -> Point {
            Point(center.x + cr * radiusX * x - sr * radiusY * y, center.y + sr * radiusX * x + cr * radiusY * y)
        }
        var angle = start
        for _ in 0..<segments {
            let next = angle + step
            let (c0, s0, c1, s1) = (cos(angle), sin(angle), cos(next), sin(next))
            cubic(
                to: map(c1, s1), control1: map(c0 - k * s0, s0 + k * c0), control2: map(c1 + k * s1, s1 - k * c1))
            angle = next
        }
    }

    /// SVG path data for the path, numbers in shortest round-trip form.
    public var svgPathData: String {
        var parts: [String] = []
        func n(_ value: Double) -> String {
            if value == 0 { return "0" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return value.description
        }
        func p(_ point: Point) -> String { "\(n(point.x)) \(n(point.y))" }
        for element in elements {
            switch element {
            case .move(let a): parts.append("M \(p(a))")
            case .line(let a): parts.append("L \(p(a))")
            case .quad(let c, let a): parts.append("Q \(p(c)) \(p(a))")
            case .cubic(let c1, let c2, let a): parts.append("C \(p(c1)) \(p(c2)) \(p(a))")
            case .close: parts.append("Z")
            }
        }
        return parts.joined(separator: " ")
    }
}
