/// How much animation a run plays between two scene times, counted from the animations'
/// timing alone, without sampling a frame: what an export (which follows every animation at
/// every frame it samples, and lists the keyframes of each pass) is bounded by before its work.
public struct PlayedKeyframes: Sendable, Equatable {
    /// The animation leaves (each `CAPropertyAnimation`, a `CAAnimationGroup`'s children one by
    /// one) attached at some time of the window.
    public var animations = 0
    /// The keyframes they play: for each, its segments (a `CABasicAnimation` one, a
    /// `CAKeyframeAnimation` one per key-time segment) × its passes in the window (its
    /// `repeatCount` or `repeatDuration`, its groups' repeats, its layer's `speed` included).
    public var keyframes = 0.0
    /// The seconds of scene time they are attached for within the window, summed.
    public var attachedSeconds = 0.0
    /// Of ``keyframes``, those that can be eased stretches (``Timeline/easedSpans(through:)``:
    /// outside groups, a cubic `CABasicAnimation` or a linear or paced `CAKeyframeAnimation`,
    /// at most 256 passes), each counted once for its layer and once for every sublayer under
    /// it at the start, as every one of them checks its group opacity against it.
    public var checkedStretches = 0.0

    public init() {}
}

extension Timeline {
    /// Most passes counted for one leaf: a count beyond it is over any bound already.
    static let maxCountedPasses = 1e15

    /// The animations attached between scene times 0 and `end`, and the keyframes they play
    /// there (``PlayedKeyframes``). Linear in the leaves; empty once the leaves are released.
    package func playedKeyframes(through end: Double) -> PlayedKeyframes {
        var played = PlayedKeyframes()
        guard !leavesReleased else { return played }
        let end = max(0, end)
        // Every layer's sublayers at the start, itself included.
        let start = shape.value(at: 0)
        var subtree = [Double](repeating: 1, count: layers.count)
        for index in start.order.reversed() where index < start.parent.count {
            let parent = start.parent[index]
            if parent >= 0 && parent < subtree.count { subtree[parent] += subtree[index] }
        }
        for leaf in leaves {
            let from = max(0, leaf.addedAt)
            let to = min(end, leaf.removedAt)
            guard from <= to, leaf.addedAt < leaf.removedAt else { continue }
            played.animations += 1
            played.attachedSeconds += to - from
            // The rate its layer's time runs at (an animator's clock runs with scene time).
            var rate = 1.0
            let owner = leaf.owner
            let layer = owner >= 0 && owner < animations.count ? animations[owner].layer : -1
            let known = layer >= 0 && layer < layers.count
            if leaf.clock < 0, known {
                rate = max(abs(timeMap(of: layer, at: from).scale), abs(timeMap(of: layer, at: to).scale))
            }
            let passes = Self.passes(of: leaf.body, for: (to - from) * rate)
            let segments = Double(Self.segments(of: leaf.body))
            played.keyframes += segments * passes
            if known, leaf.clock < 0, Self.mayEase(leaf.body), passes * 2 < Double(Self.maxSpansPerAnimation) {
                played.checkedStretches += segments * passes * subtree[layer]
            }
        }
        return played
    }

    /// A leaf's key-time segments in one pass.
    static func segments(of body: AnimationLeafBody) -> Int {
        switch body.curve {
        case .basic: 1
        case .keyframes(let track): max(1, track.keyTimes.count - 1)
        }
    }

    /// Whether a leaf's passes can be eased stretches: outside groups, a `CABasicAnimation`
    /// (not a spring) with a cubic timing function, or a `CAKeyframeAnimation` in the linear or
    /// paced mode without a `rotationMode`.
    static func mayEase(_ body: AnimationLeafBody) -> Bool {
        guard body.groups.isEmpty else { return false }
        switch body.curve {
        case .basic(_, let spring):
            guard spring == nil, case .bezier = body.timingFunction else { return false }
            return true
        case .keyframes(let track):
            return track.rotationMode == nil && (track.mode == .linear || track.mode == .paced)
        }
    }

    /// The passes a leaf plays over `window` seconds of its layer's time: through each
    /// enclosing group, outermost first, then its own timing, the cycles of each that the
    /// time it runs for holds (one at least), times one another; a child runs at most its
    /// group's `duration` a cycle.
    static func passes(of body: AnimationLeafBody, for window: Double) -> Double {
        var parentTime = window
        var passes = 1.0
        for timing in body.groups.map(\.timing) + [body.timing] {
            let elapsed = min(parentTime * abs(timing.speed), timing.activeDuration)
            if timing.duration > 0, elapsed.isFinite {
                passes *= max(1, (elapsed / timing.duration - 1e-9).rounded(.up))
            }
            if !(passes < maxCountedPasses) { return maxCountedPasses }
            parentTime = timing.duration
        }
        return passes
    }
}
