import ChoreoEngine
import ChoreoJSON

/// The scene format's `swiftui` section and SwiftUI's script actions (docs/scene-format.md,
/// "SwiftUI"): names as SwiftUI spells them.
extension SceneDecoder {
    static let swiftUIFields: Set<String> = ["state", "views"]
    static let viewFields: Set<String> = [
        "id", "shape", "modifiers", "children", "if", "text", "spacing", "alignment", "minLength",
    ]
    static let modifierNames = [
        "frame", "padding", "position", "offset", "scaleEffect", "rotationEffect", "opacity", "fill", "foregroundColor",
        "foregroundStyle", "background", "cornerRadius", "blur", "font", "animation", "keyframeAnimator",
        "phaseAnimator", "transition", "matchedGeometryEffect",
    ]

    /// `"swiftui": {"state": {...}, "views": [...]}`.
    mutating func decodeSwiftUI(_ json: JSONValue, _ path: String) -> SwiftUIScene? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: Self.swiftUIFields)
        var scene = SwiftUIScene()
        if let stateJSON = object["state"], let state = reader.object(stateJSON, "\(path).state") {
            for (name, value) in state.members {
                guard let decoded = swiftUIStateValue(value, "\(path).state.\(name)") else { continue }
                scene.state.append((name, decoded))
            }
        }
        swiftUIStates = Dictionary(scene.state.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        guard let viewsJSON = object["views"], let views = reader.array(viewsJSON, "\(path).views") else {
            if object["views"] == nil { reader.fail("\(path).views", "is required") }
            return nil
        }
        for (index, view) in views.enumerated() {
            if let decoded = decodeView(view, "\(path).views[\(index)]", depth: 0) { scene.views.append(decoded) }
        }
        return scene
    }

    private mutating func swiftUIStateValue(_ json: JSONValue, _ path: String) -> SwiftUIStateValue? {
        switch json {
        case .bool(let flag): return .bool(flag)
        case .number:
            return reader.number(json, path).map { .number($0) }
        default:
            reader.fail(path, "must be a Bool or a number, not \(json.typeName)")
            return nil
        }
    }

    private mutating func decodeView(_ json: JSONValue, _ path: String, depth: Int) -> SwiftUIView? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: Self.viewFields)
        guard depth < 64 else {
            reader.fail(path, "views may nest at most 64 deep")
            return nil
        }
        guard let idJSON = object["id"], let id = reader.string(idJSON, "\(path).id") else {
            if object["id"] == nil { reader.fail("\(path).id", "is required") }
            return nil
        }
        if let other = layerIDs[id] {
            reader.fail("\(path).id", "\"\(id)\" is already the id of \(other)")
        } else {
            layerIDs[id] = "\(path)"
        }
        layerCount += 1
        if layerCount == Limits.maxLayers + 1 {
            reader.fail(path, "a scene may have at most \(Limits.maxLayers) layers")
        }
        var shape = SwiftUIView.Shape.stack
        if let shapeJSON = object["shape"], let name = reader.string(shapeJSON, "\(path).shape") {
            if let known = SwiftUIView.Shape(rawValue: name) {
                shape = known
            } else {
                reader.failUnknown(
                    "\(path).shape",
                    "must be one of \(SwiftUIView.Shape.allCases.map(\.rawValue).joined(separator: ", "))",
                    name, among: SwiftUIView.Shape.allCases.map(\.rawValue))
            }
        }
        var view = SwiftUIView(id: id, shape: shape)
        if let textJSON = object["text"] {
            if shape != .text { reader.fail("\(path).text", "is a Text's string; give shape text") }
            view.text = reader.string(textJSON, "\(path).text")
        } else if shape == .text {
            reader.fail("\(path).text", "is required: the Text's string")
        }
        decodeStackFields(object, path, into: &view)
        if let condition = object["if"], let text = reader.string(condition, "\(path).if") {
            let negated = text.hasPrefix("!")
            let name = negated ? String(text.dropFirst()) : text
            checkState(name, "\(path).if", bool: true)
            view.condition = (name, negated)
        }
        if let modifiersJSON = object["modifiers"], let modifiers = reader.array(modifiersJSON, "\(path).modifiers") {
            var seen: [String: Int] = [:]
            for (index, element) in modifiers.enumerated() {
                let at = "\(path).modifiers[\(index)]"
                guard let modifier = decodeModifier(element, at, shape: shape) else { continue }
                // Layout modifiers compose (`.padding().frame(maxWidth: .infinity)`).
                if !["animation", "keyframeAnimator", "phaseAnimator", "frame", "padding"].contains(modifier.name) {
                    let kind = modifier.name == "background" && shape != .text ? "fill" : modifier.name
                    if let first = seen[kind] {
                        reader.fail(at, "a view takes one \(modifier.name) modifier (modifiers[\(first)] is one)")
                    }
                    seen[kind] = index
                }
                view.modifiers.append(modifier)
            }
            // What a keyframe or phase animator drives, the view does not set itself, nor does
            // another animator.
            var drivenBy: [String: String] = [:]
            for (index, modifier) in view.modifiers.enumerated() {
                let properties: [SwiftUIKeyframeAnimator.Property]
                switch modifier {
                case .keyframeAnimator(let animator): properties = animator.tracks.map(\.property)
                case .phaseAnimator(let animator): properties = animator.properties
                default: continue
                }
                for property in properties {
                    if let own = seen[property.modifierName] {
                        reader.fail(
                            "\(path).modifiers[\(own)]",
                            "\(property.modifierName) is driven by the view's \(modifier.name); the view may not set it too"
                        )
                    }
                    for keyPath in property.keyPaths {
                        if let other = drivenBy[keyPath.description] {
                            reader.fail("\(path).modifiers[\(index)]", "\(keyPath) is driven by \(other) already")
                        }
                        drivenBy[keyPath.description] = "modifiers[\(index)]"
                    }
                }
            }
            // An offset inside a scale or rotation is scaled and turned with it: a product of
            // two animated values, which the layer's transform components cannot carry.
            for effect in ["scaleEffect", "rotationEffect"] {
                if let offset = seen["offset"], let other = seen[effect], offset < other {
                    reader.fail(
                        "\(path).modifiers[\(offset)]",
                        "offset written before \(effect) (modifiers[\(other)]) is not modelled: write it after")
                }
            }
        }
        if let childrenJSON = object["children"], let children = reader.array(childrenJSON, "\(path).children") {
            if !shape.isContainer && !children.isEmpty {
                reader.fail("\(path).children", "only a stack has children (a shape draws itself)")
            }
            for (index, child) in children.enumerated() {
                if let decoded = decodeView(child, "\(path).children[\(index)]", depth: depth + 1) {
                    view.children.append(decoded)
                }
            }
        }
        return view
    }

    /// One modifier: an object with one member, the modifier's name.
    private mutating func decodeModifier(_ json: JSONValue, _ path: String, shape: SwiftUIView.Shape)
        -> SwiftUIModifier?
    {
        guard let object = reader.object(json, path) else { return nil }
        let names = object.keys.filter { Self.modifierNames.contains($0) }
        guard names.count == 1, let name = names.first else {
            let guess = object.keys.lazy.compactMap { Vocabulary.suggestion(for: $0, among: Self.modifierNames) }.first
            reader.fail(
                path, "must name one modifier: \(Self.modifierNames.joined(separator: ", "))", suggestion: guess)
            return nil
        }
        if name == "keyframeAnimator" { return decodeKeyframeAnimator(object[name]!, "\(path).keyframeAnimator") }
        if name == "phaseAnimator" { return decodePhaseAnimator(object[name]!, "\(path).phaseAnimator") }
        if name == "transition" {
            reader.rejectUnknown(object, path, allowed: ["transition"])
            return decodeTransition(object[name]!, "\(path).transition", depth: 0).map { .transition($0) }
        }
        if name == "matchedGeometryEffect" {
            reader.rejectUnknown(object, path, allowed: ["matchedGeometryEffect"])
            guard let id = reader.object(object[name]!, "\(path).matchedGeometryEffect").flatMap({ $0["id"] }),
                let text = reader.string(id, "\(path).matchedGeometryEffect.id")
            else {
                reader.fail("\(path).matchedGeometryEffect.id", "is required")
                return nil
            }
            return .matchedGeometryEffect(id: text)
        }
        let allowed: Set<String> = name == "animation" ? ["animation", "value"] : [name]
        reader.rejectUnknown(object, path, allowed: allowed)
        let value = object[name]!
        let at = "\(path).\(name)"
        switch name {
        case "frame":
            return decodeFrame(value, at).map { .frame($0) }
        case "padding":
            return decodePadding(value, at).map { .padding($0) }
        case "position":
            guard let pair = pair(value, at, ("x", "y"), default: nil) else { return nil }
            return .position(x: pair.0, y: pair.1)
        case "offset":
            guard let pair = pair(value, at, ("x", "y"), default: 0) else { return nil }
            return .offset(x: pair.0, y: pair.1)
        case "scaleEffect":
            if case .object(let members) = value, members["x"] != nil || members["y"] != nil {
                guard let pair = pair(value, at, ("x", "y"), default: 1) else { return nil }
                return .scaleEffect(x: pair.0, y: pair.1)
            }
            guard let scale = expression(value, at, .number) else { return nil }
            return .scaleEffect(x: scale, y: scale)
        case "rotationEffect":
            guard let angle = reader.object(value, at) else { return nil }
            reader.rejectUnknown(angle, at, allowed: ["degrees", "radians"])
            if let degrees = angle["degrees"], angle["radians"] == nil {
                return expression(degrees, "\(at).degrees", .number).map { .rotationEffect(Self.radians($0)) }
            }
            if let radians = angle["radians"], angle["degrees"] == nil {
                return expression(radians, "\(at).radians", .number).map { .rotationEffect($0) }
            }
            reader.fail(at, "must give degrees or radians, as Angle does")
            return nil
        case "opacity":
            return expression(value, at, .number).map { .opacity($0) }
        case "fill", "foregroundColor", "foregroundStyle":
            if shape.isContainer { reader.fail(at, "fills a shape; a stack takes background") }
            return expression(value, at, .color).map { .fill($0) }
        case "background":
            if !shape.isContainer && shape != .text {
                reader.fail(at, "is a stack's or a text's colour; a shape takes fill")
            }
            return expression(value, at, .color).map { .background($0) }
        case "cornerRadius":
            return expression(value, at, .number).map { .cornerRadius($0) }
        case "blur":
            return expression(value, at, .number).map { .blur($0) }
        case "font":
            if shape != .text { reader.fail(at, "sets a Text's size; this view is a \(shape.rawValue)") }
            if case .string(let style) = value {
                guard let size = SwiftUIView.textStyles[style] else {
                    let styles = SwiftUIView.textStyles.keys.sorted()
                    reader.failUnknown(
                        at, "must be points or a text style (\(styles.joined(separator: ", ")))", style, among: styles)
                    return nil
                }
                return .font(.constant(.number(size)))
            }
            return expression(value, at, .number).map { .font($0) }
        default:
            var watched: String?
            if let valueJSON = object["value"], let state = reader.string(valueJSON, "\(path).value") {
                checkState(state, "\(path).value")
                watched = state
            }
            guard let animation = decodeSwiftUIAnimation(value, at) else { return nil }
            return .animation(animation, value: watched)
        }
    }

    static let keyframeAnimatorFields: Set<String> = ["trigger", "repeating", "tracks"]

    /// `{"keyframeAnimator": {"trigger": "taps" | "repeating": true, "tracks": [{"property":
    /// "scaleEffect", "initial": 1, "keyframes": [{"linear": 1.2, "duration": 0.2}, …]}]}}`.
    private mutating func decodeKeyframeAnimator(_ json: JSONValue, _ path: String) -> SwiftUIModifier? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: Self.keyframeAnimatorFields)
        var trigger: String?
        var repeating = false
        if let value = object["trigger"], let name = reader.string(value, "\(path).trigger") {
            checkState(name, "\(path).trigger")
            trigger = name
        }
        if let value = object["repeating"] { repeating = reader.bool(value, "\(path).repeating") ?? false }
        if (trigger == nil) == !repeating {
            reader.fail(path, "needs a trigger (the state whose changes play it) or repeating true, one of them")
        }
        guard let tracksJSON = object["tracks"], let tracks = reader.array(tracksJSON, "\(path).tracks") else {
            if object["tracks"] == nil { reader.fail("\(path).tracks", "is required") }
            return nil
        }
        var decoded: [SwiftUIKeyframeAnimator.Track] = []
        var driven: Set<String> = []
        for (index, trackJSON) in tracks.enumerated() {
            let at = "\(path).tracks[\(index)]"
            guard let track = reader.object(trackJSON, at) else { continue }
            reader.rejectUnknown(track, at, allowed: ["property", "initial", "keyframes"])
            let names = SwiftUIKeyframeAnimator.Property.allCases.map(\.rawValue)
            guard let propertyJSON = track["property"], let name = reader.string(propertyJSON, "\(at).property") else {
                if track["property"] == nil { reader.fail("\(at).property", "is required") }
                continue
            }
            guard let property = SwiftUIKeyframeAnimator.Property(rawValue: name) else {
                reader.failUnknown(
                    "\(at).property", "must be one of \(names.joined(separator: ", "))", name, among: names)
                continue
            }
            for keyPath in property.keyPaths where !driven.insert(keyPath.description).inserted {
                reader.fail("\(at).property", "another track drives \(keyPath.description) already")
            }
            let fallback: Double = (property.modifierName == "scaleEffect" || property == .opacity) ? 1 : 0
            let initial = track["initial"].flatMap { reader.number($0, "\(at).initial") } ?? fallback
            var keyframes: [SwiftUIKeyframeTrack.Keyframe] = []
            if let list = track["keyframes"].flatMap({ reader.array($0, "\(at).keyframes") }) {
                if list.count > Self.maxKeyframes {
                    reader.fail(
                        "\(at).keyframes", "a track has at most \(Self.maxKeyframes) keyframes, not \(list.count)")
                }
                for (position, element) in list.enumerated().prefix(Self.maxKeyframes) {
                    if let keyframe = decodeKeyframe(element, "\(at).keyframes[\(position)]") {
                        keyframes.append(keyframe)
                    }
                }
            } else if track["keyframes"] == nil {
                reader.fail("\(at).keyframes", "is required")
            }
            decoded.append(SwiftUIKeyframeAnimator.Track(property: property, initial: initial, keyframes: keyframes))
        }
        return .keyframeAnimator(SwiftUIKeyframeAnimator(trigger: trigger, repeating: repeating, tracks: decoded))
    }

    static let transitionNames = ["identity", "opacity", "scale", "slide", "move", "offset", "asymmetric", "combined"]

    /// `"opacity"`, `"scale"`, `"slide"`, `"identity"`, `{"scale": 0.5}`, `{"move": "bottom"}`,
    /// `{"offset": {"x", "y"}}`, `{"asymmetric": {"insertion": T, "removal": T}}`,
    /// `{"combined": [T, …]}`.
    private mutating func decodeTransition(_ json: JSONValue, _ path: String, depth: Int) -> SwiftUITransition? {
        guard depth < 16 else {
            reader.fail(path, "transitions may nest at most 16 deep")
            return nil
        }
        switch json {
        case .string(let name):
            switch name {
            case "identity": return .identity
            case "opacity": return .opacity
            case "scale": return .scale(0)
            case "slide": return .slide
            default:
                reader.failUnknown(path, "is not a transition", name, among: Self.transitionNames)
                return nil
            }
        case .object(let object):
            guard object.count == 1, let (name, value) = object.members.first else {
                reader.fail(path, "must name one transition: \(Self.transitionNames.joined(separator: ", "))")
                return nil
            }
            let at = "\(path).\(name)"
            switch name {
            case "scale": return reader.number(value, at, min: 0).map { .scale($0) }
            case "move":
                let edges = SwiftUITransition.Edge.allCases.map(\.rawValue)
                guard let text = reader.string(value, at) else { return nil }
                guard let edge = SwiftUITransition.Edge(rawValue: text) else {
                    reader.failUnknown(at, "must be top, bottom, leading or trailing", text, among: edges)
                    return nil
                }
                return .move(edge)
            case "offset":
                guard let offset = reader.object(value, at) else { return nil }
                reader.rejectUnknown(offset, at, allowed: ["x", "y"])
                let x = offset["x"].flatMap { reader.number($0, "\(at).x") } ?? 0
                let y = offset["y"].flatMap { reader.number($0, "\(at).y") } ?? 0
                return .offset(x: x, y: y)
            case "asymmetric":
                guard let sides = reader.object(value, at) else { return nil }
                reader.rejectUnknown(sides, at, allowed: ["insertion", "removal"])
                guard let insertionJSON = sides["insertion"], let removalJSON = sides["removal"] else {
                    reader.fail(at, "needs insertion and removal")
                    return nil
                }
                guard let insertion = decodeTransition(insertionJSON, "\(at).insertion", depth: depth + 1),
                    let removal = decodeTransition(removalJSON, "\(at).removal", depth: depth + 1)
                else { return nil }
                return .asymmetric(insertion: insertion, removal: removal)
            case "combined":
                guard let parts = reader.array(value, at), !parts.isEmpty else {
                    reader.fail(at, "must list the transitions combined")
                    return nil
                }
                var decoded: [SwiftUITransition] = []
                for (index, part) in parts.enumerated() {
                    guard let transition = decodeTransition(part, "\(at)[\(index)]", depth: depth + 1) else {
                        return nil
                    }
                    decoded.append(transition)
                }
                return .combined(decoded)
            default:
                reader.failUnknown(path, "must name one transition", name, among: Self.transitionNames)
                return nil
            }
        default:
            reader.fail(path, "must be a transition's name or {name: arguments}")
            return nil
        }
    }

    static let phaseAnimatorFields: Set<String> = ["phases", "trigger", "animations"]

    /// `{"phaseAnimator": {"phases": [{"scaleEffect": 1}, {"scaleEffect": 1.2}], "trigger"?:
    /// "taps", "animations"?: [ANIMATION or null, …]}}`: each phase gives every property.
    private mutating func decodePhaseAnimator(_ json: JSONValue, _ path: String) -> SwiftUIModifier? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: Self.phaseAnimatorFields)
        var trigger: String?
        if let value = object["trigger"], let name = reader.string(value, "\(path).trigger") {
            checkState(name, "\(path).trigger")
            trigger = name
        }
        guard let phasesJSON = object["phases"], let phases = reader.array(phasesJSON, "\(path).phases") else {
            if object["phases"] == nil { reader.fail("\(path).phases", "is required") }
            return nil
        }
        guard !phases.isEmpty, phases.count <= 1000 else {
            reader.fail("\(path).phases", "must have 1 to 1000 phases")
            return nil
        }
        let names = SwiftUIKeyframeAnimator.Property.allCases.map(\.rawValue)
        var decoded: [[(property: SwiftUIKeyframeAnimator.Property, value: Double)]] = []
        for (index, phaseJSON) in phases.enumerated() {
            let at = "\(path).phases[\(index)]"
            guard let phase = reader.object(phaseJSON, at) else { continue }
            var values: [(property: SwiftUIKeyframeAnimator.Property, value: Double)] = []
            for (name, value) in phase.members {
                guard let property = SwiftUIKeyframeAnimator.Property(rawValue: name) else {
                    reader.failUnknown(
                        "\(at).\(name)", "must be one of \(names.joined(separator: ", "))", name, among: names)
                    continue
                }
                if let number = reader.number(value, "\(at).\(name)") { values.append((property, number)) }
            }
            if let first = decoded.first {
                if Set(first.map(\.property.rawValue)) != Set(values.map(\.property.rawValue)) {
                    reader.fail(
                        at,
                        "must give the same properties as phases[0]: \(first.map(\.property.rawValue).joined(separator: ", "))"
                    )
                }
                // In the first phase's order, so that every phase lists them alike.
                values = first.compactMap { wanted in values.first { $0.property == wanted.property } }
            }
            decoded.append(values)
        }
        var animations = [SwiftUIAnimation?](repeating: .default, count: decoded.count)
        if let animationsJSON = object["animations"], let list = reader.array(animationsJSON, "\(path).animations") {
            if list.count != decoded.count {
                reader.fail("\(path).animations", "must give one animation per phase (\(decoded.count)), null for none")
            }
            for (index, element) in list.enumerated() where index < animations.count {
                if let animation = decodeSwiftUIAnimation(element, "\(path).animations[\(index)]") {
                    animations[index] = animation
                }
            }
        }
        return .phaseAnimator(SwiftUIPhaseAnimator(phases: decoded, animations: animations, trigger: trigger))
    }

    static let keyframeKinds = ["linear", "spring", "cubic", "move"]
    /// Keyframes a track may have: each is an animation of its own in every play.
    static let maxKeyframes = 1000

    /// A keyframe: `{"linear": 1.2, "duration": 0.2, "timingCurve": "easeOut"}`, `{"spring": 1,
    /// "duration": 0.4, "springDuration": 0.5, "bounce": 0.3, "startVelocity": 0}` (the spring's
    /// own duration and bounce), `{"cubic": 0, "duration": 0.3, "startVelocity", "endVelocity"}`,
    /// `{"move": 3}`.
    private mutating func decodeKeyframe(_ json: JSONValue, _ path: String) -> SwiftUIKeyframeTrack.Keyframe? {
        guard let object = reader.object(json, path) else { return nil }
        let kinds = Self.keyframeKinds.filter { object[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            let guess = object.keys.lazy.compactMap { Vocabulary.suggestion(for: $0, among: Self.keyframeKinds) }.first
            reader.fail(path, "must name one keyframe: linear, spring, cubic or move", suggestion: guess)
            return nil
        }
        guard let target = reader.number(object[kind]!, "\(path).\(kind)") else { return nil }
        func number(_ label: String, min: Double? = nil, max: Double? = nil) -> Double? {
            object[label].flatMap { reader.number($0, "\(path).\(label)", min: min, max: max) }
        }
        func duration() -> Double? {
            guard object["duration"] != nil else {
                reader.fail("\(path).duration", "is required")
                return nil
            }
            return number("duration", min: 0)
        }
        switch kind {
        case "linear":
            reader.rejectUnknown(object, path, allowed: ["linear", "duration", "timingCurve"])
            var curve = TimingFunction.linear
            if let given = object["timingCurve"] {
                switch given {
                case .string(let name):
                    let curves: [String: TimingFunction] = [
                        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInOut": .easeInEaseOut,
                    ]
                    if let known = curves[name] {
                        curve = known
                    } else {
                        reader.failUnknown(
                            "\(path).timingCurve", "must be linear, easeIn, easeOut, easeInOut or [c0x, c0y, c1x, c1y]",
                            name, among: curves.keys.sorted())
                    }
                default:
                    if let points = reader.numbers(given, "\(path).timingCurve", count: 4) {
                        curve = .bezier(UnitBezier(points[0], points[1], points[2], points[3]))
                    }
                }
            }
            guard let d = duration() else { return nil }
            return .linear(target, duration: d, curve: curve)
        case "spring":
            reader.rejectUnknown(
                object, path, allowed: ["spring", "duration", "springDuration", "bounce", "startVelocity"])
            let spring = SwiftUISpring(
                duration: number("springDuration", min: 0) ?? 0.5, bounce: number("bounce", min: -1, max: 1) ?? 0)
            return .spring(
                target, duration: number("duration", min: 0), spring: spring, startVelocity: number("startVelocity"))
        case "cubic":
            reader.rejectUnknown(object, path, allowed: ["cubic", "duration", "startVelocity", "endVelocity"])
            guard let d = duration() else { return nil }
            return .cubic(
                target, duration: d, startVelocity: number("startVelocity"), endVelocity: number("endVelocity"))
        default:
            reader.rejectUnknown(object, path, allowed: ["move"])
            return .move(target)
        }
    }

    /// Degrees as radians, through a conditional's branches.
    static func radians(_ expression: SwiftUIExpression) -> SwiftUIExpression {
        switch expression {
        case .constant(.number(let degrees)): .constant(.number(degrees * .pi / 180))
        case .constant: expression
        case .state: expression
        case .conditional(let state, let negated, let then, let otherwise):
            .conditional(state: state, negated: negated, then: radians(then), else: radians(otherwise))
        }
    }

    /// `{"x": e, "y": e}` (or width/height); a missing member takes `default`, or is required.
    private mutating func pair(
        _ json: JSONValue, _ path: String, _ names: (String, String), default fallback: Double?
    ) -> (SwiftUIExpression, SwiftUIExpression)? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: [names.0, names.1])
        var result: [SwiftUIExpression] = []
        for name in [names.0, names.1] {
            if let member = object[name] {
                guard let decoded = expression(member, "\(path).\(name)", .number) else { return nil }
                result.append(decoded)
            } else if let fallback {
                result.append(.constant(.number(fallback)))
            } else {
                reader.fail("\(path).\(name)", "is required")
                return nil
            }
        }
        return (result[0], result[1])
    }

    static let frameFields = [
        "width", "height", "minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight", "alignment",
    ]

    /// `{"frame": {"width": e, "height": e, "alignment": "top"}}` (either side may be left to
    /// the view) or `{"frame": {"minWidth": e, "maxWidth": "infinity", …}}`: SwiftUI's two frames.
    private mutating func decodeFrame(_ json: JSONValue, _ path: String) -> SwiftUIFrame? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: Set(Self.frameFields))
        var frame = SwiftUIFrame()
        func side(_ name: String) -> SwiftUIExpression? {
            guard let member = object[name] else { return nil }
            if case .string("infinity") = member, name.hasPrefix("max") { return .constant(.number(.infinity)) }
            return expression(member, "\(path).\(name)", .number)
        }
        frame.width = side("width")
        frame.height = side("height")
        frame.minWidth = side("minWidth")
        frame.idealWidth = side("idealWidth")
        frame.maxWidth = side("maxWidth")
        frame.minHeight = side("minHeight")
        frame.idealHeight = side("idealHeight")
        frame.maxHeight = side("maxHeight")
        if let alignment = object["alignment"] {
            frame.alignment = decodeAlignment(
                alignment, "\(path).alignment", among: SwiftUIAlignment.names.keys.sorted())
        }
        if frame.isFlexible && (frame.width != nil || frame.height != nil) {
            reader.fail(
                path,
                "mixes frame(width:height:) with frame(minWidth:…maxHeight:); SwiftUI has them as two modifiers: write two frames"
            )
        }
        if !object.keys.contains(where: { $0 != "alignment" }) {
            reader.fail(path, "needs a side: width, height, or a min/ideal/max width or height")
        }
        return frame
    }

    /// `{"padding": 16}` (every edge) or `{"padding": {"top": e, "leading": e, "bottom": e,
    /// "trailing": e, "horizontal": e, "vertical": e}}` (an edge not given is 0).
    private mutating func decodePadding(_ json: JSONValue, _ path: String) -> SwiftUIInsets? {
        let zero = SwiftUIExpression.constant(.number(0))
        guard case .object(let object) = json, object["if"] == nil, object["state"] == nil else {
            guard let all = expression(json, path, .number) else { return nil }
            return SwiftUIInsets(top: all, leading: all, bottom: all, trailing: all)
        }
        reader.rejectUnknown(object, path, allowed: ["top", "leading", "bottom", "trailing", "horizontal", "vertical"])
        var insets = SwiftUIInsets(top: zero, leading: zero, bottom: zero, trailing: zero)
        for name in ["horizontal", "vertical", "top", "leading", "bottom", "trailing"] {
            guard let member = object[name], let value = expression(member, "\(path).\(name)", .number) else {
                continue
            }
            switch name {
            case "horizontal": (insets.leading, insets.trailing) = (value, value)
            case "vertical": (insets.top, insets.bottom) = (value, value)
            case "top": insets.top = value
            case "leading": insets.leading = value
            case "bottom": insets.bottom = value
            default: insets.trailing = value
            }
        }
        return insets
    }

    /// An alignment's name, one of `names`.
    private mutating func decodeAlignment(_ json: JSONValue, _ path: String, among names: [String]) -> SwiftUIAlignment
    {
        guard let name = reader.string(json, path) else { return .center }
        guard names.contains(name), let alignment = SwiftUIAlignment.names[name] else {
            reader.failUnknown(path, "must be one of \(names.joined(separator: ", "))", name, among: names)
            return .center
        }
        return alignment
    }

    /// A stack's `spacing` and `alignment`, a spacer's `minLength`.
    private mutating func decodeStackFields(_ object: JSONObject, _ path: String, into view: inout SwiftUIView) {
        let stacks: [SwiftUIView.Shape: [String]] = [
            .vstack: ["leading", "center", "trailing"], .hstack: ["top", "center", "bottom"],
            .zstack: SwiftUIAlignment.names.keys.sorted(),
        ]
        if let spacing = object["spacing"] {
            if view.shape != .vstack && view.shape != .hstack {
                reader.fail("\(path).spacing", "is a VStack's or an HStack's; give shape vstack or hstack")
            }
            view.spacing = reader.number(spacing, "\(path).spacing").map { max(0, $0) }
        }
        if let alignment = object["alignment"] {
            if let names = stacks[view.shape] {
                view.alignment = decodeAlignment(alignment, "\(path).alignment", among: names)
            } else {
                reader.fail(
                    "\(path).alignment", "is a stack's (vstack, hstack, zstack); a view is aligned by its frame")
            }
        }
        if let minLength = object["minLength"] {
            if view.shape != .spacer { reader.fail("\(path).minLength", "is a Spacer's; give shape spacer") }
            view.minLength = reader.number(minLength, "\(path).minLength").map { max(0, $0) }
        }
    }

    enum ExpressionKind { case number, color }

    /// A number or colour, `{"state": "name"}`, or `{"if": "flag", "then": e, "else": e}`.
    private mutating func expression(_ json: JSONValue, _ path: String, _ kind: ExpressionKind) -> SwiftUIExpression? {
        if case .object(let object) = json {
            if object["if"] != nil {
                reader.rejectUnknown(object, path, allowed: ["if", "then", "else"])
                guard let condition = reader.string(object["if"]!, "\(path).if") else { return nil }
                let negated = condition.hasPrefix("!")
                let name = negated ? String(condition.dropFirst()) : condition
                checkState(name, "\(path).if", bool: true)
                guard let thenJSON = object["then"], let elseJSON = object["else"] else {
                    reader.fail(path, "needs then and else")
                    return nil
                }
                guard let then = expression(thenJSON, "\(path).then", kind),
                    let otherwise = expression(elseJSON, "\(path).else", kind)
                else { return nil }
                return .conditional(state: name, negated: negated, then: then, else: otherwise)
            }
            if object["state"] != nil {
                reader.rejectUnknown(object, path, allowed: ["state"])
                guard kind == .number else {
                    reader.fail(path, "a colour cannot be a state; use if/then/else")
                    return nil
                }
                guard let name = reader.string(object["state"]!, "\(path).state") else { return nil }
                checkState(name, "\(path).state", bool: false)
                return .state(name)
            }
            if kind == .number {
                reader.fail(path, "must be a number, {\"state\": name} or {\"if\": flag, \"then\", \"else\"}")
                return nil
            }
        }
        switch kind {
        case .number: return reader.number(json, path).map { .constant(.number($0)) }
        case .color: return reader.color(json, path).map { .constant(.color($0)) }
        }
    }

    /// A state name must be declared; `bool` says what it must hold (nil: anything).
    private mutating func checkState(_ name: String, _ path: String, bool: Bool? = nil) {
        guard let value = swiftUIStates[name] else {
            reader.failUnknown(
                path, "no @State called \"\(name)\" in swiftui.state", name, among: swiftUIStates.keys.sorted())
            return
        }
        switch (bool, value) {
        case (true?, .number): reader.fail(path, "\(name) is a number; a condition needs a Bool")
        case (false?, .bool): reader.fail(path, "\(name) is a Bool; use {\"if\": \"\(name)\", \"then\", \"else\"}")
        default: break
        }
    }

    // MARK: Animations

    static let swiftUIAnimationNames = [
        "default", "linear", "easeIn", "easeOut", "easeInOut", "timingCurve", "spring", "interactiveSpring",
        "interpolatingSpring", "smooth", "snappy", "bouncy",
    ]
    static let swiftUIModifierNames = ["delay", "speed", "repeatCount", "repeatForever"]

    /// SwiftUI's `Animation`: `null` (none), a name with its defaults (`"smooth"`), one call
    /// (`{"spring": {"duration": 0.5, "bounce": 0.3}}`), or the chain as written:
    /// `[{"easeInOut": {"duration": 1}}, {"delay": 0.2}, {"repeatForever": {"autoreverses": false}}]`.
    /// `.some(nil)` for `null`; nil when it is not valid (reported).
    mutating func decodeSwiftUIAnimation(_ json: JSONValue, _ path: String) -> SwiftUIAnimation?? {
        switch json {
        case .null: return .some(nil)
        case .string, .object:
            return base(json, path).map { .some($0) }
        case .array(let calls):
            guard let first = calls.first else {
                reader.fail(path, "must start with an animation")
                return nil
            }
            guard var animation = base(first, "\(path)[0]") else { return nil }
            var repeated = false
            for (index, call) in calls.enumerated().dropFirst() {
                let at = "\(path)[\(index)]"
                guard let object = reader.object(call, at), object.count == 1,
                    let (name, argument) = object.members.first
                else {
                    if case .object = call {
                        reader.fail(at, "must name one modifier: delay, speed, repeatCount, repeatForever")
                    }
                    return nil
                }
                switch name {
                case "delay":
                    guard let seconds = reader.number(argument, "\(at).delay", min: 0) else { return nil }
                    animation = animation.delay(seconds)
                case "speed":
                    guard let speed = reader.number(argument, "\(at).speed", min: 0, exclusiveMin: true) else {
                        return nil
                    }
                    animation = animation.speed(speed)
                case "repeatCount", "repeatForever":
                    if repeated { reader.fail(at, "choreo plays one repeat a chain") }
                    repeated = true
                    var autoreverses = true
                    var count = 1
                    if name == "repeatCount" {
                        if case .number = argument {
                            count = reader.integer(argument, "\(at).repeatCount", min: 1, max: 1_000_000) ?? 1
                        } else if let arguments = reader.object(argument, "\(at).repeatCount") {
                            reader.rejectUnknown(arguments, "\(at).repeatCount", allowed: ["count", "autoreverses"])
                            if let n = arguments["count"] {
                                count = reader.integer(n, "\(at).repeatCount.count", min: 1, max: 1_000_000) ?? 1
                            } else {
                                reader.fail("\(at).repeatCount.count", "is required")
                            }
                            if let flag = arguments["autoreverses"] {
                                autoreverses = reader.bool(flag, "\(at).repeatCount.autoreverses") ?? true
                            }
                        }
                        animation = animation.repeatCount(count, autoreverses: autoreverses)
                    } else {
                        if case .object(let arguments) = argument {
                            reader.rejectUnknown(arguments, "\(at).repeatForever", allowed: ["autoreverses"])
                            if let flag = arguments["autoreverses"] {
                                autoreverses = reader.bool(flag, "\(at).repeatForever.autoreverses") ?? true
                            }
                        } else if argument != JSONValue.bool(true) {
                            reader.fail("\(at).repeatForever", "must be {\"autoreverses\": Bool} or true")
                        }
                        animation = animation.repeatForever(autoreverses: autoreverses)
                    }
                default:
                    reader.failUnknown(
                        "\(at).\(name)", "is not an Animation modifier", name, among: Self.swiftUIModifierNames)
                    return nil
                }
            }
            return .some(animation)
        default:
            reader.fail(path, "must be null, an animation's name, {name: arguments} or a chain [..]")
            return nil
        }
    }

    /// One base animation: a name with its defaults, or `{name: {label: value}}`.
    private mutating func base(_ json: JSONValue, _ path: String) -> SwiftUIAnimation? {
        var name: String
        var arguments = JSONObject()
        var at = path
        switch json {
        case .string(let text): name = text
        case .object(let object):
            guard object.count == 1, let (key, value) = object.members.first else {
                reader.fail(path, "must name one animation: \(Self.swiftUIAnimationNames.joined(separator: ", "))")
                return nil
            }
            name = key
            at = "\(path).\(key)"
            if case .object(let given) = value {
                arguments = given
            } else {
                reader.fail(at, "must be the call's arguments as an object, as {\"duration\": 0.5}")
                return nil
            }
        default:
            reader.fail(path, "must be an animation's name or {name: arguments}")
            return nil
        }
        func number(
            _ label: String, _ fallback: Double, min: Double? = nil, max: Double? = nil, positive: Bool = false
        ) -> Double {
            guard let value = arguments[label] else { return fallback }
            return reader.number(value, "\(at).\(label)", min: positive ? 0 : min, max: max, exclusiveMin: positive)
                ?? fallback
        }
        let curveDuration = SwiftUIAnimation.defaultCurveDuration
        switch name {
        case "default", "linear", "easeIn", "easeOut", "easeInOut":
            reader.rejectUnknown(arguments, at, allowed: name == "default" ? [] : ["duration"])
            let duration = number("duration", curveDuration, positive: true)
            switch name {
            case "linear": return .linear(duration: duration)
            case "easeIn": return .easeIn(duration: duration)
            case "easeOut": return .easeOut(duration: duration)
            case "easeInOut": return .easeInOut(duration: duration)
            default: return .default
            }
        case "timingCurve":
            reader.rejectUnknown(arguments, at, allowed: ["c0x", "c0y", "c1x", "c1y", "duration"])
            for label in ["c0x", "c0y", "c1x", "c1y"] where arguments[label] == nil {
                reader.fail("\(at).\(label)", "is required")
            }
            return .timingCurve(
                number("c0x", 0, min: 0), number("c0y", 0), number("c1x", 1, min: 0), number("c1y", 1),
                duration: number("duration", curveDuration, positive: true))
        case "spring":
            reader.rejectUnknown(
                arguments, at, allowed: ["duration", "bounce", "response", "dampingFraction", "blendDuration"])
            if arguments["response"] != nil || arguments["dampingFraction"] != nil {
                if arguments["duration"] != nil || arguments["bounce"] != nil {
                    reader.fail(at, "takes duration and bounce, or response and dampingFraction, not both")
                }
                return .spring(
                    response: number("response", 0.5, positive: true),
                    dampingFraction: number("dampingFraction", 0.825, min: 0),
                    blendDuration: number("blendDuration", 0, min: 0))
            }
            return .spring(
                duration: number("duration", 0.5, positive: true), bounce: number("bounce", 0, min: -1, max: 1),
                blendDuration: number("blendDuration", 0, min: 0))
        case "interactiveSpring":
            reader.rejectUnknown(arguments, at, allowed: ["response", "dampingFraction", "blendDuration"])
            return .interactiveSpring(
                response: number("response", 0.15, positive: true),
                dampingFraction: number("dampingFraction", 0.86, min: 0),
                blendDuration: number("blendDuration", 0.25, min: 0))
        case "interpolatingSpring":
            reader.rejectUnknown(arguments, at, allowed: ["mass", "stiffness", "damping", "initialVelocity"])
            for label in ["stiffness", "damping"] where arguments[label] == nil {
                reader.fail("\(at).\(label)", "is required")
            }
            return .interpolatingSpring(
                mass: number("mass", 1, positive: true), stiffness: number("stiffness", 100, positive: true),
                damping: number("damping", 10, min: 0), initialVelocity: number("initialVelocity", 0))
        case "smooth", "snappy", "bouncy":
            reader.rejectUnknown(arguments, at, allowed: ["duration", "extraBounce"])
            let duration = number("duration", 0.5, positive: true)
            // The preset's bounce plus the extra stays within a spring's −1…1 (1: undamped).
            let base = SwiftUISpring.presetBounces[name] ?? 0
            let extra = number("extraBounce", 0, min: -1 - base, max: 1 - base)
            switch name {
            case "smooth": return .smooth(duration: duration, extraBounce: extra)
            case "snappy": return .snappy(duration: duration, extraBounce: extra)
            default: return .bouncy(duration: duration, extraBounce: extra)
            }
        default:
            reader.failUnknown(
                path, "is not a SwiftUI Animation (\(Self.swiftUIAnimationNames.joined(separator: ", ")))", name,
                among: Self.swiftUIAnimationNames)
            return nil
        }
    }

    // MARK: Script actions

    static let swiftUIActionNames = ["withAnimation", "withTransaction", "state"]

    /// `{"state": {"isOn": true}}`, `{"withAnimation": A, "state": {...}, "completion": [...],
    /// "completionCriteria": "removed", "name"}` or `{"withTransaction": {"animation": A,
    /// "disablesAnimations": true}, "state": {...}}`.
    mutating func decodeSwiftUIAction(_ object: JSONObject, _ name: String, _ path: String) -> ScriptAction? {
        var allowed: Set<String> = ["state"]
        if name == "withAnimation" { allowed.formUnion(["withAnimation", "completion", "completionCriteria", "name"]) }
        if name == "withTransaction" { allowed.insert("withTransaction") }
        reader.rejectUnknown(object, path, allowed: allowed)
        guard swiftUIStates.isEmpty == false || declaresSwiftUI else {
            reader.fail("\(path).\(name)", "changes SwiftUI state, and the scene has no swiftui section")
            return nil
        }
        guard let stateJSON = object["state"], let given = reader.object(stateJSON, "\(path).state") else {
            if object["state"] == nil { reader.fail("\(path).state", "is required: the @State values it sets") }
            return nil
        }
        var changes: [(name: String, value: SwiftUIStateValue)] = []
        for (state, valueJSON) in given.members {
            let at = "\(path).state.\(state)"
            checkState(state, at)
            guard let value = swiftUIStateValue(valueJSON, at) else { continue }
            if let declared = swiftUIStates[state] {
                switch (declared, value) {
                case (.bool, .number), (.number, .bool): reader.fail(at, "must be a \(declared.kindName), as declared")
                default: break
                }
            }
            changes.append((state, value))
        }
        var update = SwiftUIUpdate(changes: changes)
        switch name {
        case "withAnimation":
            // `withAnimation { }` without an animation is `.default`.
            let given = object["withAnimation"]!
            if given == JSONValue.bool(true) {
                update.animation = .default
            } else {
                guard let animation = decodeSwiftUIAnimation(given, "\(path).withAnimation") else { return nil }
                update.animation = animation
            }
            if let completion = object["completion"] {
                update.completion = decodeActions(completion, "\(path).completion")
            }
            if let criteria = object["completionCriteria"],
                let text = reader.string(criteria, "\(path).completionCriteria")
            {
                switch text {
                case "logicallyComplete": update.criteria = .logicallyComplete
                case "removed": update.criteria = .removed
                default:
                    reader.failUnknown(
                        "\(path).completionCriteria", "must be logicallyComplete or removed", text,
                        among: ["logicallyComplete", "removed"])
                }
            }
            if let label = object["name"] { update.name = reader.string(label, "\(path).name") }
        case "withTransaction":
            guard let transaction = reader.object(object["withTransaction"]!, "\(path).withTransaction") else {
                return nil
            }
            reader.rejectUnknown(transaction, "\(path).withTransaction", allowed: ["animation", "disablesAnimations"])
            if let animation = transaction["animation"] {
                guard let decoded = decodeSwiftUIAnimation(animation, "\(path).withTransaction.animation") else {
                    return nil
                }
                update.animation = decoded
            }
            if let flag = transaction["disablesAnimations"] {
                update.disablesAnimations = reader.bool(flag, "\(path).withTransaction.disablesAnimations") ?? false
            }
        default:
            break
        }
        return .swiftUI(update)
    }
}

extension SwiftUIStateValue {
    var kindName: String {
        switch self {
        case .bool: "Bool"
        case .number: "number"
        }
    }
}
