import ChoreoFormat
import ChoreoJSON

/// UIView animation blocks, `CATransaction`, `CAAnimation`s and their delegates, GCD.
extension ImportEvaluator {
    /// `Type.method(…)` of UIKit, Core Animation and GCD.
    /// The animation properties code sets, for "did you mean".
    static let animationPropertyNames = [
        "keyPath", "fromValue", "toValue", "byValue", "values", "keyTimes", "path", "timingFunction",
        "timingFunctions", "calculationMode", "rotationMode", "duration", "beginTime", "timeOffset", "speed",
        "repeatCount", "repeatDuration", "autoreverses", "fillMode", "isRemovedOnCompletion", "removedOnCompletion",
        "isAdditive", "additive", "isCumulative", "cumulative", "animations", "mass", "stiffness", "damping",
        "initialVelocity", "type", "subtype", "delegate",
    ]

    func callStatic(_ type: String, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        if type == "NSCoder", let value = coderFunction(name, arguments, position) { return value }
        switch (type, name) {
        case ("super", _):
            return .null
        case (Self.constraintType, "activate"), (Self.constraintType, "activateConstraints"):
            activate(arguments.items.first?.value ?? .null, true)
            return .null
        case (Self.constraintType, "deactivate"), (Self.constraintType, "deactivateConstraints"):
            activate(arguments.items.first?.value ?? .null, false)
            return .null
        case (Self.constraintType, "constraintWithItem"):
            return try layoutConstraint(arguments, position)
        case ("UIView", "animate"), ("UIView", "animateWithDuration"):
            return try animateBlock(arguments, position)
        case ("UIView", "animateKeyframes"), ("UIView", "animateKeyframesWithDuration"):
            return try keyframesBlock(arguments, position)
        case ("UIView", "addKeyframe"), ("UIView", "addKeyframeWithRelativeStartTime"):
            return try addKeyframe(arguments, position)
        case ("UIView", "transition"), ("UIView", "transitionWithView"), ("UIView", "transitionFromView"):
            return try transitionBlock(arguments, position)
        case ("UIView", "performWithoutAnimation"):
            guard let body = arguments.closures.first?.closure else { return .null }
            let list = ActionList()
            try collecting(into: list) { () throws(ImportStop) in _ = try invoke(body, [], at: position) }
            try emit([("performWithoutAnimation", .list(list))], position)
            return .null
        case ("UIView", "setAnimationsEnabled"), ("UIView", "areAnimationsEnabled"):
            warn(position, "UIView.setAnimationsEnabled is not imported; animations stay enabled")
            return .bool(true)
        case ("CATransaction", _):
            return try transaction(name, arguments, position)
        case ("DispatchQueue.main", "asyncAfter"):
            return try dispatch(arguments["deadline"] ?? arguments.items.first?.value ?? .null, arguments, position)
        case ("DispatchQueue.main", "async"):
            return try dispatch(.number(0), arguments, position)
        case ("DispatchQueue", "main"):
            return .typeName("DispatchQueue.main")
        case ("UIColor", _):
            if let color = color(named: name) { return color }
            return try makeColor(arguments, position)
        case ("CAMediaTimingFunction", "functionWithName"):
            return timing(arguments.items.first?.value ?? .null) ?? .timing(.string("default"))
        case ("CAMediaTimingFunction", "functionWithControlPoints"):
            return try callFunction("CAMediaTimingFunction", arguments, position)
        case ("UIBezierPath", _):
            return try makePath(Arguments(items: [(name, .null)] + arguments.items), position)
        case ("UIFont", _):
            return arguments.items.first?.value ?? .number(17)
        case ("UIViewPropertyAnimator", "runningPropertyAnimator"),
            ("UIViewPropertyAnimator", "runningPropertyAnimatorWithDuration"):
            return try makeAnimator(arguments, start: true, position)
        case ("UIAccessibility", "isReduceMotionEnabled"), ("UIAccessibility", "IsReduceMotionEnabled"):
            return .bool(options.reduceMotion)
        default:
            if [
                "UIView", "UILabel", "CALayer", "CAShapeLayer", "CABasicAnimation", "CAKeyframeAnimation",
                "CASpringAnimation", "CAAnimationGroup", "CATransition", "CAEmitterLayer", "UIButton", "UIImageView",
            ]
            .contains(type),
                [
                    "new", "alloc", "layer", "animation", "init", "animationWithKeyPath", "button",
                    "buttonWithType",
                ].contains(name)
            {
                return try construct(type, arguments, position)
            }
            let known = ["animate", "animateKeyframes", "addKeyframe", "transition", "performWithoutAnimation"]
            if type == "UIView", let fix = Vocabulary.suggestion(for: name, among: known) {
                warn(
                    position, "UIView.\(name) is not an API the importer knows; the call is skipped",
                    fix: "did you mean \(fix)?")
                return .runtime(.unknown(name))
            }
            return try unknownAPI("\(type).\(name)", position)
        }
    }

