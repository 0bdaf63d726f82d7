/// A channel's samples reduced to the keyframes a linear player needs: a sample is kept when the
/// straight line between its neighbours among the kept samples would miss a sample by more than
/// the channel's tolerance. Every sample is then within the tolerance of the export.
///
/// The samples are the frames' and, where a value changes at once between two frames, the two
/// sides of the change at fractional frames (``BakedScene/findSteps(renderer:fps:count:cursor:baked:)``).
struct Keyframes: Sendable {
    /// Kept samples' frames (fractional where a step is), increasing; the first and last always.
    let frames: [Double]
    let width: Int
    /// The kept samples' values, `width` each.
    private let kept: [Double]

    init(samples: [Double], width: Int, tolerance: Double, steps: [(frame: Double, values: [Double])] = []) {
        self.width = width
        // Frames and steps in time order (a step's two sides fall strictly between two frames).
        var times = (0..<(samples.count / width)).map(Double.init)
        var values = samples
        if !steps.isEmpty {
            var merged: [(Double, ArraySlice<Double>)] = times.indices.map {
                (times[$0], samples[($0 * width)..<($0 * width + width)])
            }
            for step in steps where step.values.count == width { merged.append((step.frame, step.values[...])) }
            merged.sort { $0.0 < $1.0 }
            times = merged.map(\.0)
            values = merged.flatMap(\.1)
        }
        let count = times.count
        guard count > 2 else {
            frames = times
            kept = values
            return
        }
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
        frames = indices.map { times[$0] }
        kept = indices.flatMap { values[($0 * width)..<($0 * width + width)] }
    }

    /// The value at frame `frame` (fractional between frames), as a linear player computes it.
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
        let t = (frame - frames[low]) / (frames[high] - frames[low])
        let a = values(low)
        let b = values(high)
        return (0..<width).map { lane in a[a.startIndex + lane] + (b[b.startIndex + lane] - a[a.startIndex + lane]) * t
        }
    }

    /// The values of kept sample `index`.
    func values(_ index: Int) -> ArraySlice<Double> { kept[(index * width)..<(index * width + width)] }
}
