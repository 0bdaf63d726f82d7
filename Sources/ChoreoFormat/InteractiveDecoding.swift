import ChoreoEngine
import ChoreoJSON

/// Reading the interactive vocabulary: property animators, view-controller transitions, the
/// percent-driven interaction and the pan gesture (the contract's names: see docs/scripts.md).
extension SceneDecoder {
    static let animatorActionNames = [
        "propertyAnimator", "startAnimation", "pauseAnimation", "stopAnimation", "finishAnimation", "fractionComplete",
        "isReversed", "continueAnimation", "addAnimations", "addCompletion",
    ]
    static let transitionActionNames = [
        "beginTransition", "updateInteractiveTransition", "finishInteractiveTransition",
        "cancelInteractiveTransition", "pauseInteractiveTransition", "completeTransition", "pan",
    ]

    static let curveNames: [String: TimingFunction] = [
        "easeInOut": .easeInEaseOut, "easeIn": .easeIn, "easeOut": .easeOut, "linear": .linear,
    ]

    /// `UIView.AnimationCurve`: easeInOut, easeIn, easeOut, linear (and `.easeInOut`).
    mutating func curve(_ json: JSONValue, _ path: String) -> TimingFunction? {
        guard let given = reader.string(json, path) else { return nil }
        let name = given.split(separator: ".").last.map(String.init) ?? given
        if let curve = Self.curveNames[name] { return curve }
        if name == "easeInEaseOut" { return .easeInEaseOut }
        reader.failUnknown(
            path, "must be easeInOut, easeIn, easeOut or linear, not \"\(given)\"", name,
            among: Self.curveNames.keys.sorted())
        return nil
    }

    /// Timing parameters: exactly one of `curve`, `controlPoints`, `spring`, or `dampingRatio`
    /// (`UIViewPropertyAnimator(duration:dampingRatio:animations:)`, a spring of that ratio).
    mutating func animatorTiming(_ object: JSONObject, _ path: String) -> AnimatorTiming? {
        let given = ["curve", "controlPoints", "spring", "dampingRatio"].filter { object[$0] != nil }
        if given.count > 1 {
            reader.fail(
                path,
                "give one of curve, controlPoints, spring and dampingRatio, not \(given.joined(separator: " and "))")
            return nil
        }
        if let ratio = object["dampingRatio"] {
            let value = reader.number(ratio, "\(path).dampingRatio", min: 0, max: 1, exclusiveMin: true) ?? 1
            return .springRatio(dampingRatio: value, initialVelocity: 0)
        }
        if let v = object["curve"] { return curve(v, "\(path).curve").map { .cubic($0) } }
        if let v = object["controlPoints"] {
            guard let n = reader.numbers(v, "\(path).controlPoints", count: 4) else { return nil }
            guard (0...1).contains(n[0]), (0...1).contains(n[2]) else {
                reader.fail("\(path).controlPoints", "control point x values must be within 0…1")
                return nil
            }
            return .cubic(.bezier(UnitBezier(n[0], n[1], n[2], n[3])))
        }
        if let v = object["spring"], let spring = reader.object(v, "\(path).spring") {
            let springPath = "\(path).spring"
            reader.rejectUnknown(
                spring, springPath, allowed: ["dampingRatio", "mass", "stiffness", "damping", "initialVelocity"])
            var velocity = 0.0
            if let iv = spring["initialVelocity"] {
                // A CGVector's dx (the fraction of the distance per second), or a number.
                if case .array = iv, let n = reader.numbers(iv, "\(springPath).initialVelocity", count: 2) {
                    velocity = n[0]
                } else if let n = reader.number(iv, "\(springPath).initialVelocity", min: -1000, max: 1000) {
                    velocity = n
                }
            }
            if let ratio = spring["dampingRatio"] {
                for field in ["mass", "stiffness", "damping"] where spring[field] != nil {
                    reader.fail("\(springPath).\(field)", "cannot be combined with dampingRatio")
                }
                let value =
                    reader.number(ratio, "\(springPath).dampingRatio", min: 0, max: 1, exclusiveMin: true) ?? 1
                return .springRatio(dampingRatio: value, initialVelocity: velocity)
            }
            var physics = Spring()
            readPhysics(spring, springPath, into: &physics)
            if spring["mass"] == nil && spring["stiffness"] == nil && spring["damping"] == nil {
                reader.fail(springPath, "needs dampingRatio, or mass, stiffness and damping")
            }
            physics.initialVelocity = velocity
            return .spring(physics)
        }
        return nil
    }