    /// The options of a block, as the scene names them.
    func optionNames(_ value: Value?) -> [String] {
        switch value {
        case .options(let names)?: names
        case .enumCase(let name)?: [name]
        case .array(let elements)?: elements.flatMap { optionNames($0) }
        case .integer(0)?: []
        default: []
        }
    }

    /// The members every UIView block shares: duration, delay, options.
    func blockTiming(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop)
        -> (members: [(String, Piece)], duration: Double, delay: Double)
    {
        var members: [(String, Piece)] = []
        var duration = 0.0
        if let value = arguments.first(
            "withDuration", "duration", "animateWithDuration", "animateKeyframesWithDuration")
        {
            duration = try double(value, position, "a duration in seconds")
            members.append(("duration", .value(.number(duration))))
        }
        var delay = 0.0
        if let value = arguments["delay"] {
            delay = try double(value, position, "a delay in seconds")
            members.append(("delay", .value(.number(delay))))
        }
        let options = optionNames(arguments["options"])
        if !options.isEmpty { members.append(("options", .value(.array(options.map { .string($0) })))) }
        return (members, duration, delay)
    }

    /// A completion block: its list, filled when the virtual clock reaches `time`.
    func completionList(_ closure: ClosureValue?, at time: Double, _ argument: Value) -> ActionList? {
        guard let closure else { return nil }
        let list = ActionList()
        if time.isFinite {
            schedule(.closure(closure, [argument]), at: time, into: list)
        } else {
            note(closure.position, "this completion never runs: its animation repeats for ever")
        }
        return list
    }

    /// `UIView.animate(withDuration:delay:[usingSpringWithDamping:initialSpringVelocity:]options:animations:completion:)`
    /// and `animate(springDuration:bounce:…)`.
    func animateBlock(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let place = slot
        var (members, duration, delay) = try blockTiming(arguments, position)
        if let damping = arguments["usingSpringWithDamping"] {
            var spring: [(String, JSONValue)] = [("dampingRatio", .number(try double(damping, position)))]
            if let velocity = arguments["initialSpringVelocity"] {
                spring.append(("initialVelocity", .number(try double(velocity, position))))
            }
            members.append(("spring", .value(.object(JSONObject(spring)))))
        }
        if let springDuration = arguments["springDuration"] {
            duration = try double(springDuration, position)
            members.append(("springDuration", .value(.number(duration))))
            if let bounce = arguments["bounce"] {
                members.append(("bounce", .value(.number(try double(bounce, position)))))
            }
            if let velocity = arguments["initialSpringVelocity"] {
                members.append(("initialSpringVelocity", .value(.number(try double(velocity, position)))))
            }
        }
        let closures = arguments.blockClosures(body: "animations", completion: "completion")
        let changes = try collectChanges(closures.body, position)
        members.append(("changes", .value(changes)))
        let repeats = optionNames(arguments["options"]).contains("repeat")
        let end = repeats ? Double.infinity : now + delay + duration
        if let list = completionList(closures.completion, at: end, .runtime(.finished(negated: false))) {
            members.append(("completion", .list(list)))
        }
        noteEnd(end)
        try emit([("animate", .object(members, nil))], position, at: place)
        return .null
    }

    /// Runs an animations closure, collecting the changes it makes.
    func collectChanges(_ closure: ClosureValue?, _ position: SourcePosition) throws(ImportStop) -> JSONValue {
        let collector = ChangeCollector(position: position)
        guard let closure else { return collector.json }
        changeCollectors.append(collector)
        defer { changeCollectors.removeLast() }
        _ = try invoke(closure, [], at: position)
        return collector.json
    }

    /// Keyframes being collected by `animateKeyframes`' closure.
    final class KeyframeCollector {
        var keyframes: [Piece] = []
    }

