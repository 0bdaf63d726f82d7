import ChoreoJSON

/// The kinds of layer a view or layer class becomes in the scene.
enum LayerKind: String {
    case layer, shape, text, emitter, replicator
}

/// A view or a layer: in the scene a view and its backing layer are one layer (`view.layer` is
/// the view itself). Its model values are kept by scene property name.
final class LayerObject {
    /// The layer's scene id: the name of the variable or property it is first bound to.
    var id: String?
    let kind: LayerKind
    /// The class it was made from (`UILabel`, `CAShapeLayer`).
    let className: String
    /// A view (a view-backed layer: no implicit actions) or a standalone layer.
    let isView: Bool
    let created: SourcePosition
    /// The view controller's root view: the canvas, not a layer of the scene.
    var isCanvas = false
    /// Model values by scene name (`position`, `bounds`, `opacity`).
    var model: [String: Value] = [:]
    /// The declaration's members, in the order the code first set them.
    var declared: [(String, JSONValue)] = []
    /// The tree as the code sees it now.
    var children: [Int] = []
    var parent: Int?
    /// The tree as the scene declares it: before the script's first action, or before the layer
    /// was first on screen. A layer without a declared parent is a detached root.
    var declaredChildren: [Int] = []
    var declaredParent: Int?
    /// Whether the layer has been on screen: its changes are then actions.
    var everAttached = false
    /// Whether an action names it.
    var referenced = false
    /// Whether its id came from a local variable (a stored property may rename it).
    var provisional = false
    /// A view or layer subclass the file declares: its type, stored properties and methods.
    var instance: InstanceObject?
    /// The layer whose `mask` this layer is (out of the tree, drawn as that layer's alpha), and
    /// this layer's mask.
    var maskOf: String?
    var maskLayer: Int?
    /// Where the code made this layer a mask; and whether it draws what choreo does not model
    /// (a gradient's colours, `contents`): such a mask is left out, not applied.
    var maskAssigned: SourcePosition?
    var unmodelledContent = false
    /// A button's type (`system`, `custom`) and its title label, made by its first title.
    var buttonType: String?
    var titleLabel: Int?

    init(kind: LayerKind, className: String, isView: Bool, created: SourcePosition) {
        self.kind = kind
        self.className = className
        self.isView = isView
        self.created = created
    }

    func declare(_ name: String, _ value: JSONValue) {
        if let index = declared.firstIndex(where: { $0.0 == name }) {
            declared[index].1 = value
        } else {
            declared.append((name, value))
        }
    }

    func undeclare(_ name: String) { declared.removeAll { $0.0 == name } }
}

/// A `CAAnimation` being configured: its scene fields in the order they were set.
final class AnimationObject {
    /// `basic`, `keyframe`, `spring`, `group` or `transition`.
    let type: String
    var fields: [(String, Value)] = []
    /// `animation.delegate`: an object whose class implements `animationDidStart` / `animationDidStop`.
    var delegate: Value?
    let created: SourcePosition

    init(type: String, created: SourcePosition) {
        self.type = type
        self.created = created
    }

    subscript(field: String) -> Value? {
        get { fields.first { $0.0 == field }?.1 }
        set {
            if let index = fields.firstIndex(where: { $0.0 == field }) {
                if let newValue { fields[index].1 = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append((field, newValue))
            }
        }
    }
}

/// An instance of a class, struct or extension the file declares.
final class InstanceObject {
    let typeName: String
    var fields: [String: Value] = [:]

    init(typeName: String) { self.typeName = typeName }
}

/// A `UIBezierPath` being built: scene path commands (`{"move": [x, y]}`, `{"arc": {…}}`, …).
final class PathObject {
    var commands: [JSONValue]

    init(commands: [JSONValue]) { self.commands = commands }
}

/// Everything the evaluator allocates.
enum HeapObject {
    case layer(LayerObject)
    case animation(AnimationObject)
    case instance(InstanceObject)
    case path(PathObject)
    case transitionContext(TransitionContext)
    case cell(EmitterCellObject)
    case animator(AnimatorObject)
}

/// A `UIViewPropertyAnimator`: its scene id, where its completions go, and what the code can read.
final class AnimatorObject {
    /// Its id: the variable it is first bound to (`slide`), once the code binds it.
    let name: NameBox
    var id: String { name.value }
    let completion: ActionList
    var duration: Double
    var started = false
    var fractionComplete = 0.0
    var isReversed = false

    init(id: String, completion: ActionList, duration: Double) {
        self.name = NameBox(id)
        self.completion = completion
        self.duration = duration
    }
}

/// A `CAEmitterCell` being configured: its scene fields in the order they were set.
final class EmitterCellObject {
    var fields: [(String, JSONValue)] = []

    func set(_ name: String, _ value: JSONValue) {
        if let index = fields.firstIndex(where: { $0.0 == name }) {
            fields[index].1 = value
        } else {
            fields.append((name, value))
        }
    }
}

/// An action list of the scene being built. Lists are filled in the order the code runs, which
/// is not the order of the document: a completion's list is filled when the virtual clock
/// reaches it.
final class ActionList {
    var items: [Piece] = []
}

/// A name decided after the actions that use it were made (an animator's, once bound).
final class NameBox {
    var value: String
    var named = false

    init(_ value: String) { self.value = value }
}

/// A piece of the scene document: JSON, an object whose members may hold action lists, or a list.
indirect enum Piece {
    case value(JSONValue)
    case name(NameBox)
    /// Members, and the source position of the code that made it (an entry of the source map).
    case object([(String, Piece)], SourcePosition?)
    case list(ActionList)
    case array([Piece])

    /// The JSON, noting the source position of every positioned object under `path`.
    func assemble(_ path: String, _ map: inout [SourceMapping]) -> JSONValue {
        switch self {
        case .value(let value):
            return value
        case .name(let box):
            return .string(box.value)
        case .object(let members, let position):
            if let position { map.append(SourceMapping(path: path, position: position)) }
            return .object(JSONObject(members.map { ($0.0, $0.1.assemble(path + "." + $0.0, &map)) }))
        case .list(let list):
            return .array(list.items.enumerated().map { $0.element.assemble("\(path)[\($0.offset)]", &map) })
        case .array(let pieces):
            return .array(pieces.enumerated().map { $0.element.assemble("\(path)[\($0.offset)]", &map) })
        }
    }
}
