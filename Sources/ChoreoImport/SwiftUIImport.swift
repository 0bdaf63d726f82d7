import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// Reads a SwiftUI view (`struct ContentView: View` with its state, a `body`, button actions,
/// `onTapGesture` and `onAppear`) into a scene's `swiftui` section and a script of taps
/// (docs/import.md, "SwiftUI").
///
/// The view's stored properties with a literal value (`@State private var isOn = false`,
/// `let size: CGFloat = 80`) are its state; `body` is read as a view tree, each view with its
/// modifiers in the order written; the actions run at the taps' times (`--tap "Title"@t`),
/// their state changes worked out in order as SwiftUI would make them.
struct SwiftUIImporter {
    let unit: SourceUnit
    let type: TypeDeclaration
    let options: ImportOptions
    var diagnostics: [ImportDiagnostic] = []
    var map: [SourceMapping] = []
    /// The state as declared, and as the actions leave it.
    var declared: [(name: String, value: Literal)] = []
    var state: [String: Literal] = [:]
    /// What can be tapped: a button's title or a tapped view's id, and its action.
    var tappables: [(title: String, actions: [Statement], position: SourcePosition)] = []
    var appearing: [[Statement]] = []
    var usedIDs: Set<String> = []
    /// Whether a view animates by itself (a phase animator without trigger, a repeating
    /// keyframe animator).
    var animatesByItself = false
    var notedUnsupported: Set<String> = []

    /// The view type the import reads: `--entry` names it, else the one the file's preview
    /// shows (`#Preview { ContentView() }`, a `PreviewProvider`'s `previews`), else the first
    /// with a `body`. A type's extensions are read with it (`extension Card: View { var body … }`).
    static func viewType(_ unit: SourceUnit, entry: String?) -> TypeDeclaration? {
        var merged: [String: TypeDeclaration] = [:]
        var order: [String] = []
        for type in unit.types {
            if var known = merged[type.name] {
                known.inherits += type.inherits
                known.properties += type.properties
                known.methods += type.methods
                merged[type.name] = known
            } else {
                merged[type.name] = type
                order.append(type.name)
            }
        }
        let views = order.compactMap { merged[$0] }.filter { type in
            type.inherits.contains("View") && type.methods.contains { $0.name == "body" }
        }
        if let entry { return views.first { $0.name == entry } }
        if let shown = previewed(unit, among: Set(views.map(\.name))) {
            return views.first { $0.name == shown.name }
        }
        return views.first
    }

    /// The view the file's preview shows and the arguments it passes: the first call of a view
    /// type of the file in the preview's body, looked for through modifiers and containers
    /// (`NavigationStack { ContentView(count: 3) }.preferredColorScheme(.dark)`).
    static func previewed(_ unit: SourceUnit, among views: Set<String>) -> (name: String, arguments: [Argument])? {
        func find(_ e: Expression) -> (name: String, arguments: [Argument])? {
            switch e {
            case .call(.name(let name, _), let arguments, _):
                if views.contains(name) { return (name, arguments) }
                for argument in arguments {
                    if let found = find(argument.value) { return found }
                }
            case .call(let callee, let arguments, _):
                if let found = find(callee) { return found }
                for argument in arguments {
                    if let found = find(argument.value) { return found }
                }
            case .member(let base?, _, _): return find(base)
            case .closure(let closure, _): return find(closure.body)
            default: break
            }
            return nil
        }
        func find(_ statements: [Statement]) -> (name: String, arguments: [Argument])? {
            for statement in statements {
                switch statement {
                case .expression(let e), .returnStatement(let e?, _):
                    if let found = find(e) { return found }
                default: continue
                }
            }
            return nil
        }
        for type in unit.types where type.inherits.contains("PreviewProvider") {
            if let previews = type.methods.first(where: { $0.name == "previews" }), let found = find(previews.body) {
                return found
            }
        }
        return nil
    }

    init(unit: SourceUnit, type: TypeDeclaration, options: ImportOptions) {
        self.unit = unit
        self.type = type
        self.options = options
        viewTypes = Self.viewTypes(unit)
        // The arguments the preview passes, when it shows this view.
        if let shown = Self.previewed(unit, among: [type.name]) {
            for argument in shown.arguments {
                if let label = argument.label { passed[label] = argument.value }
            }
        }
    }

    /// The arguments the preview passes the view (`ContentView(count: 3)`), by label: they set
    /// the stored properties of those names in place of their declared values.
    var passed: [String: Expression] = [:]
    static let imageModifiers: Set<String> = [
        "resizable", "scaledToFit", "scaledToFill", "aspectRatio", "imageScale", "symbolRenderingMode",
        "renderingMode", "interpolation", "antialiased", "symbolEffect", "font",
    ]
    /// The first construct left out, in source order: named when the scene would show less
    /// than the code.
    var firstLeftOut: (what: String, position: SourcePosition)?

    /// ": the first thing left out is … (line:column)", or nothing.
    var leftOut: String {
        guard let first = firstLeftOut else { return "" }
        return ": the first thing left out is \(first.what) (\(first.position.line):\(first.position.column))"
    }

    /// Whether a view (or one inside it) draws: a shape, a text, a coloured stack.
    static func draws(_ view: JSONValue) -> Bool {
        guard case .object(let object) = view else { return false }
        if object["shape"] != nil { return true }
        if case .array(let modifiers)? = object["modifiers"], modifiers.contains(where: { names($0, "background") }) {
            return true
        }
        if case .array(let children)? = object["children"] { return children.contains(where: draws) }
        return false
    }

    /// Where the view's code first animates (`withAnimation`, `.animation`, a repeating or
    /// phase or keyframe animation, a transition), if it does.
    static func firstAnimation(in type: TypeDeclaration) -> SourcePosition? {
        let names: Set<String> = [
            "withAnimation", "animation", "repeatForever", "phaseAnimator", "keyframeAnimator", "transition",
            "PhaseAnimator", "KeyframeAnimator", "matchedGeometryEffect",
        ]
        var found: SourcePosition?
        func note(_ p: SourcePosition) {
            if found == nil || (p.line, p.column) < (found!.line, found!.column) { found = p }
        }
        let visit: (Expression) -> Void = { e in
            switch e {
            case .name(let name, let p) where names.contains(name): note(p)
            case .member(_, let name, let p) where names.contains(name): note(p)
            default: break
            }
        }
        for method in type.methods { SyntaxWalk.expressions(in: method.body, visit) }
        for property in type.properties {
            if let value = property.value { SyntaxWalk.expressions(in: [.expression(value)], visit) }
        }
        return found
    }

    /// The fonts of the containers being read, innermost last.
    var fonts: [JSONValue] = []
    /// Whether a placeholder note was given for a symbol, for a picture.
    var notedPlaceholders: Set<Bool> = []

    mutating func notePlaceholder(_ position: SourcePosition, _ symbol: Bool) {
        guard notedPlaceholders.insert(symbol).inserted else { return }
        diagnostics.append(
            ImportDiagnostic(
                .note, position,
                symbol
                    ? "Image(systemName:) is drawn as a placeholder as large as the symbol's line, in the foreground style"
                    : "an Image is drawn as a grey placeholder of its frame (100 points square unless framed)"))
    }

    /// The foreground styles of the containers being read, innermost last.
    var foreground: [JSONValue] = []
    static let foregroundModifiers: Set<String> = ["foregroundColor", "foregroundStyle", "tint"]
    /// Views that draw themselves (a modifier's colour is theirs, not their content's).
    static let drawsItself: Set<String> = [
        "Circle", "Rectangle", "Capsule", "RoundedRectangle", "Ellipse", "Text", "Color", "Image", "Label",
    ]
    /// The file's view types, for custom views used in a body.
    var viewTypes: [String: TypeDeclaration] = [:]
    /// How deep custom views are inlined (a view that shows itself stops at 16).
    var depth = 0

    /// The view's own `@ViewBuilder` method or computed `some View` property called `name`.
    func ownView(_ name: String) -> FunctionDeclaration? {
        guard name != "body", name.first?.isLowercase == true else { return nil }
        return type.methods.first { $0.name == name && !$0.isStatic }
    }

    // MARK: Running

