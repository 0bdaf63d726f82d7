/// How a round is staged: the `round` part of the arena configuration.
public struct ArenaRoundSettings: Sendable, Equatable {
    /// Seconds between two nodes' battles (the seed's `i × 1.2 s`).
    public var stagger = 1.2
    /// Movement becomes cross-fades and state changes (`UIAccessibilityIsReduceMotionEnabled`).
    public var reduceMotion = false

    public init(stagger: Double = 1.2, reduceMotion: Bool = false) {
        self.stagger = stagger
        self.reduceMotion = reduceMotion
    }
}
