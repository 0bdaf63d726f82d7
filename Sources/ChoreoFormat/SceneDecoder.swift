import ChoreoEngine
import ChoreoJSON

/// Turns a JSON document into a ``Scene``, checking every field against the scene format.
///
/// All problems are collected and reported together, each with its JSON path. Unknown
/// fields, unknown key paths, values of the wrong kind, NaN-free but out-of-range numbers and
/// references to layers that do not exist are all errors.
public struct SceneDecoder {
    /// Decodes and validates a scene; the document's optional `name` is returned with it.
    ///
    /// The document is consumed: passed with `consume` (or as a temporary), its parts are freed
    /// as they are decoded, so a large document and its scene are not both held whole.
    public static func decode(_ document: consuming JSONValue) throws(ValidationFailure) -> (
        scene: Scene, name: String?
    ) {
        var decoder = SceneDecoder()
        let result = decoder.decodeScene(consume document)
        if !decoder.reader.errors.isEmpty || result == nil {
            throw ValidationFailure(
                decoder.reader.errors.isEmpty
                    ? [FieldError(path: "$", message: "is not a valid scene")] : decoder.reader.errors)
        }
        return result!
    }

    /// Parses bytes and decodes them; syntax errors are thrown as ``JSONParseError``. Bytes
    /// passed with `consume` are freed once parsed, before the decoding.
    public static func decode(bytes: consuming [UInt8]) throws(SceneDocumentError) -> (scene: Scene, name: String?) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .malformed(error)
        }
        _ = consume bytes
        do {
            return try decode(consume document)
        } catch {
            throw .invalid(error)
        }
    }

    /// A live session's input, `{"at": t, "do": [...]}`: decoded as a script entry whose
    /// references may also name what the session has already (its layers, animators and
    /// transitions). Paths start at the input (`$.do[0]…`).
    public static func decodeEntry(
        bytes: [UInt8], knownLayers: [String], knownAnimators: [String], knownTransitions: [String]
    ) throws(SceneDocumentError) -> ScriptEntry {
        try decodeInput(
            bytes: bytes, knownLayers: knownLayers, knownAnimators: knownAnimators, knownTransitions: knownTransitions
        ).entry
    }

    /// A live session's input: the entry, and what its text says that is valid but probably
    /// not meant (`suspicious-unit`: a duration of 300 that is surely milliseconds).
    public static func decodeInput(
        bytes: [UInt8], knownLayers: [String], knownAnimators: [String], knownTransitions: [String]
    ) throws(SceneDocumentError) -> (entry: ScriptEntry, warnings: [Diagnostic]) {
        try decodeInput(bytes: bytes) { _ in
            KnownIDs(layers: knownLayers, animators: knownAnimators, transitions: knownTransitions)
        }
    }

    /// A live session's input, its references checked against the ids `known` gives for the
    /// input's time (`nil` when the input has no valid `at`): a session passes what exists once
    /// it has run up to that time, so an input may name an animator its scene's own script makes
    /// at that time or before.
    public static func decodeInput(
        bytes: [UInt8], known: (_ at: Double?) -> KnownIDs
    ) throws(SceneDocumentError) -> (entry: ScriptEntry, warnings: [Diagnostic]) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .malformed(error)
        }
        var decoder = SceneDecoder()
        let entry = decoder.decodeEntry(document, "$")
        let ids = known(entry?.at)
        decoder.checkReferences(
            knownLayers: ids.layers, knownAnimators: ids.animators, knownTransitions: ids.transitions)
        guard decoder.reader.errors.isEmpty, let entry else {
            throw .invalid(
                ValidationFailure(
                    decoder.reader.errors.isEmpty
                        ? [FieldError(path: "$", message: "is not a valid input")] : decoder.reader.errors))
        }
        return (entry, decoder.reader.warnings)
    }

    var reader = JSONReader()
    /// Whether an `addAgain` was decoded anywhere (``Scene/mayAddAgain``).
    private var decodedAddAgain = false
    var layerIDs: [String: String] = [:]
    /// The `swiftui` section's state, by name, for the script's state changes.
    var swiftUIStates: [String: SwiftUIStateValue] = [:]
    var declaresSwiftUI = false
    private var pendingReferences: [(id: String, path: String)] = []
    /// Animators and transitions declared anywhere in the document, and the references to them.
    var declaredAnimators: [String] = []
    var animatorReferences: [(id: String, path: String)] = []
    var declaredTransitions: [String] = []
    var transitionReferences: [(id: String, path: String)] = []
    var layerCount = 0
    private var actionCount = 0

    private static let sceneFields: Set<String> = [
        "name", "version", "description", "canvas", "layers", "script", "swiftui",
    ]
    private static let canvasFields: Set<String> = ["width", "height", "background"]

    private mutating func decodeScene(_ document: consuming JSONValue) -> (Scene, String?)? {
        guard var object = reader.takeObject(&document, "$") else { return nil }
        reader.rejectUnknown(object, "$", allowed: Self.sceneFields)
        var name: String?
        if let value = object["name"], let text = reader.string(value, "$.name") {
            if text.utf8.count > 200 {
                reader.fail("$.name", "must be at most 200 bytes long")
            } else if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                // A NUL would cut it in storage; none of them belongs in a name.
                reader.fail("$.name", "may not contain control characters")
            } else {
                name = text
            }
        }
        if let version = object["version"] {
            if reader.number(version, "$.version") != 1 { reader.fail("$.version", "only version 1 exists") }
        }
        if let description = object["description"] { _ = reader.string(description, "$.description") }
        // Layers and script entries are taken out of the document one by one as they are
        // decoded, so each is freed once it is decoded.
        var layers: [LayerNode] = []
        if var layersJSON = object.take("layers") {
            if var array = reader.takeArray(&layersJSON, "$.layers") {
                layers.reserveCapacity(array.count)
                for index in array.indices {
                    if let layer = decodeLayer(array.take(index), "$.layers[\(index)]") { layers.append(layer) }
                }
            }
        } else if object["swiftui"] == nil {
            reader.fail("$.layers", "is required (or a swiftui section)")
            return nil
        }
        // SwiftUI's views are read before the script, whose state changes name their state.
        var swiftUI: SwiftUIScene?
        if let value = object["swiftui"] {
            declaresSwiftUI = true
            swiftUI = decodeSwiftUI(value, "$.swiftui")
        }
        var script: [ScriptEntry] = []
        if var scriptJSON = object.take("script"), var array = reader.takeArray(&scriptJSON, "$.script") {
            for index in array.indices {
                if let entry = decodeEntry(array.take(index), "$.script[\(index)]") { script.append(entry) }
            }
        }
        checkReferences()
        var scene = Scene(layers: layers, script: script, warnings: reader.warnings)
        scene.mayAddAgain = decodedAddAgain
        if let value = object["canvas"] { scene.canvas = decodeCanvas(value) }
        if let swiftUI {
            scene.layers += swiftUI.layers(canvas: scene.canvas)
            scene.swiftUI = swiftUI
        }
        return (scene, name)
    }

    /// `"canvas": {"width", "height", "background"}`: points, 1…8,192 each.
    private mutating func decodeCanvas(_ value: JSONValue) -> Canvas? {
        guard let object = reader.object(value, "$.canvas") else { return nil }
        reader.rejectUnknown(object, "$.canvas", allowed: Self.canvasFields)
        var size: [Double] = []
        for field in ["width", "height"] {
            guard let v = object[field] else {
                reader.fail("$.canvas.\(field)", "is required")
                continue
            }
            if let n = reader.number(v, "$.canvas.\(field)", min: 1, max: FormatLimits.maxCanvasPoints) {
                size.append(n)
            }
        }
        var background: Color?
        if let v = object["background"] { background = reader.color(v, "$.canvas.background") }
        guard size.count == 2 else { return nil }
        return Canvas(width: size[0], height: size[1], background: background)
    }

    /// Every layer, animator and transition named must be declared somewhere: a misspelt id
    /// gets the closest declared one.
    mutating func checkReferences(
        knownLayers: [String] = [], knownAnimators: [String] = [], knownTransitions: [String] = []
    ) {
        let layers = Set(layerIDs.keys).union(knownLayers)
        let sortedLayers = layers.sorted()
        for reference in pendingReferences where !layers.contains(reference.id) {
            reader.failUnknown(
                reference.path, "no layer has the id \"\(reference.id)\"", reference.id, among: sortedLayers)
        }
        let animators = Set(declaredAnimators).union(knownAnimators)
        for reference in animatorReferences where !animators.contains(reference.id) {
            reader.failUnknown(
                reference.path, "no property animator has the id \"\(reference.id)\"", reference.id,
                among: animators.sorted())
        }
        let transitions = Set(declaredTransitions).union(knownTransitions)
        for reference in transitionReferences where !transitions.contains(reference.id) {
            reader.failUnknown(
                reference.path, "no transition has the id \"\(reference.id)\"", reference.id,
                among: transitions.sorted())
        }
    }

    // MARK: Layers

    private static let layerFields: Set<String> = Set(LayerProperty.allCases.map(\.rawValue)).union([
        "id", "type", "frame", "beginTime", "speed", "timeOffset", "actions", "states", "sublayers", "detached",
        "mask",
    ]).union(emitterFields)

    private mutating func decodeLayer(_ json: JSONValue, _ path: String, depth: Int = 0) -> LayerNode? {
        guard let given = reader.object(json, path) else { return nil }
        let object = reader.canonical(given, path, aliases: Vocabulary.propertyAliases)
        reader.rejectUnknown(object, path, allowed: Self.layerFields)
        layerCount += 1
        if layerCount == Limits.maxLayers + 1 {
            reader.fail(path, "a scene may have at most \(Limits.maxLayers) layers")
        }
        guard depth < 64 else {
            reader.fail(path, "layers may nest at most 64 deep")
            return nil
        }
        guard let idJSON = object["id"] else {
            reader.fail("\(path).id", "is required")
            return nil
        }
        guard let id = reader.string(idJSON, "\(path).id") else { return nil }
        if id.isEmpty || id.utf8.count > 200 {
            reader.fail("\(path).id", "must be 1 to 200 bytes long")
        }
        if let previous = layerIDs[id] {
            reader.fail("\(path).id", "\"\(id)\" is already the id of \(previous)")
        } else {
            layerIDs[id] = path
        }
        var type = LayerType.layer
        if let typeJSON = object["type"], let name = reader.string(typeJSON, "\(path).type") {
            if let parsed = LayerType(rawValue: name) {
                type = parsed
            } else {
                reader.failUnknown(
                    "\(path).type", "must be layer, shape, text, emitter or replicator", name,
                    among: ["layer", "shape", "text", "emitter", "replicator"])
            }
        }
        var node = LayerNode(id: id, type: type)
        node.emitter = decodeEmitter(object, path, type: type)
        for key in object.keys {
            guard let property = LayerProperty(rawValue: key) else { continue }
            let fieldPath = "\(path).\(key)"
            guard property.belongs(to: type) else {
                reader.fail(fieldPath, "is not a property of a \(type.rawValue) layer")
                continue
            }
            if let value = reader.value(object[key]!, kind: property.kind, fieldPath) {
                node.values[property] = value
            }
        }
        if let frameJSON = object["frame"],
            let n = reader.geometry(frameJSON, "\(path).frame", fields: ["x", "y", "width", "height"])
        {
            if object["position"] != nil || object["bounds"] != nil {
                reader.fail("\(path).frame", "give either frame or position/bounds, not both")
            } else {
                // UIView's frame: bounds origin 0 and the size; position through the anchor point.
                var anchor = Point(0.5, 0.5)
                if case .point(let given)? = node.values[.anchorPoint] { anchor = given }
                node.values[.bounds] = .rect(Rect(x: 0, y: 0, width: n[2], height: n[3]))
                node.values[.position] = .point(Point(n[0] + anchor.x * n[2], n[1] + anchor.y * n[3]))
            }
        }
        if let v = object["beginTime"], let n = reader.number(v, "\(path).beginTime") { node.timing.beginTime = n }
        if let v = object["speed"], let n = reader.number(v, "\(path).speed") { node.timing.speed = n }
        if let v = object["timeOffset"], let n = reader.number(v, "\(path).timeOffset") { node.timing.timeOffset = n }
        if let v = object["actions"], let name = reader.string(v, "\(path).actions") {
            if let policy = ActionPolicy(rawValue: name) {
                node.actions = policy
            } else {
                reader.fail("\(path).actions", "must be \"none\" or \"implicit\"")
            }
        }
        if let v = object["states"], let states = reader.object(v, "\(path).states") {
            for name in states.keys {
                let statePath = "\(path).states.\(name)"
                guard let given = reader.object(states[name]!, statePath) else { continue }
                let values = reader.canonical(given, statePath, aliases: Vocabulary.propertyAliases)
                var entries: [(LayerProperty, Value)] = []
                for key in values.keys {
                    guard let property = LayerProperty(rawValue: key), property.belongs(to: type) else {
                        reader.failUnknown(
                            "\(statePath).\(key)", "unknown property", key,
                            among: LayerProperty.allCases.filter { $0.belongs(to: type) }.map(\.rawValue))
                        continue
                    }
                    if let value = reader.value(values[key]!, kind: property.kind, "\(statePath).\(key)") {
                        entries.append((property, value))
                    }
                }
                node.states.append(NamedState(name: name, values: entries))
            }
        }
        if let v = object["detached"], let flag = reader.bool(v, "\(path).detached") {
            if depth > 0 { reader.fail("\(path).detached", "only a root layer can be detached") }
            node.detached = flag
        }
        if let v = object["mask"] {
            // CALayer.mask: a layer of its own, out of the tree, in this layer's space.
            node.mask = decodeLayer(v, "\(path).mask", depth: depth + 1)
        }
        if let v = object["sublayers"], let array = reader.array(v, "\(path).sublayers") {
            for (index, element) in array.enumerated() {
                if let child = decodeLayer(element, "\(path).sublayers[\(index)]", depth: depth + 1) {
                    node.sublayers.append(child)
                }
            }
        }
        return node
    }

    // MARK: Script

    mutating func decodeEntry(_ json: consuming JSONValue, _ path: String) -> ScriptEntry? {
        guard var object = reader.takeObject(&json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: ["at", "do"])
        guard let atJSON = object["at"] else {
            reader.fail("\(path).at", "is required")
            return nil
        }
        guard let at = reader.number(atJSON, "\(path).at", min: 0, max: Limits.maxSceneTime) else { return nil }
        reader.entryTime = at
        guard let doJSON = object.take("do") else {
            reader.fail("\(path).do", "is required")
            return nil
        }
        let actions = decodeActions(taking: consume doJSON, "\(path).do")
        return ScriptEntry(at: at, actions: actions)
    }

    /// A list of actions inside another (a block's `do`, a callback): whoever holds that one
    /// holds this list too, so nothing would be freed by taking its actions out.
    mutating func decodeActions(_ json: JSONValue, _ path: String) -> [ScriptAction] {
        guard var array = reader.array(json, path) else { return [] }
        return decodeActions(&array, path, taking: false)
    }

    /// A script entry's actions, which the entry alone holds: each is taken out of the list as
    /// it is decoded (``Swift/Array/take(_:)``), and so freed.
    private mutating func decodeActions(taking json: consuming JSONValue, _ path: String) -> [ScriptAction] {
        guard var array = reader.takeArray(&json, path) else { return [] }
        return decodeActions(&array, path, taking: true)
    }

    private mutating func decodeActions(_ elements: inout [JSONValue], _ path: String, taking: Bool) -> [ScriptAction] {
        var actions: [ScriptAction] = []
        actions.reserveCapacity(elements.count)
        for index in elements.indices {
            let element = taking ? elements.take(index) : elements[index]
            if let action = decodeAction(element, "\(path)[\(index)]") { actions.append(action) }
        }
        return actions
    }

    static let actionNames =
        [
            "add", "addAgain", "remove", "removeAll", "set", "addLayer", "removeLayer", "mark", "transaction",
            "animate",
            "animateKeyframes", "transition", "setState", "after", "if", "performWithoutAnimation",
        ] + animatorActionNames + transitionActionNames + swiftUIActionNames

    mutating func reference(_ id: String, _ path: String) {
        pendingReferences.append((id, path))
    }

    private mutating func decodeAction(_ json: JSONValue, _ path: String) -> ScriptAction? {
        actionCount += 1
        if actionCount == FormatLimits.maxScriptActions + 1 {
            reader.fail(path, "a scene may have at most \(FormatLimits.maxScriptActions) actions")
        }
        guard let object = reader.object(json, path) else { return nil }
        // UIKit's method name for an action choreo spells out: named as such.
        if let hinted = object.keys.first(where: { Vocabulary.actionHints[$0] != nil && !Self.actionNames.contains($0) }
        ) {
            reader.fail("\(path).\(hinted)", "is not an action", suggestion: Vocabulary.actionHints[hinted])
            return nil
        }
        var named = Self.actionNames.filter { object[$0] != nil }
        // `transition` names the transition an interaction action drives, not UIView.transition.
        if named.count > 1 && named.contains("transition")
            && named.contains(where: { Self.transitionActionNames.contains($0) })
        {
            named.removeAll { $0 == "transition" }
        }
        // `state` is what `withAnimation` and `withTransaction` set.
        if named.count > 1 && named.contains("state") { named.removeAll { $0 == "state" } }
        guard let name = named.first else {
            // UIKit's method names for the calls choreo spells out (`update` → updateInteractiveTransition).
            let guess =
                object.keys.lazy.compactMap { Vocabulary.actionHints[$0] }.first
                ?? object.keys.lazy.compactMap { Vocabulary.suggestion(for: $0, among: Self.actionNames) }.first
            reader.fail(path, "must name one action: \(Self.actionNames.joined(separator: ", "))", suggestion: guess)
            return nil
        }
        if named.count > 1 {
            reader.fail(path, "names \(named.count) actions (\(named.joined(separator: ", "))); one action per object")
            return nil
        }
        switch name {
        case "add":
            reader.rejectUnknown(object, path, allowed: ["add", "layer"])
            guard let layerJSON = object["layer"] else {
                reader.fail("\(path).layer", "is required")
                return nil
            }
            guard let layer = reader.string(layerJSON, "\(path).layer") else { return nil }
            reference(layer, "\(path).layer")
            guard let animation = decodeAnimation(object["add"]!, "\(path).add", depth: 0) else { return nil }
            return .add(animation, layer: layer)
        case "addAgain":
            reader.rejectUnknown(object, path, allowed: ["addAgain", "layer"])
            guard let key = reader.string(object["addAgain"]!, "\(path).addAgain") else { return nil }
            guard let layerJSON = object["layer"], let layer = reader.string(layerJSON, "\(path).layer") else {
                if object["layer"] == nil { reader.fail("\(path).layer", "is required") }
                return nil
            }
            reference(layer, "\(path).layer")
            decodedAddAgain = true
            return .addAgain(key: key, layer: layer)
        case "remove":
            reader.rejectUnknown(object, path, allowed: ["remove", "layer"])
            guard let key = reader.string(object["remove"]!, "\(path).remove") else { return nil }
            guard let layerJSON = object["layer"], let layer = reader.string(layerJSON, "\(path).layer") else {
                if object["layer"] == nil { reader.fail("\(path).layer", "is required") }
                return nil
            }
            reference(layer, "\(path).layer")
            return .remove(key: key, layer: layer)
        case "removeAll":
            reader.rejectUnknown(object, path, allowed: ["removeAll"])
            guard let layer = reader.string(object["removeAll"]!, "\(path).removeAll") else { return nil }
            reference(layer, "\(path).removeAll")
            return .removeAll(layer: layer)
        case "set":
            reader.rejectUnknown(object, path, allowed: ["set"])
            return .set(decodeChanges(object["set"]!, "\(path).set"))
        case "addLayer":
            reader.rejectUnknown(object, path, allowed: ["addLayer", "parent", "index"])
            if case .string(let id) = object["addLayer"]! {
                // An existing layer (addSubview of a view that exists): moved, or inserted.
                reference(id, "\(path).addLayer")
                var parent: String?
                if let parentJSON = object["parent"], let given = reader.string(parentJSON, "\(path).parent") {
                    parent = given
                    reference(given, "\(path).parent")
                }
                let index = object["index"].flatMap {
                    reader.integer($0, "\(path).index", min: 0, max: Limits.maxLayers)
                }
                return .insertLayer(id, parent: parent, index: index)
            }
            guard let node = decodeLayer(object["addLayer"]!, "\(path).addLayer") else { return nil }
            var parent: String?
            if let parentJSON = object["parent"], let id = reader.string(parentJSON, "\(path).parent") {
                parent = id
                reference(id, "\(path).parent")
            }
            var index: Int?
            if let indexJSON = object["index"] {
                index = reader.integer(indexJSON, "\(path).index", min: 0, max: Limits.maxLayers)
            }
            return .addLayer(node, parent: parent, index: index)
        case "removeLayer":
            reader.rejectUnknown(object, path, allowed: ["removeLayer"])
            guard let id = reader.string(object["removeLayer"]!, "\(path).removeLayer") else { return nil }
            reference(id, "\(path).removeLayer")
            return .removeLayer(id)
        case "mark":
            reader.rejectUnknown(object, path, allowed: ["mark"])
            guard let label = reader.string(object["mark"]!, "\(path).mark") else { return nil }
            return .mark(label)
        case "transaction":
            reader.rejectUnknown(object, path, allowed: ["transaction"])
            return decodeTransaction(object["transaction"]!, "\(path).transaction")
        case "animate":
            reader.rejectUnknown(object, path, allowed: ["animate"])
            return decodeAnimate(object["animate"]!, "\(path).animate")
        case "performWithoutAnimation":
            reader.rejectUnknown(object, path, allowed: ["performWithoutAnimation"])
            return .withoutAnimation(
                decodeActions(object["performWithoutAnimation"]!, "\(path).performWithoutAnimation"))
        case "animateKeyframes":
            reader.rejectUnknown(object, path, allowed: ["animateKeyframes"])
            return decodeAnimateKeyframes(object["animateKeyframes"]!, "\(path).animateKeyframes")
        case "transition":
            reader.rejectUnknown(object, path, allowed: ["transition"])
            return decodeViewTransition(object["transition"]!, "\(path).transition")
        case "setState": return decodeSetState(object, path)
        case "withAnimation", "withTransaction", "state": return decodeSwiftUIAction(object, name, path)
        case "after": return decodeAfter(object, path)
        case "if": return decodeIf(object, path)
        case _ where Self.animatorActionNames.contains(name): return decodeAnimatorAction(name, object, path)
        case _ where Self.transitionActionNames.contains(name): return decodeTransitionAction(name, object, path)
        default:
            return nil
        }
    }
}

/// Why bytes could not become a scene: not JSON (400) or not a valid scene (422).
public enum SceneDocumentError: Error, Sendable, Equatable {
    case malformed(JSONParseError)
    case invalid(ValidationFailure)
}