    mutating func run(name: String?) -> ImportResult {
        for property in type.properties {
            guard let value = passed[property.name] ?? property.value, let literal = Self.constant(value) else {
                continue
            }
            declared.append((property.name, literal))
            state[property.name] = literal
        }
        guard let body = type.methods.first(where: { $0.name == "body" }) else {
            return failed(type.position, "\(type.name) has no body")
        }
        let views = viewList(Self.substitute(body.body, [:]), path: "$.swiftui.views")
        // A scene that would show nothing, or stand still where the code animates, is refused,
        // naming the first thing left out (an import never exits 0 with less than the code does).
        guard views.contains(where: Self.draws) else {
            return failed(
                body.position,
                "\(type.name)'s body draws nothing choreo models (shapes, stacks, colours)" + leftOut,
                fix: "write its views with the shapes, Text, Image, Color and stacks docs/import.md lists")
        }
        let script = actions()
        let changes = script.contains { entry in
            guard case .object(let object) = entry, case .array(let actions)? = object["do"] else { return false }
            return actions.contains { action in
                guard case .object(let members) = action, case .object(let state)? = members["state"] else {
                    return false
                }
                return !state.members.isEmpty
            }
        }
        if !changes, !animatesByItself, let animation = Self.firstAnimation(in: type) {
            return failed(
                animation,
                "\(type.name) animates here but nothing choreo reads changes its state, so the scene would stand still"
                    + leftOut,
                fix:
                    "change a @State in a Button's action, an onTapGesture or an onAppear (docs/import.md lists what is read)"
            )
        }
        if tappables.isEmpty && appearing.isEmpty && !animatesByItself {
            warn(
                type.position,
                "nothing changes \(type.name)'s state: it has no Button, onTapGesture or onAppear, so the scene stays still",
                fix: "give it a Button whose action changes a @State")
        }
        var stateMembers: [(String, JSONValue)] = []
        for (name, value) in declared { stateMembers.append((name, Self.json(value))) }
        var members: [(String, JSONValue)] = []
        if let name { members.append(("name", .string(name))) }
        members.append(("canvas", ["width": .number(Self.canvas.0), "height": .number(Self.canvas.1)]))
        members.append(
            ("swiftui", .object(JSONObject([("state", .object(JSONObject(stateMembers))), ("views", .array(views))]))))
        members.append(("script", .array(script)))
        return ImportResult(scene: .object(JSONObject(members)), diagnostics: diagnostics, sourceMap: map)
    }

    /// The window the view is shown in: an iPhone's points.
    static let canvas = (393.0, 852.0)

    mutating func failed(_ position: SourcePosition, _ message: String, fix: String? = nil) -> ImportResult {
        diagnostics.append(ImportDiagnostic(.error, position, message, fix: fix))
        return ImportResult(scene: nil, diagnostics: diagnostics, sourceMap: [])
    }

    mutating func warn(_ position: SourcePosition, _ message: String, fix: String? = nil) {
        // A custom view used several times says a thing once.
        guard !diagnostics.contains(where: { $0.position == position && $0.message == message }) else { return }
        diagnostics.append(ImportDiagnostic(.warning, position, message, fix: fix))
    }

    mutating func unsupported(_ what: String, _ position: SourcePosition) {
        if firstLeftOut == nil
            || (position.line, position.column) < (firstLeftOut!.position.line, firstLeftOut!.position.column)
        {
            firstLeftOut = (what, position)
        }
        guard notedUnsupported.insert(what).inserted else { return }
        warn(
            position, "\(what) is not modelled by choreo's SwiftUI scenes: left out",
            fix: "docs/import.md lists what is read")
    }

    // MARK: Views

    /// A view expression: its base view and the modifiers called on it, in order.
    mutating func view(_ expression: Expression, path: String) -> JSONValue? {
        var chain: [(name: String, arguments: [Argument], position: SourcePosition)] = []
        var base = expression
        while true {
            if case .call(.member(let inner?, let name, let position), let arguments, _) = base,
                Self.isViewExpression(inner)
            {
                chain.insert((name, arguments, position), at: 0)
                base = inner
            } else if case .member(let inner?, let name, let position) = base, Self.isViewExpression(inner),
                !Self.colorNames.keys.contains(name)
            {
                chain.insert((name, [], position), at: 0)
                base = inner
            } else {
                break
            }
        }
        var members: [(String, JSONValue)] = []
        var modifiers: [JSONValue] = []
        var children: [JSONValue] = []
        var shape: String?
        var tapTitle: String?
        var tapActions: [Statement]?
        // A container's layout: its shape in the scene (`vstack`, `hstack`, `zstack`; nil:
        // choreo's `stack`, which takes all it is offered), spacing and alignment.
        var container: [(String, JSONValue)] = []
        var text: String?
        var id = "view"
        // `.foregroundStyle(.blue)` on a container is the foreground of the shapes and texts in
        // it that set none (SwiftUI's environment).
        var inherits = false
        var inheritsFont = false
        if case .call(.name(let name, _), _, _) = base, !Self.drawsItself.contains(name),
            let font = chain.last(where: { $0.name == "font" }),
            case .object(let read)? = modifier("font", font.arguments, font.position, shape: "text"),
            let size = read["font"]
        {
            fonts.append(size)
            inheritsFont = true
        }
        defer { if inheritsFont { fonts.removeLast() } }
        if case .call(.name(let name, _), _, _) = base, !Self.drawsItself.contains(name),
            let style = chain.last(where: { Self.foregroundModifiers.contains($0.name) }),
            let first = style.arguments.first, let value = colorExpression(first.value)
        {
            foreground.append(value)
            inherits = true
        }
        defer { if inherits { foreground.removeLast() } }
        switch base {
        case .call(.name(let name, let position), let arguments, _):
            switch name {
            case "Circle", "Rectangle", "Capsule", "RoundedRectangle", "Ellipse":
                shape =
                    [
                        "Circle": "circle", "Rectangle": "rectangle", "Capsule": "capsule",
                        "RoundedRectangle": "roundedRectangle", "Ellipse": "capsule",
                    ][name]
                if name == "Ellipse" { warn(position, "an Ellipse is drawn as a capsule") }
                if name == "RoundedRectangle", let radius = arguments.first(where: { $0.label == "cornerRadius" }),
                    let value = number(radius.value)
                {
                    modifiers.append(["cornerRadius": value])
                }
                id = name.prefix(1).lowercased() + name.dropFirst()
            case "ZStack", "VStack", "HStack", "LazyVStack", "LazyHStack", "Group", "NavigationView",
                "NavigationStack", "ScrollView":
                // A lazy stack lays out as its stack; a group as a ZStack of its content; a
                // navigation container or a scroll view (scrolling left out) takes the whole
                // space it is offered, its content centred.
                let name = ["LazyVStack": "VStack", "LazyHStack": "HStack", "Group": "ZStack"][name] ?? name
                id = name.lowercased()
                if ["VStack", "HStack", "ZStack"].contains(name) {
                    container.append(("shape", .string(name.lowercased())))
                    if name != "ZStack", let spacing = arguments.first(where: { $0.label == "spacing" }) {
                        if let value = Self.constant(spacing.value).flatMap(Self.double) {
                            container.append(("spacing", .number(value)))
                        } else {
                            unsupported("a spacing that is not a constant", spacing.value.position)
                        }
                    }
                    if let alignment = arguments.first(where: { $0.label == "alignment" }) {
                        if let value = alignmentName(alignment.value), value != "center" {
                            container.append(("alignment", .string(value)))
                        }
                    }
                }
                if let closure = arguments.last?.value, case .closure(let content, _) = closure {
                    children = viewList(content.body, path: path + ".children")
                }
            case "Button":
                // Button("Title") { action }, Button(action: {…}) { label }, Button { action } label: {…}
                var title: String?
                if case .literal(.string(let text), _)? = arguments.first?.value { title = text }
                var action: [Statement] = []
                var label: [Statement] = []
                for argument in arguments {
                    guard case .closure(let closure, _) = argument.value else { continue }
                    if argument.label == "action" || (argument.label == nil && title != nil)
                        || (argument.label == nil && action.isEmpty && arguments.contains { $0.label == "label" })
                    {
                        action = closure.body
                    } else {
                        label = closure.body
                    }
                }
                tapTitle = title ?? Self.text(in: label) ?? "Button"
                tapActions = action
                id = "button"
                if let title, label.isEmpty {
                    // `Button("Title")`: its title in the accent colour.
                    shape = "text"
                    text = title
                    modifiers.append(["fill": .string(Self.hex("accentColor")!)])
                } else {
                    children = viewList(label, path: path + ".children")
                }
            case "Text":
                switch arguments.first?.value {
                case .literal(.string(let string), _)?: text = string
                default:
                    // Interpolated or computed text: drawn as its position's placeholder.
                    unsupported("text that is not a string literal (drawn as …)", position)
                    text = "…"
                }
                shape = "text"
                id = "text"
            case "Image":
                // A placeholder of the image's place: a symbol as large as its font's line
                // (20 points at the body size), a picture 100 points square unless framed.
                let symbol = arguments.first?.label == "systemName"
                var side = symbol ? 20.0 : 100.0
                for modifier in chain where modifier.name == "font" {
                    if case .object(let font)? = self.modifier("font", modifier.arguments, position, shape: "text"),
                        case .number(let size)? = font["font"]
                    {
                        side = size * 1.2
                    }
                }
                notePlaceholder(position, symbol)
                shape = "roundedRectangle"
                modifiers.append(["cornerRadius": .number(symbol ? side / 5 : 8)])
                if !symbol { modifiers.append(["fill": .string("#D1D1D6")]) }
                if !chain.contains(where: { $0.name == "frame" }) {
                    modifiers.append(["frame": ["width": .number(side), "height": .number(side)]])
                }
                id = "image"
            case "LinearGradient", "RadialGradient", "AngularGradient", "EllipticalGradient":
                // A gradient view: a rectangle in its first colour.
                shape = "rectangle"
                if let color = color(base) { modifiers.append(["fill": color]) }
                warn(position, "a gradient is drawn in its first colour")
                id = "gradient"
            case "Label":
                unsupported(name, position)
                return nil
            case "Spacer":
                // `Spacer(minLength:)`: the space its stack has left.
                shape = "spacer"
                id = "spacer"
                if let length = arguments.first(where: { $0.label == "minLength" }),
                    let value = Self.constant(length.value).flatMap(Self.double)
                {
                    container.append(("minLength", .number(value)))
                }
            case "Divider", "EmptyView":
                return nil
            case "Color":
                shape = "rectangle"
                if let color = color(base) { modifiers.append(["fill": color]) }
                id = "color"
            case _ where viewTypes[name] != nil || ownView(name) != nil:
                // A custom view of the file (`CardView(title: "A")`), or the view's own
                // `@ViewBuilder` method: its body with the values given.
                guard depth < 16 else {
                    unsupported("a view nested more than 16 deep", position)
                    return nil
                }
                depth += 1
                let body = viewTypes[name].map { instantiated($0, arguments) } ?? called(ownView(name)!, arguments)
                children = viewList(body, path: path + ".children")
                depth -= 1
                if children.count == 1, chain.isEmpty { return children[0] }
                id = name.prefix(1).lowercased() + name.dropFirst()
            default:
                unsupported("the view \(name)", position)
                return nil
            }
        case .name(let name, let position) where ownView(name) != nil:
            // A computed `some View` property of the view (`var header: some View { … }`).
            guard depth < 16 else {
                unsupported("a view nested more than 16 deep", position)
                return nil
            }
            depth += 1
            children = viewList(called(ownView(name)!, []), path: path + ".children")
            depth -= 1
            if children.count == 1, chain.isEmpty { return children[0] }
            id = name
        case .member(let owner, let name, _) where owner == nil || Self.isName(owner, "Color"):
            guard let hex = Self.hex(name) else { return nil }
            shape = "rectangle"
            modifiers.append(["fill": .string(hex)])
            id = name
        default:
            unsupported("this view expression", base.position)
            return nil
        }
        id = unique(id)
        // A shape or text that sets no colour is drawn in the foreground style: the nearest
        // container's, else black (SwiftUI's `.primary` in the light appearance).
        if let shape, shape != "text", shape != "spacer",
            !chain.contains(where: { $0.name == "fill" || Self.foregroundModifiers.contains($0.name) }),
            !modifiers.contains(where: { Self.names($0, "fill") })
        {
            modifiers.insert(["fill": foreground.last ?? .string("#000000")], at: 0)
        } else if shape == "text", !chain.contains(where: { Self.foregroundModifiers.contains($0.name) }),
            !modifiers.contains(where: { Self.names($0, "fill") }), let inherited = foreground.last
        {
            modifiers.insert(["fill": inherited], at: 0)
        }
        if shape == "text", !chain.contains(where: { $0.name == "font" }), let font = fonts.last {
            modifiers.append(["font": font])
        }
        for (name, arguments, position) in chain {
            switch name {
            case "onTapGesture":
                if case .closure(let closure, _)? = arguments.last?.value {
                    tapTitle = id
                    tapActions = closure.body
                }
            case "onAppear":
                if case .closure(let closure, _)? = arguments.last?.value { appearing.append(closure.body) }
            case _ where id.hasPrefix("image") && Self.imageModifiers.contains(name):
                // How the picture is drawn in its place: the placeholder is the place.
                continue
            case "font" where shape != "text":
                // A container's font is its texts' (read before its content).
                continue
            default:
                if let modifier = modifier(name, arguments, position, shape: shape) {
                    modifiers.append(modifier)
                }
            }
        }
        // An offset written inside a scale or rotation would be scaled and turned with the view,
        // which a layer's transform cannot carry: drawn after them, said at its line.
        if let offset = modifiers.firstIndex(where: { Self.names($0, "offset") }),
            let effect = modifiers.lastIndex(where: {
                Self.names($0, "scaleEffect") || Self.names($0, "rotationEffect")
            }),
            offset < effect
        {
            let moved = modifiers.remove(at: offset)
            modifiers.insert(moved, at: effect)
            let position = chain.first { $0.name == "offset" }?.position ?? expression.position
            warn(
                position,
                "offset written before scaleEffect or rotationEffect: choreo draws it after them, so the offset is not scaled or turned with the view as SwiftUI would",
                fix: "write .offset after .scaleEffect and .rotationEffect")
        }
        if let tapTitle, let tapActions { tappables.append((tapTitle, tapActions, expression.position)) }
        members.append(("id", .string(id)))
        if let shape { members.append(("shape", .string(shape))) }
        members += container
        if let text { members.append(("text", .string(text))) }
        if !modifiers.isEmpty { members.append(("modifiers", .array(modifiers))) }
        if !children.isEmpty { members.append(("children", .array(children))) }
        map.append(SourceMapping(path: path, position: expression.position))
        return .object(JSONObject(members))
    }

