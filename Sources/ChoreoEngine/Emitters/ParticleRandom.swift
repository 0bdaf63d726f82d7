/// The emitter's random numbers, counter-based: each is a pure function of the layer's seed,
/// the cell, the particle's birth index and which attribute it draws, so any particle (and any
/// frame) is computed without generating the ones before it.
///
/// The mixing function is SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014) applied to the combined counter.
struct ParticleRandom {
    let seed: UInt32
    let cell: Int
    let index: Int

    /// The attributes drawn per particle, each its own stream.
    enum Attribute: UInt64 {
        case lifetime = 1, velocity, direction, scale, spin, red, green, blue, alpha, placeX, placeY, corner
    }

    /// A uniform number in [0, 1).
    func unit(_ attribute: Attribute) -> Double {
        var z = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
        z = z &+ UInt64(truncatingIfNeeded: cell) &* 0xD1B5_4A32_D192_ED03
        z = z &+ UInt64(truncatingIfNeeded: index) &* 0x8CB9_2BA7_2F3D_8DD7
        z = z &+ attribute.rawValue &* 0xF135_7AEA_2E62_A9C5
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }

    /// `value` widened by `range`: uniform in [value − range/2, value + range/2].
    func spread(_ value: Double, _ range: Double, _ attribute: Attribute) -> Double {
        range == 0 ? value : value + range * (unit(attribute) - 0.5)
    }
}
