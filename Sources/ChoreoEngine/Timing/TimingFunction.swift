/// How an animation's progress is paced: `CAMediaTimingFunction`, plus CSS-style steps.
public enum TimingFunction: Sendable, Equatable, Hashable {
    /// `CAMediaTimingFunction(controlPoints:)`, and the named curves as their control points.
    case bezier(UnitBezier)
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
    /// (it only changes `steps(…)` exactly on a step boundary).
    @inline(__always)
    public func evaluate(_ x: Double, beforeFlag: Bool = false) -> Double {
        switch self {
        case .bezier(let curve):
            if curve.x1 == curve.y1 && curve.x2 == curve.y2 { return x }
            return curve.solve(x)
        case .steps(let count, let position):
            return Self.step(x, count: count, position: position, beforeFlag: beforeFlag)
        }
    }

    /// CSS `steps()` (CSS Easing Level 1, "step easing functions").
    static func step(_ x: Double, count: Int, position: StepPosition, beforeFlag: Bool = false) -> Double {
        let n = Double(max(1, count))
        var current = (x * n).rounded(.down)
        if position == .start { current += 1 }
        if beforeFlag && (x * n).truncatingRemainder(dividingBy: 1) == 0 { current -= 1 }
        if x >= 0 && current < 0 { current = 0 }
        if x <= 1 && current > n { current = n }
        return current / n
    }
}