    /// The views of a builder closure's statements; an `if` shows the branch the state takes
    /// at the start (insertions and removals are not modelled yet).
    mutating func viewList(_ statements: [Statement], path: String) -> [JSONValue] {
        var views: [JSONValue] = []
        for statement in statements {
            switch statement {
            case .expression(.call(.name("ForEach", _), let arguments, let position)),
                .returnStatement(.call(.name("ForEach", _), let arguments, let position)?, _):
                // `ForEach(0..<5) { i in … }`: the content's views for each element, in order.
                guard let bodies = forEachBodies(arguments) else {
                    unsupported("a ForEach over data choreo cannot list (write a range or an array literal)", position)
                    continue
                }
                for body in bodies { views += viewList(body, path: path) }
            case .expression(let e), .returnStatement(let e?, _):
                if let view = view(e, path: "\(path)[\(views.count)]") { views.append(view) }
            case .ifStatement(let conditions, let then, let otherwise, _)
            where conditions.count == 1 && flagCondition(conditions[0]) != nil:
                // `if flag { A } else { B }`: A while flag holds, B while it does not.
                guard let flag = flagCondition(conditions[0]) else { continue }
                let negated = flag.hasPrefix("!") ? String(flag.dropFirst()) : "!" + flag
                for (branch, test) in [(then, flag), (otherwise ?? [], negated)] {
                    for view in viewList(branch, path: path) {
                        guard case .object(let object) = view else { continue }
                        views.append(
                            .object(JSONObject(object.members.filter { $0.key != "if" } + [("if", .string(test))])))
                    }
                }
            case .ifStatement(let conditions, let then, let otherwise, let position):
                warn(
                    position,
                    "views an if inserts and removes are read for an if on a Bool @State (or its negation); for this one the branch taken at the start is drawn"
                )
                let holds = conditions.allSatisfy { condition in
                    if case .expression(let e) = condition, case .bool(let flag)? = evaluate(e) { return flag }
                    return false
                }
                views += viewList(holds ? then : (otherwise ?? []), path: path)
            default:
                continue
            }
        }
        return views
    }

    /// Whether a modifier's JSON is the one named.
    static func names(_ modifier: JSONValue, _ name: String) -> Bool {
        if case .object(let object) = modifier { return object[name] != nil }
        return false
    }

    mutating func unique(_ base: String) -> String {
        var id = base
        var n = 2
        while usedIDs.contains(id) {
            id = "\(base)-\(n)"
            n += 1
        }
        usedIDs.insert(id)
        return id
    }

    static func isViewExpression(_ e: Expression) -> Bool {
        switch e {
        case .call(.name, _, _): true
        case .call(.member(let inner?, _, _), _, _), .member(let inner?, _, _): isViewExpression(inner)
        case .member(nil, _, _): true
        case .name: true
        default: false
        }
    }

    static func isName(_ e: Expression?, _ name: String) -> Bool {
        if case .name(let n, _)? = e { return n == name }
        return false
    }

    static func text(in statements: [Statement]) -> String? {
        for case .expression(let e) in statements {
            var base = e
            while case .call(.member(let inner?, _, _), _, _) = base { base = inner }
            if case .call(.name("Text", _), let arguments, _) = base,
                case .literal(.string(let text), _)? = arguments.first?.value
            {
                return text
            }
        }
        return nil
    }

    // MARK: Modifiers

    /// The frame's labels the scene carries.
    enum SceneFields {
        static let frame: Set<String> = [
            "width", "height", "minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight",
        ]
    }

    /// `.infinity`, `CGFloat.infinity`, `.greatestFiniteMagnitude`.
    static func isInfinity(_ e: Expression) -> Bool {
        if case .member(let base, let name, _) = e, name == "infinity" || name == "greatestFiniteMagnitude" {
            return base == nil || base.map { isName($0, "CGFloat") || isName($0, "Double") } == true
        }
        return false
    }

