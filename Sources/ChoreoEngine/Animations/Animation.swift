/// An animation as a script adds it: the `CAAnimation` family.
///
/// Timing fields are as written in the scene; the runtime resolves `beginTime` 0 to the time
/// the animation is added (plus `delay`) and `duration` 0 to the transaction's duration.
public struct Animation: Sendable, Equatable {
    /// The `forKey:` the animation is added under; adding under a key in use replaces that one.
    public var key: String?
    /// `CAMediaTiming`; `beginTime` and `duration` unresolved (0 means "default").
    public var timing = MediaTiming()
    /// A convenience: begin this many seconds after being added.
    public var delay: Double = 0
    /// `timingFunction`; `nil` means linear (or the transaction's function, when one is set).
    public var timingFunction: TimingFunction?
    /// `removedOnCompletion`.
    public var removedOnCompletion = true
    /// What the animation animates.
    public var content: Content
    /// Script actions run at `animationDidStart:` and `animationDidStop:finished:`.
    public var onStart: [ScriptAction] = []
    public var onStop: [ScriptAction] = []

    public init(content: Content) {
        self.content = content
        timing.duration = 0
    }

    /// The concrete `CAAnimation` subclasses.
    public indirect enum Content: Sendable, Equatable {
        /// `CABasicAnimation` (and `CASpringAnimation` when `spring` is set).
        case basic(PropertyAnimation, BasicValues, spring: Spring?)
        /// `CAKeyframeAnimation`.
        case keyframe(PropertyAnimation, Keyframes)
        /// `CAAnimationGroup`.
        case group([Animation])
        /// `CATransition`.
        case transition(Transition)
    }

    /// The scene-format name of the animation's type.
    public var typeName: String {
        switch content {
        case .basic(_, _, let spring): spring == nil ? "basic" : "spring"
        case .keyframe: "keyframe"
        case .group: "group"
        case .transition: "transition"
        }
    }
}

/// The `CAPropertyAnimation` part: what is animated and how values combine.
public struct PropertyAnimation: Sendable, Equatable {
    public var keyPath: KeyPath
    public var additive = false
    public var cumulative = false

    public init(keyPath: KeyPath, additive: Bool = false, cumulative: Bool = false) {
        self.keyPath = keyPath
        self.additive = additive
        self.cumulative = cumulative
    }
}

/// `fromValue`, `toValue` and `byValue` of `CABasicAnimation`.
public struct BasicValues: Sendable, Equatable {
    public var from: Value?
    public var to: Value?
    public var by: Value?

    public init(from: Value? = nil, to: Value? = nil, by: Value? = nil) {
        self.from = from
        self.to = to
        self.by = by
    }
}

/// `CAAnimationCalculationMode`.
public enum CalculationMode: String, Sendable, Equatable {
    case linear, discrete, paced, cubic, cubicPaced
}

/// `CAAnimationRotationMode`.
public enum RotationMode: String, Sendable, Equatable {
    case auto, autoReverse
}

/// The `CAKeyframeAnimation` fields.
public struct Keyframes: Sendable, Equatable {
    public var values: [Value] = []
    public var path: BezierPath?
    public var keyTimes: [Double]?
    public var timingFunctions: [TimingFunction]?
    public var calculationMode: CalculationMode = .linear
    public var rotationMode: RotationMode?
    public var tensionValues: [Double]?
    public var continuityValues: [Double]?
    public var biasValues: [Double]?

    public init() {}
}

/// `CATransition`'s type and direction.
public struct Transition: Sendable, Equatable {
    /// The public types, and the private ones UIKit's view transitions use (`oglFlip`,
    /// `pageCurl`, `pageUnCurl`), named here `flip`, `curlUp` and `curlDown`.
    public enum Kind: String, Sendable, Equatable { case fade, moveIn, push, reveal, flip, curlUp, curlDown }
    public enum Subtype: String, Sendable, Equatable { case fromLeft, fromRight, fromTop, fromBottom }

    public var kind: Kind = .fade
    public var subtype: Subtype = .fromLeft
    public var startProgress: Double = 0
    public var endProgress: Double = 1

    public init() {}
}
