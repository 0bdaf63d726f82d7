/// The views a snippet uses and never declares, as an article prints its code: statements from
/// a view controller whose outlets (`waterButton`, `self.statusLabel`) were declared elsewhere.
/// Each name the top-level code uses as a receiver (`name.alpha = 0`, `self.name.transform`) and
/// declares nowhere is made before the code runs — a view of the class its name and its uses
/// say (UIKit's naming: `…Button`, `…Label`, `…ImageView`, `…Layer`; a `text` or `textColor`
/// makes a label, a `path` or `strokeEnd` a shape layer) — placed in the view controller's view
/// and said in a note, as the Objective-C importer does for its snippets.
struct SnippetOutlets {
    /// The names, in the order the code first uses them, with the members used on each.
    let outlets: [(name: String, uses: Set<String>, position: SourcePosition)]

    init(_ unit: SourceUnit) {
        final class Found {
            var uses: [String: Set<String>] = [:]
            var first: [String: SourcePosition] = [:]
            var declared: Set<String> = []
        }
        let found = Found()
        func use(_ name: String, _ member: String, _ position: SourcePosition) {
            found.uses[name, default: []].insert(member)
            if found.first[name] == nil { found.first[name] = position }
        }
        SyntaxWalk.expressions(in: unit.topLevel) { expression in
            switch expression {
            case .member(.name(let name, let position)?, let member, _): use(name, member, position)
            case .member(.member(.name("self", _)?, let name, let position)?, let member, _):
                use(name, member, position)
            case .closure(let closure, _): found.declared.formUnion(closure.parameters)
            default: break
            }
        }
        // What the code declares itself is not an outlet.
        func declare(_ statements: [Statement]) {
            for statement in statements {
                switch statement {
                case .declare(let name, _, _): found.declared.insert(name)
                case .forIn(let names, _, let body, _):
                    found.declared.formUnion(names)
                    declare(body)
                case .ifStatement(let conditions, let then, let otherwise, _):
                    for case .binding(let name, _) in conditions { found.declared.insert(name) }
                    declare(then)
                    declare(otherwise ?? [])
                case .guardStatement(let conditions, _, _):
                    for case .binding(let name, _) in conditions { found.declared.insert(name) }
                case .function(let function): found.declared.insert(function.name)
                default: break
                }
            }
        }
        declare(unit.topLevel)
        declare(unit.globals)
        found.declared.formUnion(unit.types.map(\.name))
        found.declared.formUnion(unit.functions.map(\.name))
        found.declared.formUnion(["self", "super", "view", "strongSelf", "weakSelf"])
        outlets = found.uses.keys
            .filter { name in
                !found.declared.contains(name) && name.first?.isLowercase == true && !name.hasPrefix("$")
                    // Used as a view or a layer is used (`gestureTranslation.y` is a point).
                    && !found.uses[name]!.isDisjoint(with: Self.viewMembers)
            }
            .map { ($0, found.uses[$0]!, found.first[$0]!) }
            .sorted { $0.position < $1.position }
    }

    /// The members that only a view or a layer has: a name used with one of them is a view.
    static let viewMembers: Set<String> = Set(ImportEvaluator.layerPropertyNames).union([
        "layer", "superview", "subviews", "addSubview", "addSublayer", "removeFromSuperview", "bringSubviewToFront",
        "sendSubviewToBack", "setTitle", "setTitleColor", "titleLabel", "setNeedsLayout", "layoutIfNeeded",
        "isUserInteractionEnabled", "tintColor", "image", "font", "textAlignment", "numberOfLines", "contentMode",
        "transform", "alpha", "center", "frame",
    ])

    /// The UIKit or Core Animation class an outlet is taken for.
    static func className(_ name: String, uses: Set<String>) -> String {
        let lowered = name.lowercased()
        if !uses.isDisjoint(with: ["path", "strokeEnd", "strokeStart", "strokeColor", "fillColor", "lineWidth"]) {
            return "CAShapeLayer"
        }
        if lowered.hasSuffix("layer") { return "CALayer" }
        if lowered.hasSuffix("button") || !uses.isDisjoint(with: ["setTitle", "setTitleColor", "titleLabel"]) {
            return "UIButton"
        }
        if lowered.hasSuffix("label") || !uses.isDisjoint(with: ["text", "textColor", "font", "textAlignment"]) {
            return "UILabel"
        }
        if lowered.hasSuffix("imageview") || lowered.hasSuffix("icon") || uses.contains("image") {
            return "UIImageView"
        }
        return "UIView"
    }
}

extension ImportEvaluator {
    /// Makes a snippet's outlets (``SnippetOutlets``) in the canvas before its code runs.
    func makeSnippetOutlets(_ unit: SourceUnit) throws(ImportStop) {
        let outlets = SnippetOutlets(unit).outlets.filter { outlet in
            // A name the importer knows (a constant, a type) is not an outlet.
            constant(outlet.name) == nil && !knownTypes.contains(outlet.name) && globals.lookup(outlet.name) == nil
        }
        guard !outlets.isEmpty else { return }
        let controller = snippetController(outlets[0].position)
        let canvas = try member(controller, "view", outlets[0].position)
        for (index, outlet) in outlets.enumerated() {
            let type = SnippetOutlets.className(outlet.name, uses: outlet.uses)
            let x = Double(20 + 120 * (index % 3))
            let y = Double(100 + 120 * (index / 3))
            let isLayer = type.hasPrefix("CA")
            let size: (Double, Double) =
                switch type {
                case "UILabel": (200, 40)
                case "UIButton": (100, 44)
                default: (100, 100)
                }
            let frame = Value.rect(x, y, size.0, size.1)
            let position = outlet.position
            let value =
                isLayer
                ? try construct(type, Arguments(items: []), position)
                : try construct(type, Arguments(items: [("frame", frame)]), position)
            if isLayer { try setMember(value, "frame", frame, position) }
            var drawn: String
            switch type {
            case "UILabel":
                // In UILabel's own font and colour (``applyUIKitDefaults``), reading its name.
                try setMember(value, "text", .string(outlet.name), position)
                drawn = "a label reading \"\(outlet.name)\""
            case "CAShapeLayer":
                try setMember(value, "fillColor", .color(.string("systemBlue")), position)
                drawn = "a shape layer"
            default:
                try setMember(value, "backgroundColor", .color(.string("systemBlue")), position)
                drawn = type == "UIButton" ? "a button" : type == "CALayer" ? "a layer" : "a view"
            }
            drawn += " of \(format(size.0)) × \(format(size.1)) at (\(format(x)), \(format(y)))"
            _ = try callMethod(
                canvas, isLayer ? "addSublayer" : "addSubview", Arguments(items: [(nil, value)]), position)
            globals.variables[outlet.name] = value
            if let object = instance(controller) { object.fields[outlet.name] = value }
            name(value, outlet.name)
            note(
                position,
                "\(outlet.name) is not declared: taken as \(drawn) in the view controller's view, as \(type) (declare it to say what it is)"
            )
        }
    }
}