    /// `.leading`, `Alignment.topLeading`, `HorizontalAlignment.center`: the alignment's name.
    mutating func alignmentName(_ e: Expression) -> String? {
        if case .member(_, let name, let position) = e {
            guard SwiftUIAlignment.names[name] != nil else {
                unsupported("the alignment .\(name)", position)
                return nil
            }
            return name
        }
        unsupported("an alignment that is not one of SwiftUI's", e.position)
        return nil
    }

    /// `.padding()`, `.padding(20)`, `.padding(.horizontal)`, `.padding([.top, .leading], 8)`,
    /// `.padding(EdgeInsets(top:leading:bottom:trailing:))`: 16 points (iOS's default) on the
    /// edges named, or all.
    mutating func padding(_ arguments: [Argument], _ position: SourcePosition) -> JSONValue? {
        let all = ["top", "leading", "bottom", "trailing"]
        var edges = Set(all)
        var length: JSONValue = .number(SwiftUIInsets.systemLength)
        func edgeNames(_ e: Expression) -> Set<String>? {
            switch e {
            case .member(_, let name, _):
                switch name {
                case "all": return Set(all)
                case "horizontal": return ["leading", "trailing"]
                case "vertical": return ["top", "bottom"]
                case _ where all.contains(name): return [name]
                default: return nil
                }
            case .array(let items, _):
                var names: Set<String> = []
                for item in items {
                    guard let more = edgeNames(item) else { return nil }
                    names.formUnion(more)
                }
                return names
            default: return nil
            }
        }
        for argument in arguments where argument.label == nil {
            if case .call(let callee, let parts, _) = argument.value, Self.isName(callee, "EdgeInsets") {
                var members: [(String, JSONValue)] = []
                for part in parts {
                    guard let label = part.label, all.contains(label), let value = number(part.value) else { continue }
                    members.append((label, value))
                }
                return .object(JSONObject(members))
            }
            if let names = edgeNames(argument.value) {
                edges = names
            } else if let value = number(argument.value) {
                length = value
            } else {
                return nil
            }
        }
        if edges.count == 4 { return length }
        return .object(JSONObject(all.filter(edges.contains).map { ($0, length) }))
    }

    mutating func modifier(_ name: String, _ arguments: [Argument], _ position: SourcePosition, shape: String?)
        -> JSONValue?
    {
        let isShape = shape != nil
        let takesBackground = shape == nil || shape == "text"
        func labelled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
        func pair(_ first: String, _ second: String) -> JSONValue? {
            var members: [(String, JSONValue)] = []
            for label in [first, second] {
                if let e = labelled(label) {
                    guard let value = number(e) else { return nil }
                    members.append((label, value))
                }
            }
            return .object(JSONObject(members))
        }
        switch name {
        case "frame":
            // `.frame(width:height:alignment:)` and `.frame(minWidth:…maxHeight:alignment:)`;
            // `.infinity` as a maximum is as large as offered.
            var members: [(String, JSONValue)] = []
            for argument in arguments {
                guard let label = argument.label else { continue }
                if label == "alignment" {
                    if let value = alignmentName(argument.value), value != "center" {
                        members.append(("alignment", .string(value)))
                    }
                    continue
                }
                guard SceneFields.frame.contains(label) else {
                    unsupported("frame's \(label)", argument.value.position)
                    continue
                }
                if label.hasPrefix("max"), Self.isInfinity(argument.value) {
                    members.append((label, .string("infinity")))
                } else if let value = number(argument.value) {
                    members.append((label, value))
                }
            }
            guard members.contains(where: { $0.0 != "alignment" }) else { return nil }
            return ["frame": .object(JSONObject(members))]
        case "padding":
            return padding(arguments, position).map { ["padding": $0] }
        case "position":
            return pair("x", "y").map { ["position": $0] }
        case "offset":
            if let size = arguments.first, size.label == nil, case .call(let callee, let parts, _) = size.value,
                Self.isName(callee, "CGSize")
            {
                var members: [(String, JSONValue)] = []
                for (label, axis) in [("width", "x"), ("height", "y")] {
                    if let e = parts.first(where: { $0.label == label })?.value, let value = number(e) {
                        members.append((axis, value))
                    }
                }
                return ["offset": .object(JSONObject(members))]
            }
            return pair("x", "y").map { ["offset": $0] }
        case "scaleEffect":
            if labelled("x") != nil || labelled("y") != nil { return pair("x", "y").map { ["scaleEffect": $0] } }
            if arguments.contains(where: { $0.label == "anchor" }) { unsupported("scaleEffect's anchor", position) }
            guard let first = arguments.first(where: { $0.label == nil }), let value = number(first.value) else {
                return nil
            }
            return ["scaleEffect": value]
        case "rotationEffect":
            if arguments.contains(where: { $0.label == "anchor" }) { unsupported("rotationEffect's anchor", position) }
            guard let first = arguments.first(where: { $0.label == nil }) else { return nil }
            return angle(first.value).map { ["rotationEffect": $0] }
        case "opacity":
            return arguments.first.flatMap { number($0.value) }.map { ["opacity": $0] }
        case "fill", "foregroundColor", "foregroundStyle", "tint":
            // On a container: its content's foreground (read before the content).
            guard isShape else { return nil }
            return arguments.first.flatMap { colorExpression($0.value) }.map { ["fill": $0] }
        case "background":
            guard takesBackground else {
                unsupported("background behind a shape", position)
                return nil
            }
            return arguments.first.flatMap { colorExpression($0.value) }.map { ["background": $0] }
        case "cornerRadius":
            return arguments.first.flatMap { number($0.value) }.map { ["cornerRadius": $0] }
        case "font":
            // `.font(.title)`, `.font(.title.bold())`, `.font(.system(size: 24))`.
            var font = arguments.first?.value
            while case .call(.member(let inner?, _, _), _, _)? = font, case .member = inner { font = inner }
            switch font {
            case .member(_, let style, _)?:
                if let size = SwiftUIView.textStyles[style] { return ["font": .number(size)] }
            case .call(.member(_, "system", _), let parts, _)?:
                if let size = parts.first(where: { $0.label == "size" }).flatMap({ number($0.value) }) {
                    return ["font": size]
                }
                if case .member(_, let style, _)? = parts.first?.value, let size = SwiftUIView.textStyles[style] {
                    return ["font": .number(size)]
                }
            default: break
            }
            unsupported("this font", position)
            return nil
        case "fontWeight", "bold", "italic", "kerning", "tracking", "lineLimit", "multilineTextAlignment":
            // How glyphs look, not where or how large: left out without a word.
            return nil
        case "blur":
            if arguments.contains(where: { $0.label == "opaque" }) { unsupported("blur's opaque", position) }
            return labelled("radius").flatMap { number($0) }.map { ["blur": $0] }
        case "keyframeAnimator":
            return keyframeAnimator(arguments, position)
        case "transition":
            return arguments.first.flatMap { transition($0.value) }.map { ["transition": $0] }
        case "matchedGeometryEffect":
            switch arguments.first(where: { $0.label == "id" })?.value {
            case .literal(.string(let id), _)?: return ["matchedGeometryEffect": ["id": .string(id)]]
            case .literal(.integer(let id), _)?: return ["matchedGeometryEffect": ["id": .string(String(id))]]
            case .name(let name, _)?: return ["matchedGeometryEffect": ["id": .string(name)]]
            default:
                unsupported("this matchedGeometryEffect id", position)
                return nil
            }
        case "phaseAnimator":
            return phaseAnimator(arguments, position)
        case "animation":
            guard let first = arguments.first else { return nil }
            guard let animation = animation(first.value) else { return nil }
            var members: [(String, JSONValue)] = [("animation", animation)]
            if let value = labelled("value") {
                guard case .name(let state, _) = value, self.state[state] != nil else {
                    unsupported("an animation's value that is not a @State of the view", position)
                    return nil
                }
                members.append(("value", .string(state)))
            }
            return .object(JSONObject(members))
        default:
            unsupported(".\(name)", position)
            return nil
        }
    }

    /// `.degrees(45)`, `.radians(x)`, `Angle(degrees:)`.
    mutating func angle(_ e: Expression) -> JSONValue? {
        switch e {
        case .call(.member(let owner, let unit, _), let arguments, _)
        where (owner == nil || Self.isName(owner, "Angle")) && (unit == "degrees" || unit == "radians"):
            return arguments.first.flatMap { number($0.value) }.map { [unit: $0] }
        case .call(.name("Angle", _), let arguments, _):
            guard let argument = arguments.first, let label = argument.label else { return nil }
            return number(argument.value).map { [label: $0] }
        case .ternary(let test, let a, let b, _):
            // Both branches as angles in degrees.
            guard let flag = condition(test), let x = degrees(a), let y = degrees(b) else { return nil }
            return ["degrees": ["if": .string(flag), "then": x, "else": y]]
        default:
            unsupported("this angle", e.position)
            return nil
        }
    }

