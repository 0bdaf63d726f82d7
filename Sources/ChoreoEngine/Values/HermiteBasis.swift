/// The cubic Hermite basis at `s` in 0…1: the weights of the start value, the start tangent,
/// the end value and the end tangent (`h00`, `h10`, `h01`, `h11`). `CAKeyframeAnimation`'s
/// `calculationMode` `.cubic` interpolates with it (Kochanek–Bartels tangents). Both sampling
/// paths, the timeline's and the compiled program's, take their weights from here, so they
/// agree to the last bit.
@inline(__always)
func hermiteBasis(_ s: Double) -> (h00: Double, h10: Double, h01: Double, h11: Double) {
    let s2 = s * s
    let s3 = s2 * s
    return (2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, -2 * s3 + 3 * s2, s3 - s2)
}
