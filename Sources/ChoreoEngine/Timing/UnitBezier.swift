/// A cubic Bézier easing curve from (0, 0) to (1, 1): the solver behind
/// `CAMediaTimingFunction(controlPoints:)`.
///
/// Ported in design from WebKit's `UnitBezier.h` (also Chromium's `gfx::CubicBezier`): an
/// initial guess from 11 samples of x(t), then Newton's steps kept inside the bracket by
/// bisection; outside 0…1 the curve is extended along its end tangents.
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

    /// The curve parameter t whose x(t) is `x` (x in 0…1), to `epsilon` in x.
    ///
    /// The 11 samples bracket the root; Newton's steps start from the linear interpolation of
    /// the bracket and every step narrows it, and a step that would leave the bracket (a flat
    /// derivative, near the ends of curves such as `easeOut`) bisects it instead. So the solve
    /// never restarts and always converges, to 1e-9 in x by default (WebKit and Chromium keep
    /// bisecting inside the bracket too).
    @inline(__always)
    public func solveCurveX(_ x: Double, epsilon: Double = 1e-9) -> Double {
        let (i, lower, upper) = bracket(x)
        var t0 = 0.1 * Double(i - 1)
        var t1 = 0.1 * Double(i)
        var t = upper > lower ? t0 + 0.1 * (x - lower) / (upper - lower) : t0
        for _ in 0..<100 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            if error < 0 { t0 = t } else { t1 = t }
            let derivative = sampleDerivativeX(t)
            var next = t - error / derivative
            // Also catches a zero derivative (±infinity or NaN).
            if !(next > t0 && next < t1) { next = t0 + (t1 - t0) * 0.5 }
            if next == t { return t }
            t = next
        }
        return t
    }

    /// The first sample index i in 1…10 with x(0.1 i) > x (10 when none is), and the samples
    /// at i − 1 and i: the scan `while i < 10 && samples[i] <= x { i += 1 }` written out, so
    /// that every lane index is a constant (a variable index spills the vector to memory).
    @inline(__always)
    private func bracket(_ x: Double) -> (Int, Double, Double) {
        let s = samples
        if !(s[1] <= x) { return (1, s[0], s[1]) }
        if !(s[2] <= x) { return (2, s[1], s[2]) }
        if !(s[3] <= x) { return (3, s[2], s[3]) }
        if !(s[4] <= x) { return (4, s[3], s[4]) }
        if !(s[5] <= x) { return (5, s[4], s[5]) }
        if !(s[6] <= x) { return (6, s[5], s[6]) }
        if !(s[7] <= x) { return (7, s[6], s[7]) }
        if !(s[8] <= x) { return (8, s[7], s[8]) }
        if !(s[9] <= x) { return (9, s[8], s[9]) }
        return (10, s[9], s[10])
    }

    /// y for a given x; outside 0…1 the end tangents extend the curve.
    @inline(__always)
    public func solve(_ x: Double, epsilon: Double = 1e-9) -> Double {
        if x < 0 { return startGradient * x }
        if x > 1 { return 1 + endGradient * (x - 1) }
        if x == 0 || x == 1 { return x }
        return sampleY(solveCurveX(x, epsilon: epsilon))
    }

    /// dy/dx at x (0 outside a well-defined slope).
    public func slope(_ x: Double, epsilon: Double = 1e-9) -> Double {
        if x < 0 { return startGradient }
        if x > 1 { return endGradient }
        let t = solveCurveX(x, epsilon: epsilon)
        let dx = sampleDerivativeX(t)
        let dy = sampleDerivativeY(t)
        if dx == 0 && dy == 0 { return 0 }
        return dy / dx
    }
}

extension UnitBezier {
    /// This curve played backwards, from its end to its start: the way back of an
    /// `autoreverses` cycle, (1 − x2, 1 − y2), (1 − x1, 1 − y1).
    package var mirrored: UnitBezier { UnitBezier(1 - x2, 1 - y2, 1 - x1, 1 - y1) }

    /// The part of this curve between progress `x0` and `x1` (both in 0…1), scaled to the unit
    /// square: the easing of a stretch that starts or ends inside an animation's pass (a
    /// `timeOffset`, a removal, an export's end). From `x1` back to `x0` when `x0 > x1` (a pass
    /// played backwards), mirrored. `nil` where the progress does not change over the stretch,
    /// or where the part's handles leave 0…1 in x (CSS `cubic-bezier()` and Lottie both need
    /// them there).
    ///
    /// The part of a cubic Bézier is a cubic Bézier (de Casteljau): its ends are the curve's
    /// points at the two parameters and its handles lie a third of the parameter span along
    /// the tangents there.
    package func piece(from x0: Double, to x1: Double) -> UnitBezier? {
        if x0 > x1 { return piece(from: x1, to: x0)?.mirrored }
        let low = min(max(x0, 0), 1)
        let high = min(max(x1, 0), 1)
        guard high - low > 1e-9 else { return nil }
        if low == 0 && high == 1 { return self }
        let s0 = low == 0 ? 0 : solveCurveX(low, epsilon: 1e-12)
        let s1 = high == 1 ? 1 : solveCurveX(high, epsilon: 1e-12)
        let third = (s1 - s0) / 3
        let start = (sampleX(s0), sampleY(s0))
        let end = (sampleX(s1), sampleY(s1))
        let handle1 = (start.0 + third * sampleDerivativeX(s0), start.1 + third * sampleDerivativeY(s0))
        let handle2 = (end.0 - third * sampleDerivativeX(s1), end.1 - third * sampleDerivativeY(s1))
        let width = end.0 - start.0
        let height = end.1 - start.1
        guard width > 1e-12, abs(height) > 1e-12 else { return nil }
        let hx1 = (handle1.0 - start.0) / width
        let hx2 = (handle2.0 - start.0) / width
        guard hx1 > -1e-9, hx1 < 1 + 1e-9, hx2 > -1e-9, hx2 < 1 + 1e-9 else { return nil }
        return UnitBezier(
            min(max(hx1, 0), 1), (handle1.1 - start.1) / height, min(max(hx2, 0), 1), (handle2.1 - start.1) / height)
    }
}