    mutating func degrees(_ e: Expression) -> JSONValue? {
        guard case .object(let angle)? = self.angle(e) else { return nil }
        if let d = angle["degrees"] { return d }
        if case .number(let r)? = angle["radians"] { return .number(r * 180 / .pi) }
        return nil
    }

    /// A number, a number state, or `flag ? a : b`.
    mutating func number(_ e: Expression) -> JSONValue? {
        switch e {
        case .name(let name, let position):
            switch state[name] {
            case .integer?, .number?: return ["state": .string(name)]
            case .bool?:
                warn(position, "\(name) is a Bool where a number is needed")
                return nil
            default: break
            }
        case .ternary(let test, let a, let b, _):
            if let flag = condition(test), let x = number(a), let y = number(b) {
                return ["if": .string(flag), "then": x, "else": y]
            }
        case .call(.name(let type, _), let arguments, _) where ["CGFloat", "Double", "Float"].contains(type):
            if let first = arguments.first { return number(first.value) }
        default:
            break
        }
        if case .number(let n)? = constantNumber(e) { return .number(n) }
        unsupported(
            "an expression choreo cannot carry into the scene (only numbers, a @State, and flag ? a : b)", e.position)
        return nil
    }

    /// An `if`'s condition on a Bool state (`flag`, `!flag`).
    func flagCondition(_ c: Condition) -> String? {
        if case .expression(let e) = c { return condition(e) }
        return nil
    }

    /// `isOn` or `!isOn` of a Bool state.
    func condition(_ e: Expression) -> String? {
        switch e {
        case .name(let name, _): if case .bool? = state[name] { return name }
        case .prefix("!", .name(let name, _), _): if case .bool? = state[name] { return "!" + name }
        default: break
        }
        return nil
    }

    mutating func colorExpression(_ e: Expression) -> JSONValue? {
        if case .ternary(let c, let a, let b, _) = e, let flag = condition(c), let x = color(a), let y = color(b) {
            return ["if": .string(flag), "then": x, "else": y]
        }
        if let value = color(e) { return value }
        unsupported("this colour", e.position)
        return nil
    }

    /// SwiftUI's colours: `.red`, `Color.blue`, `Color(red:green:blue:)`, `.blue.opacity(0.5)`.
    func color(_ e: Expression) -> JSONValue? {
        switch e {
        case .member(let owner, let name, _) where owner == nil || Self.isName(owner, "Color"):
            return Self.hex(name).map { .string($0) }
        case .call(.name("Color", _), let arguments, _):
            var parts: [Double] = []
            for label in ["red", "green", "blue"] {
                guard let e = arguments.first(where: { $0.label == label })?.value,
                    case .number(let n)? = constantNumber(e)
                else {
                    if case .member(nil, let name, _)? = arguments.first?.value, let hex = Self.hex(name, system: true)
                    {
                        return .string(hex)
                    }
                    return nil
                }
                parts.append(n)
            }
            let alpha =
                arguments.first { $0.label == "opacity" }.flatMap { constantNumber($0.value) }.flatMap(Self.double) ?? 1
            return .array((parts + [alpha]).map { .number($0) })
        case .member(let base?, "gradient", _):
            // `.red.gradient`: drawn in its colour.
            return color(base)
        case .call(.name(let kind, _), let arguments, _)
        where ["LinearGradient", "RadialGradient", "AngularGradient", "EllipticalGradient"].contains(kind):
            // A gradient is drawn in its first colour (a scene's fill is one colour).
            var colors = arguments.first { $0.label == "colors" }?.value
            if colors == nil, case .call(_, let parts, _)? = arguments.first(where: { $0.label == "gradient" })?.value {
                colors = parts.first { $0.label == "colors" }?.value
            }
            if case .array(let items, _)? = colors, let first = items.first { return color(first) }
            return nil
        case .call(.member(let base?, "opacity", _), let arguments, _):
            guard let alpha = arguments.first.flatMap({ constantNumber($0.value) }).flatMap(Self.double) else {
                return nil
            }
            var rgba: [Double]
            switch color(base) {
            case .string(let hex)?:
                guard let parts = NamedColors.components(hex.count == 7 ? hex + "FF" : hex) else { return nil }
                rgba = parts
            case .array(let parts)?:
                rgba = parts.compactMap { if case .number(let n) = $0 { n } else { nil } }
            default:
                return nil
            }
            // `.opacity` multiplies the colour's own alpha.
            rgba[3] *= alpha
            return .array(rgba.map { .number($0) })
        default:
            return nil
        }
    }

    /// SwiftUI's standard colours: UIKit's system colours of the same names (iOS, light
    /// appearance), from the one table of named colours (``NamedColors``).
    static let colorNames: [String: String] = [
        "red": "systemRed", "orange": "systemOrange", "yellow": "systemYellow", "green": "systemGreen",
        "mint": "systemMint", "teal": "systemTeal", "cyan": "systemCyan", "blue": "systemBlue",
        "indigo": "systemIndigo", "purple": "systemPurple", "pink": "systemPink", "brown": "systemBrown",
        "gray": "systemGray", "black": "black", "white": "white", "clear": "clear", "primary": "label",
        "secondary": "secondaryLabel", "accentColor": "systemBlue",
    ]

    /// A SwiftUI colour's name (or, with `system`, a UIKit one: `Color(.systemGray)`) as
    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    static func hex(_ name: String, system: Bool = false) -> String? {
        guard let hex = NamedColors.table[system ? name : colorNames[name] ?? ""] else { return nil }
        return hex.hasSuffix("FF") ? String(hex.dropLast(2)) : hex
    }

    // MARK: Animations

    /// SwiftUI's `Animation` as the scene format spells it.
    mutating func animation(_ e: Expression) -> JSONValue? {
        if case .literal(.null, _) = e { return .null }
        var chain: [JSONValue] = []
        var base = e
        while case .call(.member(let inner?, let name, _), let arguments, _) = base,
            ["delay", "speed", "repeatCount", "repeatForever"].contains(name)
        {
            switch name {
            case "delay", "speed":
                guard let n = arguments.first.flatMap({ constantNumber($0.value) }).flatMap(Self.double) else {
                    return nil
                }
                chain.insert([name: .number(n)], at: 0)
            case "repeatCount":
                guard let n = arguments.first.flatMap({ constantNumber($0.value) }).flatMap(Self.double) else {
                    return nil
                }
                var members: [(String, JSONValue)] = [("count", .number(n))]
                if let flag = arguments.first(where: { $0.label == "autoreverses" }).flatMap({ Self.constant($0.value) }
                ),
                    case .bool(let b) = flag
                {
                    members.append(("autoreverses", .bool(b)))
                }
                chain.insert(["repeatCount": .object(JSONObject(members))], at: 0)
            default:
                var members: [(String, JSONValue)] = []
                if let flag = arguments.first(where: { $0.label == "autoreverses" }).flatMap({ Self.constant($0.value) }
                ),
                    case .bool(let b) = flag
                {
                    members.append(("autoreverses", .bool(b)))
                }
                chain.insert(["repeatForever": .object(JSONObject(members))], at: 0)
            }
            base = inner
        }
        let head: JSONValue
        switch base {
        case .member(let owner, let name, _) where owner == nil || Self.isName(owner, "Animation"):
            head = .string(name == "spring" ? "spring" : name)
            if name == "spring" || name == "interactiveSpring" {
                return wrap(.object(JSONObject([(name, .object(JSONObject()))])), chain)
            }
        case .call(.member(let owner, let name, _), let arguments, _)
        where owner == nil || Self.isName(owner, "Animation"):
            var members: [(String, JSONValue)] = []
            if name == "timingCurve" {
                let labels = ["c0x", "c0y", "c1x", "c1y"]
                for (index, argument) in arguments.filter({ $0.label == nil }).prefix(4).enumerated() {
                    guard let n = constantNumber(argument.value).flatMap(Self.double) else { return nil }
                    members.append((labels[index], .number(n)))
                }
            }
            for argument in arguments {
                guard let label = argument.label else { continue }
                if label == "spring" {
                    unsupported("an animation made from a Spring value", argument.value.position)
                    return nil
                }
                guard let n = constantNumber(argument.value).flatMap(Self.double) else {
                    unsupported("an animation argument that is not a number", argument.value.position)
                    return nil
                }
                members.append(
                    (
                        label == "mass" || label == "stiffness" || label == "damping" || label == "initialVelocity"
                            || label == "extraBounce" ? label : label, .number(n)
                    ))
            }
            head = .object(JSONObject([(name, .object(JSONObject(members)))]))
        default:
            unsupported("this animation", e.position)
            return nil
        }
        return wrap(head, chain)
    }

    func wrap(_ head: JSONValue, _ chain: [JSONValue]) -> JSONValue {
        chain.isEmpty ? head : .array([head] + chain)
    }

    // MARK: Values