    /// `UIView.animateKeyframes(withDuration:delay:options:animations:completion:)`.
    func keyframesBlock(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let place = slot
        var (members, duration, delay) = try blockTiming(arguments, position)
        let collector = KeyframeCollector()
        keyframeCollectors.append(collector)
        let closures = arguments.blockClosures(body: "animations", completion: "completion")
        let outside = try collectChanges(closures.body, position)
        keyframeCollectors.removeLast()
        if case .object(let object) = outside, object.count > 0 {
            // Changes made outside addKeyframe span the whole block.
            collector.keyframes.insert(
                .object(
                    [
                        ("relativeStartTime", .value(.number(0))), ("relativeDuration", .value(.number(1))),
                        ("changes", .value(outside)),
                    ], nil), at: 0)
        }
        members.append(("keyframes", .array(collector.keyframes)))
        let end = now + delay + duration
        if let list = completionList(closures.completion, at: end, .runtime(.finished(negated: false))) {
            members.append(("completion", .list(list)))
        }
        noteEnd(end)
        try emit([("animateKeyframes", .object(members, nil))], position, at: place)
        return .null
    }

    /// `UIView.addKeyframe(withRelativeStartTime:relativeDuration:animations:)`.
    func addKeyframe(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        guard let collector = keyframeCollectors.last else {
            warn(position, "addKeyframe outside an animateKeyframes block does nothing; skipped")
            return .null
        }
        let start = try double(
            arguments.first("withRelativeStartTime", "addKeyframeWithRelativeStartTime") ?? .null, position)
        let length = try double(arguments["relativeDuration"] ?? .null, position)
        // The keyframe's changes are its own, not the enclosing block's.
        keyframeCollectors.removeLast()
        let changes = try collectChanges(arguments.closure("animations", orTrailing: 0), position)
        keyframeCollectors.append(collector)
        collector.keyframes.append(
            .object(
                [
                    ("relativeStartTime", .value(.number(start))), ("relativeDuration", .value(.number(length))),
                    ("changes", .value(changes)),
                ], position))
        return .null
    }

    /// `UIView.transition(with:duration:options:animations:completion:)` and `transition(from:to:duration:options:completion:)`.
    func transitionBlock(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let place = slot
        var (members, duration, delay) = try blockTiming(arguments, position)
        var completion: ClosureValue?
        if let from = arguments.first("from", "transitionFromView"), let to = arguments.first("to", "toView") {
            members.insert(("from", .value(try json(from, position))), at: 0)
            members.insert(("to", .value(try json(to, position))), at: 1)
            completion = arguments.blockClosures(body: "completion", completion: "").body
        } else if let view = arguments.first("with", "transitionWithView") {
            members.insert(("layer", .value(try json(view, position))), at: 0)
            let closures = arguments.blockClosures(body: "animations", completion: "completion")
            members.append(("changes", .value(try collectChanges(closures.body, position))))
            completion = closures.completion
        } else {
            throw stop(position, "UIView.transition needs with: (or from: and to:)")
        }
        let end = now + delay + duration
        if let list = completionList(completion, at: end, .runtime(.finished(negated: false))) {
            members.append(("completion", .list(list)))
        }
        noteEnd(end)
        try emit([("transition", .object(members, nil))], position, at: place)
        return .null
    }

    /// Tells the open transactions that an animation runs until `end`.
    func noteEnd(_ end: Double) {
        for index in transactions.indices { transactions[index].latestEnd = max(transactions[index].latestEnd, end) }
    }

    // MARK: CATransaction

    func transaction(_ name: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let value = arguments.items.first?.value
        switch name {
        case "begin":
            let frame = TransactionFrame(position: position, latestEnd: now, outerSink: sink)
            transactions.append(frame)
            sink = frame.list
        case "commit":
            guard let frame = transactions.popLast() else {
                warn(
                    position, "CATransaction.commit() without begin(); skipped",
                    fix: "call CATransaction.begin() before the changes it commits")
                return .null
            }
            sink = frame.outerSink
            var members = frame.members
            members.append(("do", .list(frame.list)))
            if let completion = frame.completion {
                let list = ActionList()
                schedule(.closure(completion, []), at: frame.latestEnd, into: list)
                members.append(("completion", .list(list)))
            }
            noteEnd(frame.latestEnd)
            try emit([("transaction", .object(members, nil))], frame.position)
        case "setAnimationDuration":
            try setTransaction("duration", .value(.number(try double(value ?? .null, position))), position)
        case "setAnimationTimingFunction":
            try setTransaction(
                "timingFunction", .value(try json(timing(value ?? .null) ?? value ?? .null, position)), position)
        case "setDisableActions":
            try setTransaction("disableActions", .value(.bool(try truth(value ?? .null, position))), position)
        case "setCompletionBlock":
            guard case .closure(let closure)? = value else { return .null }
            guard !transactions.isEmpty else {
                warn(position, "setCompletionBlock outside begin() … commit() is not imported; skipped")
                return .null
            }
            transactions[transactions.count - 1].completion = closure
        case "flush":
            return .null
        case "animationDuration":
            return .number(0.25)
        default:
            return try unknownAPI("CATransaction.\(name)", position)
        }
        return .null
    }