    private mutating func identifier(_ json: JSONValue, _ path: String) -> String? {
        guard let id = reader.string(json, path) else { return nil }
        guard !id.isEmpty && id.utf8.count <= 200 else {
            reader.fail(path, "must be 1 to 200 bytes long")
            return nil
        }
        return id
    }

    mutating func decodeAnimatorAction(_ name: String, _ object: JSONObject, _ path: String) -> ScriptAction? {
        if name == "propertyAnimator" {
            reader.rejectUnknown(object, path, allowed: ["propertyAnimator"])
            return decodePropertyAnimator(object["propertyAnimator"]!, "\(path).propertyAnimator")
        }
        reader.rejectUnknown(object, path, allowed: [name, "animator"])
        guard let idJSON = object["animator"] else {
            reader.fail("\(path).animator", "is required: the id of the property animator")
            return nil
        }
        guard let id = identifier(idJSON, "\(path).animator") else { return nil }
        animatorReferences.append((id, "\(path).animator"))
        let value = object[name]!
        let valuePath = "\(path).\(name)"
        let call: AnimatorCall
        switch name {
        case "startAnimation":
            guard let body = reader.object(value, valuePath) else { return nil }
            reader.rejectUnknown(body, valuePath, allowed: ["afterDelay"])
            call = .start(afterDelay: body["afterDelay"].flatMap { reader.seconds($0, "\(valuePath).afterDelay") } ?? 0)
        case "pauseAnimation":
            guard let body = reader.object(value, valuePath) else { return nil }
            reader.rejectUnknown(body, valuePath, allowed: [])
            call = .pause
        case "stopAnimation":
            guard let body = reader.object(value, valuePath) else { return nil }
            reader.rejectUnknown(body, valuePath, allowed: ["withoutFinishing"])
            guard let flagJSON = body["withoutFinishing"] else {
                reader.fail("\(valuePath).withoutFinishing", "is required (stopAnimation(_ withoutFinishing:))")
                return nil
            }
            guard let flag = reader.bool(flagJSON, "\(valuePath).withoutFinishing") else { return nil }
            call = .stop(withoutFinishing: flag)
        case "finishAnimation":
            guard let body = reader.object(value, valuePath) else { return nil }
            reader.rejectUnknown(body, valuePath, allowed: ["at"])
            guard let atJSON = body["at"], let position = position(atJSON, "\(valuePath).at") else {
                if body["at"] == nil { reader.fail("\(valuePath).at", "is required: end, start or current") }
                return nil
            }
            call = .finish(at: position)
        case "fractionComplete":
            guard let fraction = reader.number(value, valuePath, min: 0, max: 1) else { return nil }
            call = .fractionComplete(fraction)
        case "isReversed":
            guard let flag = reader.bool(value, valuePath) else { return nil }
            call = .reversed(flag)
        case "continueAnimation":
            guard let body = reader.object(value, valuePath) else { return nil }
            reader.rejectUnknown(body, valuePath, allowed: ["timingParameters", "durationFactor"])
            var timing: AnimatorTiming?
            if let t = body["timingParameters"], t != .null,
                let parameters = reader.object(t, "\(valuePath).timingParameters")
            {
                reader.rejectUnknown(
                    parameters, "\(valuePath).timingParameters", allowed: ["curve", "controlPoints", "spring"])
                timing = animatorTiming(parameters, "\(valuePath).timingParameters")
            }
            let factor =
                body["durationFactor"].flatMap { reader.number($0, "\(valuePath).durationFactor", min: 0, max: 1000) }
                ?? 1
            call = .continueAnimation(timing: timing, durationFactor: factor)
        case "addAnimations":
            guard let body = reader.object(value, valuePath) else { return nil }
            reader.rejectUnknown(body, valuePath, allowed: ["changes", "delayFactor"])
            guard let changes = body["changes"] else {
                reader.fail("\(valuePath).changes", "is required")
                return nil
            }
            let factor =
                body["delayFactor"].flatMap { reader.number($0, "\(valuePath).delayFactor", min: 0, max: 1) } ?? 0
            call = .addAnimations(decodeChanges(changes, "\(valuePath).changes"), delayFactor: factor)
        default:
            call = .addCompletion(decodeActions(value, valuePath))
        }
        return .animator(id, call)
    }

    private mutating func position(_ json: JSONValue, _ path: String) -> AnimatingPosition? {
        guard let given = reader.string(json, path) else { return nil }
        let name = given.split(separator: ".").last.map(String.init) ?? given
        guard let position = AnimatingPosition(rawValue: name) else {
            reader.failUnknown(
                path, "must be end, start or current, not \"\(given)\"", name,
                among: AnimatingPosition.allCases.map(\.rawValue))
            return nil
        }
        return position
    }

