import ChoreoEngine
import ChoreoRaster

/// A stretch of one channel that follows an animation's timing curve exactly: from `from` at
/// frame `start` to `to` at frame `end` (fractional frames), the progress between them the
/// unit curve `curve` (a `CAMediaTimingFunction`, or its part). Written as one eased keyframe
/// (Lottie `o`/`i` handles, CSS `cubic-bezier()`, a Web Animations `easing`) instead of samples.
struct EasedKey: Sendable, Equatable {
    let start: Double
    let end: Double
    let from: [Double]
    let to: [Double]
    let curve: UnitBezier

    /// The value at fraction `u` (0…1) of the way from `start` to `end`.
    func value(at u: Double) -> [Double] {
        let progress = curve.isIdentity ? u : curve.solve(min(max(u, 0), 1))
        return (0..<from.count).map { from[$0] + (to[$0] - from[$0]) * progress }
    }
}

extension BakedScene {
    /// Most snapshots taken to check eased spans, per export, beside the frames: a span beyond
    /// them is sampled (and the report says so).
    static func maxSpanSnapshots(layers: Int) -> Int { max(64, ExportLimits.maxLayerFrames / max(1, layers) / 2) }

    /// Spans, and their parts between the other spans' ends (where one animation runs alone
    /// before another joins it, as UIKit's additive animations overlap), the longer first
    /// at each start.
    static func cut(_ spans: [EasedSpan]) -> [EasedSpan] {
        var cuts = Set<Double>()
        for span in spans {
            cuts.insert(span.start)
            cuts.insert(span.end)
        }
        let sortedCuts = cuts.sorted()
        // The first cut at which `past` holds (the cuts ascending): a span's inside cuts found
        // in log time, not by a pass over every cut (a layer may hold a million spans).
        func first(where past: (Double) -> Bool) -> Int {
            var low = 0
            var high = sortedCuts.count
            while low < high {
                let middle = (low + high) / 2
                if past(sortedCuts[middle]) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        var result = spans
        for span in spans {
            let lower = first { $0 > span.start + 1e-9 }
            let upper = max(lower, first { $0 >= span.end - 1e-9 })
            guard upper > lower, upper - lower <= 64 else { continue }
            let inside = sortedCuts[lower..<upper]
            let ends = [span.start] + inside + [span.end]
            let width = span.end - span.start
            for index in 0..<(ends.count - 1) {
                guard
                    let curve = span.curve.piece(
                        from: (ends[index] - span.start) / width, to: (ends[index + 1] - span.start) / width)
                else { continue }
                result.append(EasedSpan(start: ends[index], end: ends[index + 1], curve: curve))
            }
        }
        result.sort { $0.start != $1.start ? $0.start < $1.start : $0.end > $1.end }
        var unique: [EasedSpan] = []
        for span in result where unique.last != span { unique.append(span) }
        return unique
    }

    /// Finds, for every layer's changing channels, the stretches that follow one animation's
    /// timing curve (``Timeline/easedSpans(through:)``), and keeps those the channel really
    /// follows: the values at the span's two ends are found from samples an eighth of the way
    /// in and the curve, and every frame and in-between sample inside the span (three more
    /// where it holds fewer than three frames) must lie within half the channel's tolerance of
    /// the curve between them. Spans of
    /// the same channel that overlap are kept first come, first kept.
    static func findEasedKeys(
        renderer: FrameRenderer, fps: Double, count: Int, cursor: SamplingCursor, baked: inout [Int: BakedLayer],
        shouldStop: () -> Bool = { false }
    ) throws(ExportError) {
        guard count > 1 else { return }
        let last = Double(count - 1)
        let spans = renderer.timeline.easedSpans(through: last / fps)
        // The spans each layer's channels are checked against: its own animations', and for
        // the group opacity its ancestors' too.
        var candidates: [Int: [EasedSpan]] = [:]
        for index in baked.keys.sorted() where index < spans.count {
            var list = spans[index]
            var parent = baked[index]!.parent
            var depth = 0
            while parent >= 0 && parent < spans.count && depth < spans.count {
                list += spans[parent]
                parent = baked[parent]?.parent ?? -1
                depth += 1
            }
            guard !list.isEmpty, baked[index]!.animated.contains(true) else { continue }
            candidates[index] = Self.cut(list)
        }
        guard !candidates.isEmpty else { return }
        // The times to sample: an eighth of the way in from each end (the values at the ends
        // follow from them and the curve: the engine's own ends can be the instant an
        // animation is removed), and three points inside a short span.
        func probes(_ span: EasedSpan) -> [Double] {
            let interior = Int((span.end * fps).rounded(.up)) - Int((span.start * fps).rounded(.down)) - 1
            let width = span.end - span.start
            var times = [span.start + width / 8, span.end - width / 8]
            if interior < 3 { times += [span.start + width / 4, span.start + width / 2, span.start + 3 * width / 4] }
            return times
        }
        let budget = maxSpanSnapshots(layers: renderer.timeline.layers.count)
        var needed: [Double: Set<Int>] = [:]
        var admitted: [Int: [EasedSpan]] = [:]
        outer: for index in candidates.keys.sorted() {
            for span in candidates[index]! {
                let times = probes(span)
                let fresh = times.filter { needed[$0] == nil }.count
                if needed.count + fresh > budget { break outer }
                for time in times { needed[time, default: []].insert(index) }
                admitted[index, default: []].append(span)
            }
        }
        var values: [Int: [Double: [[Double]]]] = [:]
        for time in needed.keys.sorted() {
            if shouldStop() { throw .cancelled }
            let near = min(max(0, Int((time * fps).rounded(.down))), count - 1)
            let rows = Self.rows(
                renderer.snapshot(at: time, cursor: cursor), near: near, renderer: renderer, baked: baked,
                only: needed[time]!)
            for index in needed[time]! { values[index, default: [:]][time] = rows[index] }
        }
        for (index, list) in admitted {
            guard var layer = baked[index], let sampled = values[index] else { continue }
            for channel in Channel.allCases where channel != .matrix && layer.animated[channel.rawValue] {
                let tolerance = channel.tolerance
                var kept: [EasedKey] = []
                for span in list {
                    let startFrame = span.start * fps
                    let endFrame = span.end * fps
                    if let previous = kept.last, previous.end > startFrame + 1e-6 { continue }
                    let times = probes(span)
                    guard let near = sampled[times[0]]?[channel.rawValue],
                        let far = sampled[times[1]]?[channel.rawValue]
                    else { continue }
                    // v(u) = from + (to − from) · curve(u), known at u = 1/8 and 7/8.
                    let e1 = span.curve.solve(1.0 / 8)
                    let e2 = span.curve.solve(7.0 / 8)
                    guard abs(e2 - e1) > 1e-6 else { continue }
                    let change = zip(near, far).map { ($1 - $0) / (e2 - e1) }
                    let from = zip(near, change).map { $0 - $1 * e1 }
                    let to = zip(from, change).map { $0 + $1 }
                    // A channel the span does not move is left to the samples.
                    guard zip(from, to).contains(where: { abs($0 - $1) > tolerance }) else { continue }
                    let key = EasedKey(start: startFrame, end: endFrame, from: from, to: to, curve: span.curve)
                    func fits(_ frame: Double, _ lanes: ArraySlice<Double>) -> Bool {
                        let expected = key.value(at: (frame - startFrame) / (endFrame - startFrame))
                        return zip(expected, lanes).allSatisfy { abs($0 - $1) <= tolerance / 2 }
                    }
                    var good = true
                    var frame = max(0, Int((startFrame + 1e-6).rounded(.up)))
                    while good && Double(frame) < endFrame - 1e-6 && frame < count {
                        good = fits(Double(frame), layer.value(channel, frame: frame))
                        frame += 1
                    }
                    for step in layer.steps[channel.rawValue]
                    where good && step.frame > startFrame + 1e-6 && step.frame < endFrame - 1e-6 {
                        good = fits(step.frame, step.values[...])
                    }
                    for time in times.dropFirst(2) where good {
                        guard let lanes = sampled[time]?[channel.rawValue] else {
                            good = false
                            break
                        }
                        good = fits(time * fps, lanes[...])
                    }
                    if good { kept.append(key) }
                }
                layer.eased[channel.rawValue] = kept
            }
            baked[index] = layer
        }
    }
}
