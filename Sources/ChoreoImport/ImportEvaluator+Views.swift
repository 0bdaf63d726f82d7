import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// Views and layers: making them, their properties, the tree.
extension ImportEvaluator {
    /// `UIView(frame:)`, `UILabel()`, `CALayer()`, `CAShapeLayer()`: a new layer of the scene.
    func makeLayer(_ className: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value
    {
        if layerCount >= limits.layers {
            throw stop(position, "the code makes more than \(limits.layers) views and layers")
        }
        layerCount += 1
        let kind: LayerKind =
            switch className {
            case "UILabel", "CATextLayer", "UITextField": .text
            case "CAShapeLayer": .shape
            case "CAEmitterLayer": .emitter
            case "CAReplicatorLayer": .replicator
            default: .layer
            }
        let isView = className.hasPrefix("UI")
        if ![
            "UIView", "UILabel", "UIButton", "UIImageView", "CALayer", "CAShapeLayer", "CATextLayer",
            "CAReplicatorLayer",
        ].contains(className) {
            note(position, "\(className) is imported as a plain \(kind == .text ? "text " : "")layer")
        }
        let layer = LayerObject(kind: kind, className: className, isView: isView, created: position)
        layer.model["position"] = .point(0, 0)
        layer.model["bounds"] = .rect(0, 0, 0, 0)
        layer.model["anchorPoint"] = .point(0.5, 0.5)
        layer.model["opacity"] = .number(1)
        layer.model["transform"] = .transform(.identity)
        let value = allocate(.layer(layer))
        if let frame = arguments.first("frame", "initWithFrame") {
            try setMember(value, "frame", frame, position)
        }
        try applyUIKitDefaults(value, layer, arguments, position)
        return value
    }

    /// UIKit's own defaults for a view it makes, as Apple documents them, where they are not
    /// Core Animation's: a `UILabel` (and a `UITextField`) draws its text in the 17-point system
    /// font in the `label` colour (a `CATextLayer`'s are 36 points and white), one line, at its
    /// natural alignment, on a clear background; a button has its type (`UIButton(type: .system)`
    /// draws its title in the tint colour, `UIButton()` and `.custom` in white).
    func applyUIKitDefaults(_ value: Value, _ layer: LayerObject, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop)
    {
        switch layer.className {
        case "UILabel", "UITextField":
            try setMember(value, "font", .number(Self.labelFontSize), position)
            try setMember(value, "textColor", .color(.string("label")), position)
        case "UIButton":
            switch arguments.first("type", "buttonWithType") {
            case nil, .enumCase("custom")?, .integer(0)?: layer.buttonType = "custom"
            default: layer.buttonType = "system"
            }
        default: break
        }
    }

    /// UILabel's font size and UIButton's title label's, in points (`UIFont.systemFont(ofSize:)`).
    static let labelFontSize = 17.0
    static let buttonFontSize = 15.0

    /// The title label of a button (`button.titleLabel`, `setTitle(_:for:)`): a text layer in the
    /// button, across its width and centred in its height, made the first time the code gives
    /// the button a title, a title colour or a title font.
    func titleLabel(of button: Value, _ position: SourcePosition) throws(ImportStop) -> Value? {
        guard let layer = layer(button), layer.buttonType != nil, case .object(let index) = button else { return nil }
        if let title = layer.titleLabel { return .object(title) }
        let title = LayerObject(kind: .text, className: "UIButtonLabel", isView: true, created: position)
        title.model["position"] = .point(0, 0)
        title.model["bounds"] = .rect(0, 0, 0, 0)
        title.model["anchorPoint"] = .point(0.5, 0.5)
        title.model["opacity"] = .number(1)
        title.model["transform"] = .transform(.identity)
        layerCount += 1
        let value = allocate(.layer(title))
        layer.titleLabel = objectIndex(value)
        // Named after its button (`go` → `goTitleLabel`), as `go.titleLabel` reads.
        name(value, (layer.id ?? "button") + "TitleLabel")
        try setMember(value, "font", .number(Self.buttonFontSize), position)
        try setMember(
            value, "textColor", .color(.string(layer.buttonType == "system" ? "systemBlue" : "white")), position)
        try setMember(value, "textAlignment", .enumCase("center"), position)
        try placeTitle(of: layer, position)
        try attach(value, to: index, at: nil, position)
        return value
    }

    /// Lays a button's title label out in its bounds, as the button's layoutSubviews does.
    func placeTitle(of button: LayerObject, _ position: SourcePosition) throws(ImportStop) {
        guard let index = button.titleLabel, case .layer(let title) = heap[index] else { return }
        let size = rectOf(button.model["bounds"]) ?? (0, 0, 0, 0)
        let height = (title.model["fontSize"]?.number ?? Self.buttonFontSize) * 1.2
        try setMember(.object(index), "frame", .rect(0, (size.3 - height) / 2, size.2, height), position)
    }

    /// The size a label or a titled button has by its content (`intrinsicContentSize`), where
    /// neither a frame nor constraints give one: its text in its font, one line (a button's
    /// title with 6 points above and below it); nil for views whose size is only given.
    func intrinsicSize(_ index: Int) -> (width: Double, height: Double)? {
        guard case .layer(let layer) = heap[index] else { return nil }
        func text(_ layer: LayerObject) -> (Double, Double) {
            guard case .string(let string)? = layer.model["string"], !string.isEmpty else { return (0, 0) }
            let measured = SwiftUIView.textSize(string, fontSize: layer.model["fontSize"]?.number ?? 17)
            return (measured.0, measured.1)
        }
        if layer.className == "UILabel" { return text(layer) }
        if layer.buttonType != nil, let title = layer.titleLabel, case .layer(let label) = heap[title] {
            let size = text(label)
            return (size.0, size.1 + 12)
        }
        return nil
    }

    /// The scene property a UIKit or Core Animation property name sets, for this kind of layer.
    /// UIKit's and Core Animation's properties that draw but that choreo does not model: said
    /// as such, without a "did you mean".
    static let unmodelledProperties: Set<String> = [
        "mask", "anchorPointZ", "colors", "locations", "startPoint", "endPoint", "contents", "contentsGravity",
        "contentsRect",
        "filters", "backgroundFilters", "compositingFilter", "lineCap", "lineJoin", "miterLimit", "lineDashPattern",
        "fillRule", "image", "tintColor",
        "font", "textAlignment", "numberOfLines", "attributedText", "effect",
    ]

    /// The properties code sets on views and layers that ``sceneProperty(_:_:)`` may know, for
    /// "did you mean".
    static let layerPropertyNames = [
        "frame", "bounds", "position", "anchorPoint", "zPosition", "opacity", "transform", "sublayerTransform",
        "backgroundColor", "borderColor", "borderWidth", "cornerRadius", "masksToBounds", "shadowColor",
        "shadowOpacity", "shadowOffset", "shadowRadius", "speed", "timeOffset", "beginTime", "center", "alpha",
        "clipsToBounds", "isHidden", "hidden", "path", "fillColor", "strokeColor", "lineWidth", "strokeStart",
        "strokeEnd", "lineDashPhase", "string", "fontSize", "foregroundColor", "text", "textColor", "contents",
    ]

    func sceneProperty(_ name: String, _ layer: LayerObject) -> String? {
        switch name {
        case "frame", "bounds", "position", "anchorPoint", "zPosition", "opacity", "transform", "sublayerTransform",
            "backgroundColor", "borderColor", "borderWidth", "cornerRadius", "masksToBounds", "shadowColor",
            "shadowOpacity", "shadowOffset", "shadowRadius", "speed", "timeOffset", "beginTime":
            return name
        case "center": return "position"
        case "alpha": return "opacity"
        case "isHidden", "hidden": return "hidden"
        case "clipsToBounds": return "masksToBounds"
        case "path", "fillColor", "strokeColor", "lineWidth", "strokeStart", "strokeEnd", "lineCap", "lineJoin":
            return layer.kind == .shape ? name : nil
        case "emitterPosition", "emitterZPosition", "emitterSize", "emitterShape", "emitterMode", "birthRate",
            "lifetime",
            "velocity", "scale", "spin", "seed", "emitterCells":
            return layer.kind == .emitter ? name : nil
        case "instanceCount", "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset",
            "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "preservesDepth":
            return layer.kind == .replicator ? name : nil
        case "text", "string": return layer.kind == .text ? "string" : nil
        case "textColor", "foregroundColor": return layer.kind == .text ? "foregroundColor" : nil
        case "font", "fontSize": return layer.kind == .text ? "fontSize" : nil
        case "textAlignment", "alignmentMode": return layer.kind == .text ? "alignmentMode" : nil
        default: return nil
        }
    }

    /// Properties that change nothing the scene draws.
    static let ignoredProperties: Set<String> = [
        "tag", "isUserInteractionEnabled", "userInteractionEnabled", "contentMode", "tintColor", "numberOfLines",
        "translatesAutoresizingMaskIntoConstraints", "accessibilityLabel", "accessibilityIdentifier", "isOpaque",
        "opaque", "autoresizingMask", "contentsScale", "rasterizationScale", "shouldRasterize",
        "adjustsFontSizeToFitWidth",
        "minimumScaleFactor", "lineBreakMode", "isExclusiveTouch", "delegate", "name", "needsDisplayOnBoundsChange",
        "allowsEdgeAntialiasing", "contentScaleFactor", "preservesSuperviewLayoutMargins", "wantsLayer",
        "cornerCurve", "isAccessibilityElement", "semanticContentAttribute", "insetsLayoutMarginsFromSafeArea",
    ]

    /// Properties that hold an object in a role: binding to them names nothing.
    static let roleProperties: Set<String> = [
        "delegate", "transitioningDelegate", "dataSource", "presentingViewController", "topViewController", "previous",
        "target",
    ]

    /// Sets a property of a view, layer, animation or instance.
    func setMember(_ target: Value, _ given: String, _ value: Value, _ position: SourcePosition) throws(ImportStop) {
        if let animator = animator(target) {
            try setAnimatorProperty(animator, given, value, position)
            return
        }
        if case .object(let index) = target, case .cell(let cell) = heap[index] {
            try setCellField(cell, given, value, position)
            return
        }
        if let object = instance(target) {
            // A property's own code: its setter, or its observers around the store.
            if let setter = setter(object, given) {
                _ = try call(setter, on: target, arguments: [value], at: position)
                return
            }
            let key = "\(ObjectIdentifier(object).hashValue).\(given)"
            if let observers = observers(object, given), !observing.contains(key) {
                observing.insert(key)
                defer { observing.remove(key) }
                let old = object.fields[given] ?? .null
                if let will = observers.will { _ = try call(will, on: target, arguments: [value], at: position) }
                try setMember(target, given, value, position)
                if let did = observers.did { _ = try call(did, on: target, arguments: [old], at: position) }
                return
            }
        }
        var name = given
        // `_label` is the instance variable behind the property `label`.
        if name.hasPrefix("_"), let object = instance(target), hasProperty(object, String(name.dropFirst())) {
            name.removeFirst()
        }
        if let object = instance(target),
            layer(target) == nil || hasProperty(object, name) || object.fields[name] != nil
        {
            object.fields[name] = value
            // A delegate or data source is a role, not a name.
            if !Self.roleProperties.contains(name) { self.name(value, name) }
            return
        }
        if animation(target) != nil {
            try setAnimationField(target, name, value, position)
            return
        }
        guard let layer = layer(target) else { return }
        if case .runtime(let runtime) = value {
            warn(
                position, "\(name) is set to \(runtime.description), known only at run time; the assignment is skipped",
                fix: "compute the value from constants in the code (or set \(name) in the scene by hand)")
            return
        }
        if layer.isCanvas {
            if name == "backgroundColor", let color = try colorJSON(value, position) {
                canvasBackground = color
            } else if !Self.ignoredProperties.contains(name) {
                note(position, "the view controller's view is the canvas; its \(name) is not imported")
            }
            return
        }
        if name == "layer" { return }
        if name == "title" || name == "image" {
            warn(position, "\(name) is not drawn by choreo; skipped")
            return
        }
        if name == "mask", let mask = self.layer(value), !mask.everAttached, case .object(let index) = value {
            // Core Animation clips the layer and its sublayers to the mask's alpha: the mask is
            // the layer's `mask` in the scene (out of the tree, drawn as its alpha).
            mask.maskOf = id(of: layer)
            mask.maskAssigned = position
            if mask.className == "CAGradientLayer" || mask.className == "UIImageView" { mask.unmodelledContent = true }
            layer.maskLayer = index
            return
        }
        guard let property = sceneProperty(name, layer) else {
            if Self.ignoredProperties.contains(name) { return }
            // A real property choreo does not model is said so; a name close to one it has is
            // probably misspelt.
            let known = Self.layerPropertyNames.filter { sceneProperty($0, layer) != nil }
            let modelled = Self.unmodelledProperties.contains(name)
            if modelled { layer.unmodelledContent = true }
            warn(
                position,
                modelled
                    ? "\(layer.className).\(name) is not modelled by choreo; skipped"
                    : "\(layer.className).\(name) is not a property choreo animates; skipped",
                fix: modelled
                    ? nil
                    : Vocabulary.suggestion(for: name, among: known).map { "did you mean \($0)?" }
                        ?? "the properties a scene has are in docs/scene-format.md")
            return
        }
        let json = try sceneValue(property, value, position)
        // The model, as later reads see it.
        switch property {
        case "frame":
            guard case .rect(let x, let y, let w, let h) = value else { throw stop(position, "frame needs a CGRect") }
            let anchor = pointOf(layer.model["anchorPoint"]) ?? (0.5, 0.5)
            let bounds = rectOf(layer.model["bounds"]) ?? (0, 0, 0, 0)
            layer.model["bounds"] = .rect(bounds.0, bounds.1, w, h)
            layer.model["position"] = .point(x + w * anchor.0, y + h * anchor.1)
        case "position", "bounds", "anchorPoint":
            layer.model[property] = value
        default:
            layer.model[property] = value
        }
        if let collector = changeCollectors.last {
            collector.record(id(of: layer), property, json)
        } else if folds(layer) {
            switch property {
            case "frame":
                layer.undeclare("position")
                layer.undeclare("bounds")
                layer.declare("frame", json)
            case "position", "bounds", "anchorPoint":
                if layer.declared.contains(where: { $0.0 == "frame" }) {
                    layer.undeclare("frame")
                    if let p = layer.model["position"] {
                        layer.declare("position", try sceneValue("position", p, position))
                    }
                    if let b = layer.model["bounds"] { layer.declare("bounds", try sceneValue("bounds", b, position)) }
                }
                layer.declare(property, json)
            default:
                layer.declare(property, json)
            }
        } else {
            try emit(
                [("set", .value(.object(JSONObject([(id(of: layer), .object(JSONObject([(property, json)])))]))))],
                position)
        }
        // A button lays its title out again in its new bounds.
        if layer.titleLabel != nil, property == "frame" || property == "bounds" { try placeTitle(of: layer, position) }
    }

    /// Whether a change to `layer` shapes its declaration instead of being an action: while the
    /// entry point's first turn has emitted nothing, or while the layer has never been on screen.
    func folds(_ layer: LayerObject) -> Bool {
        entryTurn || !layer.everAttached
    }

    func pointOf(_ value: Value?) -> (Double, Double)? {
        if case .point(let x, let y)? = value { return (x, y) }
        return nil
    }

    func rectOf(_ value: Value?) -> (Double, Double, Double, Double)? {
        if case .rect(let x, let y, let w, let h)? = value { return (x, y, w, h) }
        return nil
    }

    /// A value as the scene property `property` takes it.
    func sceneValue(_ property: String, _ value: Value, _ position: SourcePosition) throws(ImportStop) -> JSONValue {
        switch property {
        case "backgroundColor", "borderColor", "shadowColor", "fillColor", "strokeColor", "foregroundColor":
            return try colorJSON(value, position) ?? .null
        case "transform", "sublayerTransform":
            switch value {
            case .transform(let t): return t.json
            case .enumCase("identity"): return .string("identity")
            default: throw stop(position, "\(property) needs a transform, found \(value.kindName)")
            }
        case "path":
            if case .path(let commands) = value { return .array(commands) }
            if let path = path(value) { return .array(path.commands) }
            if case .null = value { return .null }
            throw stop(position, "path needs a UIBezierPath or CGPath, found \(value.kindName)")
        case "hidden", "masksToBounds":
            if case .bool(let b) = value { return .bool(b) }
            return .bool(try truth(value, position))
        case "string":
            if case .string(let s) = value { return .string(s) }
            if case .null = value { return .string("") }
            return .string(describe(value))
        case "alignmentMode", "lineCap", "lineJoin":
            if case .enumCase(let name) = value { return .string(name == "center" ? "center" : name) }
            if case .string(let name) = value { return .string(name) }
            throw stop(position, "\(property) needs a constant, found \(value.kindName)")
        default:
            return try json(value, position)
        }
    }

    /// A colour's scene JSON.
    func colorJSON(_ value: Value, _ position: SourcePosition) throws(ImportStop) -> JSONValue? {
        switch value {
        case .color(let c): return c
        case .enumCase(let name):
            if case .color(let c)? = color(named: name) { return c }
            warn(
                position, "\(name) is not a colour the importer knows; the colour is skipped",
                fix: "write it as UIColor(red:green:blue:alpha:), a system colour (.systemBlue) or a named one (.red)")
            return nil
        // nil (Objective-C's `nil` can reach here as the integer 0 it is defined as): no colour.
        case .null, .integer(0): return .string("clear")
        default:
            warn(
                position, "a colour was expected here, not \(value.kindName); the colour is skipped",
                fix: "give a UIColor (or its .cgColor) made from constants in the code")
            return nil
        }
    }

    /// Any value as scene JSON: numbers, points, sizes, rects, transforms, colours, paths, arrays.
    func json(_ value: Value, _ position: SourcePosition) throws(ImportStop) -> JSONValue {
        switch value {
        case .integer(let i): return .number(Double(i))
        case .number(let d):
            guard d.isFinite else { return .string("infinity") }
            return .number(d)
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .null: return .null
        case .point(let x, let y), .size(let x, let y): return .array([.number(x), .number(y)])
        case .rect(let x, let y, let w, let h): return .array([.number(x), .number(y), .number(w), .number(h)])
        case .transform(let t): return t.json
        case .color(let c): return c
        case .timing(let t): return t
        case .path(let commands): return .array(commands)
        case .array(let elements):
            var result: [JSONValue] = []
            for element in elements { result.append(try json(element, position)) }
            return .array(result)
        case .enumCase(let name):
            if name == "identity" { return .string("identity") }
            if name == "zero" { return .number(0) }
            if case .color(let c)? = color(named: name) { return c }
            return .string(name)
        case .options(let names): return .array(names.map { .string($0) })
        case .object(let index):
            if let layer = layer(value) { return .string(id(of: layer)) }
            if let path = path(value) { return .array(path.commands) }
            if case .cell(let cell) = heap[index] { return .object(JSONObject(cell.fields)) }
            throw stop(position, "\(value.kindName) cannot be a value of the scene")
        default:
            throw stop(position, "\(value.kindName) cannot be a value of the scene")
        }
    }

    /// Reads a property of a view or layer.
    func layerMember(_ target: Value, _ name: String, _ position: SourcePosition) throws(ImportStop) -> Value {
        guard let layer = layer(target) else { return .null }
        if layer.isCanvas, ["bounds", "frame", "center"].contains(name),
            layer.model[name == "center" ? "position" : "bounds"] == nil
        {
            warn(
                position,
                "the view controller's view has the screen's size, not known here: the import takes \(format(screen.width)) × \(format(screen.height)) points"
            )
            switch name {
            case "center": return .point(screen.width / 2, screen.height / 2)
            default: return .rect(0, 0, screen.width, screen.height)
            }
        }
        switch name {
        case "layer", "presentation", "presentationLayer", "model", "modelLayer":
            if name.hasPrefix("presentation") {
                warn(
                    position, "the presentation layer's values change while animations run; the import reads the model")
            }
            return target
        case "frame":
            guard let p = pointOf(layer.model["position"]), let b = rectOf(layer.model["bounds"]) else { return .null }
            let a = pointOf(layer.model["anchorPoint"]) ?? (0.5, 0.5)
            return .rect(p.0 - b.2 * a.0, p.1 - b.3 * a.1, b.2, b.3)
        case "superview", "superlayer":
            return layer.parent.map { .object($0) } ?? .null
        case "subviews", "sublayers":
            return .array(layer.children.map { .object($0) })
        case "window":
            return layer.everAttached ? .bool(true) : .null
        case "imageView" where layer.className == "UITableViewCell":
            return try cellImageView(target, position)
        case "titleLabel" where layer.buttonType != nil:
            return try titleLabel(of: target, position) ?? .null
        case "intrinsicContentSize":
            guard case .object(let index) = target, let size = intrinsicSize(index) else { return .size(-1, -1) }
            return .size(size.width, size.height)
        default:
            if let property = sceneProperty(name, layer) {
                if let value = layer.model[property] { return value }
                return defaultValue(property)
            }
            if layer.isCanvas, name == "backgroundColor" { return canvasBackground.map { .color($0) } ?? .null }
            return try unknownAPI("\(layer.className).\(name)", position)
        }
    }

    func defaultValue(_ property: String) -> Value {
        switch property {
        case "opacity", "speed", "strokeEnd", "lineWidth": .number(1)
        case "hidden", "masksToBounds": .bool(false)
        case "transform", "sublayerTransform": .transform(.identity)
        case "string": .string("")
        case "fontSize": .number(17)
        case "backgroundColor", "borderColor", "fillColor", "strokeColor": .null
        default: .number(0)
        }
    }

    /// Methods of views and layers.
    func layerMethod(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        guard let layer = layer(target), case .object(let index) = target else { return .null }
        let values = arguments.items.map(\.value)
        switch name {
        case "addSubview", "addSublayer":
            guard let child = values.first else { return .null }
            try attach(child, to: index, at: nil, position)
        case "insertSubview", "insertSublayer":
            guard let child = values.first else { return .null }
            var at: Int?
            if let i = arguments.first("at", "atIndex").flatMap(integer) { at = i }
            if let sibling = arguments.first("belowSubview", "below").flatMap({ self.layer($0) }),
                case .object(let s)? = arguments.first("belowSubview", "below")
            {
                _ = sibling
                at = layer.children.firstIndex(of: s)
            }
            if case .object(let s)? = arguments.first("aboveSubview", "above") {
                at = layer.children.firstIndex(of: s).map { $0 + 1 }
            }
            try attach(child, to: index, at: at, position)
        case "bringSubviewToFront":
            guard let child = values.first else { return .null }
            try attach(child, to: index, at: nil, position)
        case "sendSubviewToBack":
            guard let child = values.first else { return .null }
            try attach(child, to: index, at: 0, position)
        case "removeFromSuperview", "removeFromSuperlayer":
            try detach(index, position)
        case "add", "addAnimation":
            try addAnimation(
                to: target, values.first ?? .null, key: arguments.first("forKey", "key") ?? .null, position)
        case "removeAnimation":
            let key = try json(arguments.first("forKey", "key") ?? values.first ?? .null, position)
            try emit([("remove", .value(key)), ("layer", .value(.string(id(of: layer))))], position)
        case "removeAllAnimations":
            try emit([("removeAll", .value(.string(id(of: layer))))], position)
        case "presentation", "presentationLayer", "model", "modelLayer":
            if name.hasPrefix("presentation") {
                warn(
                    position, "the presentation layer's values change while animations run; the import reads the model")
            }
            return target
        case "animation", "animationForKey":
            return .runtime(.unknown("the animation under a key"))
        case "layoutIfNeeded", "setNeedsLayout", "setNeedsLayoutAndDisplay":
            // The layout pass runs the file's layoutSubviews of the view and the views in it
            // (at once: the import has no display cycle to wait for).
            try layOut(index, position)
        case "layoutSubviews", "setNeedsDisplay":
            return .null
        case "addConstraint", "addConstraints":
            activate(values.first ?? .null, true)
        case "removeConstraint", "removeConstraints":
            activate(values.first ?? .null, false)
        case "addGestureRecognizer":
            try addGestureRecognizer(values.first ?? .null, to: target, position)
        case "setTitle", "setTitleColor":
            // The title of the normal state is the one shown while nothing touches the button.
            switch arguments.first("for", "forState") {
            case nil, .enumCase("normal")?, .integer(0)?, .options([])?: break
            default: return .null
            }
            guard let title = try titleLabel(of: target, position) else {
                note(position, "\(name) is not part of the scene; skipped")
                return .null
            }
            try setMember(title, name == "setTitle" ? "text" : "textColor", values.first ?? .null, position)
            if name == "setTitle" { try placeTitle(of: layer, position) }
        case "sizeToFit":
            // The frame keeps its origin and takes the content's size.
            if let size = intrinsicSize(index),
                case .rect(let x, let y, _, _) = try layerMember(target, "frame", position)
            {
                try setMember(target, "frame", .rect(x, y, size.width, size.height), position)
            }
        case "cellForRow" where layer.className == "UITableView":
            let indexPath = arguments.first("at", "cellForRowAtIndexPath") ?? values.first ?? .null
            return try cell(of: target, indexPath, position)
        case let reload
        where layer.className == "UITableView"
            && ["reloadRows", "reloadData", "reloadSections", "beginUpdates", "endUpdates"].contains(reload):
            // What the rows read is the data source's: not in the scene.
            note(position, "\(name) reloads the rows' contents, which are the data source's: the scene keeps the rows")
        case "setImage", "addTarget":
            note(position, "\(name) is not part of the scene; skipped")
        case "setValue":
            if case .string(let key)? = arguments.first("forKeyPath", "forKey") {
                try setMember(target, key, values.first ?? .null, position)
            }
        case "setAffineTransform":
            try setMember(target, "transform", values.first ?? .null, position)
        case "convert":
            warn(position, "coordinate conversion is not imported; the value is returned as it is")
            return values.first ?? .null
        case "snapshotView":
            warn(position, "snapshots are not imported; the view itself stands in")
            return target
        default:
            return try unknownAPI("\(layer.className).\(name)", position)
        }
        return .null
    }

    /// `parent.addSubview(child)`: part of the declared tree while the script has not begun (or
    /// while neither is on screen), else an `addLayer` action.
    func attach(_ child: Value, to parentIndex: Int, at index: Int?, _ position: SourcePosition) throws(ImportStop) {
        guard let layer = layer(child), case .object(let childIndex) = child else {
            warn(
                position, "only views and layers can be added; skipped",
                fix: "add a view the code makes (UIView(frame:), CALayer()) or one of its properties")
            return
        }
        guard case .layer(let parent) = heap[parentIndex] else { return }
        // UIKit tells a view of the file's that it moves: `willMove(toSuperview:)` before,
        // `didMoveToSuperview()` after, and when it comes on screen `willMove(toWindow:)`,
        // `didMoveToWindow()`, then a layout pass (`layoutSubviews()`).
        let comesOnScreen = (parent.isCanvas || parent.everAttached) && !layer.everAttached
        try viewCallback(child, "willMove", label: "toSuperview", argument: .object(parentIndex), position)
        if comesOnScreen { try viewCallback(child, "willMove", label: "toWindow", argument: .null, position) }
        try place(child, layer, childIndex, in: parent, parentIndex, at: index, position)
        try viewCallback(child, "didMoveToSuperview", position)
        if comesOnScreen {
            try viewCallback(child, "didMoveToWindow", position)
            try layOut(childIndex, position)
        }
    }

    /// A UIKit callback of a view whose class the file declares, when it has that method.
    func viewCallback(
        _ view: Value, _ name: String, label: String? = nil, argument: Value? = nil, _ position: SourcePosition
    ) throws(ImportStop) {
        guard let object = instance(view), layer(view) != nil else { return }
        // Swift's `willMove(toSuperview:)`, or Objective-C's `willMoveToSuperview:`.
        let objectiveC = label.map { name + $0.prefix(1).uppercased() + $0.dropFirst() }
        guard
            let function = method(object.typeName, name, labels: argument == nil ? [] : [label])
                ?? objectiveC.flatMap({ method(object.typeName, $0) }).flatMap({ $0.parameters.count == 1 ? $0 : nil })
        else { return }
        _ = try call(function, on: view, arguments: argument.map { [$0] } ?? [], at: position)
    }

    /// A layout pass over a view and the views in it: each one's `layoutSubviews()` of the file.
    func layOut(_ index: Int, _ position: SourcePosition) throws(ImportStop) {
        try solveConstraints(position)
        try layOutSubviews(index, position)
    }

    private func layOutSubviews(_ index: Int, _ position: SourcePosition) throws(ImportStop) {
        guard case .layer(let layer) = heap[index] else { return }
        try viewCallback(.object(index), "layoutSubviews", position)
        for child in layer.children { try layOutSubviews(child, position) }
    }

    private func place(
        _ child: Value, _ layer: LayerObject, _ childIndex: Int, in parent: LayerObject, _ parentIndex: Int,
        at index: Int?, _ position: SourcePosition
    ) throws(ImportStop) {
        // The model's tree, as code reads it.
        if let old = layer.parent, case .layer(let oldParent) = heap[old] {
            oldParent.children.removeAll { $0 == childIndex }
        }
        layer.parent = parentIndex
        parent.children.insert(
            childIndex, at: index.map { min(max($0, 0), parent.children.count) } ?? parent.children.count)
        let parentOnScreen = parent.isCanvas || parent.everAttached
        if entryTurn || (hostedTurn && !layer.everAttached) || (!parentOnScreen && !layer.everAttached) {
            undeclareParent(childIndex)
            if parent.isCanvas {
                declaredRoots.insert(
                    childIndex, at: index.map { min(max($0, 0), declaredRoots.count) } ?? declaredRoots.count)
            } else {
                parent.declaredChildren.insert(
                    childIndex,
                    at: index.map { min(max($0, 0), parent.declaredChildren.count) } ?? parent.declaredChildren.count)
            }
            layer.declaredParent = parentIndex
            if parentOnScreen { markAttached(childIndex) }
            return
        }
        var members: [(String, Piece)] = [("addLayer", .value(.string(id(of: layer))))]
        if !parent.isCanvas { members.append(("parent", .value(.string(id(of: parent))))) }
        if let index { members.append(("index", .value(.number(Double(index))))) }
        try emit(members, position)
        markAttached(childIndex)
    }

    /// Takes a layer out of the declared tree.
    func undeclareParent(_ index: Int) {
        guard case .layer(let layer) = heap[index], let old = layer.declaredParent else { return }
        if case .layer(let parent) = heap[old] {
            if parent.isCanvas {
                declaredRoots.removeAll { $0 == index }
            } else {
                parent.declaredChildren.removeAll { $0 == index }
            }
        }
        layer.declaredParent = nil
    }

    func markAttached(_ index: Int) {
        guard case .layer(let layer) = heap[index] else { return }
        layer.everAttached = true
        for child in layer.children { markAttached(child) }
    }

    /// `removeFromSuperview()`.
    func detach(_ index: Int, _ position: SourcePosition) throws(ImportStop) {
        guard case .layer(let layer) = heap[index], let parentIndex = layer.parent,
            case .layer(let parent) = heap[parentIndex]
        else { return }
        parent.children.removeAll { $0 == index }
        layer.parent = nil
        if entryTurn || !layer.everAttached {
            undeclareParent(index)
            return
        }
        try emit([("removeLayer", .value(.string(id(of: layer))))], position)
    }
}

extension ImportEvaluator {
    /// The scene's `CAEmitterCell` fields.
    static let cellFields: Set<String> = [
        "name", "birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange", "emissionLatitude",
        "emissionLongitude", "emissionRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale", "scaleRange",
        "scaleSpeed", "spin", "spinRange", "color", "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed",
        "greenSpeed", "blueSpeed", "alphaSpeed", "beginTime", "duration", "contents",
    ]