    static func constant(_ e: Expression) -> Literal? {
        switch e {
        case .literal(let literal, _):
            switch literal {
            case .bool, .integer, .number: return literal
            default: return nil
            }
        case .prefix("-", let inner, _):
            switch constant(inner) {
            case .integer(let n)?: return .integer(-n)
            case .number(let n)?: return .number(-n)
            default: return nil
            }
        case .call(.name(let type, _), let arguments, _) where ["CGFloat", "Double", "Int", "Float"].contains(type):
            return arguments.first.flatMap { constant($0.value) }
        default:
            return nil
        }
    }

    static func double(_ literal: Literal) -> Double? {
        switch literal {
        case .integer(let n): Double(n)
        case .number(let n): n
        default: nil
        }
    }

    static func json(_ literal: Literal) -> JSONValue {
        switch literal {
        case .bool(let b): .bool(b)
        case .integer(let n): .number(Double(n))
        case .number(let n): .number(n)
        default: .null
        }
    }

    /// A number the expression folds to without any state.
    func constantNumber(_ e: Expression) -> Literal? {
        evaluate(e, readingState: false).flatMap(Self.double).map { .number($0) }
    }

    /// An expression's value with the state as the actions have left it (and `locals`, a
    /// closure's parameters, first); without `readingState`, of constants alone.
    func evaluate(_ e: Expression, locals: [String: Literal] = [:], readingState: Bool = true) -> Literal? {
        func evaluate(_ e: Expression) -> Literal? { self.evaluate(e, locals: locals, readingState: readingState) }
        switch e {
        case .name(let name, _): return locals[name] ?? (readingState ? state[name] : nil)
        case .prefix("!", let inner, _):
            if case .bool(let b)? = evaluate(inner) { return .bool(!b) }
            return nil
        case .prefix("-", let inner, _):
            return evaluate(inner).flatMap(Self.double).map { .number(-$0) }
        case .ternary(let c, let a, let b, _):
            guard case .bool(let flag)? = evaluate(c) else { return nil }
            return evaluate(flag ? a : b)
        case .binary(let op, let a, let b, _):
            guard let x = evaluate(a), let y = evaluate(b) else { return nil }
            if op == "&&" || op == "||", case .bool(let p) = x, case .bool(let q) = y {
                return .bool(op == "&&" ? p && q : p || q)
            }
            if op == "==" { return .bool(Self.json(x) == Self.json(y)) }
            if op == "!=" { return .bool(Self.json(x) != Self.json(y)) }
            guard let p = Self.double(x), let q = Self.double(y) else { return nil }
            switch op {
            case "+": return .number(p + q)
            case "-": return .number(p - q)
            case "*": return .number(p * q)
            case "/": return q == 0 ? nil : .number(p / q)
            case "<": return .bool(p < q)
            case ">": return .bool(p > q)
            case "<=": return .bool(p <= q)
            case ">=": return .bool(p >= q)
            default: return nil
            }
        case .call(.name(let function, _), let arguments, _)
        where Self.numericFunctions.contains(function) && !arguments.isEmpty:
            let values = arguments.compactMap { evaluate($0.value).flatMap(Self.double) }
            guard values.count == arguments.count else { return nil }
            switch function {
            case "min": return .number(values.min()!)
            case "max": return .number(values.max()!)
            case "abs": return .number(Swift.abs(values[0]))
            case "sqrt": return values[0] < 0 ? nil : .number(values[0].squareRoot())
            case "sin": return .number(Self.sine(values[0]))
            case "cos": return .number(Self.sine(values[0] + .pi / 2))
            case "Int": return .integer(Int(values[0].rounded(.towardZero)))
            default: return .number(values[0])
            }
        case .member(let owner, "pi", _)
        where owner == nil || Self.isName(owner, "Double") || Self.isName(owner, "CGFloat")
            || Self.isName(owner, "Float"):
            return .number(.pi)
        default:
            return Self.constant(e)
        }
    }

    /// Functions of numbers an expression may call (Swift's `min`, `max`, `abs`, the
    /// conversions, Foundation's `sin`, `cos`, `sqrt`).
    static let numericFunctions: Set<String> = [
        "min", "max", "abs", "sqrt", "sin", "cos", "CGFloat", "Double", "Float", "Int",
    ]

    /// sin(x) by its Taylor series after reducing x to [-π, π]: the same digits on every
    /// platform (a C library's `sin` may differ in the last bit).
    static func sine(_ x: Double) -> Double {
        var r = x.truncatingRemainder(dividingBy: 2 * .pi)
        if r > .pi { r -= 2 * .pi }
        if r < -.pi { r += 2 * .pi }
        var term = r
        var sum = r
        for n in 1..<30 {
            term *= -r * r / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }
}

// MARK: Actions

extension SwiftUIImporter {
    /// A tap the script makes: the button's title (or the tapped view's id) and when.
    struct Work {
        let time: Double
        let statements: [Statement]
        let order: Int
        /// Where the action is written (a button, an `onAppear`, a delayed block).
        var position: SourcePosition?
    }

    /// The script: `onAppear` at 0, then each tap at its time, each action's later work
    /// (`asyncAfter`) at its own; state changes worked out in that order.
    mutating func actions() -> [JSONValue] {
        var queue: [Work] = appearing.enumerated().map { Work(time: 0, statements: $1, order: $0) }
        var taps = options.taps
        if taps.isEmpty && !tappables.isEmpty {
            taps = tappables.enumerated().map { (title: $1.title, time: 0.5 + Double($0)) }
            diagnostics.append(
                ImportDiagnostic(
                    .note, tappables[0].position,
                    "taps: " + taps.map { "\"\($0.title)\" at \(format($0.time)) s" }.joined(separator: ", ")
                        + " (choose with --tap \"title\"@seconds)"))
        }
        for tap in taps {
            guard let target = tappables.first(where: { $0.title == tap.title }) else {
                let known = tappables.map(\.title)
                diagnostics.append(
                    ImportDiagnostic(
                        .error, type.position,
                        "no button or tapped view is called \"\(tap.title)\""
                            + (known.isEmpty
                                ? "" : " (there are: \(known.map { "\"\($0)\"" }.joined(separator: ", ")))")))
                continue
            }
            queue.append(
                Work(time: tap.time, statements: target.actions, order: queue.count, position: target.position))
        }
        var entries: [(time: Double, actions: [JSONValue])] = []
        var steps = 0
        while !queue.isEmpty, steps < 1000 {
            steps += 1
            let next = queue.indices.min { (queue[$0].time, queue[$0].order) < (queue[$1].time, queue[$1].order) }!
            let work = queue.remove(at: next)
            var context = ActionContext()
            let actions = perform(work.statements, &context, time: work.time, queue: &queue)
            if !actions.isEmpty {
                // The entry's actions map to the code that made them (the player links them).
                let position = work.position ?? work.statements.first?.position
                if let position { map.append(SourceMapping(path: "$.script[\(entries.count)]", position: position)) }
                entries.append((work.time, actions))
            }
        }
        return entries.map { ["at": .number($0.time), "do": .array($0.actions)] }
    }

    /// What a closure's statements are doing: the plain state changes so far, local
    /// transactions.
    struct ActionContext {
        var changes: [(String, JSONValue)] = []
        var transactions: [String: (animation: JSONValue?, disables: Bool)] = [:]
    }

