/// A cubic Bézier easing curve from (0, 0) to (1, 1): the solver behind
/// `CAMediaTimingFunction(controlPoints:)`.
///
/// Ported in design from WebKit's `UnitBezier.h` (also Chromium's `gfx::CubicBezier`): an
/// initial guess from 11 samples of x(t), up to four Newton steps, then bisection; outside
/// 0…1 the curve is extended along its end tangents.
public struct UnitBezier: Sendable, Equatable, Hashable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double
    private let ax, bx, cx, ay, by, cy: Double
    private let startGradient, endGradient: Double
    /// x(t) at t = 0, 0.1, … 1 in lanes 0…10 (lanes 11…15 unused).
    private let samples: SIMD16<Double>

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        if x1 > 0 {
            startGradient = y1 / x1
        } else if y1 == 0 && x2 > 0 {
            startGradient = y2 / x2
        } else if y1 == 0 && y2 == 0 {
            startGradient = 1
        } else {
            startGradient = 0
        }
        if x2 < 1 {
            endGradient = (y2 - 1) / (x2 - 1)
        } else if y2 == 1 && x1 < 1 {
            endGradient = (y1 - 1) / (x1 - 1)
        } else if y2 == 1 && y1 == 1 {
            endGradient = 1
        } else {
            endGradient = 0
        }
        let (sax, sbx, scx) = (ax, bx, cx)
        func sx(_ t: Double) -> Double { ((sax * t + sbx) * t + scx) * t }
        samples = SIMD16(
            sx(0), sx(0.1), sx(0.2), sx(0.3), sx(0.4), sx(0.5), sx(0.6), sx(0.7), sx(0.8), sx(0.9), sx(1), 1, 1, 1, 1, 1
        )
    }

    public static func == (a: UnitBezier, b: UnitBezier) -> Bool {
        a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1)
        hasher.combine(y1)
        hasher.combine(x2)
        hasher.combine(y2)
    }

    @inline(__always) func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    @inline(__always) func sampleDerivativeY(_ t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }

    /// The curve parameter t whose x(t) is `x` (x in 0…1).
    @inline(__always)
    public func solveCurveX(_ x: Double, epsilon: Double = 1e-7) -> Double {
        var t0 = 0.0
        var t1 = 0.0
        var t2 = x
        var x2 = 0.0
        // Linear interpolation of the 11 samples as the first guess.
        let delta = 0.1
        var i = 1
        while i < 10 && samples[i] <= x { i += 1 }
        let lower = samples[i - 1]
        let upper = samples[i]
        let span = upper - lower
        t0 = delta * Double(i - 1)
        t2 = span > 0 ? t0 + delta * (x - lower) / span : t0
        let newtonEpsilon = min(1e-7, epsilon)
        for _ in 0..<4 {
            x2 = sampleX(t2) - x
            if abs(x2) < newtonEpsilon { return t2 }
            let d2 = sampleDerivativeX(t2)
            if abs(d2) < 1e-7 { break }
            t2 -= x2 / d2
        }
        if abs(x2) < newtonEpsilon { return t2 }
        // Bisection.
        t0 = 0
        t1 = 1
        t2 = x
        while t0 < t1 {
            x2 = sampleX(t2)
            if abs(x2 - x) < max(1e-10, epsilon) { return t2 }
            if x > x2 { t0 = t2 } else { t1 = t2 }
            let next = (t1 - t0) * 0.5 + t0
            if next == t2 { return t2 }
            t2 = next
        }
        return t2
    }

    /// y for a given x; outside 0…1 the end tangents extend the curve.
    @inline(__always)
    public func solve(_ x: Double, epsilon: Double = 1e-7) -> Double {
        if x < 0 { return startGradient * x }
        if x > 1 { return 1 + endGradient * (x - 1) }
        if x == 0 || x == 1 { return x }
        return sampleY(solveCurveX(x, epsilon: epsilon))
    }

    /// dy/dx at x (0 outside a well-defined slope).
    public func slope(_ x: Double, epsilon: Double = 1e-7) -> Double {
        if x < 0 { return startGradient }
        if x > 1 { return endGradient }
        let t = solveCurveX(x, epsilon: epsilon)
        let dx = sampleDerivativeX(t)
        let dy = sampleDerivativeY(t)
        if dx == 0 && dy == 0 { return 0 }
        return dy / dx
    }
}
