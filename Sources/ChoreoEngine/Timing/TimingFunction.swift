/// How an animation's progress is paced: `CAMediaTimingFunction`, plus CSS-style steps.
public enum TimingFunction: Sendable, Equatable, Hashable {
    /// `CAMediaTimingFunction(controlPoints:)`, and the named curves as their control points.
    ///
    /// Indirect: the solver's precomputed curve is 224 bytes, and every animation, attached
    /// animation and timeline leaf carries a timing function; boxed, copies share one curve
    /// (the named curves one each for the process) and a timing function is 16 bytes.
    indirect case bezier(UnitBezier)
    /// `steps(n, start|end)`: a staircase of n equal steps, jumping at the start or end of each.
    case steps(Int, StepPosition)

    /// Where a step jumps.
    public enum StepPosition: String, Sendable, Equatable, Hashable {
        case start, end
    }

    /// `kCAMediaTimingFunctionLinear`; also what `nil` means on a `CAAnimation`.
    public static let linear = TimingFunction.bezier(UnitBezier(0, 0, 1, 1))
    /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0), (1, 1).
    public static let easeIn = TimingFunction.bezier(UnitBezier(0.42, 0, 1, 1))
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0), (0.58, 1).
    public static let easeOut = TimingFunction.bezier(UnitBezier(0, 0, 0.58, 1))
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0), (0.58, 1); UIKit's default curve.
    public static let easeInEaseOut = TimingFunction.bezier(UnitBezier(0.42, 0, 0.58, 1))
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1), (0.25, 1).
    public static let systemDefault = TimingFunction.bezier(UnitBezier(0.25, 0.1, 0.25, 1))

    /// The named curves by their scene-format names.
    public static func named(_ name: String) -> TimingFunction? {
        switch name {
        case "linear": .linear
        case "easeIn": .easeIn
        case "easeOut": .easeOut
        case "easeInEaseOut": .easeInEaseOut
        case "default": .systemDefault
        default: nil
        }
    }

    /// Whether this is the identity curve (nothing to solve).
    public var isLinear: Bool {
        if case .bezier(let b) = self { return b.x1 == b.y1 && b.x2 == b.y2 }
        return false
    }

    /// The eased progress for linear progress `x`; `beforeFlag` is CSS Easing's before flag
    /// (it only changes `steps(…)` exactly on a step boundary); `tolerance` is how much
    /// progress one nanosecond of scene time is (``MediaTiming/Local/tolerance``).
    @inline(__always)
    public func evaluate(_ x: Double, beforeFlag: Bool = false, tolerance: Double = MediaTiming.resolution) -> Double {
        switch self {
        case .bezier(let curve):
            if curve.x1 == curve.y1 && curve.x2 == curve.y2 { return x }
            return curve.solve(x)
        case .steps(let count, let position):
            return Self.step(x, count: count, position: position, beforeFlag: beforeFlag, tolerance: tolerance)
        }
    }

    /// CSS `steps()` (CSS Easing Level 1, "step easing functions"). Progress within
    /// `tolerance` (a nanosecond of scene time) of a step boundary is on it: times are kept to
    /// the nanosecond and cycle arithmetic in doubles lands beside exact boundaries (0.3 − 0.2
    /// is 0.09999999999999998), and a step must not wait for the next frame.
    static func step(
        _ x: Double, count: Int, position: StepPosition, beforeFlag: Bool = false,
        tolerance: Double = MediaTiming.resolution
    ) -> Double {
        let n = Double(max(1, count))
        var scaled = x * n
        let nearest = scaled.rounded()
        if abs(scaled - nearest) < tolerance * n { scaled = nearest }
        var current = scaled.rounded(.down)
        if position == .start { current += 1 }
        if beforeFlag && scaled == current - (position == .start ? 1 : 0) { current -= 1 }
        if scaled >= 0 && current < 0 { current = 0 }
        if scaled <= n && current > n { current = n }
        return current / n
    }
}