    /// The actions of statements run at `time`; later work joins the queue.
    mutating func perform(
        _ statements: [Statement], _ context: inout ActionContext, time: Double, queue: inout [Work],
        flushing: Bool = true
    ) -> [JSONValue] {
        var actions: [JSONValue] = []
        func flush(_ context: inout ActionContext) {
            guard !context.changes.isEmpty else { return }
            actions.append(["state": .object(JSONObject(context.changes))])
            context.changes = []
        }
        for statement in statements {
            switch statement {
            case .expression(.call(.member(.name(let name, _), "toggle", _), let none, let position)) where none.isEmpty:
                guard case .bool(let flag)? = state[name] else {
                    unsupported("toggle() of something that is not a Bool @State", position)
                    continue
                }
                change(name, .bool(!flag), &context)
            case .assign(.name(let name, _), let op, let value, let position) where state[name] != nil:
                guard var result = evaluate(value) else {
                    unsupported("an assignment choreo cannot work out", position)
                    continue
                }
                if op != "=" {
                    guard let old = state[name].flatMap(Self.double), let by = Self.double(result) else { continue }
                    switch op {
                    case "+=": result = .number(old + by)
                    case "-=": result = .number(old - by)
                    case "*=": result = .number(old * by)
                    default:
                        unsupported("the operator \(op)", position)
                        continue
                    }
                }
                change(name, result, &context)
            case .declare(let name, .call(.name("Transaction", _), let arguments, _)?, _):
                let animation = arguments.first { $0.label == "animation" }.flatMap { self.animation($0.value) }
                context.transactions[name] = (animation, false)
            case .assign(.member(.name(let name, _), "disablesAnimations", _), "=", let value, _)
            where context.transactions[name] != nil:
                if case .bool(let flag)? = evaluate(value) { context.transactions[name]!.disables = flag }
            case .assign(.member(.name(let name, _), "animation", _), "=", let value, _)
            where context.transactions[name] != nil:
                context.transactions[name]!.animation = animation(value)
            case .expression(.call(.name("withAnimation", _), let arguments, let position)):
                flush(&context)
                if let action = withAnimation(arguments, position, time: time, queue: &queue) { actions.append(action) }
            case .expression(.call(.name("withTransaction", _), let arguments, let position)):
                flush(&context)
                var transaction: (animation: JSONValue?, disables: Bool)?
                switch arguments.first?.value {
                case .name(let name, _)?: transaction = context.transactions[name]
                case .call(.name("Transaction", _), let parts, _)?:
                    transaction = (parts.first { $0.label == "animation" }.flatMap { animation($0.value) }, false)
                default: break
                }
                guard let transaction, case .closure(let body, _)? = arguments.last?.value else {
                    unsupported("this withTransaction", position)
                    continue
                }
                var inner = ActionContext()
                _ = perform(body.body, &inner, time: time, queue: &queue, flushing: false)
                var members: [(String, JSONValue)] = []
                if let animation = transaction.animation { members.append(("animation", animation)) }
                if transaction.disables { members.append(("disablesAnimations", .bool(true))) }
                actions.append([
                    "withTransaction": .object(JSONObject(members)), "state": .object(JSONObject(inner.changes)),
                ])
            case .expression(
                .call(
                    .member(.member(.name("DispatchQueue", _), "main", _), "asyncAfter", _), let arguments, let position
                )):
                guard let deadline = arguments.first(where: { $0.label == "deadline" })?.value,
                    case .binary("+", .call(.member(nil, "now", _), _, _), let delay, _) = deadline,
                    let seconds = constantNumber(delay).flatMap(Self.double),
                    case .closure(let body, _)? = arguments.last?.value
                else {
                    unsupported("this asyncAfter", position)
                    continue
                }
                queue.append(
                    Work(
                        time: time + seconds, statements: body.body, order: queue.count + 1000,
                        position: body.body.first?.position))
            case .ifStatement(let conditions, let then, let otherwise, _):
                let holds = conditions.allSatisfy { condition in
                    if case .expression(let e) = condition, case .bool(let flag)? = evaluate(e) { return flag }
                    return false
                }
                flush(&context)
                actions += perform(holds ? then : (otherwise ?? []), &context, time: time, queue: &queue)
            case .expression(.call(.name(let name, _), let arguments, let position))
            where type.methods.contains { $0.name == name && !$0.isStatic }:
                // The view's own method (`func start() { … }`), run with its arguments.
                guard depth < 16, let method = type.methods.first(where: { $0.name == name && !$0.isStatic }) else {
                    unsupported("a method calling itself more than 16 deep", position)
                    continue
                }
                depth += 1
                actions += perform(called(method, arguments), &context, time: time, queue: &queue, flushing: false)
                depth -= 1
            default:
                unsupported("this statement in an action", statement.position)
            }
        }
        if flushing { flush(&context) }
        return actions
    }

    mutating func change(_ name: String, _ value: Literal, _ context: inout ActionContext) {
        state[name] = value
        context.changes.removeAll { $0.0 == name }
        context.changes.append((name, Self.json(value)))
    }

    /// `withAnimation(_:_:)` and `withAnimation(_:completionCriteria:_:completion:)`.
    mutating func withAnimation(_ arguments: [Argument], _ position: SourcePosition, time: Double, queue: inout [Work])
        -> JSONValue?
    {
        var animation: JSONValue = .bool(true)
        if let given = arguments.first(where: { $0.label == nil && !Self.isClosure($0.value) }) {
            guard let decoded = self.animation(given.value) else { return nil }
            animation = decoded
        }
        guard let body = arguments.first(where: { $0.label == nil && Self.isClosure($0.value) }),
            case .closure(let closure, _) = body.value
        else {
            unsupported("a withAnimation without its body", position)
            return nil
        }
        var inner = ActionContext()
        let nested = perform(closure.body, &inner, time: time, queue: &queue, flushing: false)
        if !nested.isEmpty { unsupported("a withAnimation inside a withAnimation", position) }
        var members: [(String, JSONValue)] = [
            ("withAnimation", animation), ("state", .object(JSONObject(inner.changes))),
        ]
        if case .member(_, let criteria, _)? = arguments.first(where: { $0.label == "completionCriteria" })?.value {
            members.append(("completionCriteria", .string(criteria)))
        }
        if case .closure(let completion, _)? = arguments.first(where: { $0.label == "completion" })?.value {
            // Worked out now, after the change: what it sets follows it.
            var context = ActionContext()
            members.append(("completion", .array(perform(completion.body, &context, time: time, queue: &queue))))
        }
        return .object(JSONObject(members))
    }

    static func isClosure(_ e: Expression) -> Bool {
        if case .closure = e { return true }
        return false
    }
}

// MARK: Keyframe and phase animators

extension SwiftUIImporter {
    /// What a content closure (`{ content, value in content.scaleEffect(value.scale) }`)
    /// applies: each property it drives and the expression that gives it.
    func applied(_ closure: ClosureSyntax) -> [(property: String, value: Expression)] {
        var result: [(String, Expression)] = []
        func walk(_ e: Expression) {
            guard case .call(.member(let inner?, let name, _), let arguments, _) = e else { return }
            walk(inner)
            func labelled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
            switch name {
            case "scaleEffect":
                if let x = labelled("x") { result.append(("scaleEffect.x", x)) }
                if let y = labelled("y") { result.append(("scaleEffect.y", y)) }
                if let value = arguments.first(where: { $0.label == nil })?.value {
                    result.append(("scaleEffect", value))
                }
            case "offset":
                if let x = labelled("x") { result.append(("offset.x", x)) }
                if let y = labelled("y") { result.append(("offset.y", y)) }
            case "opacity":
                if let value = arguments.first?.value { result.append(("opacity", value)) }
            case "rotationEffect":
                if let value = arguments.first?.value { result.append(("rotationEffect", value)) }
            default:
                break
            }
        }
        for case .expression(let e) in closure.body { walk(e) }
        if case .returnStatement(let e?, _)? = closure.body.first { walk(e) }
        return result
    }

    /// An angle's degrees in a content closure: `.degrees(x)`, `.radians(x)` (as degrees).
    static func degreesExpression(_ e: Expression) -> (Expression, radians: Bool)? {
        if case .call(.member(_, let unit, _), let arguments, _) = e, let first = arguments.first?.value {
            if unit == "degrees" { return (first, false) }
            if unit == "radians" { return (first, true) }
        }
        if case .call(.name("Angle", _), let arguments, _) = e, let first = arguments.first {
            return (first.value, first.label == "radians")
        }
        return nil
    }

    /// `.keyframeAnimator(initialValue:trigger:content:keyframes:)` (or `repeating:`).
    mutating func keyframeAnimator(_ arguments: [Argument], _ position: SourcePosition) -> JSONValue? {
        guard let initial = arguments.first(where: { $0.label == "initialValue" })?.value,
            case .closure(let content, _)? = arguments.first(where: { $0.label == nil && Self.isClosure($0.value) })?
                .value,
            case .closure(let keyframes, _)? = arguments.first(where: { $0.label == "keyframes" })?.value,
            content.parameters.count == 2
        else {
            unsupported("this keyframeAnimator", position)
            return nil
        }
        let valueName = content.parameters[1]
        let initialValues = structValues(initial)
        var members: [(String, JSONValue)] = []
        if let trigger = arguments.first(where: { $0.label == "trigger" })?.value {
            guard case .name(let state, _) = trigger, self.state[state] != nil else {
                unsupported("a keyframeAnimator trigger that is not a @State of the view", trigger.position)
                return nil
            }
            members.append(("trigger", .string(state)))
        } else {
            members.append(("repeating", .bool(true)))
            animatesByItself = true
        }
        // Which property of the value drives which effect.
        var drives: [String: (property: String, radians: Bool)] = [:]
        for (property, expression) in applied(content) {
            var e = expression
            var radians = false
            if property == "rotationEffect" {
                guard let (inner, isRadians) = Self.degreesExpression(expression) else { continue }
                (e, radians) = (inner, isRadians)
            }
            if case .member(.name(let owner, _), let field, _) = e, owner == valueName {
                drives[field] = (property, radians)
            } else {
                unsupported("a keyframeAnimator effect that is not a property of its value", e.position)
            }
        }
        var tracks: [JSONValue] = []
        for statement in keyframes.body {
            guard case .expression(.call(.name("KeyframeTrack", _), let trackArguments, let at)) = statement,
                case .name(let keyPath, _)? = trackArguments.first?.value, keyPath.hasPrefix("\\."),
                case .closure(let list, _)? = trackArguments.last?.value
            else {
                unsupported("this keyframe track", statement.position)
                continue
            }
            let field = String(keyPath.dropFirst(2))
            guard let (property, radians) = drives[field] else {
                warn(at, "the track of \(field) drives nothing the content closure applies: left out")
                continue
            }
            let scale = radians ? 180 / Double.pi : 1
            var frames: [JSONValue] = []
            for case .expression(.call(.name(let kind, _), let keyframeArguments, let kfPosition)) in list.body {
                guard let frame = keyframe(kind, keyframeArguments, scale: scale, kfPosition) else { continue }
                frames.append(frame)
            }
            tracks.append(
                [
                    "property": .string(property),
                    "initial": .number(
                        (initialValues[field] ?? (property.hasPrefix("scale") || property == "opacity" ? 1 : 0)) * scale
                    ),
                    "keyframes": .array(frames),
                ])
        }
        members.append(("tracks", .array(tracks)))
        return ["keyframeAnimator": .object(JSONObject(members))]
    }

