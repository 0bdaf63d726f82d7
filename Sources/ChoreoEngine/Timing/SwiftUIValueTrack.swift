/// One animatable value of a SwiftUI view (an `offset`'s x, an `opacity`) through its state
/// changes: what SwiftUI shows at a time when changes come while others are still animating
/// (docs/semantics.md, "SwiftUI interruptions").
///
/// The view shows its model value plus what each running animation still has to cover, an
/// offset that goes to 0 as the animation ends: a change from a to b by a timing curve adds
/// (a − b)·(1 − progress). Animations on the same value add up — a second `easeInOut` does
/// not stop the first — except springs: a `spring` (and `smooth`, `snappy`, `bouncy`,
/// `interactiveSpring`) that comes while another of those runs replaces it, starting from
/// where it was and as fast as it went, so the motion keeps its velocity. A change without an
/// animation jumps: the running animations of the value are removed.
public struct SwiftUIValueTrack: Sendable {
    /// One running animation's remaining offset.
    struct Contribution: Sendable {
        var start: Double
        /// The offset at `start` (old value − new value, plus a replaced spring's offset).
        var offset: Double
        /// The offset's rate at `start` (a replaced spring's).
        var velocity: Double
        var animation: SwiftUIAnimation
        /// When a spring's offset has settled (to 0), worked out once when it starts.
        var settled = Double.infinity

        init(start: Double, offset: Double, velocity: Double, animation: SwiftUIAnimation) {
            (self.start, self.offset, self.velocity, self.animation) = (start, offset, velocity, animation)
            if case .spring(let spring, _) = animation {
                settled = spring.settlingDuration(target: max(abs(offset), 1e-12), initialVelocity: velocity)
            } else if case .interpolatingSpring(let spring, _) = animation {
                settled = spring.settlingDuration(target: max(abs(offset), 1e-12), initialVelocity: initial)
            }
        }

        /// The spring's initial velocity: a replaced spring's, or `interpolatingSpring`'s, in
        /// fractions of the move a second towards the target.
        var initial: Double {
            if case .interpolatingSpring(_, let fraction) = animation, velocity == 0 { return -fraction * offset }
            return velocity
        }

        /// Whether it merges with the next spring: `spring(…)` and its presets.
        var merges: Bool {
            if case .spring = animation { return true }
            return false
        }

        /// The remaining offset and its rate at `time`.
        func remaining(at time: Double) -> (offset: Double, velocity: Double) {
            let t = time - start
            switch animation {
            case .spring(let spring, _), .interpolatingSpring(let spring, _):
                // The spring's own motion from `offset` towards 0, at its initial velocity.
                if t >= settled { return (0, 0) }
                let value = spring.value(target: -offset, initialVelocity: initial, time: t) + offset
                let rate = spring.velocity(target: -offset, initialVelocity: initial, time: t)
                return (value, rate)
            default:
                let progress = animation.progress(at: t)
                // The rate by a small central difference (a timing curve's derivative).
                let h = 1e-6
                let ahead = animation.progress(at: t + h)
                let behind = animation.progress(at: max(t - h, 0))
                let rate = -offset * (ahead - behind) / (t + h - max(t - h, 0))
                return (offset * (1 - progress), rate)
            }
        }
    }

    /// The model value: what the last change set.
    public private(set) var model: Double
    var contributions: [Contribution] = []

    public init(_ value: Double) { model = value }

    /// A state change at `time` to `value`, animated by `animation` (nil: at once).
    public mutating func set(_ value: Double, at time: Double, animation: SwiftUIAnimation?) {
        let jump = model - value
        model = value
        guard let animation else {
            contributions.removeAll()
            return
        }
        var offset = jump
        var velocity = 0.0
        if case .spring = animation, let index = contributions.lastIndex(where: \.merges) {
            // The new spring takes over from the one running: its offset and velocity now.
            let now = contributions[index].remaining(at: time)
            offset += now.offset
            velocity = now.velocity
            contributions.remove(at: index)
        }
        contributions.append(Contribution(start: time, offset: offset, velocity: velocity, animation: animation))
    }

    /// What the view shows at `time` (at or after the last change).
    public func value(at time: Double) -> Double {
        contributions.reduce(model) { $0 + $1.remaining(at: time).offset }
    }

    /// How fast it moves at `time`, units a second.
    public func velocity(at time: Double) -> Double {
        contributions.reduce(0) { $0 + $1.remaining(at: time).velocity }
    }
}
