import ChoreoEngine
import ChoreoJSON

/// Reading the CAAnimation family from the scene format.
extension SceneDecoder {
    private static let commonFields: Set<String> = [
        "type", "key", "beginTime", "delay", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
        "autoreverses", "fillMode", "removedOnCompletion", "timingFunction", "onStart", "onStop",
    ]
    private static let propertyFields: Set<String> = ["keyPath", "additive", "cumulative"]
    /// `CABasicAnimation` and the other classes, by the types they name.
    static let classNames = [
        "CABasicAnimation": "basic", "CAKeyframeAnimation": "keyframe", "CASpringAnimation": "spring",
        "CAAnimationGroup": "group", "CATransition": "transition",
    ]

    private static let fieldsByType: [String: Set<String>] = [
        "basic": ["fromValue", "toValue", "byValue"],
        "spring": [
            "fromValue", "toValue", "byValue", "mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping",
            "perceptualDuration", "bounce",
        ],
        "keyframe": [
            "values", "path", "keyTimes", "timingFunctions", "calculationMode", "rotationMode", "tensionValues",
            "continuityValues", "biasValues",
        ],
        "group": ["animations"],
        "transition": ["transitionType", "subtype", "startProgress", "endProgress"],
    ]

    /// Every field each type allows: the common ones, its own, and a property animation's.
    private static let allowedByType: [String: Set<String>] = fieldsByType.mapValues { specific in
        let isProperty = specific.contains("fromValue") || specific.contains("values")
        return commonFields.union(specific).union(isProperty ? propertyFields : [])
    }

