import ChoreoTestSupport
import Testing

@testable import ChoreoEngine

/// A transform that only scales and translates is split without the general steps; the parts
/// are those the general steps give, to the bit.
@Suite struct TransformComponentsTests {
    @Test func aScaleIsSplitAsTheGeneralStepsSplitIt() {
        var generator = SplitMix64(seed: 0x5CA1E)
        func unit() -> Double { Double(generator.next() >> 11) / Double(1 << 53) }
        var checked = 0
        for index in 0..<100_000 {
            let scales: (Double, Double, Double)
            switch index % 3 {
            case 0:
                // An eased transform.scale, all three the same.
                let s = 0.5 + unit() / 2
                scales = (s, s, s)
            case 1: scales = (unit() * 4 + 1e-9, unit() * 4 + 1e-9, 1)
            default:
                // Any magnitude the shortcut takes.
                func wide() -> Double {
                    Double(sign: .plus, exponent: Int(generator.next() % 601) - 300, significand: 1 + unit())
                }
                scales = (wide(), wide(), wide())
            }
            var m = Transform3D.identity
            m.m11 = scales.0
            m.m22 = scales.1
            m.m33 = scales.2
            m.m41 = unit() * 800 - 400
            m.m42 = unit() * 800 - 400
            m.m43 = index % 2 == 0 ? 0 : unit()
            guard TransformComponents.isPositiveScale(m) else { continue }
            checked += 1
            let fast = TransformComponents(m, rotation: true, diagonal: true)!
            let general = TransformComponents(m, rotation: true, diagonal: false)!
            #expect(fast.scale.x.bitPattern == general.scale.x.bitPattern, "\(m)")
            #expect(fast.scale.y.bitPattern == general.scale.y.bitPattern, "\(m)")
            #expect(fast.scale.z.bitPattern == general.scale.z.bitPattern, "\(m)")
            #expect(fast.translation.x.bitPattern == general.translation.x.bitPattern)
            #expect(fast.translation.y.bitPattern == general.translation.y.bitPattern)
            #expect(fast.translation.z.bitPattern == general.translation.z.bitPattern)
            #expect(fast == general)
        }
        #expect(checked > 99_000)
    }

    @Test func onlyAPositiveScaleTakesTheShortcut() {
        var m = Transform3D.identity
        m.m11 = 2
        #expect(TransformComponents.isPositiveScale(m))
        m.m11 = -2
        #expect(!TransformComponents.isPositiveScale(m))
        m.m11 = 2
        m.m12 = -0.0
        #expect(!TransformComponents.isPositiveScale(m))
        m.m12 = 0
        m.m34 = -0.002
        #expect(!TransformComponents.isPositiveScale(m))
    }
}
