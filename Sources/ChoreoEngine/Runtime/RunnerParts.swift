/// The layer tree as the script changes it (`addSublayer`, `removeFromSuperlayer`).
struct RunnerTree {
    var roots: [Int] = []
    var children: [[Int]] = []
    /// The parent of every layer, −1 for roots and layers out of the tree.
    var parent: [Int] = []
    /// Whether each layer is in the tree now.
    var present: [Bool] = []
    /// Whether the current turn changed the tree's shape.
    var structureChanged = false
}

/// The animations attached right now, the only ones the runner looks at, so a long-running
/// loop does not slow down as its history grows.
struct LiveAnimations {
    /// Per layer: animations attached and not yet removed, in the order added.
    var animations: [[Int]] = []
    /// Per layer and property ordinal: leaves attached and not yet removed, in the order added.
    var leaves: [PropertySlots<[Int]>] = []
    /// Leaves removed at the current instant (they still show just before it), by layer and ordinal.
    var removedThisInstant: [Int: [Int]] = [:]
    var removedThisInstantTime = -Double.infinity
    /// Removals of the current instant whose jump is judged once the instant's work is done
    /// (``RunnerState/settleSnapBacks()``): a loop that adds its animation again in the same
    /// instant shows no jump.
    var pendingSnapBacks: [RunnerState.PendingSnapBack] = []
    /// The animation last added under each key of each layer, and the path of the action that
    /// added it, for `addAgain`.
    var lastAdded: [LayerKey: AddedAnimation] = [:]
    /// Per attached animation (as numbered in ``Timeline/animations``): its callbacks, the
    /// path of the action that added it, and its timing. Only the run needs them, so the
    /// timeline does not keep them (a path is a string of its own per animation).
    var scripts: [AnimationScript] = []

    /// What the run alone reads of an attached animation: its `onStart` and `onStop`
    /// (`animationDidStart(_:)`, `animationDidStop(_:finished:)`), the JSON path of the action
    /// that added it, for the errors its callbacks raise, and when its callbacks are due.
    struct AnimationScript {
        let path: String
        let onStart: [ScriptAction]
        let onStop: [ScriptAction]
        /// Its `CAMediaTiming` in its layer's time, as attached (`beginTime` resolved).
        let timing: MediaTiming
        /// `isRemovedOnCompletion`.
        let removedOnCompletion: Bool
        /// Bumped when its layer's time map changes: callbacks queued under an older one are
        /// stale.
        var generation = 0
    }

    /// The `add` action itself, not a copy of its animation: the action's box is shared with
    /// the script, and the path with the animation's ``AnimationScript``.
    struct AddedAnimation {
        private let action: ScriptAction
        let path: String

        init(_ action: ScriptAction, path: String) {
            self.action = action
            self.path = path
        }

        var animation: Animation {
            guard case .add(let animation, _) = action else { preconditionFailure("an add action") }
            return animation
        }
    }

    struct LayerKey: Hashable {
        let layer: Int
        let key: String
    }
}

/// The run loop: the current instant, the queue of pending work, the open transactions,
/// completion blocks and deferred turns.
struct RunLoop {
    var queue = EventQueue()
    var now = 0.0
    /// Turns and callbacks run so far, against ``Limits/maxEvents``.
    var eventCount = 0
    /// Whether work was left beyond ``Limits/maxSceneTime`` (an animation ending after the
    /// longest scene): the animations still running then never settle within it.
    var workPastLongestScene = false
    /// The instant of the latest event, and the events counted at it.
    var eventInstant = -Double.infinity
    var eventsAtInstant = 0
    /// Open `CATransaction`s, innermost last; the first is the run-loop turn's implicit one.
    var transactions = [RunnerState.TransactionFrame.implicit]
    /// `UIView.performWithoutAnimation` blocks open: while any is, UIView animation blocks
    /// change their views at once.
    var viewAnimationsDisabled = 0
    /// Transaction and UIView-block completions, and the animations each waits for.
    var completionGroups: [RunnerState.CompletionGroup] = []
    /// Completion groups collecting the animations added right now, innermost last.
    var openGroups: [Int] = []
    /// The completion groups an animation belongs to.
    var groupsOfAnimation: [Int: [Int]] = [:]
    /// The `finished` flag the current turn's `if` guards test (nil outside completions).
    var currentFinished: Bool?
    /// `after` blocks and `onStop` lists waiting in the queue.
    var deferredTurns: [RunnerState.DeferredTurn] = []
    var nextSequence = 0
    /// The path of the work that was still pending at the horizon, if the run was cut.
    var stillRunning: String?
    /// Script entries by (time, document order); those before `nextEntry` have run.
    var entries: [PendingEntry] = []
    var nextEntry = 0

    struct PendingEntry {
        /// Quantized scene time.
        let at: Double
        /// The entry's index in the script (appended entries continue the numbering).
        let offset: Int
        /// Emptied once the entry has run.
        var actions: [ScriptAction]
    }
}

/// Property animators and view-controller transitions as the script drives them.
struct InteractiveState {
    var animatorIndex: [String: Int] = [:]
    var animators: [AnimatorRecord] = []
    var transitionIndex: [String: Int] = [:]
    var transitions: [TransitionRecord] = []
    /// The settings of the pans that drive each transition so far, by its id (a pan usually
    /// begins its transition in `onBegan`, so before it exists): a pan that leaves one out
    /// keeps the earlier one's.
    var panSettings: [String: PanGesture.Settings] = [:]
    /// The owner of each timeline clock.
    var clockOwners: [ClockOwner] = []
    /// The clock animations added now attach to, and the local time they begin at: inside an
    /// animator's animations block, or an interactive transition's `animateTransition`.
    var clockContext: (clock: Int, begin: Double)?
    /// The transition whose `animateTransition` is running, for the animators created in it.
    var beginning: Int?
    /// The position an animator's completion reports, while it runs.
    var currentPosition: AnimatingPosition?

    enum ClockOwner {
        case animator(Int)
        case transition(Int)
    }

    enum AnimatorState: String {
        case inactive, active, stopped
    }

    struct AnimatorRecord {
        let spec: PropertyAnimatorSpec
        let clock: Int
        let path: String
        var state = AnimatorState.inactive
        var running = false
        var reversed = false
        /// Animation blocks not yet run, with their delay factors.
        var pending: [(changes: [LayerChanges], delayFactor: Double, path: String)] = []
        var completions: [(actions: [ScriptAction], path: String)] = []
        /// The animations its blocks added.
        var animations: [Int] = []
        /// Each property its blocks changed: the model value before and after.
        var captured: [(layer: Int, property: LayerProperty, from: Value, to: Value)] = []
        /// Invalidates a scheduled end when the clock changes.
        var generation = 0
        /// The interactive transition driving it, if any.
        var transition: Int?
    }

    struct TransitionRecord {
        let spec: TransitionSpec
        let clock: Int
        let track: Int
        var phase = "animating"
        var wasCancelled = false
        var completed = false
        var generation = 0
        /// Animators created in its `animateTransition`, driven by the interaction.
        var animators: [Int] = []
        /// Model values before the transition changed them (cancel-not-restored).
        var changedModel: [ModelKey: Value] = [:]
        var reportedToViewMissing = false
        /// Whether `to` was in the tree when the transition began (a cancel removes it only if not).
        var toWasPresent = false
    }

    struct ModelKey: Hashable {
        let layer: Int
        let property: LayerProperty
    }
}
