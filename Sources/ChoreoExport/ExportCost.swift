import ChoreoEngine

/// What an export will cost, counted from the run's animations before any frame is sampled
/// (docs/limits.md): the keyframes the animations play in the exported span, which eased
/// stretches and added animations are made of, and how many times animations are sampled,
/// since every snapshot of the presentation tree (`CALayer.presentation()`) evaluates each
/// animation attached then. A scene of few layers can hold many animations: a SwiftUI
/// keyframe track is a group of one animation a keyframe, and a repeating one plays them all
/// again every pass, so layers alone say little of the work.
public struct ExportCost: Sendable, Equatable {
    /// The frames sampled at the export's rate.
    public let frames: Int
    /// The animations (leaves) attached at some time of the span.
    public let animations: Int
    /// The keyframes they play in the span, repeats included, each eased stretch once more for
    /// its layer and for each of its sublayers (they check it).
    public let keyframes: Double
    /// Animations × the times they are sampled while attached: at every frame, and at the
    /// points an export checks eased stretches at (at most ``BakedScene/maxSpanSnapshots(layers:)``).
    public let samples: Double
    /// The span's length, seconds.
    public let duration: Double
    public let fps: Double

    /// The cost of exporting `timeline` from 0 through `end` at `fps`. Linear in the leaves.
    public init(_ timeline: Timeline, end: Double, fps: Double) {
        let played = timeline.playedKeyframes(through: end)
        let span = end * fps - 1e-6
        let frames = span.isFinite ? max(0, Int(min(1e9, span.rounded(.up)))) + 1 : 1
        let probes = min(
            Double(BakedScene.maxSpanSnapshots(layers: timeline.layers.count)), 5 * played.checkedStretches)
        // The animations attached on average over the span.
        let share = end > 0 ? played.attachedSeconds / end : Double(played.animations)
        self.frames = frames
        animations = played.animations
        keyframes = (played.keyframes + played.checkedStretches).rounded(.up)
        samples = (share * (Double(frames) + probes)).rounded(.up)
        duration = end
        self.fps = fps
    }

    /// Refuses an export over ``ExportLimits/maxKeyframes`` or ``ExportLimits/maxSamples``:
    /// the figure, the limit and what lowers it, as a render over its samples is refused.
    public func check() throws(ExportError) {
        let span = "the \(Self.grouped(duration)) s exported"
        if keyframes > Double(ExportLimits.maxKeyframes) {
            throw .tooLarge(
                "body",
                "the export would follow \(Self.grouped(keyframes)) keyframes (what \(Self.grouped(Double(animations))) animations play in \(span), their repeats included); an export follows at most \(Self.grouped(Double(ExportLimits.maxKeyframes))): fewer keyframes, animations or repeats, or a shorter scene"
            )
        }
        if samples > Double(ExportLimits.maxSamples) {
            throw .tooLarge(
                "query.fps",
                "the export would sample animations \(Self.grouped(samples)) times (\(Self.grouped(Double(animations))) animations over \(frames) frames at \(Self.grouped(fps)) fps in \(span)); an export samples at most \(Self.grouped(Double(ExportLimits.maxSamples))): a lower fps, fewer animations or a shorter scene"
            )
        }
    }

    /// `7507500` as `7,507,500`; a fraction kept to three places (`0.125`).
    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "∞" : "0" }
        let whole = value.rounded(.towardZero)
        var digits = String(Int(min(abs(whole), 9e18)))
        var parts: [Substring] = []
        while digits.count > 3 {
            parts.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        parts.insert(Substring(digits), at: 0)
        var text = (value < 0 ? "-" : "") + parts.joined(separator: ",")
        let fraction = Int(((abs(value) - abs(whole)) * 1000).rounded())
        if fraction > 0 && fraction < 1000 {
            var decimals = String(fraction)
            while decimals.count < 3 { decimals = "0" + decimals }
            while decimals.hasSuffix("0") { decimals.removeLast() }
            text += "." + decimals
        }
        return text
    }
}