    private mutating func decodePropertyAnimator(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(
            object, path,
            allowed: [
                "id", "duration", "curve", "controlPoints", "spring", "dampingRatio", "changes", "completion",
                "scrubsLinearly", "pausesOnCompletion", "start", "delay",
            ])
        guard let idJSON = object["id"], let id = identifier(idJSON, "\(path).id") else {
            if object["id"] == nil { reader.fail("\(path).id", "is required") }
            return nil
        }
        declaredAnimators.append(id)
        guard let durationJSON = object["duration"] else {
            reader.fail("\(path).duration", "is required")
            return nil
        }
        guard let duration = reader.seconds(durationJSON, "\(path).duration") else { return nil }
        var spec = PropertyAnimatorSpec(id: id, duration: duration)
        if let timing = animatorTiming(object, path) { spec.timing = timing }
        if let v = object["changes"] { spec.changes = decodeChanges(v, "\(path).changes") }
        if let v = object["completion"] { spec.completion = decodeActions(v, "\(path).completion") }
        if let v = object["scrubsLinearly"], let flag = reader.bool(v, "\(path).scrubsLinearly") {
            spec.scrubsLinearly = flag
        }
        if let v = object["pausesOnCompletion"], let flag = reader.bool(v, "\(path).pausesOnCompletion") {
            spec.pausesOnCompletion = flag
        }
        if let v = object["start"], let flag = reader.bool(v, "\(path).start") { spec.start = flag }
        if let v = object["delay"], let delay = reader.seconds(v, "\(path).delay") { spec.delay = delay }
        return .propertyAnimator(spec)
    }

    mutating func decodeTransitionAction(_ name: String, _ object: JSONObject, _ path: String) -> ScriptAction? {
        let valuePath = "\(path).\(name)"
        switch name {
        case "beginTransition":
            reader.rejectUnknown(object, path, allowed: ["beginTransition"])
            return decodeBeginTransition(object[name]!, valuePath)
        case "pan":
            reader.rejectUnknown(object, path, allowed: ["pan"])
            return decodePan(object[name]!, valuePath)
        case "completeTransition":
            reader.rejectUnknown(object, path, allowed: ["completeTransition", "transition"])
            var argument: CompletionArgument?
            switch object[name]! {
            case .bool(let flag): argument = .value(flag)
            case .string("notCancelled"), .string("!transitionWasCancelled"): argument = .notCancelled
            default:
                reader.fail(
                    valuePath, "must be true, false or \"notCancelled\" (!transitionContext.transitionWasCancelled)")
            }
            var id: String?
            if let v = object["transition"], let given = identifier(v, "\(path).transition") {
                id = given
                transitionReferences.append((given, "\(path).transition"))
            }
            return argument.map { .completeTransition($0, transition: id) }
        default:
            reader.rejectUnknown(object, path, allowed: [name, "transition"])
            guard let idJSON = object["transition"] else {
                reader.fail("\(path).transition", "is required: the id of the transition")
                return nil
            }
            guard let id = identifier(idJSON, "\(path).transition") else { return nil }
            transitionReferences.append((id, "\(path).transition"))
            let value = object[name]!
            let call: InteractionCall
            switch name {
            case "updateInteractiveTransition":
                guard let percent = reader.number(value, valuePath) else { return nil }
                call = .update(percent)
            default:
                guard let body = reader.object(value, valuePath) else { return nil }
                reader.rejectUnknown(body, valuePath, allowed: [])
                call =
                    name == "finishInteractiveTransition"
                    ? .finish : name == "cancelInteractiveTransition" ? .cancel : .pause
            }
            return .interaction(id, call)
        }
    }