    /// A field of a `CAEmitterCell`; its image is drawn as a dot (the scene has no images).
    func setCellField(_ cell: EmitterCellObject, _ name: String, _ value: Value, _ position: SourcePosition)
        throws(ImportStop)
    {
        guard Self.cellFields.contains(name) else {
            warn(position, "CAEmitterCell.\(name) is not a field choreo's emitters have; skipped")
            return
        }
        switch name {
        case "contents":
            if case .size = value {
                cell.set("contents", try json(value, position))
            } else {
                note(position, "the cell's image is drawn as a dot")
                cell.set("contents", .string("dot"))
            }
        case "color":
            guard let color = try colorJSON(value, position) else { return }
            cell.set("color", color)
        default:
            if case .runtime(let runtime) = value {
                warn(position, "\(name) is \(runtime.description), known only at run time; skipped")
                return
            }
            cell.set(name, try json(value, position))
        }
    }
}

extension ImportEvaluator {
    /// `PlaygroundPage.current.liveView = view`: the view is the canvas, its size the
    /// pictures' and its background their background; its subviews are the scene's roots.
    func adoptCanvas(_ value: Value, _ position: SourcePosition) throws(ImportStop) {
        guard let view = layer(value), case .object(let index) = value else {
            warn(position, "the live view is not a view the importer made; skipped")
            return
        }
        guard canvasObject == nil else {
            warn(position, "the scene already has its canvas (the view controller's view); the live view is skipped")
            return
        }
        view.isCanvas = true
        canvasObject = index
        if let bounds = rectOf(view.model["bounds"]), bounds.2 > 0, bounds.3 > 0 { canvasSize = (bounds.2, bounds.3) }
        if let background = view.declared.first(where: { $0.0 == "backgroundColor" })?.1 {
            canvasBackground = background
        }
        declaredRoots += view.declaredChildren
        for child in view.declaredChildren {
            if case .layer(let layer) = heap[child] { layer.declaredParent = index }
            markAttached(child)
        }
        view.declaredChildren = []
        view.everAttached = true
        undeclareParent(index)
    }
}
