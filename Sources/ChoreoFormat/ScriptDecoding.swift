import ChoreoEngine
import ChoreoJSON

/// The script's block actions: `transaction`, `animate`, `animateKeyframes`, `transition`,
/// `setState`, `after` and `if`.
extension SceneDecoder {
    /// `{"id": {"property": value, ...}, ...}`: model changes layer by layer, as `set` takes them.
    mutating func decodeChanges(_ json: JSONValue, _ path: String) -> [LayerChanges] {
        guard let layers = reader.object(json, path) else { return [] }
        var all: [LayerChanges] = []
        for id in layers.keys {
            let layerPath = "\(path).\(id)"
            reference(id, layerPath)
            guard let given = reader.object(layers[id]!, layerPath) else { continue }
            let values = reader.canonical(given, layerPath, aliases: Vocabulary.propertyAliases)
            var changes: [ModelChange] = []
            for key in values.keys {
                let fieldPath = "\(layerPath).\(key)"
                let json = values[key]!
                switch key {
                case "beginTime": if let n = reader.number(json, fieldPath) { changes.append(.beginTime(n)) }
                case "speed": if let n = reader.number(json, fieldPath) { changes.append(.speed(n)) }
                case "timeOffset": if let n = reader.number(json, fieldPath) { changes.append(.timeOffset(n)) }
                case "frame":
                    if case .rect(let frame)? = reader.value(json, kind: .rect, fieldPath) {
                        if values["position"] != nil || values["bounds"] != nil {
                            reader.fail(fieldPath, "give either frame or position/bounds, not both")
                        } else {
                            changes.append(.frame(frame))
                        }
                    }
                default:
                    guard let property = LayerProperty(rawValue: key) else {
                        reader.failUnknown(
                            fieldPath, "unknown property", key,
                            among: LayerProperty.allCases.map(\.rawValue) + [
                                "frame", "beginTime", "speed", "timeOffset",
                            ])
                        continue
                    }
                    if let value = reader.value(json, kind: property.kind, fieldPath) {
                        changes.append(.property(property, value))
                    }
                }
            }
            all.append(LayerChanges(layer: id, changes: changes))
        }
        return all
    }

    private mutating func optionalName(_ object: JSONObject, _ path: String) -> String? {
        guard let v = object["name"], let name = reader.string(v, "\(path).name") else { return nil }
        if name.utf8.count > 200 { reader.fail("\(path).name", "must be at most 200 bytes long") }
        return name
    }

    private mutating func duration(_ object: JSONObject, _ path: String, required: Bool) -> Double? {
        guard let v = object["duration"] else {
            if required { reader.fail("\(path).duration", "is required") }
            return nil
        }
        return reader.seconds(v, "\(path).duration")
    }

    private mutating func delay(_ object: JSONObject, _ path: String) -> Double {
        guard let v = object["delay"] else { return 0 }
        return reader.seconds(v, "\(path).delay") ?? 0
    }

    private mutating func completion(_ object: JSONObject, _ path: String) -> [ScriptAction] {
        guard let v = object["completion"] else { return [] }
        return decodeActions(v, "\(path).completion")
    }

    /// The option names each block accepts.
    enum OptionSet {
        case animate, keyframes, transition

        static let common = [
            "curveEaseInOut", "curveEaseIn", "curveEaseOut", "curveLinear", "beginFromCurrentState", "repeat",
            "autoreverse", "overrideInheritedDuration", "overrideInheritedCurve", "allowUserInteraction",
        ]
        static let calculationModes = [
            "calculationModeLinear", "calculationModeDiscrete", "calculationModePaced", "calculationModeCubic",
            "calculationModeCubicPaced",
        ]

        var names: [String] {
            switch self {
            case .animate: Self.common
            case .keyframes: Self.common + Self.calculationModes
            case .transition:
                Self.common + ViewTransition.Style.allCases.map(\.rawValue) + [
                    "transitionNone", "showHideTransitionViews",
                ]
            }
        }
    }