    mutating func decodeAnimation(_ json: JSONValue, _ path: String, depth: Int) -> Animation? {
        guard let given = reader.object(json, path) else { return nil }
        let object = reader.canonical(given, path, aliases: Vocabulary.animationFieldAliases)
        guard depth < FormatLimits.maxGroupDepth else {
            reader.fail(path, "groups may nest at most \(FormatLimits.maxGroupDepth) deep")
            return nil
        }
        guard let typeJSON = object["type"] else {
            reader.fail("\(path).type", "is required (basic, keyframe, spring, group or transition)")
            return nil
        }
        guard let given = reader.string(typeJSON, "\(path).type") else { return nil }
        // Core Animation's class names are the types they name: CABasicAnimation is basic.
        let type = Self.classNames[given] ?? given
        guard let specific = Self.fieldsByType[type] else {
            reader.failUnknown(
                "\(path).type", "must be basic, keyframe, spring, group or transition, not \"\(type)\"", type,
                among: ["basic", "keyframe", "spring", "group", "transition"])
            return nil
        }
        let isProperty = type != "group" && type != "transition"
        reader.rejectUnknown(object, path, allowed: Self.allowedByType[type] ?? specific)

        var property: PropertyAnimation?
        if isProperty {
            guard let keyPathJSON = object["keyPath"] else {
                reader.fail("\(path).keyPath", "is required")
                return nil
            }
            guard let given = reader.string(keyPathJSON, "\(path).keyPath") else { return nil }
            // UIView's names for the layer's properties: `alpha`, `center.x`.
            var text = given
            let head = given.split(separator: ".", maxSplits: 1)
            if let first = head.first, let alias = Vocabulary.propertyAliases[String(first)] {
                text = head.count == 2 ? "\(alias).\(head[1])" : alias
            }
            guard let keyPath = KeyPath(text) else {
                reader.failUnknown(
                    "\(path).keyPath", "unknown key path \"\(given)\"", given, among: Vocabulary.keyPaths)
                return nil
            }
            guard keyPath.property.isAnimatable else {
                reader.fail("\(path).keyPath", "\(text) is not animatable")
                return nil
            }
            var animation = PropertyAnimation(keyPath: keyPath)
            if let v = object["additive"], let flag = reader.bool(v, "\(path).additive") { animation.additive = flag }
            if let v = object["cumulative"], let flag = reader.bool(v, "\(path).cumulative") {
                animation.cumulative = flag
            }
            property = animation
        }

        let content: Animation.Content
        switch type {
        case "basic", "spring":
            guard let property else { return nil }
            let kind = property.keyPath.kind
            var values = BasicValues()
            if let v = object["fromValue"] { values.from = reader.value(v, kind: kind, "\(path).fromValue") }
            if let v = object["toValue"] { values.to = reader.value(v, kind: kind, "\(path).toValue") }
            if let v = object["byValue"] { values.by = reader.value(v, kind: kind, "\(path).byValue") }
            // transform.rotation to 90: radians, so 14 turns; surely degrees.
            if property.keyPath.description.hasPrefix("transform.rotation") {
                for (name, value) in [("fromValue", values.from), ("toValue", values.to), ("byValue", values.by)] {
                    if case .number(let angle)? = value { reader.checkDegrees(angle, "\(path).\(name)") }
                }
            }
            if object["fromValue"] != nil && object["toValue"] != nil && object["byValue"] != nil {
                reader.fail("\(path).byValue", "at most two of fromValue, toValue and byValue may be set")
            }
            var spring: Spring?
            if type == "spring" { spring = decodeSpring(object, path) }
            content = .basic(property, values, spring: spring)
        case "keyframe":
            guard let property, let keyframes = decodeKeyframes(object, path, keyPath: property.keyPath) else {
                return nil
            }
            content = .keyframe(property, keyframes)
        case "group":
            guard let membersJSON = object["animations"] else {
                reader.fail("\(path).animations", "is required")
                return nil
            }
            var members: [Animation] = []
            if let array = reader.array(membersJSON, "\(path).animations") {
                for (index, element) in array.enumerated() {
                    let memberPath = "\(path).animations[\(index)]"
                    if let member = decodeAnimation(element, memberPath, depth: depth + 1) {
                        if case .transition = member.content {
                            reader.fail("\(memberPath).type", "a transition cannot be part of a group")
                        }
                        members.append(member)
                    }
                }
            }
            content = .group(members)
        default:
            content = .transition(decodeTransition(object, path))
        }

        var animation = Animation(content: content)
        decodeTiming(object, path, into: &animation)
        // A group's member without a duration of its own runs for the group's duration
        // (docs/semantics.md): 0 until the group is attached, as Core Animation keeps it.
        if depth > 0 && object["duration"] == nil { animation.timing.duration = 0 }
        return animation
    }

    private mutating func decodeTiming(_ object: JSONObject, _ path: String, into animation: inout Animation) {
        if let v = object["key"], let key = reader.string(v, "\(path).key") { animation.key = key }
        let maxTime = Limits.maxSceneTime
        if let v = object["beginTime"], let n = reader.number(v, "\(path).beginTime", min: -maxTime, max: maxTime) {
            animation.timing.beginTime = n
        }
        if let v = object["delay"], let n = reader.seconds(v, "\(path).delay") { animation.delay = n }
        if let v = object["duration"], let n = reader.seconds(v, "\(path).duration") { animation.timing.duration = n }
        if let v = object["speed"], let n = reader.number(v, "\(path).speed", min: -1000, max: 1000) {
            animation.timing.speed = n
        }
        if let v = object["timeOffset"], let n = reader.number(v, "\(path).timeOffset", min: -maxTime, max: maxTime) {
            animation.timing.timeOffset = n
        }
        if let v = object["repeatCount"] {
            if case .string("infinity") = v {
                animation.timing.repeatCount = .infinity
            } else if case .string = v {
                reader.fail("\(path).repeatCount", "must be a number or \"infinity\"")
            } else if let n = reader.number(v, "\(path).repeatCount", min: 0, max: 1e6) {
                animation.timing.repeatCount = n
            }
        }
        if let v = object["repeatDuration"], let n = reader.number(v, "\(path).repeatDuration", min: 0, max: maxTime) {
            animation.timing.repeatDuration = n
        }
        if let v = object["autoreverses"], let flag = reader.bool(v, "\(path).autoreverses") {
            animation.timing.autoreverses = flag
        }
        if let v = object["fillMode"], let name = reader.name(v, "\(path).fillMode", Vocabulary.fillModes),
            let mode = FillMode(rawValue: name)
        {
            animation.timing.fillMode = mode
        }
        if let v = object["removedOnCompletion"], let flag = reader.bool(v, "\(path).removedOnCompletion") {
            animation.removedOnCompletion = flag
        }
        if let v = object["timingFunction"] {
            animation.timingFunction = reader.timingFunction(v, "\(path).timingFunction")
        }
        if let v = object["onStart"] { animation.onStart = decodeActions(v, "\(path).onStart") }
        if let v = object["onStop"] { animation.onStop = decodeActions(v, "\(path).onStop") }
    }

