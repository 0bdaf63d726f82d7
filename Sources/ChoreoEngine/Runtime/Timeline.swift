/// Everything a scene did over time, recorded by ``SceneRunner`` and read by ``Sampler``:
/// model values, layer timing and tree shape as step functions, every animation attached with
/// the interval it was attached for, and the events and diagnostics.
public struct Timeline: Sendable {
    /// The layer tree's shape at one moment: present layers depth-first and their parents.
    public struct TreeShape: Sendable {
        /// Present layers in depth-first drawing order.
        public var order: [Int]
        /// Parent of every layer (−1 for roots and for layers not in the tree).
        public var parent: [Int]
    }

    /// One layer's recorded state.
    public struct LayerTrack: Sendable {
        public let id: String
        public let type: LayerType
        public let actions: ActionPolicy
        public let states: [NamedState]
        /// The emitter's cells and shape, for emitter layers.
        public let emitter: EmitterConfiguration?
        /// When the layer joined the scene (0 for the initial tree): emitters start there.
        public let joinedAt: Double
        /// Model values by property ordinal; none where the property never left its default.
        var model: PropertySlots<History<Value>>
        var timing: History<LayerTiming>
        /// Indices of leaves by property ordinal, in the order they were added.
        var leavesByProperty: PropertySlots<[Int]>
        /// Indices of attached `CATransition`s.
        var transitions: [Int]
        /// Whether a path keyframe animation with `rotationMode` was ever added (it turns `transform`).
        var hasPathRotation = false
        /// Properties that some animation targets, for the default response.
        public internal(set) var animatedProperties = LayerPropertySet()
        /// A copy a `CAReplicatorLayer` draws of one of its sublayers (or of a layer below
        /// one), made after the run (``expandReplicators()``): its values are the source's,
        /// derived at each time. Nil for the layers of the scene.
        public internal(set) var replica: Replica?
        /// Whether the layer is ever below a replicator: its colours are then multiplied by
        /// its instance's colour (`instanceColor` and the offsets).
        public internal(set) var underReplicator = false
        /// The layer's mask (`CALayer.mask`), −1 for none; and for a mask, the layer it masks.
        /// A mask is never in the tree: what draws the layer draws it as its alpha.
        public internal(set) var mask = -1
        public internal(set) var maskOf = -1

        /// The model value of a property at a scene time.
        @inline(__always)
        public func modelValue(_ property: LayerProperty, at time: Double) -> Value {
            model[property.ordinal]?.value(at: time) ?? property.defaultValue
        }

        /// Whether no `CATransition` was ever added to the layer.
        public var transitionsEmpty: Bool { transitions.isEmpty }
        /// Whether the layer's own timing (speed, beginTime, timeOffset) never changes.
        public var timingIsConstant: Bool { timing.isConstant }

        /// Whether the layer ever has the given property set or animated.
        public func hasTrack(_ property: LayerProperty) -> Bool { model[property.ordinal] != nil }
    }

    /// A top-level animation as attached to a layer: what the response's `animations` member
    /// says of it, its leaves, and a `CATransition`'s own timing. Its timing, which only the
    /// run reads, stays with the runner (``LiveAnimations/scripts``): a scene keeps one of
    /// these per animation, 120 bytes instead of 224.
    public struct AttachedAnimation: Sendable {
        public let layer: Int
        public let key: String?
        public let typeName: String
        public let addedAt: Double
        public internal(set) var removedAt: Double = .infinity
        public internal(set) var startedAt: Double?
        public internal(set) var stoppedAt: Double?
        public internal(set) var finished: Bool?
        /// The keyPath of a property animation (nil for groups and transitions).
        public let keyPath: KeyPath?
        /// Its leaves in ``Timeline/leaves`` are made one after another when it is added: a
        /// first and a count (an array per animation cost 48 bytes more each).
        @Index32 var firstLeaf: Int
        /// `CASpringAnimation.settlingDuration`, for springs.
        public let settlingDuration: Double?
        @Index32 var leafCount: Int
        /// The clock it runs on (an animator's, an interactive transition's), or −1.
        public internal(set) var clock = -1
        /// A `CATransition`'s type and timing, which its frames read; nil for the others.
        let transition: TransitionTiming?