    /// `UIView.AnimationOptions` as a list of names; at most one curve, one calculation mode
    /// and one transition.
    private mutating func options(_ object: JSONObject, _ path: String, _ set: OptionSet)
        -> (ViewAnimationOptions, ViewTransition.Style?)
    {
        var options = ViewAnimationOptions()
        var style: ViewTransition.Style?
        guard let v = object["options"], let list = reader.array(v, "\(path).options") else { return (options, nil) }
        var curves = 0
        var modes = 0
        var transitions = 0
        for (index, element) in list.enumerated() {
            let itemPath = "\(path).options[\(index)]"
            guard let given = reader.string(element, itemPath) else { continue }
            // `.curveEaseOut`, `UIView.AnimationOptions.curveEaseOut`: the option's Swift spelling.
            let name = given.split(separator: ".").last.map(String.init) ?? given
            guard set.names.contains(name) else {
                reader.failUnknown(
                    itemPath, "unknown option \"\(given)\"; one of \(set.names.joined(separator: ", "))", name,
                    among: set.names)
                continue
            }
            switch name {
            case "curveEaseInOut": (options.curve, curves) = (.easeInEaseOut, curves + 1)
            case "curveEaseIn": (options.curve, curves) = (.easeIn, curves + 1)
            case "curveEaseOut": (options.curve, curves) = (.easeOut, curves + 1)
            case "curveLinear": (options.curve, curves) = (.linear, curves + 1)
            case "beginFromCurrentState": options.beginFromCurrentState = true
            case "repeat": options.repeats = true
            case "autoreverse": options.autoreverses = true
            case "overrideInheritedDuration": options.overrideInheritedDuration = true
            case "overrideInheritedCurve": options.overrideInheritedCurve = true
            case "calculationModeLinear": (options.calculationMode, modes) = (.linear, modes + 1)
            case "calculationModeDiscrete": (options.calculationMode, modes) = (.discrete, modes + 1)
            case "calculationModePaced": (options.calculationMode, modes) = (.paced, modes + 1)
            case "calculationModeCubic": (options.calculationMode, modes) = (.cubic, modes + 1)
            case "calculationModeCubicPaced": (options.calculationMode, modes) = (.cubicPaced, modes + 1)
            case "transitionNone": transitions += 1
            case "showHideTransitionViews": break
            default:
                if let given = ViewTransition.Style(rawValue: name) {
                    style = given
                    transitions += 1
                }
            }
        }
        if curves > 1 { reader.fail("\(path).options", "give at most one curve option") }
        if modes > 1 { reader.fail("\(path).options", "give at most one calculationMode option") }
        if transitions > 1 { reader.fail("\(path).options", "give at most one transition option") }
        return (options, style)
    }

    mutating func decodeTransaction(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(
            object, path, allowed: ["duration", "timingFunction", "disableActions", "name", "do", "completion"])
        var block = TransactionBlock()
        block.duration = duration(object, path, required: false)
        if let v = object["timingFunction"] {
            block.timingFunction = reader.timingFunction(v, "\(path).timingFunction")
        }
        if let v = object["disableActions"], let flag = reader.bool(v, "\(path).disableActions") {
            block.disableActions = flag
        }
        block.name = optionalName(object, path)
        if let v = object["do"] { block.actions = decodeActions(v, "\(path).do") }
        block.completion = completion(object, path)
        return .transaction(block)
    }

    mutating func decodeAnimate(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let given = reader.object(json, path) else { return nil }
        var object = reader.canonical(given, path, aliases: Vocabulary.animateFieldAliases)
        let perceptual = perceptualSpring(&object, path)
        // The Swift labels `usingSpringWithDamping:initialSpringVelocity:` are the `spring` object.
        let labels = ["usingSpringWithDamping", "initialSpringVelocity"]
        if labels.contains(where: { object[$0] != nil }) {
            if object["spring"] != nil {
                reader.fail("\(path).usingSpringWithDamping", "give either spring or the Swift labels, not both")
            } else {
                var spring = JSONObject()
                spring["dampingRatio"] = object["usingSpringWithDamping"]
                spring["initialVelocity"] = object["initialSpringVelocity"]
                object["spring"] = .object(spring)
            }
            for label in labels { object[label] = nil }
        }
        reader.rejectUnknown(
            object, path, allowed: ["duration", "delay", "options", "spring", "changes", "completion", "name"])
        var block = ViewAnimation(
            duration: perceptual.map(\.settlingDuration) ?? duration(object, path, required: true) ?? 0)
        block.delay = delay(object, path)
        block.options = options(object, path, .animate).0
        if let perceptual {
            // The spring is the timing: its animations last until it settles; curves do not apply.
            block.physics = perceptual
            block.options.curve = .linear
        }
        if let v = object["spring"], let spring = reader.object(v, "\(path).spring") {
            reader.rejectUnknown(spring, "\(path).spring", allowed: ["dampingRatio", "initialVelocity"])
            var ratio = 1.0
            var velocity = 0.0
            if let r = spring["dampingRatio"] {
                ratio = reader.number(r, "\(path).spring.dampingRatio", min: 0, max: 1, exclusiveMin: true) ?? 1
            } else {
                reader.fail("\(path).spring.dampingRatio", "is required")
            }
            if let iv = spring["initialVelocity"] {
                velocity = reader.number(iv, "\(path).spring.initialVelocity", min: -1000, max: 1000) ?? 0
            }
            block.spring = ViewSpring(dampingRatio: ratio, initialVelocity: velocity)
        }
        if let v = object["changes"] {
            block.changes = decodeChanges(v, "\(path).changes")
        } else {
            reader.fail("\(path).changes", "is required")
        }
        block.name = optionalName(object, path)
        block.completion = completion(object, path)
        return .animate(block)
    }