    private mutating func decodeBeginTransition(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(
            object, path,
            allowed: ["id", "operation", "from", "to", "container", "duration", "interactive", "animateTransition"])
        for field in ["id", "operation", "from", "to", "container", "duration"] where object[field] == nil {
            reader.fail("\(path).\(field)", "is required")
        }
        guard let idJSON = object["id"], let id = identifier(idJSON, "\(path).id"),
            let operationJSON = object["operation"],
            let operationName = reader.string(operationJSON, "\(path).operation"),
            let fromJSON = object["from"], let from = reader.string(fromJSON, "\(path).from"),
            let toJSON = object["to"], let to = reader.string(toJSON, "\(path).to"),
            let containerJSON = object["container"], let container = reader.string(containerJSON, "\(path).container"),
            let durationJSON = object["duration"], let duration = reader.seconds(durationJSON, "\(path).duration")
        else { return nil }
        guard let operation = TransitionOperation(rawValue: operationName) else {
            reader.failUnknown(
                "\(path).operation", "must be push, pop, present or dismiss", operationName,
                among: TransitionOperation.allCases.map(\.rawValue))
            return nil
        }
        declaredTransitions.append(id)
        reference(from, "\(path).from")
        reference(to, "\(path).to")
        reference(container, "\(path).container")
        var spec = TransitionSpec(
            id: id, operation: operation, from: from, to: to, container: container, duration: duration)
        if let v = object["interactive"], let settingsJSON = reader.object(v, "\(path).interactive") {
            reader.rejectUnknown(settingsJSON, "\(path).interactive", allowed: ["completionSpeed", "completionCurve"])
            var settings = InteractiveSettings()
            if let speed = settingsJSON["completionSpeed"],
                let n = reader.number(
                    speed, "\(path).interactive.completionSpeed", min: 0, max: 100, exclusiveMin: true)
            {
                settings.completionSpeed = n
            }
            if let c = settingsJSON["completionCurve"], let function = curve(c, "\(path).interactive.completionCurve") {
                settings.completionCurve = function
            }
            spec.interactive = settings
        }
        if let v = object["animateTransition"] {
            spec.animateTransition = decodeActions(v, "\(path).animateTransition")
        }
        return .beginTransition(spec)
    }

    private mutating func decodePan(_ json: JSONValue, _ path: String) -> ScriptAction? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(
            object, path, allowed: ["onBegan", "transition", "axis", "distance", "finishIf", "samples"])
        guard let idJSON = object["transition"], let id = identifier(idJSON, "\(path).transition") else {
            if object["transition"] == nil { reader.fail("\(path).transition", "is required") }
            return nil
        }
        transitionReferences.append((id, "\(path).transition"))
        var gesture = PanGesture(transition: id)
        if let v = object["onBegan"] { gesture.onBegan = decodeActions(v, "\(path).onBegan") }
        if let v = object["axis"], let axis = reader.string(v, "\(path).axis") {
            if let parsed = PanGesture.Axis(rawValue: axis) {
                gesture.axis = parsed
            } else {
                reader.fail("\(path).axis", "must be x or y")
            }
        }
        if let v = object["distance"],
            let n = reader.number(v, "\(path).distance", min: 0, max: 1e6, exclusiveMin: true)
        {
            gesture.distance = n
        }
        if let v = object["finishIf"], let rule = reader.object(v, "\(path).finishIf") {
            reader.rejectUnknown(rule, "\(path).finishIf", allowed: ["progressOver", "velocityOver"])
            if let p = rule["progressOver"], let n = reader.number(p, "\(path).finishIf.progressOver", min: 0, max: 1) {
                gesture.progressOver = n
            }
            if let s = rule["velocityOver"], let n = reader.number(s, "\(path).finishIf.velocityOver") {
                gesture.velocityOver = n
            }
        }
        guard let samplesJSON = object["samples"], let samples = reader.array(samplesJSON, "\(path).samples") else {
            if object["samples"] == nil { reader.fail("\(path).samples", "is required") }
            return nil
        }
        var last = -Double.infinity
        for (index, element) in samples.enumerated() {
            let samplePath = "\(path).samples[\(index)]"
            guard let sample = reader.object(element, samplePath) else { continue }
            reader.rejectUnknown(sample, samplePath, allowed: ["at", "state", "translation", "velocity"])
            guard let atJSON = sample["at"],
                let at = reader.number(atJSON, "\(samplePath).at", min: 0, max: Limits.maxSceneTime),
                let stateJSON = sample["state"], let stateName = reader.string(stateJSON, "\(samplePath).state")
            else {
                for field in ["at", "state"] where sample[field] == nil {
                    reader.fail("\(samplePath).\(field)", "is required")
                }
                continue
            }
            guard let state = PanGesture.Sample.State(rawValue: stateName) else {
                reader.failUnknown(
                    "\(samplePath).state", "must be began, changed, ended or cancelled", stateName,
                    among: PanGesture.Sample.State.allCases.map(\.rawValue))
                continue
            }
            if at < last { reader.fail("\(samplePath).at", "samples must be in time order") }
            last = at
            var translation = Point(0, 0)
            if let t = sample["translation"],
                case .point(let p)? = reader.value(t, kind: .point, "\(samplePath).translation")
            {
                translation = p
            }
            var velocity = Point(0, 0)
            if let v = sample["velocity"], case .point(let p)? = reader.value(v, kind: .point, "\(samplePath).velocity")
            {
                velocity = p
            }
            gesture.samples.append(.init(at: at, state: state, translation: translation, velocity: velocity))
        }
        return .pan(gesture)
    }
}
