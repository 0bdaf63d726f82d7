import Testing

@testable import ChoreoEngine

/// Chromium `cubic_bezier_unittest.cc` vectors and the named curves (semantics reference §2).
@Suite struct TimingFunctionTests {
    @Test func chromiumEaseCurve() {
        let curve = UnitBezier(0.25, 0, 0.75, 1)
        let xs = [
            0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1,
        ]
        let ys = [
            0, 0.01136, 0.03978, 0.07978, 0.12803, 0.18235, 0.24115, 0.30323, 0.36761, 0.43345, 0.5, 0.63238, 0.69676,
            0.75884, 0.81764, 0.87196, 0.92021, 0.96021, 0.98863, 1,
        ]
        for (x, y) in zip(xs, ys) {
            #expect(abs(curve.solve(x) - y) < 1.5e-4, "x = \(x)")
        }
    }

    /// The solve reaches 1e-9 in x on every curve, flat derivatives at the ends included
    /// (`easeOut` starts with dx/dt = 0; (1, 0, 0, 1) is flat in the middle).
    static let hardCurves: [UnitBezier] = [
        UnitBezier(0, 0, 0.58, 1), UnitBezier(0.42, 0, 1, 1), UnitBezier(0.42, 0, 0.58, 1),
        UnitBezier(0.25, 0.1, 0.25, 1), UnitBezier(0.2, 2, 0.8, 2), UnitBezier(0.3, -0.4, 0.6, 1.5),
        UnitBezier(1, 0, 0, 1), UnitBezier(0.9, 0, 0.1, 1), UnitBezier(0, 1, 1, 0),
    ]

    @Test(arguments: hardCurves)
    func solvesToANanosecondInX(curve: UnitBezier) {
        let edges: [Double] = [1e-9, 1e-6, 1e-4, 0.5 + 1e-12, 1 - 1e-6, 1 - 1e-9]
        let grid: [Double] = (1..<1000).map { Double($0) / 1000 }
        for x in grid + edges {
            let t = curve.solveCurveX(x)
            #expect(abs(curve.sampleX(t) - x) < 1e-9, "x = \(x): x(t) = \(curve.sampleX(t))")
        }
    }

    @Test func chromiumOvershootingCurve() {
        let curve = UnitBezier(0.5, -1, 0.5, 2)
        let xs = [
            0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95,
        ]
        let ys = [
            -0.08954, -0.15613, -0.19641, -0.20651, -0.18232, -0.11992, -0.01672, 0.12660, 0.30349, 0.5, 0.69651,
            0.87340, 1.01672, 1.11992, 1.18232, 1.20651, 1.19641, 1.15613, 1.08954,
        ]
        for (x, y) in zip(xs, ys) {
            #expect(abs(curve.solve(x) - y) < 1.5e-4, "x = \(x)")
        }
    }

    @Test(arguments: [
        ([0.5, 1, 0.5, 1], 0.5, 0.875), ([0.5, 2, 0.5, 2], 0.5, 1.625), ([0.5, -1, 0.5, -1], 0.5, -0.625),
    ])
    func exactValues(points: [Double], x: Double, y: Double) {
        #expect(UnitBezier(points[0], points[1], points[2], points[3]).solve(x) == y)
    }

    @Test(arguments: [
        ([0.5, 1, 0.5, 1], -1.0, -2.0), ([0.5, 1, 0.5, 1], 2, 1), ([0, 0, 1, 1], -1, -1), ([0, 0, 1, 1], 2, 2),
        ([0, 1, 1, 0], -1, 0), ([0, 1, 1, 0], 2, 1), ([0.5, 0, 1, 0.5], -1, 0), ([0.5, 0, 1, 0.5], 2, 1),
        ([0.1, 0.2, 0.8, 0.8], -1, -2), ([0.1, 0.2, 0.8, 0.8], 2, 2), ([0, 0, 0.5, 1], -1, -2), ([0, 0, 0.5, 1], 2, 1),
        ([1, 0.5, 1, 1], -1, -0.5), ([1, 0.5, 1, 1], 2, 1), ([0, 0, 0, 0], -1, -1), ([0, 0, 0, 0], 2, 2),
        ([1, 1, 1, 1], -1, -1), ([1, 1, 1, 1], 2, 2),
    ])
    func outOfRangeExtrapolation(points: [Double], x: Double, y: Double) {
        #expect(UnitBezier(points[0], points[1], points[2], points[3]).solve(x) == y)
    }

    @Test func slopes() {
        let curve = UnitBezier(0.25, 0, 0.75, 1)
        #expect(abs(curve.slope(0.5) - 1.33333) < 1.5e-4)
        #expect(abs(curve.slope(0.1) - 0.69778) < 1.5e-4)
        #expect(abs(curve.slope(0)) < 1.5e-4)
        #expect(abs(curve.slope(1)) < 1.5e-4)
    }

    @Test(arguments: [
        (0.25, 0.1, 0.25, 1.0), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1), (0.3, 1.5, 0.8, 1.5),
        (0.4, -0.8, 0.7, 1.7), (0.7, -2, 1, -1.5), (0, 4, 1, -3),
    ])
    func solverRoundTrip(x1: Double, y1: Double, x2: Double, y2: Double) {
        let curve = UnitBezier(x1, y1, x2, y2)
        for step in 0...100 {
            let t = Double(step) / 100
            #expect(abs(curve.solveCurveX(curve.sampleX(t)) - t) < 1e-5)
        }
    }

    @Test func namedCurves() {
        let xs = [0.1, 0.25, 0.5, 0.75, 0.9]
        let expected: [(TimingFunction, [Double])] = [
            (.systemDefault, [0.094796, 0.408511, 0.802403, 0.960459, 0.994316]),
            (.easeIn, [0.017027, 0.093465, 0.315357, 0.621862, 0.839428]),
            (.easeOut, [0.160572, 0.378138, 0.684643, 0.906535, 0.982973]),
            (.easeInEaseOut, [0.019722, 0.129162, 0.5, 0.870838, 0.980278]),
        ]
        for (function, ys) in expected {
            for (x, y) in zip(xs, ys) { #expect(abs(function.evaluate(x) - y) < 1e-5, "\(function) at \(x)") }
        }
        #expect(TimingFunction.linear.evaluate(0.37) == 0.37)
    }

    /// WPT transformed-progress.html: steps(2, start) over a 1 s effect.
    @Test func steps() {
        let start = TimingFunction.steps(2, .start)
        #expect(start.evaluate(0) == 0.5)
        #expect(start.evaluate(0.499) == 0.5)
        #expect(start.evaluate(0.5) == 1)
        #expect(start.evaluate(1) == 1)
        let end = TimingFunction.steps(4, .end)
        #expect(end.evaluate(0) == 0)
        #expect(end.evaluate(0.26) == 0.25)
        #expect(end.evaluate(1) == 1)
    }
}