    /// An initial value's fields: a struct's stored properties with literal values, then the
    /// initializer's labelled arguments (`Values(scale: 0.5)`).
    func structValues(_ e: Expression) -> [String: Double] {
        guard case .call(.name(let typeName, _), let arguments, _) = e else { return [:] }
        var values: [String: Double] = [:]
        if let type = unit.types.first(where: { $0.name == typeName }) {
            for property in type.properties {
                if let value = property.value.flatMap(constantNumber).flatMap(Self.double) {
                    values[property.name] = value
                }
            }
        }
        for argument in arguments {
            if let label = argument.label, let value = constantNumber(argument.value).flatMap(Self.double) {
                values[label] = value
            }
        }
        return values
    }

    /// `LinearKeyframe(v, duration:, timingCurve:)`, `SpringKeyframe(v, duration:, spring:)`,
    /// `CubicKeyframe(v, duration:)`, `MoveKeyframe(v)`.
    mutating func keyframe(_ kind: String, _ arguments: [Argument], scale: Double, _ position: SourcePosition)
        -> JSONValue?
    {
        guard
            let target = arguments.first(where: { $0.label == nil }).flatMap({ constantNumber($0.value) })
                .flatMap(Self.double)
        else {
            unsupported("a keyframe whose value is not a number", position)
            return nil
        }
        func number(_ label: String) -> Double? {
            arguments.first { $0.label == label }.flatMap { constantNumber($0.value) }.flatMap(Self.double)
        }
        var members: [(String, JSONValue)] = []
        switch kind {
        case "LinearKeyframe":
            members = [("linear", .number(target * scale)), ("duration", .number(number("duration") ?? 0))]
            if case .member(nil, let curve, _)? = arguments.first(where: { $0.label == "timingCurve" })?.value {
                members.append(("timingCurve", .string(curve)))
            }
        case "CubicKeyframe":
            members = [("cubic", .number(target * scale)), ("duration", .number(number("duration") ?? 0))]
            if let v = number("startVelocity") { members.append(("startVelocity", .number(v * scale))) }
            if let v = number("endVelocity") { members.append(("endVelocity", .number(v * scale))) }
        case "SpringKeyframe":
            members = [("spring", .number(target * scale))]
            if let d = number("duration") { members.append(("duration", .number(d))) }
            if let v = number("startVelocity") { members.append(("startVelocity", .number(v * scale))) }
            if let spring = arguments.first(where: { $0.label == "spring" })?.value {
                switch spring {
                case .member(_, let name, _):
                    // The presets' springs: smooth, snappy and bouncy at 0.5 s.
                    if let bounce = SwiftUISpring.presetBounces[name] { members.append(("bounce", .number(bounce))) }
                case .call(_, let parts, _):
                    for part in parts {
                        guard let label = part.label, let n = constantNumber(part.value).flatMap(Self.double) else {
                            continue
                        }
                        if label == "duration" { members.append(("springDuration", .number(n))) }
                        if label == "bounce" { members.append(("bounce", .number(n))) }
                    }
                default:
                    unsupported("this spring", spring.position)
                }
            }
        case "MoveKeyframe":
            members = [("move", .number(target * scale))]
        default:
            unsupported(kind, position)
            return nil
        }
        return .object(JSONObject(members))
    }

    /// `.phaseAnimator([false, true]) { content, phase in … } animation: { phase in … }`
    /// (or `trigger:`): the content closure worked out for each phase.
    mutating func phaseAnimator(_ arguments: [Argument], _ position: SourcePosition) -> JSONValue? {
        guard case .array(let phaseValues, _)? = arguments.first(where: { $0.label == nil })?.value,
            case .closure(let content, _)? = arguments.first(where: { $0.label == nil && Self.isClosure($0.value) })?
                .value,
            content.parameters.count == 2
        else {
            unsupported("this phaseAnimator (its phases must be an array of Bools or numbers)", position)
            return nil
        }
        let phaseName = content.parameters[1]
        let phases = phaseValues.compactMap(Self.constant)
        guard phases.count == phaseValues.count, !phases.isEmpty else {
            unsupported("phases that are not Bools or numbers", position)
            return nil
        }
        var members: [(String, JSONValue)] = []
        if let trigger = arguments.first(where: { $0.label == "trigger" })?.value {
            guard case .name(let name, _) = trigger, state[name] != nil else {
                unsupported("a phaseAnimator trigger that is not a @State of the view", trigger.position)
                return nil
            }
            members.append(("trigger", .string(name)))
        } else {
            animatesByItself = true
        }
        let effects = applied(content)
        var phaseObjects: [JSONValue] = []
        for phase in phases {
            var values: [(String, JSONValue)] = []
            for (property, expression) in effects {
                var e = expression
                var scale = 1.0
                if property == "rotationEffect" {
                    guard let (inner, radians) = Self.degreesExpression(expression) else { continue }
                    e = inner
                    if radians { scale = 180 / .pi }
                }
                guard let value = evaluate(e, locals: [phaseName: phase]).flatMap(Self.double) else {
                    unsupported("a phase's value choreo cannot work out", e.position)
                    continue
                }
                values.append((property, .number(value * scale)))
            }
            phaseObjects.append(.object(JSONObject(values)))
        }
        members.append(("phases", .array(phaseObjects)))
        if case .closure(let closure, _)? = arguments.first(where: { $0.label == "animation" })?.value,
            closure.parameters.count == 1
        {
            var animations: [JSONValue] = []
            for phase in phases {
                var e: Expression?
                for statement in closure.body {
                    switch statement {
                    case .expression(let x), .returnStatement(let x?, _): e = x
                    default: continue
                    }
                }
                // `phase ? .bouncy : .smooth`: the branch this phase takes.
                while case .ternary(let test, let a, let b, _)? = e {
                    guard case .bool(let flag)? = evaluate(test, locals: [closure.parameters[0]: phase]) else { break }
                    e = flag ? a : b
                }
                animations.append(e.flatMap { animation($0) } ?? .string("default"))
            }
            members.append(("animations", .array(animations)))
        }
        return ["phaseAnimator": .object(JSONObject(members))]
    }
}

// MARK: Transitions

extension SwiftUIImporter {
    /// SwiftUI's `AnyTransition` as the scene format spells it.
    mutating func transition(_ e: Expression) -> JSONValue? {
        switch e {
        case .member(let owner, let name, _) where owner == nil || Self.isName(owner, "AnyTransition"):
            if ["opacity", "scale", "slide", "identity"].contains(name) { return .string(name) }
        case .call(.member(let base?, "combined", _), let arguments, _):
            guard let first = transition(base), let other = arguments.first.flatMap({ transition($0.value) }) else {
                return nil
            }
            var parts = [first]
            if case .object(let object) = first, case .array(let inner)? = object["combined"] { parts = inner }
            return ["combined": .array(parts + [other])]
        case .call(.member(let owner, let name, _), let arguments, _)
        where owner == nil || Self.isName(owner, "AnyTransition"):
            func labelled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
            func number(_ e: Expression?) -> Double? { e.flatMap { constantNumber($0) }.flatMap(Self.double) }
            switch name {
            case "scale":
                if let scale = number(labelled("scale")) {
                    if labelled("anchor") != nil { unsupported("a scale transition's anchor", e.position) }
                    return ["scale": .number(scale)]
                }
            case "move":
                if case .member(nil, let edge, _)? = labelled("edge") { return ["move": .string(edge)] }
            case "offset":
                if let size = arguments.first, size.label == nil, case .call(_, let parts, _) = size.value {
                    let x = number(parts.first { $0.label == "width" }?.value) ?? 0
                    let y = number(parts.first { $0.label == "height" }?.value) ?? 0
                    return ["offset": ["x": .number(x), "y": .number(y)]]
                }
                return ["offset": ["x": .number(number(labelled("x")) ?? 0), "y": .number(number(labelled("y")) ?? 0)]]
            case "asymmetric":
                if let insertion = labelled("insertion").flatMap({ transition($0) }),
                    let removal = labelled("removal").flatMap({ transition($0) })
                {
                    return ["asymmetric": ["insertion": insertion, "removal": removal]]
                }
            default:
                break
            }
        default:
            break
        }
        unsupported("this transition", e.position)
        return nil
    }
}
