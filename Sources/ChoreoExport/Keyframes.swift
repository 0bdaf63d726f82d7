import ChoreoEngine

/// A channel's samples reduced to the keyframes a player needs. Stretches that follow an
/// animation's timing curve (``EasedKey``) are two keyframes with that curve between them;
/// elsewhere a sample is kept when the straight line between its neighbours among the kept
/// samples would miss a sample by more than the channel's tolerance. Every sample is then
/// within the tolerance of the export.
///
/// The samples are the frames' and, where a value changes at once between two frames, the two
/// sides of the change at fractional frames (``BakedScene/findSteps(renderer:fps:count:cursor:baked:)``).
struct Keyframes: Sendable {
    /// Kept samples' frames (fractional where a step or an eased stretch is), increasing; the
    /// first and last always.
    let frames: [Double]
    let width: Int
    let tolerance: Double
    /// The timing curves to the next sample, by kept sample; none (a straight line) for most:
    /// a curve is a solver of 224 bytes, so only the eased samples hold one.
    private let curveTable: [Int: UnitBezier]
    /// Per kept sample, whether its value holds until the next one, where it changes at once:
    /// the two sides of a step (``BakedScene/findSteps(renderer:fps:count:cursor:baked:)``),
    /// less than a thousandth of a frame apart. A Lottie hold keyframe, CSS `steps(1, end)`.
    let holds: [Bool]
    /// The kept samples' values, `width` each.
    private let kept: [Double]

    init(
        samples: [Double], width: Int, tolerance: Double, steps: [(frame: Double, values: [Double])] = [],
        eased: [EasedKey] = []
    ) {
        self.width = width
        self.tolerance = tolerance
        // Frames and steps in time order (a step's two sides fall strictly between two frames),
        // without those inside an eased stretch, whose ends stand for them.
        var merged: [(time: Double, values: ArraySlice<Double>, curve: UnitBezier?)] =
            (0..<(samples.count / width)).map { (Double($0), samples[($0 * width)..<($0 * width + width)], nil) }
        for step in steps where step.values.count == width { merged.append((step.frame, step.values[...], nil)) }
        if !eased.isEmpty {
            // A sample on an eased stretch's end that differs from it is the value after a
            // change at that instant (the animation removed): it stays, and the stretch ends
            // 1/2,048 of a frame earlier, as a step's two sides are apart.
            var keys = eased
            for (index, key) in keys.enumerated() {
                let after = merged.contains { sample in
                    abs(sample.time - key.end) < 1e-6
                        && zip(sample.values, key.to).contains { abs($0 - $1) > tolerance }
                }
                if after && key.end - key.start > 2.0 / 2_048 {
                    keys[index] = EasedKey(
                        start: key.start, end: key.end - 1.0 / 2_048, from: key.from, to: key.to, curve: key.curve)
                }
            }
            merged.removeAll { sample in
                keys.contains { sample.time >= $0.start - 1e-6 && sample.time <= $0.end + 1e-6 }
            }
            for key in keys {
                merged.append((key.start, key.from[...], key.curve))
                merged.append((key.end, key.to[...], nil))
            }
        }
        // At one time an eased stretch's end comes before the next one's start.
        merged.sort { ($0.time, $0.curve == nil ? 0 : 1) < ($1.time, $1.curve == nil ? 0 : 1) }
        // Straight stretches between eased ones are reduced each on its own; an eased
        // stretch's start ends a run and its end begins the next, so both are kept.
        var times: [Double] = []
        var values: [Double] = []
        var curves: [Int: UnitBezier] = [:]
        var run: [(time: Double, values: ArraySlice<Double>, curve: UnitBezier?)] = []
        func flush() {
            for index in Self.reduce(run.map(\.time), run.flatMap(\.values), width: width, tolerance: tolerance) {
                if let last = times.last, abs(last - run[index].time) < 1e-9 {
                    // One stretch's end and the next one's start: one keyframe, with the curve.
                    if let curve = run[index].curve { curves[times.count - 1] = curve }
                    continue
                }
                times.append(run[index].time)
                values += run[index].values
                if let curve = run[index].curve { curves[times.count - 1] = curve }
            }
            run = []
        }
        for sample in merged {
            run.append(sample)
            if sample.curve != nil { flush() }
        }
        flush()
        frames = times
        kept = values
        curveTable = curves
        holds = times.indices.map { index in
            guard index + 1 < times.count, curves[index] == nil, times[index + 1] - times[index] < 1e-3 else {
                return false
            }
            return (0..<width).contains { lane in
                abs(values[index * width + lane] - values[(index + 1) * width + lane]) > tolerance / 10
            }
        }
    }

    /// The samples a linear player keeps (indices into `times`): the first, the last, and each
    /// whose omission would put a line more than `tolerance` from a sample.
    static func reduce(_ times: [Double], _ values: [Double], width: Int, tolerance: Double) -> [Int] {
        let count = times.count
        guard count > 2 else { return Array(0..<count) }
        func fits(_ start: Int, _ end: Int) -> Bool {
            let span = times[end] - times[start]
            guard span > 0 else { return false }
            for index in (start + 1)..<end {
                let t = (times[index] - times[start]) / span
                for lane in 0..<width {
                    let a = values[start * width + lane]
                    let b = values[end * width + lane]
                    if abs(a + (b - a) * t - values[index * width + lane]) > tolerance { return false }
                }
            }
            return true
        }
        var indices = [0]
        var start = 0
        var end = 2
        while end < count {
            if !fits(start, end) {
                indices.append(end - 1)
                start = end - 1
            }
            end += 1
        }
        indices.append(count - 1)
        return indices
    }

    /// Whether every stretch between kept samples is an eased one, a hold (the same value at
    /// both ends, to a tenth of the tolerance) or a step (shorter than a thousandth of a
    /// frame): nothing was sampled.
    var isExact: Bool {
        guard frames.count > 1 else { return true }
        for index in 0..<(frames.count - 1) where curveTable[index] == nil {
            if frames[index + 1] - frames[index] < 1e-3 { continue }
            let a = values(index)
            let b = values(index + 1)
            if zip(a, b).contains(where: { abs($0 - $1) > tolerance / 10 }) { return false }
        }
        return true
    }

    /// How many stretches follow a timing curve.
    var curveCount: Int { curveTable.count }

    /// The timing curve from kept sample `index` to the next, nil for a straight line.
    func curve(_ index: Int) -> UnitBezier? { curveTable[index] }

    /// The value at frame `frame` (fractional between frames), as a player computes it.
    func value(at frame: Double) -> [Double] {
        let last = frames.count - 1
        if frame <= frames[0] || last == 0 { return Array(values(0)) }
        if frame >= frames[last] { return Array(values(last)) }
        var low = 0
        var high = last
        while high - low > 1 {
            let middle = (low + high) / 2
            if frames[middle] <= frame { low = middle } else { high = middle }
        }
        if holds[low] { return Array(values(low)) }
        var t = (frame - frames[low]) / (frames[high] - frames[low])
        if let curve = curveTable[low], !curve.isIdentity { t = curve.solve(t) }
        let a = values(low)
        let b = values(high)
        return (0..<width).map { lane in a[a.startIndex + lane] + (b[b.startIndex + lane] - a[a.startIndex + lane]) * t
        }
    }

    /// The values of kept sample `index`.
    func values(_ index: Int) -> ArraySlice<Double> { kept[(index * width)..<(index * width + width)] }
}
