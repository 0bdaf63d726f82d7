/// `UIView.animateKeyframes(withDuration:delay:options:animations:completion:)` with its
/// `addKeyframe(withRelativeStartTime:relativeDuration:animations:)` calls.
///
/// Each property changed by some keyframe gets one `CAKeyframeAnimation` over the whole
/// duration, through the values the keyframes set at their relative times; the model takes
/// the last value at once.
public struct ViewKeyframes: Sendable, Equatable {
    /// One `addKeyframe` call: times are fractions (0…1) of the whole duration.
    public struct Keyframe: Sendable, Equatable {
        public var relativeStartTime: Double
        public var relativeDuration: Double
        public var changes: [LayerChanges]

        public init(relativeStartTime: Double, relativeDuration: Double, changes: [LayerChanges]) {
            self.relativeStartTime = relativeStartTime
            self.relativeDuration = relativeDuration
            self.changes = changes
        }
    }

    public var duration: Double
    public var delay: Double = 0
    public var options = ViewAnimationOptions()
    public var keyframes: [Keyframe] = []
    public var name: String?
    public var completion: [ScriptAction] = []

    public init(duration: Double) { self.duration = duration }
}