    private func setTransaction(_ name: String, _ value: Piece, _ position: SourcePosition) throws(ImportStop) {
        guard !transactions.isEmpty else {
            warn(
                position,
                "CATransaction.\(name) outside begin() … commit() applies to the implicit transaction; skipped")
            return
        }
        transactions[transactions.count - 1].members.removeAll { $0.0 == name }
        transactions[transactions.count - 1].members.append((name, value))
    }

    // MARK: CAAnimation

    /// `CABasicAnimation(keyPath:)` and the other animation classes.
    func makeAnimation(_ className: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop)
        -> Value
    {
        let type: String =
            switch className {
            case "CABasicAnimation": "basic"
            case "CAKeyframeAnimation": "keyframe"
            case "CASpringAnimation": "spring"
            case "CAAnimationGroup": "group"
            default: "transition"
            }
        let animation = AnimationObject(type: type, created: position)
        if let keyPath = arguments.first("keyPath", "animationWithKeyPath") { animation["keyPath"] = keyPath }
        if type == "spring" {
            if let duration = arguments["perceptualDuration"] { animation["perceptualDuration"] = duration }
            if let bounce = arguments["bounce"] { animation["bounce"] = bounce }
        }
        return allocate(.animation(animation))
    }

    /// The scene name of an animation property.
    func animationField(_ name: String) -> String? {
        switch name {
        case "keyPath", "duration", "beginTime", "fromValue", "toValue", "byValue", "values", "keyTimes",
            "timingFunction",
            "timingFunctions", "repeatCount", "repeatDuration", "autoreverses", "fillMode", "calculationMode",
            "rotationMode", "path", "speed", "timeOffset", "damping", "stiffness", "mass", "initialVelocity",
            "animations",
            "subtype", "startProgress", "endProgress", "tensionValues", "continuityValues", "biasValues",
            "allowsOverdamping":
            name
        case "isRemovedOnCompletion", "removedOnCompletion": "removedOnCompletion"
        case "isAdditive", "additive": "additive"
        case "isCumulative", "cumulative": "cumulative"
        case "type": "transitionType"
        default: nil
        }
    }

    func setAnimationField(_ target: Value, _ name: String, _ value: Value, _ position: SourcePosition)
        throws(ImportStop)
    {
        guard let animation = animation(target) else { return }
        if name == "delegate" {
            animation.delegate = value
            return
        }
        guard let field = animationField(name) else {
            if name == "name" || name == "fadeInDuration" { return }
            warn(
                position, "\(name) is not an animation property the importer knows; skipped",
                fix: Vocabulary.suggestion(for: name, among: Self.animationPropertyNames).map { "did you mean \($0)?" })
            return
        }
        if case .runtime(let runtime) = value {
            warn(
                position, "\(name) is \(runtime.description), known only at run time; skipped",
                fix: "compute \(name) from constants in the code")
            return
        }
        animation[field] = value
    }

    func animationMember(_ target: Value, _ name: String) -> Value {
        guard let animation = animation(target) else { return .null }
        if name == "delegate" { return animation.delegate ?? .null }
        if let field = animationField(name), let value = animation[field] { return value }
        switch name {
        case "duration": return .number(0)
        case "settlingDuration":
            return .runtime(.unknown("settlingDuration"))
        default: return .null
        }
    }

    func animationMethod(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        switch name {
        case "setValue":
            if case .string(let key)? = arguments.first("forKey", "forKeyPath") {
                note(position, "the animation's \(key) value is kept by the code, not by the scene")
            }
            return .null
        case "value", "valueForKey":
            return .runtime(.unknown("a value stored on the animation"))
        case "copy", "mutableCopy":
            guard let animation = animation(target) else { return target }
            let copy = AnimationObject(type: animation.type, created: position)
            copy.fields = animation.fields
            copy.delegate = animation.delegate
            return allocate(.animation(copy))
        default:
            return try unknownAPI("CAAnimation.\(name)", position)
        }
    }