    private mutating func decodeSpring(_ object: JSONObject, _ path: String) -> Spring {
        var spring = Spring()
        let perceptual = object["perceptualDuration"]
        let bounce = object["bounce"]
        if perceptual != nil || bounce != nil {
            for field in ["mass", "stiffness", "damping"] where object[field] != nil {
                reader.fail("\(path).\(field)", "cannot be combined with perceptualDuration and bounce")
            }
            let duration =
                perceptual.flatMap {
                    reader.number($0, "\(path).perceptualDuration", min: 0, max: 100, exclusiveMin: true)
                } ?? 0.5
            let b = bounce.flatMap { reader.number($0, "\(path).bounce", min: -1, max: 1, exclusiveMin: true) } ?? 0
            spring = Spring(perceptualDuration: duration, bounce: b)
        } else {
            readPhysics(object, path, into: &spring)
        }
        if let v = object["initialVelocity"], let n = reader.number(v, "\(path).initialVelocity", min: -1e4, max: 1e4) {
            spring.initialVelocity = n
        }
        if let v = object["allowsOverdamping"], let flag = reader.bool(v, "\(path).allowsOverdamping") {
            spring.allowsOverdamping = flag
        }
        return spring
    }

    /// `mass`, `stiffness` and `damping` of a spring, where given.
    mutating func readPhysics(_ object: JSONObject, _ path: String, into spring: inout Spring) {
        if let v = object["mass"], let n = reader.number(v, "\(path).mass", min: 0, max: 1e6, exclusiveMin: true) {
            spring.mass = n
        }
        if let v = object["stiffness"],
            let n = reader.number(v, "\(path).stiffness", min: 0, max: 1e9, exclusiveMin: true)
        {
            spring.stiffness = n
        }
        if let v = object["damping"], let n = reader.number(v, "\(path).damping", min: 0, max: 1e9) {
            spring.damping = n
        }
    }