        /// Its leaves, indices into ``Timeline/leaves``.
        var leaves: Range<Int> { firstLeaf..<(firstLeaf + leafCount) }
    }

    /// What the frames of a `CATransition` read: its type and its timing (the layer's time
    /// mapped through `CAMediaTiming`, then its timing function). Boxed: only transitions
    /// have one.
    final class TransitionTiming: Sendable {
        let transition: Transition
        let timing: MediaTiming
        let timingFunction: TimingFunction

        init(transition: Transition, timing: MediaTiming, timingFunction: TimingFunction) {
            self.transition = transition
            self.timing = timing
            self.timingFunction = timingFunction
        }
    }

    public internal(set) var layers: [LayerTrack] = []
    public internal(set) var layerIndex: [String: Int] = [:]
    public internal(set) var shape: History<TreeShape>
    public internal(set) var leaves: [AnimationLeaf] = []
    /// Whether the leaves were let go (``releaseLeaves()``): nothing may read a value through
    /// the timeline any more.
    public private(set) var leavesReleased = false
    /// Clocks of animators and interactive transitions (``ClockSegment``): leaves that name one
    /// take their local time from it instead of their layer's time.
    public internal(set) var clocks: [History<ClockSegment>] = []
    /// Property animators, for the frames' `animators` member.
    public internal(set) var animators: [AnimatorTrack] = []
    /// View-controller transitions, for the frames' `transitions` member.
    public internal(set) var transitions: [TransitionTrack] = []

    /// A `UIViewPropertyAnimator` over time.
    public struct AnimatorTrack: Sendable {
        public let id: String
        /// Its clock in ``Timeline/clocks``: `fractionComplete` is the clock's fraction.
        public let clock: Int
        public internal(set) var status: History<AnimatorStatus>
    }

    /// `UIViewAnimatingState`, `isRunning` and `isReversed` of an animator.
    public struct AnimatorStatus: Sendable, Equatable {
        /// `inactive`, `active` or `stopped`.
        public var state: String
        public var running: Bool
        public var isReversed: Bool
    }

    /// A view-controller transition over time.
    public struct TransitionTrack: Sendable {
        public let id: String
        /// The interaction's clock (its local time is `percentComplete · duration`), or −1.
        public let clock: Int
        public let duration: Double
        public let begunAt: Double
        /// `interactive`, `finishing`, `cancelling`, `animating` (not interactive) or `completed`,
        /// with the percentage reached when it completed.
        public internal(set) var phase: History<TransitionPhase>
    }

    public struct TransitionPhase: Sendable, Equatable {
        public var name: String
        public var completedPercent: Double?
    }
    public internal(set) var animations: [AttachedAnimation] = []
    public internal(set) var events: [Event] = []
    public internal(set) var diagnostics: [Diagnostic] = []
    /// The last scene time at which anything changed (finite animations' ends included).
    public internal(set) var lastChange: Double = 0
    /// Whether something runs for ever (an infinitely repeating animation).
    public internal(set) var neverSettles = false

    init() {
        shape = History(initial: TreeShape(order: [], parent: []))
    }

    /// How far the run looked (see ``SceneRunner/run(_:horizon:)``).
    public internal(set) var horizon = Limits.neverSettlesHorizon

    /// The scene's canvas, for pictures.
    public internal(set) var canvas: Canvas?

    /// The scene's natural end: the last change, or the run's horizon for scenes that never settle.
    public var naturalEnd: Double { neverSettles ? max(horizon, lastChange) : lastChange }
}

extension Timeline {
    /// Lets go of the leaves (each animation as ``presentationValue(layer:keyPath:at:map:)``
    /// samples it) of a timeline whose frames a compiled program samples whole: a JSON or
    /// NDJSON render whose columns all compiled (``FramePlan``). Nothing reads them afterwards,
    /// and a 10,000-layer scene's are about 10 MB. Reading a value through the timeline after
    /// this is a programming error, stopped by a precondition, never a wrong value.
    mutating func releaseLeaves() {
        leaves = []
        for index in layers.indices { layers[index].leavesByProperty = PropertySlots() }
        leavesReleased = true
    }
}