    /// The scene JSON of an animation, and when its callbacks run.
    func animationJSON(_ animation: AnimationObject, key: JSONValue?, _ position: SourcePosition) throws(ImportStop)
        -> (members: [(String, JSONValue)], begin: Double, active: Double)
    {
        var members: [(String, JSONValue)] = [("type", .string(animation.type))]
        if let key, key != .null { members.append(("key", key)) }
        var begin = 0.0
        var duration = 0.0
        var repeatCount = 1.0
        var repeatDuration: Double?
        var autoreverses = false
        var keyPath: String?
        if case .string(let path)? = animation["keyPath"] { keyPath = path }
        for (field, written) in animation.fields {
            let value = try scalarTransformValues(field, written, keyPath: keyPath, position)
            switch field {
            case "animations":
                guard case .array(let children) = value else { throw stop(position, "animations needs an array") }
                var list: [JSONValue] = []
                for child in children {
                    guard let childAnimation = self.animation(child) else {
                        throw stop(position, "a group's animations must be animations")
                    }
                    list.append(.object(JSONObject(try animationJSON(childAnimation, key: nil, position).members)))
                }
                members.append(("animations", .array(list)))
            case "beginTime":
                let b = try double(value, position)
                if b < 0 {
                    // CACurrentMediaTime() − x at the start: begun x before it, already under way
                    // (a loader's staggered phases). The layer's time is the scene's.
                    begin = b - now
                    members.append(("beginTime", .number(roundedTime(b))))
                } else if b != 0 {
                    // CACurrentMediaTime() + x: a delay of x from now.
                    begin = b >= now - 1e-9 ? b - now : b
                    members.append(("delay", .number(roundedTime(begin))))
                }
            case "timingFunction":
                members.append((field, try json(timing(value) ?? value, position)))
            case "timingFunctions":
                guard case .array(let functions) = value else { throw stop(position, "timingFunctions needs an array") }
                var list: [JSONValue] = []
                for function in functions { list.append(try json(timing(function) ?? function, position)) }
                members.append((field, .array(list)))
            case "keyPath", "fillMode", "calculationMode", "rotationMode", "transitionType", "subtype":
                members.append((field, try json(value, position)))
            case "repeatCount" where (value.number ?? 0) >= 1e6:
                // FLT_MAX, HUGE and friends as the numbers C's headers make them: for ever.
                members.append((field, .string("infinity")))
            default:
                members.append((field, try json(value, position)))
            }
            switch field {
            case "duration": duration = (try? double(value, position)) ?? 0
            case "repeatCount": repeatCount = (value.number ?? 1) >= 1e6 ? .infinity : value.number ?? 1
            case "repeatDuration": repeatDuration = value.number
            case "autoreverses": autoreverses = (try? truth(value, position)) ?? false
            default: break
            }
        }
        if duration == 0 { duration = transactionDuration }
        let active = repeatDuration ?? duration * max(repeatCount, 1) * (autoreverses ? 2 : 1)
        if animation.type == "keyframe" { fitKeyframeLists(&members, position) }
        return (members, begin, active)
    }

    /// Transforms given to a key path that takes a number (`transform.scale` given
    /// `CATransform3DMakeScale(0.6, 0.6, 1)`, as loader code often writes it): the number the
    /// key path names in each, with a note. Other values are as they are.
    func scalarTransformValues(_ field: String, _ value: Value, keyPath: String?, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        guard let keyPath, keyPath.hasPrefix("transform."),
            ["values", "fromValue", "toValue", "byValue"].contains(field)
        else { return value }
        func scalar(_ element: Value) -> Value {
            guard case .transform(let t) = element else { return element }
            let m = t.matrix
            let number: Double
            switch keyPath {
            case "transform.scale", "transform.scale.x": number = (m.m11 * m.m11 + m.m12 * m.m12).squareRoot()
            case "transform.scale.y": number = (m.m21 * m.m21 + m.m22 * m.m22).squareRoot()
            case "transform.scale.z": number = m.m33
            case "transform.rotation", "transform.rotation.z": number = arcTangent(m.m12, m.m11)
            case "transform.rotation.x": number = arcTangent(m.m23, m.m22)
            case "transform.rotation.y": number = arcTangent(-m.m13, m.m11)
            case "transform.translation.x": number = m.m41
            case "transform.translation.y": number = m.m42
            case "transform.translation.z": number = m.m43
            default: return element
            }
            note(position, "\(keyPath) takes a number; the transform given reads as \(format(number))")
            return .number(number)
        }
        switch value {
        case .array(let elements): return .array(elements.map(scalar))
        default: return scalar(value)
        }
    }

