import Testing

@testable import ChoreoEngine

/// The spring table and UIKit mappings of semantics reference §3.
@Suite struct SpringTests {
    static let times = [0.05, 0.1, 0.25, 0.5, 1.0]

    @Test(arguments: [
        (1.0, 100.0, 10.0, 0.0, false, [0.104405, 0.340300, 1.023360, 1.074591, 1.002170]),
        (1, 100, 5, 0, false, [0.112863, 0.392945, 1.310836, 1.036551, 1.084776]),
        (1, 100, 15, 0, false, [0.096895, 0.298249, 0.839391, 1.027592, 0.999273]),
        (1, 100, 20, 0, false, [0.090204, 0.264241, 0.712703, 0.959572, 0.999501]),
        (1, 100, 40, 0, false, [0.090204, 0.264241, 0.712703, 0.959572, 0.999501]),
        (1, 100, 40, 0, true, [0.069705, 0.177737, 0.448647, 0.717829, 0.926096]),
        (1, 100, 10, 5, false, [0.293078, 0.607053, 1.160415, 1.030619, 1.004863]),
        (1, 100, 10, -5, false, [-0.084267, 0.073546, 0.886305, 1.118562, 0.999477]),
        (2, 300, 20, 0, false, [0.155034, 0.490754, 1.225962, 0.960302, 1.001724]),
        (3, 1000, 500, 0, false, [0.232230, 0.544778, 0.942038, 0.998901, 1.000000]),
    ])
    func progressTable(mass: Double, stiffness: Double, damping: Double, velocity: Double, over: Bool, values: [Double])
    {
        let spring = Spring(
            mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity, allowsOverdamping: over)
        for (t, expected) in zip(Self.times, values) {
            #expect(abs(spring.progress(at: t) - expected) < 1e-5, "t = \(t)")
        }
    }

    /// Apple's settlingDuration documentation: damping 5 → about 2.85 s, 15 → just over 1 s.
    @Test func settlingDurationMatchesAppleFigures() {
        let loose = Spring(damping: 5).settlingDuration
        let firm = Spring(damping: 15).settlingDuration
        #expect(abs(loose - 2.875) < 0.01)
        #expect(firm > 1 && firm < 1.02)
        #expect(Spring(damping: 10).settlingDuration > firm)
    }

    @Test(arguments: [
        (0.5, 0.7, 387.2746, 27.5510), (1.0, 0.5, 161.7195, 12.7169), (3.0, 0.25, 54.8336, 3.7025),
        (0.3, 1.0, 947.2880, 61.5561), (0.5, 1.0, 341.0237, 36.9337), (0.8, 0.7, 151.2791, 17.2194),
    ])
    func uiKitDurationAndDampingRatio(duration: Double, ratio: Double, stiffness: Double, damping: Double) {
        let spring = Spring(uiKitDuration: duration, dampingRatio: ratio, initialVelocity: 0)
        #expect(abs(spring.stiffness - stiffness) < 1e-3 * stiffness)
        #expect(abs(spring.damping - damping) < 1e-3 * damping)
        #expect(spring.mass == 1)
    }

    @Test func perceptualDurationAndBounce() {
        let snappy = Spring(perceptualDuration: 0.5, bounce: 0.15)
        #expect(abs(snappy.stiffness - 157.9137) < 1e-3)
        #expect(abs(snappy.damping - 21.3628) < 1e-3)
        #expect(snappy.allowsOverdamping)
        let overdamped = Spring(perceptualDuration: 0.5, bounce: -0.2)
        #expect(abs(overdamped.damping - 31.4159) < 1e-3)
    }
}