    /// iOS 17's `UIView.animate(springDuration:bounce:initialSpringVelocity:delay:options:animations:completion:)`:
    /// a spring of that perceptual duration (0.5 s by default) and bounce (0 by default; −1 < bounce
    /// < 1), `CASpringAnimation(perceptualDuration:bounce:)`. Its fields are taken out of `object`;
    /// nil when the block gives neither.
    private mutating func perceptualSpring(_ object: inout JSONObject, _ path: String) -> Spring? {
        guard object["springDuration"] != nil || object["bounce"] != nil else { return nil }
        for other in ["duration", "spring", "usingSpringWithDamping"] where object[other] != nil {
            reader.fail("\(path).\(other)", "give springDuration and bounce, or duration, not both")
        }
        var springDuration = 0.5
        if let v = object["springDuration"] {
            springDuration =
                reader.number(v, "\(path).springDuration", min: 0, max: 60, exclusiveMin: true) ?? springDuration
        }
        var bounce = 0.0
        if let v = object["bounce"] {
            bounce = reader.number(v, "\(path).bounce", min: -1, max: 1, exclusiveMin: true) ?? 0
            if bounce >= 1 { reader.fail("\(path).bounce", "must be less than 1") }
        }
        var velocity = 0.0
        if let v = object["initialSpringVelocity"] {
            velocity = reader.number(v, "\(path).initialSpringVelocity", min: -1000, max: 1000) ?? 0
        }
        for key in ["springDuration", "bounce", "initialSpringVelocity"] { object[key] = nil }
        return Spring(perceptualDuration: springDuration, bounce: bounce, initialVelocity: velocity)
    }

    mutating func decodeAnimateKeyframes(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let given = reader.object(json, path) else { return nil }
        let object = reader.canonical(given, path, aliases: Vocabulary.keyframesFieldAliases)
        reader.rejectUnknown(
            object, path, allowed: ["duration", "delay", "options", "keyframes", "completion", "name"])
        var block = ViewKeyframes(duration: duration(object, path, required: true) ?? 0)
        block.delay = delay(object, path)
        block.options = options(object, path, .keyframes).0
        if let v = object["keyframes"], let list = reader.array(v, "\(path).keyframes") {
            for (index, element) in list.enumerated() {
                let itemPath = "\(path).keyframes[\(index)]"
                guard let givenKeyframe = reader.object(element, itemPath) else { continue }
                let keyframe = reader.canonical(givenKeyframe, itemPath, aliases: Vocabulary.keyframeFieldAliases)
                reader.rejectUnknown(keyframe, itemPath, allowed: ["relativeStartTime", "relativeDuration", "changes"])
                var start = 0.0
                var length = 1.0
                if let s = keyframe["relativeStartTime"] {
                    start = reader.number(s, "\(itemPath).relativeStartTime", min: 0, max: 1) ?? 0
                }
                if let d = keyframe["relativeDuration"] {
                    length = reader.number(d, "\(itemPath).relativeDuration", min: 0, max: 1) ?? 0
                }
                if start + length > 1 + 1e-9 {
                    reader.fail(
                        "\(itemPath).relativeDuration", "relativeStartTime + relativeDuration must be at most 1")
                }
                var changes: [LayerChanges] = []
                if let c = keyframe["changes"] {
                    changes = decodeChanges(c, "\(itemPath).changes")
                } else {
                    reader.fail("\(itemPath).changes", "is required")
                }
                block.keyframes.append(
                    ViewKeyframes.Keyframe(relativeStartTime: start, relativeDuration: length, changes: changes))
            }
        } else if object["keyframes"] == nil {
            reader.fail("\(path).keyframes", "is required")
        }
        block.name = optionalName(object, path)
        block.completion = completion(object, path)
        return .animateKeyframes(block)
    }