    /// A keyframe animation's `timingFunctions` and `keyTimes` made to fit its values, as code
    /// often does not: Core Animation wants one timing function per segment and one key time per
    /// value. Extra timing functions are dropped and missing ones are linear; key times of another
    /// count are dropped (the keyframes are then evenly spaced). Each with a warning.
    func fitKeyframeLists(_ members: inout [(String, JSONValue)], _ position: SourcePosition) {
        guard let values = members.first(where: { $0.0 == "values" }), case .array(let list) = values.1,
            !list.isEmpty
        else { return }
        let segments = list.count - 1
        if let index = members.firstIndex(where: { $0.0 == "timingFunctions" }),
            case .array(let functions) = members[index].1, functions.count != segments
        {
            warn(
                position,
                "timingFunctions has \(functions.count) entries for \(segments) segments (\(list.count) values): "
                    + (functions.count > segments
                        ? "the first \(segments) are used"
                        : "the last \(segments - functions.count) segments are linear"),
                fix: "give one timing function per segment between values")
            members[index].1 = .array(
                Array(functions.prefix(segments))
                    + Array(repeating: .string("linear"), count: max(0, segments - functions.count)))
        }
        let discrete = members.contains { $0.0 == "calculationMode" && $0.1 == .string("discrete") }
        if let index = members.firstIndex(where: { $0.0 == "keyTimes" }), case .array(let times) = members[index].1,
            times.count != list.count && !(discrete && times.count == list.count + 1)
        {
            warn(
                position,
                "keyTimes has \(times.count) entries for \(list.count) values: they are not used, and the keyframes are "
                    + "evenly spaced",
                fix: "give one key time per value")
            members.remove(at: index)
        }
    }

    /// The duration of the innermost transaction that sets one, else 0.25 s.
    var transactionDuration: Double {
        for frame in transactions.reversed() {
            if let member = frame.members.first(where: { $0.0 == "duration" }), case .value(.number(let d)) = member.1 {
                return d
            }
        }
        return 0.25
    }

    /// `layer.add(animation, forKey:)`: an `add` action, its delegate's callbacks queued.
    func addAnimation(to target: Value, _ value: Value, key: Value, _ position: SourcePosition) throws(ImportStop) {
        guard let layer = layer(target), let animation = animation(value) else {
            dropped(
                position, "add(_:forKey:) needs a layer and an animation; skipped",
                fix: "add an animation the code makes to a layer: layer.add(animation, forKey: \"key\")")
            return
        }
        // An animation of a property choreo does not have (a gradient's `locations`, `contents`)
        // is left out, as the scene could not carry it; the rest of the code imports. A key path
        // that is none of Core Animation's but near one is a typo, said as such.
        if case .string(let keyPath)? = animation["keyPath"], animation.type != "transition",
            !SceneDecoder.animatesKeyPath(keyPath)
        {
            if !Self.unmodelledProperties.contains(keyPath.split(separator: ".").first.map(String.init) ?? keyPath),
                let near = Vocabulary.suggestion(for: keyPath, among: Vocabulary.keyPaths)
            {
                dropped(
                    position,
                    "the animation of \(layer.id ?? layer.className) is skipped: \"\(keyPath)\" is not a key path of CALayer",
                    fix: "did you mean \"\(near)\"?")
                return
            }
            dropped(
                position,
                "the animation of \(keyPath) on \(layer.id ?? layer.className) is skipped: choreo does not animate \(keyPath)",
                fix: "the key paths a scene animates are in docs/scene-format.md")
            return
        }
        let keyJSON: JSONValue? = if case .null = key { nil } else { try json(key, position) }
        let (members, begin, active) = try animationJSON(animation, key: keyJSON, position)
        let layerID = id(of: layer)
        let body = JSONValue.object(JSONObject(members))
        let slot = "\(layerID)\u{0}\(keyJSON.map { "\($0)" } ?? "")"
        // Re-adding, from a callback, the animation last added under this key: the scene's `addAgain`.
        if inCallback, let keyJSON, case .string(let keyName) = keyJSON, lastAdded[slot] == body {
            try emit([("addAgain", .value(.string(keyName))), ("layer", .value(.string(layerID)))], position)
            noteEnd(now + begin + active)
            return
        }
        lastAdded[slot] = body
        var pieces: [(String, Piece)] = members.map { ($0.0, .value($0.1)) }
        if let delegate = animation.delegate, let object = instance(delegate) {
            let start = now + max(begin, 0)
            let end = active.isFinite ? start + active : .infinity
            if let didStart = method(object.typeName, "animationDidStart") {
                let list = ActionList()
                schedule(.method(delegate, didStart, [value]), at: start, into: list)
                pieces.append(("onStart", .list(list)))
            }
            if let didStop = method(object.typeName, "animationDidStop") {
                let list = ActionList()
                if end.isFinite {
                    schedule(
                        .method(delegate, didStop, [value, .runtime(.finished(negated: false))]), at: end, into: list)
                } else {
                    note(position, "animationDidStop never runs: the animation repeats for ever")
                }
                pieces.append(("onStop", .list(list)))
            }
        }
        noteEnd(now + begin + active)
        try emit([("add", .object(pieces, nil)), ("layer", .value(.string(layerID)))], position)
    }