    private mutating func decodeKeyframes(_ object: JSONObject, _ path: String, keyPath: KeyPath) -> Keyframes? {
        var keyframes = Keyframes()
        if let v = object["calculationMode"] {
            guard let name = reader.name(v, "\(path).calculationMode", Vocabulary.calculationModes),
                let mode = CalculationMode(rawValue: name)
            else { return nil }
            keyframes.calculationMode = mode
        }
        var count = 0
        if let pathJSON = object["path"] {
            guard keyPath.kind == .point else {
                reader.fail("\(path).path", "a keyframe path animates a point key path such as position")
                return nil
            }
            guard let bezier = reader.bezierPath(pathJSON, "\(path).path") else { return nil }
            keyframes.path = bezier
            count = PathMeasure(bezier).segments.count + 1
            if count < 2 {
                reader.fail("\(path).path", "needs at least one segment")
                return nil
            }
        } else {
            guard let valuesJSON = object["values"] else {
                reader.fail("\(path).values", "is required (or give a path)")
                return nil
            }
            guard let array = reader.array(valuesJSON, "\(path).values") else { return nil }
            guard !array.isEmpty, array.count <= FormatLimits.maxKeyframes else {
                reader.fail("\(path).values", "must hold 1 to \(FormatLimits.maxKeyframes) values")
                return nil
            }
            for (index, element) in array.enumerated() {
                guard let value = reader.value(element, kind: keyPath.kind, "\(path).values[\(index)]") else {
                    return nil
                }
                keyframes.values.append(value)
            }
            count = array.count
        }
        if let v = object["keyTimes"], let times = reader.numbers(v, "\(path).keyTimes") {
            let expected =
                keyframes.calculationMode == .discrete && keyframes.path == nil ? [count, count + 1] : [count]
            if !expected.contains(times.count) {
                reader.fail(
                    "\(path).keyTimes",
                    "must have \(expected.map(String.init).joined(separator: " or ")) entries (one per keyframe), not \(times.count)"
                )
            } else if zip(times, times.dropFirst()).contains(where: { $0 > $1 })
                || times.contains(where: { $0 < 0 || $0 > 1 })
            {
                reader.fail("\(path).keyTimes", "must be non-decreasing numbers within 0…1")
            } else {
                keyframes.keyTimes = times
            }
        }
        if let v = object["timingFunctions"], let array = reader.array(v, "\(path).timingFunctions") {
            if array.count != count - 1 {
                reader.fail(
                    "\(path).timingFunctions", "must have \(count - 1) entries (one per segment), not \(array.count)")
            } else {
                keyframes.timingFunctions = array.enumerated().compactMap {
                    reader.timingFunction($1, "\(path).timingFunctions[\($0)]")
                }
            }
        }
        if let v = object["rotationMode"], let name = reader.name(v, "\(path).rotationMode", Vocabulary.rotationModes),
            let mode = RotationMode(rawValue: name)
        {
            if keyframes.path == nil { reader.fail("\(path).rotationMode", "needs a path") }
            keyframes.rotationMode = mode
        }
        for field in ["tensionValues", "continuityValues", "biasValues"] {
            guard let v = object[field], let numbers = reader.numbers(v, "\(path).\(field)") else { continue }
            if numbers.contains(where: { $0 < -1 || $0 > 1 }) {
                reader.fail("\(path).\(field)", "values must be within −1…1")
                continue
            }
            switch field {
            case "tensionValues": keyframes.tensionValues = numbers
            case "continuityValues": keyframes.continuityValues = numbers
            default: keyframes.biasValues = numbers
            }
        }
        return keyframes
    }

    private mutating func decodeTransition(_ object: JSONObject, _ path: String) -> Transition {
        var transition = Transition()
        if let v = object["transitionType"],
            let name = reader.name(v, "\(path).transitionType", Vocabulary.transitionTypes),
            let kind = Transition.Kind(rawValue: name)
        {
            transition.kind = kind
        }
        if let v = object["subtype"], let name = reader.name(v, "\(path).subtype", Vocabulary.transitionSubtypes),
            let subtype = Transition.Subtype(rawValue: name)
        {
            transition.subtype = subtype
        }
        if let v = object["startProgress"], let n = reader.number(v, "\(path).startProgress", min: 0, max: 1) {
            transition.startProgress = n
        }
        if let v = object["endProgress"], let n = reader.number(v, "\(path).endProgress", min: 0, max: 1) {
            transition.endProgress = n
        }
        if transition.endProgress < transition.startProgress {
            reader.fail("\(path).endProgress", "must not be less than startProgress")
        }
        return transition
    }
}

extension SceneDecoder {
    /// Whether an animation's `keyPath` names a property the scene format animates, spelled
    /// as the decoder reads it (UIView's names too: `alpha`, `center.x`).
    package static func animatesKeyPath(_ given: String) -> Bool {
        var text = given
        let head = given.split(separator: ".", maxSplits: 1)
        if let first = head.first, let alias = Vocabulary.propertyAliases[String(first)] {
            text = head.count == 2 ? "\(alias).\(head[1])" : alias
        }
        guard let keyPath = KeyPath(text) else { return false }
        return keyPath.property.isAnimatable
    }
}
