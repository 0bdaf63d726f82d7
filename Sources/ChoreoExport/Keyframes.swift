/// A channel's samples reduced to the keyframes a linear player needs: a frame is kept when the
/// straight line between its neighbours among the kept frames would miss a sample by more than
/// the channel's tolerance. Every sampled frame is then within the tolerance of the export.
struct Keyframes: Sendable {
    /// Kept frame numbers, increasing; the first and last frames always.
    let frames: [Int]
    let width: Int
    let samples: [Double]

    init(samples: [Double], width: Int, tolerance: Double) {
        self.samples = samples
        self.width = width
        let count = samples.count / width
        guard count > 2 else {
            frames = Array(0..<count)
            return
        }
        var kept = [0]
        var start = 0
        var end = 2
        func fits(_ start: Int, _ end: Int) -> Bool {
            let span = Double(end - start)
            for frame in (start + 1)..<end {
                let t = Double(frame - start) / span
                for lane in 0..<width {
                    let a = samples[start * width + lane]
                    let b = samples[end * width + lane]
                    if abs(a + (b - a) * t - samples[frame * width + lane]) > tolerance { return false }
                }
            }
            return true
        }
        while end < count {
            if !fits(start, end) {
                kept.append(end - 1)
                start = end - 1
            }
            end += 1
        }
        kept.append(count - 1)
        frames = kept
    }

    /// The value at frame `frame` (fractional between frames), as a linear player computes it.
    func value(at frame: Double) -> [Double] {
        let last = frames[frames.count - 1]
        if frame <= 0 || frames.count == 1 { return Array(samples[0..<width]) }
        if frame >= Double(last) { return Array(samples[(last * width)..<(last * width + width)]) }
        var low = 0
        var high = frames.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if Double(frames[middle]) <= frame { low = middle } else { high = middle }
        }
        let a = frames[low]
        let b = frames[high]
        let t = (frame - Double(a)) / Double(b - a)
        return (0..<width).map { lane in
            let from = samples[a * width + lane]
            return from + (samples[b * width + lane] - from) * t
        }
    }

    /// The kept keyframes' values.
    func values(_ index: Int) -> ArraySlice<Double> {
        let frame = frames[index]
        return samples[(frame * width)..<(frame * width + width)]
    }
}