    // MARK: Paths

    /// `UIBezierPath(rect:)`, `(roundedRect:cornerRadius:)`, `(ovalIn:)`, `(arcCenter:radius:startAngle:endAngle:clockwise:)`, `()`.
    func makePath(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        guard case .path(let commands) = try pathCommands(arguments, position) else { return .null }
        return allocate(.path(PathObject(commands: commands)))
    }

    func pathCommands(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        func n(_ value: Double) -> JSONValue { .number(value) }
        if case .rect(let x, let y, let w, let h)? = arguments.first("rect", "bezierPathWithRect") {
            return .path([
                .object(JSONObject([("move", .array([n(x), n(y)]))])),
                .object(JSONObject([("line", .array([n(x + w), n(y)]))])),
                .object(JSONObject([("line", .array([n(x + w), n(y + h)]))])),
                .object(JSONObject([("line", .array([n(x), n(y + h)]))])), .string("close"),
            ])
        }
        if case .rect(let x, let y, let w, let h)? = arguments.first("ovalIn", "bezierPathWithOvalInRect") {
            // Four quarter arcs of an ellipse drawn as cubic curves, as UIKit draws an oval.
            let k = 0.5522847498307936
            let (cx, cy, rx, ry) = (x + w / 2, y + h / 2, w / 2, h / 2)
            func cubic(_ c1: (Double, Double), _ c2: (Double, Double), _ p: (Double, Double)) -> JSONValue {
                .object(
                    JSONObject([
                        (
                            "cubic",
                            .array([
                                .array([n(c1.0), n(c1.1)]), .array([n(c2.0), n(c2.1)]), .array([n(p.0), n(p.1)]),
                            ])
                        )
                    ]))
            }
            return .path([
                .object(JSONObject([("move", .array([n(cx + rx), n(cy)]))])),
                cubic((cx + rx, cy + k * ry), (cx + k * rx, cy + ry), (cx, cy + ry)),
                cubic((cx - k * rx, cy + ry), (cx - rx, cy + k * ry), (cx - rx, cy)),
                cubic((cx - rx, cy - k * ry), (cx - k * rx, cy - ry), (cx, cy - ry)),
                cubic((cx + k * rx, cy - ry), (cx + rx, cy - k * ry), (cx + rx, cy)),
                .string("close"),
            ])
        }
        if case .rect(let x, let y, let w, let h)? = arguments.first("roundedRect", "bezierPathWithRoundedRect") {
            let r = min(try double(arguments["cornerRadius"] ?? .number(0), position), min(w, h) / 2)
            func arc(_ cx: Double, _ cy: Double, _ a: Double, _ b: Double) -> JSONValue {
                .object(
                    JSONObject([
                        (
                            "arc",
                            .object(
                                JSONObject([
                                    ("center", .array([n(cx), n(cy)])), ("radius", n(r)), ("startAngle", n(a)),
                                    ("endAngle", n(b)), ("clockwise", .bool(true)),
                                ]))
                        )
                    ]))
            }
            let pi = Double.pi
            return .path([
                .object(JSONObject([("move", .array([n(x + r), n(y)]))])),
                .object(JSONObject([("line", .array([n(x + w - r), n(y)]))])), arc(x + w - r, y + r, -pi / 2, 0),
                .object(JSONObject([("line", .array([n(x + w), n(y + h - r)]))])), arc(x + w - r, y + h - r, 0, pi / 2),
                .object(JSONObject([("line", .array([n(x + r), n(y + h)]))])), arc(x + r, y + h - r, pi / 2, pi),
                .object(JSONObject([("line", .array([n(x), n(y + r)]))])), arc(x + r, y + r, pi, 3 * pi / 2),
                .string("close"),
            ])
        }
        if let center = arguments.first("arcCenter", "bezierPathWithArcCenter"), case .point(let cx, let cy) = center {
            return .path([try arcCommand(cx, cy, arguments, position)])
        }
        return .path([])
    }

