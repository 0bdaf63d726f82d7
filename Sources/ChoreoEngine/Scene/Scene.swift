/// A scene: the layer tree as first committed (the model) and the script that changes it.
public struct Scene: Sendable, Equatable {
    /// Root layers, in drawing order.
    public var layers: [LayerNode]
    /// Timed action lists, in document order.
    public var script: [ScriptEntry]
    /// What the scene's text says that is valid but probably not meant (`suspicious-unit`),
    /// found while reading it; the run reports them first.
    public var warnings: [Diagnostic] = []
    /// The picture's size and background (`"canvas"`): what a window's bounds are to its
    /// layers. Nil: the root layers' frames at time 0, on a transparent background.
    public var canvas: Canvas?
    /// Whether an `addAgain` may run (anywhere in the script, callbacks and completions
    /// included). When it cannot, a batch run does not keep each keyed `add` for it. The
    /// decoder knows; a scene built otherwise says yes. Not part of the scene's content
    /// (equality ignores it).
    public var mayAddAgain = true
    /// The SwiftUI views and their state (`"swiftui"`); their layers are among ``layers``.
    public var swiftUI: SwiftUIScene?

    public init(layers: [LayerNode], script: [ScriptEntry] = [], warnings: [Diagnostic] = []) {
        self.layers = layers
        self.script = script
        self.warnings = warnings
    }

    public static func == (a: Scene, b: Scene) -> Bool {
        a.layers == b.layers && a.script == b.script && a.warnings == b.warnings && a.canvas == b.canvas
            && a.swiftUI == b.swiftUI
    }
}

/// The drawing area of a scene's pictures, in points from the origin of the root layers'
/// coordinate space (a `UIWindow`'s bounds).
public struct Canvas: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var background: Color?

    public init(width: Double, height: Double, background: Color? = nil) {
        self.width = width
        self.height = height
        self.background = background
    }
}

/// One layer of the tree and its subtree: a `CALayer` with its initial model values.
public struct LayerNode: Sendable, Equatable {
    public var id: String
    public var type: LayerType = .layer
    /// Model values given in the scene; properties not listed keep Core Animation's defaults.
    public var values: [LayerProperty: Value] = [:]
    public var timing = LayerTiming()
    public var actions: ActionPolicy = .none
    /// Named sets of model values (`setState`), in document order.
    public var states: [NamedState] = []
    /// The cells and birth shape of an emitter layer (`type` emitter).
    public var emitter: EmitterConfiguration?
    public var sublayers: [LayerNode] = []
    /// The layer's `mask` (`CALayer.mask`): a layer in this layer's space, out of the tree,
    /// whose alpha clips this layer and its sublayers.
    public var mask: LayerNode? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }
    private var maskStorage: [LayerNode] = []
    /// A root layer that exists but is not in the tree yet (a view controller's view before a
    /// transition adds it); `addLayer` with its id inserts it.
    public var detached = false

    public init(id: String, type: LayerType = .layer) {
        self.id = id
        self.type = type
    }
}

/// A named set of model values, such as the arena's `fighting`.
public struct NamedState: Sendable, Equatable {
    public var name: String
    public var values: [(LayerProperty, Value)]

    public init(name: String, values: [(LayerProperty, Value)]) {
        self.name = name
        self.values = values
    }

