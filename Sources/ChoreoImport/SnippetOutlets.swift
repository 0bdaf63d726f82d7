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
    ]).union(tableViewMembers)

    /// What only a table view answers (`tableView.cellForRow(at:)`, `reloadRows(at:with:)`).
    static let tableViewMembers: Set<String> = [
        "cellForRow", "reloadRows", "reloadData", "reloadSections", "insertRows", "deleteRows", "visibleCells",
        "indexPathsForVisibleRows", "beginUpdates", "endUpdates", "performBatchUpdates", "dequeueReusableCell",
    ]

    /// The UIKit or Core Animation class an outlet is taken for.
    static func className(_ name: String, uses: Set<String>) -> String {
        let lowered = name.lowercased()
        if !uses.isDisjoint(with: ["path", "strokeEnd", "strokeStart", "strokeColor", "fillColor", "lineWidth"]) {
            return "CAShapeLayer"
        }
        if lowered.hasSuffix("layer") { return "CALayer" }
        if lowered.hasSuffix("tableview") || !uses.isDisjoint(with: tableViewMembers) { return "UITableView" }
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
    /// A table view row's height: UIKit's default `rowHeight`, in points.
    static let rowHeight = 44.0

    /// `tableView.cellForRow(at: indexPath)`: the visible cell of that row — a cell across the
    /// table, 44 points high, made the first time the code asks for it (its `imageView`, a
    /// 29-point icon at the layout margin, blue so that it shows). A row known only at run time
    /// (an `indexPath` the snippet does not declare) is the first, with a note.
    func cell(of table: Value, _ indexPath: Value, _ position: SourcePosition) throws(ImportStop) -> Value {
        guard let layer = layer(table), case .object(let index) = table else { return .null }
        var row = 0
        if case .object(let path) = indexPath, let object = instance(.object(path)),
            let given = object.fields["row"].flatMap(integer)
        {
            row = given
        } else if let given = integer(indexPath) {
            row = given
        } else {
            note(position, "the row is known only at run time: the import takes the table's first row")
        }
        for child in layer.children {
            if case .layer(let cell) = heap[child], cell.className == "UITableViewCell",
                cell.model["row"]?.number == Double(row)
            {
                return .object(child)
            }
        }
        let width = rectOf(layer.model["bounds"])?.2 ?? screen.width
        let cell = try makeLayer(
            "UITableViewCell",
            Arguments(items: [("frame", .rect(0, Double(row) * Self.rowHeight, width, Self.rowHeight))]), position)
        self.layer(cell)?.model["row"] = .number(Double(row))
        name(cell, "\(layer.id ?? "table")Row\(row)")
        try attach(cell, to: index, at: nil, position)
        return cell
    }

    /// A cell's `imageView`: made in it the first time the code asks for it.
    func cellImageView(_ cell: Value, _ position: SourcePosition) throws(ImportStop) -> Value {
        guard let layer = layer(cell), case .object(let index) = cell else { return .null }
        for child in layer.children {
            if case .layer(let view) = heap[child], view.className == "UIImageView" { return .object(child) }
        }
        let icon = try makeLayer(
            "UIImageView", Arguments(items: [("frame", .rect(16, (Self.rowHeight - 29) / 2, 29, 29))]), position)
        try setMember(icon, "backgroundColor", .color(.string("systemBlue")), position)
        name(icon, "\(layer.id ?? "cell")Icon", provisional: true)
        try attach(icon, to: index, at: nil, position)
        return icon
    }

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
            var x = Double(20 + 120 * (index % 3))
            var y = Double(100 + 120 * (index / 3))
            let isLayer = type.hasPrefix("CA")
            let size: (Double, Double) =
                switch type {
                case "UILabel": (200, 40)
                case "UIButton": (100, 44)
                // A table view across the screen, six rows of UIKit's 44 points.
                case "UITableView": (screen.width, Self.rowHeight * 6)
                default: (100, 100)
                }
            if type == "UITableView" { (x, y) = (0, 100) }
            let frame = Value.rect(x, y, size.0, size.1)
            let position = outlet.position
            // A table view is made as a view is; the code's own `UITableView(…)` is not one.
            let value =
                isLayer
                ? try construct(type, Arguments(items: []), position)
                : type == "UITableView"
                    ? try makeLayer(type, Arguments(items: [("frame", frame)]), position)
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
            case "UITableView":
                // Its rows are made as the code asks for them (cellForRow(at:)).
                drawn = "a table view"
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