    func arcCommand(_ cx: Double, _ cy: Double, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop)
        -> JSONValue
    {
        .object(
            JSONObject([
                (
                    "arc",
                    .object(
                        JSONObject([
                            ("center", .array([.number(cx), .number(cy)])),
                            ("radius", .number(try double(arguments["radius"] ?? .null, position))),
                            ("startAngle", .number(try double(arguments["startAngle"] ?? .null, position))),
                            ("endAngle", .number(try double(arguments["endAngle"] ?? .null, position))),
                            ("clockwise", .bool(try truth(arguments["clockwise"] ?? .bool(true), position))),
                        ]))
                )
            ]))
    }

    /// `UIBezierPath`'s building methods, in Swift's and Objective-C's spellings, and Core
    /// Graphics' `CGMutablePath` methods as Swift spells them (`move(to:)`, `addLine(to:)`,
    /// `addCurve(to:control1:control2:)`, `addQuadCurve(to:control:)`,
    /// `addArc(center:radius:startAngle:endAngle:clockwise:)`, `addRect(_:)`, `addEllipse(in:)`,
    /// `closeSubpath()`), which build the same path.
    func pathMethod(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        guard let path = path(target) else { return .null }
        let values = arguments.items.map(\.value)
        func point(_ value: Value?) throws(ImportStop) -> JSONValue {
            guard case .point(let x, let y)? = value else { throw stop(position, "\(name) needs a CGPoint") }
            return .array([.number(x), .number(y)])
        }
        switch name {
        case "move", "moveToPoint":
            path.commands.append(.object(JSONObject([("move", try point(values.first))])))
        case "addLine", "addLineToPoint":
            path.commands.append(.object(JSONObject([("line", try point(values.first))])))
        case "addQuadCurve", "addQuadCurveToPoint":
            let control = try point(arguments.first("controlPoint", "control") ?? values.dropFirst().first)
            path.commands.append(.object(JSONObject([("quad", .array([control, try point(values.first)]))])))
        case "addCurve", "addCurveToPoint":
            let c1 = try point(arguments.first("controlPoint1", "control1"))
            let c2 = try point(arguments.first("controlPoint2", "control2"))
            path.commands.append(.object(JSONObject([("cubic", .array([c1, c2, try point(values.first)]))])))
        case "addArc", "addArcWithCenter":
            guard case .point(let cx, let cy)? = arguments.first("withCenter", "addArcWithCenter", "center") else {
                throw stop(position, "\(name) needs a center")
            }
            path.commands.append(try arcCommand(cx, cy, arguments, position))
        case "append", "appendPath":
            guard let other = values.first.flatMap({ self.path($0) }) else { break }
            path.commands += other.commands
        case "close", "closePath", "closeSubpath":
            path.commands.append(.string("close"))
        case "addRect", "addEllipse":
            guard let rect = values.first else { throw stop(position, "\(name) needs a CGRect") }
            let label = name == "addRect" ? "rect" : "ovalIn"
            if case .path(let commands) = try pathCommands(Arguments(items: [(label, rect)]), position) {
                path.commands += commands
            }
        case "removeAllPoints":
            path.commands.removeAll()
        case "copy", "mutableCopy":
            return allocate(.path(PathObject(commands: path.commands)))
        default:
            return try unknownAPI("UIBezierPath.\(name)", position)
        }
        return .null
    }

    // MARK: Transitions

    /// `transitionContext.completeTransition(_:)`.
    func completeTransition(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let value = arguments.items.first?.value ?? .bool(true)
        let argument: JSONValue
        switch value {
        case .bool(let b): argument = .bool(b)
        case .runtime(.transitionWasCancelled(negated: true)): argument = .string("notCancelled")
        case .runtime(let r):
            warn(
                position,
                "completeTransition(\(r.description)) is imported as completeTransition(!transitionWasCancelled)")
            argument = .string("notCancelled")
        default: argument = .bool(try truth(value, position))
        }
        var members: [(String, Piece)] = [("completeTransition", .value(argument))]
        if let currentTransition, !inCallback { members.append(("transition", .value(.string(currentTransition)))) }
        try emit(members, position)
        return .null
    }

    /// Methods of values known only at run time: a transition context's.
    func runtimeMethod(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        nil
    }
}
