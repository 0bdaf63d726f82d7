/// `UIView.animate(withDuration:delay:[usingSpringWithDamping:initialSpringVelocity:]options:animations:completion:)`.
///
/// The changes set the model values at once; each changed animatable property gets an
/// additive animation from (old − new) to zero that stacks on any already in flight (the
/// iOS 8 behaviour), or with `beginFromCurrentState` a plain one from the current
/// presentation value.
public struct ViewAnimation: Sendable, Equatable {
    public var duration: Double
    public var delay: Double = 0
    public var options = ViewAnimationOptions()
    /// `usingSpringWithDamping:initialSpringVelocity:`.
    public var spring: ViewSpring?
    /// A spring given by its physics (a property animator's `UISpringTimingParameters(mass:…)`).
    public var physics: Spring?
    /// Whether the block reports `animateCompleted` (a property animator's blocks report through it).
    var reportsCompletion = true
    public var changes: [LayerChanges] = []
    /// An optional label, reported with the `animateCompleted` event.
    public var name: String?
    public var completion: [ScriptAction] = []

    public init(duration: Double) { self.duration = duration }
}

/// The damping ratio and initial velocity of a UIKit spring block.
public struct ViewSpring: Sendable, Equatable {
    public var dampingRatio: Double
    /// In fractions of the animated distance per second, as UIKit's `initialSpringVelocity`.
    public var initialVelocity: Double

    public init(dampingRatio: Double, initialVelocity: Double) {
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
    }
}

/// `UIView.AnimationOptions` (and the keyframe options that share them).
public struct ViewAnimationOptions: Sendable, Equatable {
    /// `curveEaseInOut` (the default), `curveEaseIn`, `curveEaseOut`, `curveLinear`.
    public var curve: TimingFunction = .easeInEaseOut
    public var beginFromCurrentState = false
    /// `repeat`: repeats for ever.
    public var repeats = false
    public var autoreverses = false
    public var overrideInheritedDuration = false
    public var overrideInheritedCurve = false
    /// `calculationMode…` of `animateKeyframes`.
    public var calculationMode: CalculationMode = .linear

    public init() {}
}
