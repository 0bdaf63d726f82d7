import ChoreoJSON

/// `UIViewPropertyAnimator`: read as the scene's `propertyAnimator` and the calls on it.
extension ImportEvaluator {
    /// `UIViewPropertyAnimator(duration:curve:animations:)`, `(duration:dampingRatio:animations:)`,
    /// `(duration:controlPoint1:controlPoint2:animations:)`, and
    /// `runningPropertyAnimator(withDuration:delay:options:animations:completion:)`.
    func makeAnimator(_ arguments: Arguments, start: Bool, _ position: SourcePosition) throws(ImportStop) -> Value {
        let id = uniqueAnimatorID("animator")
        let duration = try double(
            arguments.first("duration", "withDuration", "runningPropertyAnimatorWithDuration") ?? .number(0), position)
        var members: [(String, Piece)] = [("duration", .value(.number(duration)))]
        if let curve = arguments["curve"] {
            if case .enumCase(let name) = curve { members.append(("curve", .value(.string(name)))) }
        } else if let ratio = arguments["dampingRatio"] {
            members.append(("dampingRatio", .value(.number(try double(ratio, position)))))
        } else if case .point(let x1, let y1)? = arguments["controlPoint1"],
            case .point(let x2, let y2)? = arguments["controlPoint2"]
        {
            members.append(("controlPoints", .value(.array([.number(x1), .number(y1), .number(x2), .number(y2)]))))
        } else if start {
            let options = optionNames(arguments["options"])
            if let curve = options.first(where: { $0.hasPrefix("curve") }) {
                let name = lowerFirst(String(curve.dropFirst(5)))
                members.append(("curve", .value(.string(name == "easeInOut" ? "easeInOut" : name))))
            }
        }
        let closures = arguments.blockClosures(body: "animations", completion: "completion")
        members.append(("changes", .value(try collectChanges(closures.body, position))))
        let completion = ActionList()
        members.append(("completion", .list(completion)))
        let object = AnimatorObject(id: id, completion: completion, duration: duration)
        members.insert(("id", .name(object.name)), at: 0)
        let value = allocate(.animator(object))
        if start {
            object.started = true
            members.append(("start", .value(.bool(true))))
            let delay = try double(arguments["delay"] ?? .number(0), position)
            if delay > 0 { members.append(("delay", .value(.number(delay)))) }
            if let closure = closures.completion {
                schedule(.closure(closure, [.runtime(.animatorPosition)]), at: now + delay + duration, into: completion)
            }
        }
        try emit([("propertyAnimator", .object(members, nil))], position)
        return value
    }

    func animatorMethod(_ animator: AnimatorObject, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        let first = arguments.items.first?.value
        var call: (String, JSONValue)
        switch name {
        case "startAnimation":
            animator.started = true
            if let delay = arguments.first("afterDelay", "startAnimationAfterDelay") {
                call = ("startAnimation", .object(JSONObject([("afterDelay", .number(try double(delay, position)))])))
            } else {
                call = ("startAnimation", .object(JSONObject()))
            }
        case "pauseAnimation":
            call = ("pauseAnimation", .object(JSONObject()))
        case "stopAnimation":
            let withoutFinishing = try truth(first ?? .bool(false), position)
            call = ("stopAnimation", .object(JSONObject([("withoutFinishing", .bool(withoutFinishing))])))
        case "finishAnimation", "finishAnimationAtPosition":
            var at = "end"
            if case .enumCase(let p)? = first { at = p }
            call = ("finishAnimation", .object(JSONObject([("at", .string(at))])))
        case "continueAnimation", "continueAnimationWithTimingParameters":
            let factor = try double(arguments["durationFactor"] ?? .number(1), position)
            call = (
                "continueAnimation",
                .object(JSONObject([("timingParameters", .null), ("durationFactor", .number(factor))]))
            )
        case "addAnimations":
            guard case .closure(let closure)? = first else { return .null }
            let changes = try collectChanges(closure, position)
            var members: [(String, JSONValue)] = [("changes", changes)]
            if let factor = arguments["delayFactor"] {
                members.append(("delayFactor", .number(try double(factor, position))))
            }
            call = ("addAnimations", .object(JSONObject(members)))
        case "addCompletion":
            guard case .closure(let closure)? = first else { return .null }
            // Its completions run, in the order added, when it completes.
            schedule(
                .closure(closure, [.runtime(.animatorPosition)]), at: now + animator.duration, into: animator.completion
            )
            return .null
        default:
            return try unknownAPI("UIViewPropertyAnimator.\(name)", position)
        }
        try emit([(call.0, .value(call.1)), ("animator", .name(animator.name))], position)
        return .null
    }

    func setAnimatorProperty(_ animator: AnimatorObject, _ name: String, _ value: Value, _ position: SourcePosition)
        throws(ImportStop)
    {
        switch name {
        case "fractionComplete":
            animator.fractionComplete = try double(value, position)
            try emit(
                [("fractionComplete", .value(.number(animator.fractionComplete))), ("animator", .name(animator.name))],
                position)
        case "isReversed", "reversed":
            animator.isReversed = try truth(value, position)
            try emit(
                [("isReversed", .value(.bool(animator.isReversed))), ("animator", .name(animator.name))], position)
        case "scrubsLinearly", "pausesOnCompletion", "isInterruptible", "isUserInteractionEnabled",
            "isManualHitTestingEnabled":
            note(position, "\(name) is set where the animator is made in the scene; this later change is skipped")
        default:
            warn(position, "UIViewPropertyAnimator.\(name) is not imported; skipped")
        }
    }

    func animatorMember(_ animator: AnimatorObject, _ name: String) -> Value {
        switch name {
        case "fractionComplete": .runtime(.unknown("the animator's fractionComplete"))
        case "isReversed": .bool(animator.isReversed)
        case "duration": .number(animator.duration)
        case "state", "isRunning": .runtime(.unknown("the animator's state"))
        default: .runtime(.unknown("UIViewPropertyAnimator.\(name)"))
        }
    }
}
