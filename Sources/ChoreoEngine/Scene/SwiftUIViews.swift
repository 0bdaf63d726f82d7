/// A scene's SwiftUI part (the scene format's `swiftui` section, docs/scene-format.md): its
/// `@State` values and its views, each a shape or a container with its modifiers in the order
/// written. Each view is drawn as a layer of its own (its id the view's); state changes in the
/// script animate the views' modifiers as SwiftUI animates them (docs/semantics.md, "SwiftUI
/// views").
public struct SwiftUIScene: Sendable, Equatable {
    /// `@State` properties and their initial values, in the order declared.
    public var state: [(name: String, value: SwiftUIStateValue)]
    /// Root views, in drawing order.
    public var views: [SwiftUIView]

    public init(state: [(name: String, value: SwiftUIStateValue)] = [], views: [SwiftUIView] = []) {
        self.state = state
        self.views = views
    }

    public static func == (a: SwiftUIScene, b: SwiftUIScene) -> Bool {
        a.views == b.views && a.state.elementsEqual(b.state) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// A `@State` value: a `Bool` or a number (`Int`, `Double`, `CGFloat`).
public enum SwiftUIStateValue: Sendable, Equatable, Hashable {
    case bool(Bool)
    case number(Double)
}

/// A modifier's argument: a constant, a state value, or `condition ? a : b` on a `Bool` state.
public indirect enum SwiftUIExpression: Sendable, Equatable {
    case constant(Value)
    /// A number state used as it is (`.opacity(level)`).
    case state(String)
    /// `flag ? then : else` (`!flag` with `negated`).
    case conditional(state: String, negated: Bool, then: SwiftUIExpression, else: SwiftUIExpression)

    /// The value for the state `values` (a name not there, or a `Bool` used as a number, is
    /// rejected when the scene is read).
    public func value(_ values: [String: SwiftUIStateValue]) -> Value {
        switch self {
        case .constant(let value): return value
        case .state(let name):
            if case .number(let number)? = values[name] { return .number(number) }
            return .number(0)
        case .conditional(let name, let negated, let then, let otherwise):
            let flag = values[name] == .bool(true)
            return (flag != negated ? then : otherwise).value(values)
        }
    }

    /// The states it reads.
    public var states: [String] {
        switch self {
        case .constant: []
        case .state(let name): [name]
        case .conditional(let name, _, let then, let otherwise): [name] + then.states + otherwise.states
        }
    }
}

/// One SwiftUI view: a shape (`Rectangle`, `RoundedRectangle`, `Circle`, `Capsule`) or a
/// container (`ZStack`) of other views, with its modifiers in the order written.
public struct SwiftUIView: Sendable, Equatable {
    public enum Shape: String, Sendable, Equatable, CaseIterable {
        case rectangle, roundedRectangle, circle, capsule
        /// choreo's container: no drawing of its own, as large as it is offered, its children
        /// offered its size and centred in it unless positioned (a `ZStack` in
        /// `.frame(maxWidth: .infinity, maxHeight: .infinity)`).
        case stack
        /// `Text`: its string in DejaVu Sans (as choreo's pictures draw text), centred.
        case text
        /// SwiftUI's `ZStack(alignment:)`: as large as its largest child, each child offered
        /// what the stack is offered and placed by the alignment.
        case zstack
        /// `VStack(alignment:spacing:)` and `HStack(alignment:spacing:)`: children one after
        /// another along the axis, `spacing` apart, the space shared out least flexible first.
        case vstack, hstack
        /// `Spacer(minLength:)`: as long as it is offered along its stack's axis, at least
        /// `minLength`.
        case spacer

        /// Whether the view has children: a container.
        public var isContainer: Bool { [.stack, .zstack, .vstack, .hstack].contains(self) }
    }

    /// A stack's `spacing` (nil: SwiftUI's default, 8 points).
    public var spacing: Double?
    /// A stack's `alignment` (`.center` unless given): a `VStack` aligns across horizontally, an
    /// `HStack` vertically, a `ZStack` both ways.
    public var alignment = SwiftUIAlignment.center
    /// A `Spacer`'s `minLength` (nil: 8 points).
    public var minLength: Double?

    /// `Text`'s string.
    public var text: String?

    /// The size a `Text` takes when not framed: its characters at 0.6 em each, one line of
    /// 1.2 em (choreo's rule: there is no layout engine; DejaVu Sans averages about 0.6 em).
    public static func textSize(_ string: String, fontSize: Double) -> (Double, Double) {
        (max(1, Double(string.count)) * fontSize * 0.6, fontSize * 1.2)
    }

    /// SwiftUI's text styles in points (iOS, the default Dynamic Type size).
    public static let textStyles: [String: Double] = [
        "largeTitle": 34, "title": 28, "title2": 22, "title3": 20, "headline": 17, "body": 17, "callout": 16,
        "subheadline": 15, "footnote": 13, "caption": 12, "caption2": 11,
    ]

    public var id: String
    public var shape: Shape
    public var modifiers: [SwiftUIModifier]
    public var children: [SwiftUIView]
    /// `if flag { view }` (`negated`: `if !flag`): the view is there only while it holds;
    /// inserted and removed with its transition.
    public var condition: (state: String, negated: Bool)?

    public init(id: String, shape: Shape = .stack, modifiers: [SwiftUIModifier] = [], children: [SwiftUIView] = []) {
        self.id = id
        self.shape = shape
        self.modifiers = modifiers
        self.children = children
    }

    public static func == (a: SwiftUIView, b: SwiftUIView) -> Bool {
        a.id == b.id && a.shape == b.shape && a.modifiers == b.modifiers && a.children == b.children
            && a.text == b.text && a.spacing == b.spacing && a.alignment == b.alignment && a.minLength == b.minLength
            && a.condition?.state == b.condition?.state && a.condition?.negated == b.condition?.negated
    }

    /// Whether the view is there for the state `values`.
    public func isPresent(_ values: [String: SwiftUIStateValue]) -> Bool {
        guard let condition else { return true }
        return (values[condition.state] == .bool(true)) != condition.negated
    }

    /// `.transition(_:)`: `.opacity` unless given.
    public var transition: SwiftUITransition {
        for case .transition(let transition) in modifiers { return transition }
        return .opacity
    }

    /// `.matchedGeometryEffect(id:in:)`'s id.
    public var matchedGeometryID: String? {
        for case .matchedGeometryEffect(let id) in modifiers { return id }
        return nil
    }
}

/// An animatable view modifier, or `.animation(_:value:)`, as SwiftUI spells it.
public enum SwiftUIModifier: Sendable, Equatable {
    /// `.frame(width:height:alignment:)` or `.frame(minWidth:…:alignment:)`: a layout around
    /// the view (``SwiftUIFrame``).
    case frame(SwiftUIFrame)
    /// `.padding(…)`: space around the view.
    case padding(SwiftUIInsets)
    /// `.position(x:y:)`: the view's centre in its parent's space.
    case position(x: SwiftUIExpression, y: SwiftUIExpression)
    /// `.offset(x:y:)`: drawn moved by it, its place in the layout kept.
    case offset(x: SwiftUIExpression, y: SwiftUIExpression)
    /// `.scaleEffect(x:y:)` about the centre.
    case scaleEffect(x: SwiftUIExpression, y: SwiftUIExpression)
    /// `.rotationEffect(_:)` about the centre, radians (the scene gives degrees or radians).
    case rotationEffect(SwiftUIExpression)
    /// `.opacity(_:)`.
    case opacity(SwiftUIExpression)
    /// `.fill(_:)` / `.foregroundColor(_:)` / `.foregroundStyle(_:)` of a shape.
    case fill(SwiftUIExpression)
    /// `.background(_:)` of a container.
    case background(SwiftUIExpression)
    /// `.cornerRadius(_:)`, or a `RoundedRectangle`'s `cornerRadius`.
    case cornerRadius(SwiftUIExpression)
    /// `.blur(radius:)`: the view and its subviews blurred together.
    case blur(SwiftUIExpression)
    /// `.font(.system(size:))` or a text style: a `Text`'s size, points.
    case font(SwiftUIExpression)
    /// `.animation(_:value:)`: the changes of the modifiers before it, and of the view's
    /// children, caused by a change of the state `value` take `animation` (nil: none). Without
    /// `value`, the deprecated `.animation(_:)`: every change does.
    case animation(SwiftUIAnimation?, value: String?)
    /// `.keyframeAnimator(initialValue:trigger:content:keyframes:)` (or `repeating:`): the
    /// values it drives come from its keyframe tracks.
    case keyframeAnimator(SwiftUIKeyframeAnimator)
    /// `.phaseAnimator(_:content:animation:)` (or `trigger:`): the values it drives step
    /// through its phases.
    case phaseAnimator(SwiftUIPhaseAnimator)
    /// `.transition(_:)`: how the view comes in and goes out when an `if` inserts or removes it.
    case transition(SwiftUITransition)
    /// `.matchedGeometryEffect(id:in:)`: inserted as another view with the same id is removed,
    /// it moves and grows from where that one was, and that one to where it is.
    case matchedGeometryEffect(id: String)

    /// The scene-format name.
    public var name: String {
        switch self {
        case .frame: "frame"
        case .padding: "padding"
        case .position: "position"
        case .offset: "offset"
        case .scaleEffect: "scaleEffect"
        case .rotationEffect: "rotationEffect"
        case .opacity: "opacity"
        case .fill: "fill"
        case .background: "background"
        case .cornerRadius: "cornerRadius"
        case .blur: "blur"
        case .font: "font"
        case .animation: "animation"
        case .keyframeAnimator: "keyframeAnimator"
        case .phaseAnimator: "phaseAnimator"
        case .transition: "transition"
        case .matchedGeometryEffect: "matchedGeometryEffect"
        }
    }
}

/// A state change in the script: a button's action, `withAnimation`, `withTransaction`.
public struct SwiftUIUpdate: Sendable, Equatable {
    /// The states set, in the order written.
    public var changes: [(name: String, value: SwiftUIStateValue)]
    /// The transaction's animation: `withAnimation`'s, `withTransaction`'s; nil: none.
    public var animation: SwiftUIAnimation?
    /// `Transaction.disablesAnimations`: the views' `.animation` modifiers do not replace the
    /// transaction's animation.
    public var disablesAnimations = false
    /// `withAnimation(_:completionCriteria:_:completion:)`'s completion and criterion.
    public var completion: [ScriptAction]?
    public var criteria: SwiftUIAnimation.CompletionCriteria = .logicallyComplete
    /// Reported with the `withAnimationCompleted` event.
    public var name: String?
    /// A phase animator's next phase (made by the runner as a play goes on, not by a scene).
    public var phase: SwiftUIPhaseStep?
    /// A removed view's end of transition (made by the runner).
    public var removal: SwiftUIRemoval?

    public init(changes: [(name: String, value: SwiftUIStateValue)], animation: SwiftUIAnimation? = nil) {
        self.changes = changes
        self.animation = animation
    }

    public static func == (a: SwiftUIUpdate, b: SwiftUIUpdate) -> Bool {
        a.changes.elementsEqual(b.changes) { $0.name == $1.name && $0.value == $1.value }
            && a.animation == b.animation && a.disablesAnimations == b.disablesAnimations
            && a.completion == b.completion && a.criteria == b.criteria && a.name == b.name && a.phase == b.phase
            && a.removal == b.removal
    }
}

/// `keyframeAnimator`: keyframe tracks, each driving one of the view's values, played when the
/// `trigger` state changes (each play from the value shown then) or in a loop from the start
/// (`repeating`).
public struct SwiftUIKeyframeAnimator: Sendable, Equatable {
    /// The values a track may drive, as the content closure applies them.
    public enum Property: String, Sendable, Equatable, CaseIterable {
        case offsetX = "offset.x", offsetY = "offset.y"
        case scaleEffect, scaleEffectX = "scaleEffect.x", scaleEffectY = "scaleEffect.y"
        /// Degrees, as `Angle.degrees`.
        case rotationEffect
        case opacity

        /// The layer key paths it drives.
        public var keyPaths: [KeyPath] {
            switch self {
            case .offsetX: [KeyPath(.transform, .translationX)]
            case .offsetY: [KeyPath(.transform, .translationY)]
            case .scaleEffect: [KeyPath(.transform, .scaleX), KeyPath(.transform, .scaleY)]
            case .scaleEffectX: [KeyPath(.transform, .scaleX)]
            case .scaleEffectY: [KeyPath(.transform, .scaleY)]
            case .rotationEffect: [KeyPath(.transform, .rotationZ)]
            case .opacity: [KeyPath(.opacity)]
            }
        }

        /// The view modifier that sets the same value.
        public var modifierName: String {
            switch self {
            case .offsetX, .offsetY: "offset"
            case .scaleEffect, .scaleEffectX, .scaleEffectY: "scaleEffect"
            case .rotationEffect: "rotationEffect"
            case .opacity: "opacity"
            }
        }

        /// A value of the track in the layer's units (degrees to radians).
        public func layerValue(_ value: Double) -> Double { self == .rotationEffect ? value * .pi / 180 : value }
    }

    /// `KeyframeTrack(\.property) { … }` with the initial value's part for it.
    public struct Track: Sendable, Equatable {
        public var property: Property
        public var initial: Double
        public var keyframes: [SwiftUIKeyframeTrack.Keyframe]

        public init(property: Property, initial: Double, keyframes: [SwiftUIKeyframeTrack.Keyframe]) {
            self.property = property
            self.initial = initial
            self.keyframes = keyframes
        }
    }

    /// The state whose changes play the keyframes; nil with `repeating`.
    public var trigger: String?
    public var repeating: Bool
    public var tracks: [Track]

    public init(trigger: String?, repeating: Bool = false, tracks: [Track]) {
        self.trigger = trigger
        self.repeating = repeating
        self.tracks = tracks
    }
}

/// `phaseAnimator`: phases, each the values of the properties it drives, stepped through one
/// after another, each step animated by its phase's animation; continuously from the moment the
/// view appears, or once round (back to the first) when `trigger` changes.
public struct SwiftUIPhaseAnimator: Sendable, Equatable {
    /// Each phase's values, by property; every phase gives every property.
    public var phases: [[(property: SwiftUIKeyframeAnimator.Property, value: Double)]]
    /// The animation of the step into each phase (nil: at once); `.default` unless given.
    public var animations: [SwiftUIAnimation?]
    public var trigger: String?

    public init(
        phases: [[(property: SwiftUIKeyframeAnimator.Property, value: Double)]], animations: [SwiftUIAnimation?],
        trigger: String?
    ) {
        self.phases = phases
        self.animations = animations
        self.trigger = trigger
    }

    /// The properties it drives.
    public var properties: [SwiftUIKeyframeAnimator.Property] { phases.first?.map(\.property) ?? [] }

    public static func == (a: SwiftUIPhaseAnimator, b: SwiftUIPhaseAnimator) -> Bool {
        a.animations == b.animations && a.trigger == b.trigger
            && a.phases.elementsEqual(b.phases) { x, y in
                x.elementsEqual(y) { $0.property == $1.property && $0.value == $1.value }
            }
    }
}

/// One step of a phase animator's play: which view and modifier, the phase it goes to, how
/// many steps are left (nil: for ever), and the play it belongs to (a newer play stops it).
public struct SwiftUIPhaseStep: Sendable, Equatable {
    public var view: Int
    public var modifier: Int
    public var phase: Int
    public var remaining: Int?
    public var play: Int
}

/// SwiftUI's `AnyTransition`: what a view looks like just before it is inserted and just after
/// it is removed (its "removed" state); it animates between that and itself.
public indirect enum SwiftUITransition: Sendable, Equatable {
    public enum Edge: String, Sendable, Equatable, CaseIterable { case top, bottom, leading, trailing }

    case identity
    /// Faded out.
    case opacity
    /// Scaled by the factor about the centre (`.scale` is 0).
    case scale(Double)
    /// Moved off by its own size towards the edge.
    case move(Edge)
    /// In from the leading edge, out to the trailing.
    case slide
    case offset(x: Double, y: Double)
    case asymmetric(insertion: SwiftUITransition, removal: SwiftUITransition)
    /// `a.combined(with: b)`.
    case combined([SwiftUITransition])

    /// The removed state's effects on a view of `size`: an opacity factor, a scale factor, an
    /// offset; `inserting` picks an asymmetric transition's side.
    public func effect(inserting: Bool, size: (Double, Double)) -> (
        opacity: Double, scale: Double, x: Double, y: Double
    ) {
        switch self {
        case .identity: return (1, 1, 0, 0)
        case .opacity: return (0, 1, 0, 0)
        case .scale(let factor): return (1, factor, 0, 0)
        case .move(let edge):
            switch edge {
            case .top: return (1, 1, 0, -size.1)
            case .bottom: return (1, 1, 0, size.1)
            case .leading: return (1, 1, -size.0, 0)
            case .trailing: return (1, 1, size.0, 0)
            }
        case .slide:
            return (inserting ? SwiftUITransition.move(.leading) : .move(.trailing)).effect(
                inserting: inserting, size: size)
        case .offset(let x, let y): return (1, 1, x, y)
        case .asymmetric(let insertion, let removal):
            return (inserting ? insertion : removal).effect(inserting: inserting, size: size)
        case .combined(let parts):
            return parts.reduce((1.0, 1.0, 0.0, 0.0)) { total, part in
                let e = part.effect(inserting: inserting, size: size)
                return (total.0 * e.opacity, total.1 * e.scale, total.2 + e.x, total.3 + e.y)
            }
        }
    }
}

/// The end of a removed view's transition: the view goes unless it came back since (its
/// removal `number` is no longer the latest).
public struct SwiftUIRemoval: Sendable, Equatable {
    public var view: Int
    public var number: Int
}
