/// Three box-blur passes each way over an 8-bit mask: within a few percent of a Gaussian of
/// the same radius, the blur `CALayer.shadowRadius` gives a shadow.
enum BoxBlur {
    /// `step`: bytes from one pixel's value to the next's in a row (4 for one channel of ARGB).
    static func blur(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Double, step: Int = 1
    ) {
        // Three passes of a box of half-width r approximate a Gaussian of σ ≈ radius / 2.
        guard radius.isFinite, radius > 0 else { return }
        let r = Int((min(radius, 4096) / 2).rounded())
        guard r > 0 else { return }
        var line = [Int](repeating: 0, count: max(width, height))
        for _ in 0..<3 {
            for y in 0..<height { pass(data + y * stride, count: width, step: step, r: r, line: &line) }
            for x in 0..<width { pass(data + x * step, count: height, step: stride, r: r, line: &line) }
        }
    }

    private static func pass(_ start: UnsafeMutablePointer<UInt8>, count: Int, step: Int, r: Int, line: inout [Int]) {
        for i in 0..<count { line[i] = Int(start[i * step]) }
        let window = 2 * r + 1
        var sum = 0
        for i in -r...r where i >= 0 && i < count { sum += line[i] }
        for i in 0..<count {
            start[i * step] = UInt8(min(255, (sum + window / 2) / window))
            let leaving = i - r
            let entering = i + r + 1
            if leaving >= 0 { sum -= line[leaving] }
            if entering < count { sum += line[entering] }
        }
    }
}