    public static func == (a: NamedState, b: NamedState) -> Bool {
        a.name == b.name && a.values.elementsEqual(b.values) { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}

/// `{"at": t, "do": [...]}`: actions run at scene time `at`, as one run-loop turn.
public struct ScriptEntry: Sendable, Equatable {
    public var at: Double
    public var actions: [ScriptAction]

    public init(at: Double, actions: [ScriptAction]) {
        self.at = at
        self.actions = actions
    }
}

/// A change a model layer can receive from `set`: a property, or the layer's own timing.
public enum ModelChange: Sendable, Equatable {
    case property(LayerProperty, Value)
    /// UIView's `frame` setter: the bounds' size (their origin kept) and the position through
    /// the anchor point, from the layer's model values when it runs. In an animation block
    /// both `bounds` and `position` animate, as UIKit animates them.
    case frame(Rect)
    case beginTime(Double)
    case speed(Double)
    case timeOffset(Double)
}

/// One script action. Each maps to a UIKit or Core Animation call.
public indirect enum ScriptAction: Sendable, Equatable {
    /// `layer.add(animation, forKey:)`.
    case add(Animation, layer: String)
    /// `layer.add(animation, forKey:)` again with the animation last added under that key: what
    /// a delegate does when it rebuilds the same animation in `animationDidStop` to loop it.
    case addAgain(key: String, layer: String)
    /// `layer.removeAnimation(forKey:)`.
    case remove(key: String, layer: String)
    /// `layer.removeAllAnimations()`.
    case removeAll(layer: String)
    /// Model changes, layer by layer, in document order.
    case set([LayerChanges])
    /// `addSublayer` / `insertSublayer(_:at:)`; `parent` nil adds a root layer.
    case addLayer(LayerNode, parent: String?, index: Int?)
    /// `removeFromSuperlayer()`.
    case removeLayer(String)
    /// `addSubview(_:)` / `insertSublayer(_:at:)` of a layer that exists (moved, or detached until now).
    case insertLayer(String, parent: String?, index: Int?)
    /// A label on the timeline.
    case mark(String)
    /// `CATransaction` begin … commit.
    case transaction(TransactionBlock)
    /// `UIView.animate`.
    case animate(ViewAnimation)
    /// `UIView.performWithoutAnimation { … }`.
    case withoutAnimation([ScriptAction])
    /// `UIView.animateKeyframes`.
    case animateKeyframes(ViewKeyframes)
    /// `UIView.transition(with:…)`.
    case transition(ViewTransition)
    /// Applies named states (`{"id": "state"}`), inside a UIView animation of `duration` when animated.
    case setState([(layer: String, state: String)], animated: Bool, duration: Double)
    /// `DispatchQueue.main.asyncAfter(deadline: .now() + delay)`.
    case after(Double, [ScriptAction])
    /// `if finished { … }`, `if position == .end { … }`, `if transitionContext.transitionWasCancelled`.
    case ifCondition(ScriptCondition, [ScriptAction])
    /// `UIViewPropertyAnimator(…)`, or `runningPropertyAnimator(…)`.
    case propertyAnimator(PropertyAnimatorSpec)
    /// A call on the animator with that id.
    case animator(String, AnimatorCall)
    /// A view-controller transition begins: `animateTransition(using:)` runs.
    case beginTransition(TransitionSpec)
    /// A call on the interactive transition with that id.
    case interaction(String, InteractionCall)
    /// `transitionContext.completeTransition(_:)`; `transition` names it (nil: the one in progress).
    case completeTransition(CompletionArgument, transition: String?)
    /// A pan gesture's samples, each in a run-loop turn of its own.
    case pan(PanGesture)
    /// A SwiftUI state change: a button's action, `withAnimation`, `withTransaction`.
    case swiftUI(SwiftUIUpdate)

    public static func == (a: ScriptAction, b: ScriptAction) -> Bool {
        switch (a, b) {
        case (.add(let x, let l), .add(let y, let m)): x == y && l == m
        case (.remove(let x, let l), .remove(let y, let m)): x == y && l == m
        case (.addAgain(let x, let l), .addAgain(let y, let m)): x == y && l == m
        case (.removeAll(let x), .removeAll(let y)): x == y
        case (.set(let x), .set(let y)): x == y
        case (.addLayer(let x, let p, let i), .addLayer(let y, let q, let j)): x == y && p == q && i == j
        case (.removeLayer(let x), .removeLayer(let y)): x == y
        case (.insertLayer(let x, let p, let i), .insertLayer(let y, let q, let j)): x == y && p == q && i == j
        case (.mark(let x), .mark(let y)): x == y
        case (.transaction(let x), .transaction(let y)): x == y
        case (.animate(let x), .animate(let y)): x == y
        case (.withoutAnimation(let x), .withoutAnimation(let y)): x == y
        case (.animateKeyframes(let x), .animateKeyframes(let y)): x == y
        case (.transition(let x), .transition(let y)): x == y
        case (.setState(let x, let p, let d), .setState(let y, let q, let e)):
            x.elementsEqual(y) { $0.layer == $1.layer && $0.state == $1.state } && p == q && d == e
        case (.after(let d, let x), .after(let e, let y)): d == e && x == y
        case (.ifCondition(let p, let x), .ifCondition(let q, let y)): p == q && x == y
        case (.propertyAnimator(let x), .propertyAnimator(let y)): x == y
        case (.animator(let a, let x), .animator(let b, let y)): a == b && x == y
        case (.beginTransition(let x), .beginTransition(let y)): x == y
        case (.interaction(let a, let x), .interaction(let b, let y)): a == b && x == y
        case (.completeTransition(let x, let a), .completeTransition(let y, let b)): x == y && a == b
        case (.pan(let x), .pan(let y)): x == y
        case (.swiftUI(let x), .swiftUI(let y)): x == y
        default: false
        }
    }
}

/// The model changes `set` makes to one layer.
public struct LayerChanges: Sendable, Equatable {
    public var layer: String
    public var changes: [ModelChange]

    public init(layer: String, changes: [ModelChange]) {
        self.layer = layer
        self.changes = changes
    }
}
