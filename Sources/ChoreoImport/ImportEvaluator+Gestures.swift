import ChoreoJSON

/// One sample of a gesture: when, its state, its translation and velocity.
struct GestureSample {
    var time: Double
    var state: String
    var translation: (Double, Double)
    var velocity: (Double, Double)
}

/// Pan gestures and the percent-driven interaction (`UIPercentDrivenInteractiveTransition`).
///
/// A gesture is the user's, not the code's: when the code adds a pan recognizer to a view, the
/// import plays a drag through it (``drag``) and runs the recognizer's action at each sample with
/// the state, translation and velocity of that moment, so the code's own arithmetic decides what
/// the interaction does (`update(progress)`, `finish()` or `cancel()`), each in a run-loop turn of
/// its own, as the scene's `pan` does.
extension ImportEvaluator {
    /// The drag played through a pan recognizer, relative to when it was added: it begins 1 s
    /// later, moves 180 points down in 0.15 s (60 points a sample), and is let go at 900 points a
    /// second.
    static let drag: [GestureSample] = [
        GestureSample(time: 1.00, state: "began", translation: (0, 0), velocity: (0, 0)),
        GestureSample(time: 1.05, state: "changed", translation: (0, 60), velocity: (0, 1200)),
        GestureSample(time: 1.10, state: "changed", translation: (0, 120), velocity: (0, 1200)),
        GestureSample(time: 1.15, state: "changed", translation: (0, 180), velocity: (0, 1200)),
        GestureSample(time: 1.20, state: "ended", translation: (0, 180), velocity: (0, 900)),
    ]

    /// `view.addGestureRecognizer(pan)`: the drag is queued, each sample a turn of its own.
    func addGestureRecognizer(_ recognizer: Value, to view: Value, _ position: SourcePosition) throws(ImportStop) {
        guard let object = instance(recognizer), object.typeName == "UIPanGestureRecognizer" else {
            note(position, "this gesture recognizer is not played; only pans are")
            return
        }
        object.fields["view"] = view
        warn(
            position,
            "the gesture is the user's: the import plays a drag through it (180 points down from 1 s, released at 900 points/s)"
        )
        for sample in Self.drag {
            let time = roundedTime(now + sample.time)
            let list = ActionList()
            turns.append((time, list, position))
            schedule(.gesture(recognizer, sample, position), at: time, into: list, callback: false)
        }
    }

    /// One sample: the recognizer's state set, its target's action run.
    func deliver(_ sample: GestureSample, to recognizer: Value, at position: SourcePosition) throws(ImportStop) {
        guard let object = instance(recognizer) else { return }
        object.fields["state"] = .enumCase(sample.state)
        object.fields["translation"] = .point(sample.translation.0, sample.translation.1)
        object.fields["velocity"] = .point(sample.velocity.0, sample.velocity.1)
        let target = object.fields["target"] ?? .null
        switch object.fields["action"] {
        case .method(_, let name)?:
            _ = try callMethod(target, name, Arguments(items: [(nil, recognizer)]), position)
        case .string(let name)?:
            let selector = name.split(separator: ":").first.map(String.init) ?? name
            _ = try callMethod(target, selector, Arguments(items: [(nil, recognizer)]), position)
        default:
            break
        }
    }

    /// Methods of pan recognizers and of percent-driven interactions the file does not define.
    func gestureMethod(
        _ target: Value, _ object: InstanceObject, _ name: String, _ arguments: Arguments, _ position: SourcePosition
    ) throws(ImportStop) -> Value? {
        if object.typeName == "UIPanGestureRecognizer" {
            switch name {
            case "translation", "translationInView": return object.fields["translation"] ?? .point(0, 0)
            case "velocity", "velocityInView": return object.fields["velocity"] ?? .point(0, 0)
            case "setTranslation": return .null
            case "location", "locationInView": return .point(0, 0)
            default: return nil
            }
        }
        guard inherits(object.typeName, "UIPercentDrivenInteractiveTransition"), method(object.typeName, name) == nil
        else { return nil }
        let action: String
        var value: JSONValue = .object(JSONObject())
        switch name {
        case "update", "updateInteractiveTransition":
            action = "updateInteractiveTransition"
            value = .number(try double(arguments.items.first?.value ?? .null, position))
        case "finish", "finishInteractiveTransition": action = "finishInteractiveTransition"
        case "cancel", "cancelInteractiveTransition": action = "cancelInteractiveTransition"
        case "pause", "pauseInteractiveTransition": action = "pauseInteractiveTransition"
        default: return nil
        }
        guard let transition = interactions[objectIndex(target)] else {
            warn(position, "\(name) of an interaction that drives no transition yet does nothing; skipped")
            return .null
        }
        try emit([(action, .value(value)), ("transition", .value(.string(transition)))], position)
        return .null
    }

    /// Whether a type of the file inherits (directly or not) from `base`.
    func inherits(_ typeName: String, _ base: String) -> Bool {
        var seen: Set<String> = []
        var current = typeName
        while seen.insert(current).inserted {
            if current == base { return true }
            guard let type = types[current] else { return false }
            if type.inherits.contains(base) { return true }
            guard let next = type.inherits.first else { return false }
            current = next
        }
        return false
    }
}