    mutating func decodeViewTransition(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let given = reader.object(json, path) else { return nil }
        let object = reader.canonical(given, path, aliases: Vocabulary.transitionFieldAliases)
        if object["from"] != nil || object["to"] != nil { return decodeReplacement(object, path) }
        reader.rejectUnknown(
            object, path, allowed: ["layer", "duration", "options", "changes", "completion", "name"])
        guard let layerJSON = object["layer"] else {
            reader.fail("\(path).layer", "is required")
            return nil
        }
        guard let layer = reader.string(layerJSON, "\(path).layer") else { return nil }
        reference(layer, "\(path).layer")
        var block = ViewTransition(layer: layer, duration: duration(object, path, required: true) ?? 0)
        (block.options, block.style) = options(object, path, .transition)
        if let v = object["changes"] { block.changes = decodeChanges(v, "\(path).changes") }
        block.name = optionalName(object, path)
        block.completion = completion(object, path)
        return .transition(block)
    }

    /// `UIView.transition(from:to:duration:options:completion:)`: `from` and `to` instead of
    /// `layer` and `changes`.
    private mutating func decodeReplacement(_ object: JSONObject, _ path: String) -> ScriptAction? {
        reader.rejectUnknown(object, path, allowed: ["from", "to", "duration", "options", "completion", "name"])
        var ids: [String] = []
        for key in ["from", "to"] {
            guard let v = object[key] else {
                reader.fail("\(path).\(key)", "is required with \(key == "from" ? "to" : "from")")
                continue
            }
            if let id = reader.string(v, "\(path).\(key)") {
                reference(id, "\(path).\(key)")
                ids.append(id)
            }
        }
        guard ids.count == 2 else { return nil }
        if ids[0] == ids[1] { reader.fail("\(path).to", "must be another view than from") }
        var block = ViewTransition(layer: ids[0], duration: duration(object, path, required: true) ?? 0)
        let showHide = optionNames(object).contains("showHideTransitionViews")
        (block.options, block.style) = options(object, path, .transition)
        block.replacement = ViewTransition.Replacement(from: ids[0], to: ids[1], showHide: showHide)
        block.name = optionalName(object, path)
        block.completion = completion(object, path)
        return .transition(block)
    }

    /// The option names a block lists, in their short spelling (`.showHideTransitionViews`).
    private func optionNames(_ object: JSONObject) -> [String] {
        guard case .array(let list)? = object["options"] else { return [] }
        return list.compactMap { element in
            guard case .string(let given) = element else { return nil }
            return given.split(separator: ".").last.map(String.init) ?? given
        }
    }

    mutating func decodeSetState(_ object: JSONObject, _ path: String) -> ScriptAction? {
        reader.rejectUnknown(object, path, allowed: ["setState", "animated", "duration"])
        guard let states = reader.object(object["setState"]!, "\(path).setState") else { return nil }
        var pairs: [(layer: String, state: String)] = []
        for id in states.keys {
            reference(id, "\(path).setState.\(id)")
            if let state = reader.string(states[id]!, "\(path).setState.\(id)") { pairs.append((id, state)) }
        }
        var animated = false
        if let v = object["animated"], let flag = reader.bool(v, "\(path).animated") { animated = flag }
        let duration = duration(object, path, required: false) ?? 0.25
        return .setState(pairs, animated: animated, duration: duration)
    }

    mutating func decodeAfter(_ object: JSONObject, _ path: String) -> ScriptAction? {
        reader.rejectUnknown(object, path, allowed: ["after", "do"])
        guard let delay = reader.seconds(object["after"]!, "\(path).after") else { return nil }
        guard let doJSON = object["do"] else {
            reader.fail("\(path).do", "is required")
            return nil
        }
        return .after(delay, decodeActions(doJSON, "\(path).do"))
    }

    mutating func decodeIf(_ object: JSONObject, _ path: String) -> ScriptAction? {
        reader.rejectUnknown(object, path, allowed: ["if", "do"])
        guard let text = reader.string(object["if"]!, "\(path).if") else { return nil }
        let conditions: [String: ScriptCondition] = [
            "finished": .finished(true), "!finished": .finished(false),
            "position == end": .position(.end), "position == start": .position(.start),
            "position == current": .position(.current),
            "transitionWasCancelled": .transitionWasCancelled(true),
            "!transitionWasCancelled": .transitionWasCancelled(false),
        ]
        // Spaces around == are optional, and Swift's `.end` reads as `end`.
        let normalized = text.replacing(" ", with: "").replacing("==.", with: "==").replacing("==", with: " == ")
        guard let condition = conditions[normalized] else {
            reader.failUnknown(
                "\(path).if", "must be one of \(conditions.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))",
                text,
                among: conditions.keys.sorted())
            return nil
        }
        guard let doJSON = object["do"] else {
            reader.fail("\(path).do", "is required")
            return nil
        }
        return .ifCondition(condition, decodeActions(doJSON, "\(path).do"))
    }
}
