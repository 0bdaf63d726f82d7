/// A `CAMediaTimingFunction` laid out for evaluation in place: the same curve as a
/// ``TimingFunction``, without the enum, so reading it inside a compiled op copies nothing.
struct Easing: Sendable {
    enum Kind: UInt8, Sendable {
        /// `kCAMediaTimingFunctionLinear`, or any Bézier with its control points on the diagonal.
        case linear
        case bezier
        case steps
    }

    let kind: Kind
    let bezier: UnitBezier
    let stepCount: Int
    let stepPosition: TimingFunction.StepPosition

    init(_ function: TimingFunction) {
        switch function {
        case .bezier(let curve):
            kind = curve.x1 == curve.y1 && curve.x2 == curve.y2 ? .linear : .bezier
            bezier = curve
            stepCount = 1
            stepPosition = .end
        case .steps(let count, let position):
            kind = .steps
            bezier = UnitBezier(0, 0, 1, 1)
            stepCount = count
            stepPosition = position
        }
    }

    /// ``TimingFunction/evaluate(_:beforeFlag:tolerance:)``, to the last bit.
    @inline(__always)
    func evaluate(_ x: Double, beforeFlag: Bool, tolerance: Double) -> Double {
        switch kind {
        case .linear: x
        case .bezier: bezier.solve(x)
        case .steps:
            TimingFunction.step(
                x, count: stepCount, position: stepPosition, beforeFlag: beforeFlag, tolerance: tolerance)
        }
    }
}
