/// `UIViewPropertyAnimator`'s timing parameters.
public enum AnimatorTiming: Sendable, Equatable {
    /// `UICubicTimingParameters`: a named curve (`init(duration:curve:animations:)`) or control points.
    case cubic(TimingFunction)
    /// `UISpringTimingParameters(dampingRatio:initialVelocity:)` (the velocity's x is used).
    case springRatio(dampingRatio: Double, initialVelocity: Double)
    /// `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`.
    case spring(Spring)
}

/// `UIViewPropertyAnimator(duration:…animations:)`, or `runningPropertyAnimator(withDuration:…)`
/// when `start` is set.
public struct PropertyAnimatorSpec: Sendable, Equatable {
    public var id: String
    public var duration: Double
    public var timing: AnimatorTiming = .cubic(.easeInEaseOut)
    /// The animations block: it runs (model values change, animations are added) when the
    /// animator first becomes active.
    public var changes: [LayerChanges] = []
    public var completion: [ScriptAction] = []
    public var scrubsLinearly = true
    public var pausesOnCompletion = false
    /// `runningPropertyAnimator`: started at once, after `delay`.
    public var start = false
    public var delay: Double = 0

    public init(id: String, duration: Double) {
        self.id = id
        self.duration = duration
    }
}

/// `UIViewAnimatingPosition`: where an animator finished.
public enum AnimatingPosition: String, Sendable, Equatable, CaseIterable {
    case end, start, current
}

/// A call on a property animator (`UIViewAnimating`, `UIViewImplicitlyAnimating`).
public enum AnimatorCall: Sendable, Equatable {
    /// `startAnimation()`, `startAnimation(afterDelay:)`.
    case start(afterDelay: Double)
    /// `pauseAnimation()`.
    case pause
    /// `stopAnimation(_ withoutFinishing:)`.
    case stop(withoutFinishing: Bool)
    /// `finishAnimation(at:)`.
    case finish(at: AnimatingPosition)
    /// `fractionComplete = x`.
    case fractionComplete(Double)
    /// `isReversed = flag`.
    case reversed(Bool)
    /// `continueAnimation(withTimingParameters:durationFactor:)`; nil keeps the animator's own.
    case continueAnimation(timing: AnimatorTiming?, durationFactor: Double)
    /// `addAnimations(_:delayFactor:)`.
    case addAnimations([LayerChanges], delayFactor: Double)
    /// `addCompletion(_:)`.
    case addCompletion([ScriptAction])
}

/// `UINavigationController.Operation` and the modal presentations.
public enum TransitionOperation: String, Sendable, Equatable, CaseIterable {
    case push, pop, present, dismiss
}

/// `UIPercentDrivenInteractiveTransition`'s settings.
public struct InteractiveSettings: Sendable, Equatable {
    public var completionSpeed: Double = 1
    public var completionCurve: TimingFunction = .easeInEaseOut

    public init() {}
}

/// A view-controller transition: `animateTransition(using:)` with its context
/// (`UIViewControllerContextTransitioning`), interactive when `interactive` is set.
public struct TransitionSpec: Sendable, Equatable {
    public var id: String
    public var operation: TransitionOperation
    /// The view controllers' root view layers and the container view's layer.
    public var from: String
    public var to: String
    public var container: String
    public var duration: Double
    public var interactive: InteractiveSettings?
    /// `animateTransition(using:)`: run when the transition begins.
    public var animateTransition: [ScriptAction] = []

    public init(
        id: String, operation: TransitionOperation, from: String, to: String, container: String, duration: Double
    ) {
        self.id = id
        self.operation = operation
        self.from = from
        self.to = to
        self.container = container
        self.duration = duration
    }
}

/// A call on an interactive transition (`UIPercentDrivenInteractiveTransition`).
public enum InteractionCall: Sendable, Equatable {
    /// `update(_:)`, clamped to 0…1.
    case update(Double)
    case finish
    case cancel
    case pause
}

/// `transitionContext.completeTransition(_:)`.
public enum CompletionArgument: Sendable, Equatable {
    case value(Bool)
    /// `completeTransition(!transitionContext.transitionWasCancelled)`.
    case notCancelled
}

/// A pan gesture driving an interactive transition (seed 004, section 4.1).
public struct PanGesture: Sendable, Equatable {
    public struct Sample: Sendable, Equatable {
        public enum State: String, Sendable, Equatable, CaseIterable {
            case began, changed, ended, cancelled
        }

        public var at: Double
        public var state: State
        public var translation: Point
        public var velocity: Point

        public init(at: Double, state: State, translation: Point, velocity: Point = .zero) {
            self.at = at
            self.state = state
            self.translation = translation
            self.velocity = velocity
        }
    }

    public enum Axis: String, Sendable, Equatable {
        case x, y
    }

    /// How samples become progress and a finish or a cancel. Each field a pan leaves out is its
    /// transition's earlier pan's (a gesture streamed one sample an input keeps its settings),
    /// or the default.
    public struct Settings: Sendable, Equatable {
        public var axis: Axis = .y
        public var distance: Double = 300
        public var progressOver: Double = 0.5
        public var velocityOver: Double = 800

        public init() {}
    }

    public var transition: String
    public var onBegan: [ScriptAction] = []
    /// nil: as the transition's earlier pan had it, else the default.
    public var axis: Axis?
    public var distance: Double?
    public var progressOver: Double?
    public var velocityOver: Double?
    public var samples: [Sample] = []

    public init(transition: String) { self.transition = transition }

    /// The settings this pan gives over `earlier`.
    public func settings(over earlier: Settings) -> Settings {
        var settings = earlier
        if let axis { settings.axis = axis }
        if let distance { settings.distance = distance }
        if let progressOver { settings.progressOver = progressOver }
        if let velocityOver { settings.velocityOver = velocityOver }
        return settings
    }
}

/// What an `if` tests.
public enum ScriptCondition: Sendable, Equatable {
    /// `finished` (or `!finished`) of a completion or `onStop`.
    case finished(Bool)
    /// `position == end|start|current` in an animator's completion.
    case position(AnimatingPosition)
    /// `transitionContext.transitionWasCancelled` (or its negation).
    case transitionWasCancelled(Bool)
}
