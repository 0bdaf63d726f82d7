import ChoreoJSON

/// A call's evaluated arguments, looked up by label.
struct Arguments {
    var items: [(label: String?, value: Value)]

    subscript(label: String) -> Value? { items.first { $0.label == label }?.value }

    var labels: [String?] { items.map(\.label) }
    var count: Int { items.count }
    var unlabelled: [Value] { items.filter { $0.label == nil }.map(\.value) }

    /// The closures among the arguments, labelled or trailing, in order.
    var closures: [(label: String?, closure: ClosureValue)] {
        items.compactMap { item in
            if case .closure(let c) = item.value { return (item.label, c) }
            return nil
        }
    }

    /// The closure labelled `label`, else the `index`th unlabelled closure (a trailing one).
    func closure(_ label: String, orTrailing index: Int) -> ClosureValue? {
        if case .closure(let c)? = self[label] { return c }
        let trailing = closures.filter { $0.label == nil }
        return trailing.indices.contains(index) ? trailing[index].closure : nil
    }

    /// A block's body and completion: labelled, or trailing in that order (`animate(withDuration:
    /// animations: {…}) { _ in … }` has a labelled body and a trailing completion).
    func blockClosures(body: String, completion: String) -> (body: ClosureValue?, completion: ClosureValue?) {
        let trailing = closures.filter { $0.label == nil }.map(\.closure)
        var next = 0
        var bodyClosure: ClosureValue?
        if case .closure(let c)? = self[body] {
            bodyClosure = c
        } else if !trailing.isEmpty {
            bodyClosure = trailing[0]
            next = 1
        }
        if case .closure(let c)? = self[completion] { return (bodyClosure, c) }
        return (bodyClosure, trailing.indices.contains(next) ? trailing[next] : nil)
    }

    func first(_ labels: String...) -> Value? {
        for label in labels { if let value = self[label] { return value } }
        return nil
    }
}

extension ImportEvaluator {
    func evaluate(_ expression: Expression, _ scope: Scope, selfValue: Value?) throws(ImportStop) -> Value {
        try step(expression.position)
        switch expression {
        case .literal(let literal, _):
            switch literal {
            case .integer(let i): return .integer(i)
            case .number(let d): return .number(d)
            case .string(let s): return .string(s)
            case .bool(let b): return .bool(b)
            case .null: return .null
            }
        case .name(let name, let position):
            return try lookup(name, scope, selfValue: selfValue, position)
        case .member(nil, let name, let position):
            return implicitMember(name, position)
        case .member(let base?, let name, let position):
            if case .name(let written, _) = base, scope.lookup(written) == nil,
                selfValue.flatMap(instance).map({ $0.fields[written] == nil }) ?? true,
                let typeName = resolveType(written, from: typeContext(selfValue))
            {
                if types[typeName] != nil, let value = try typeMember(typeName, name, position) { return value }
                if typeName != written, let value = staticMember(typeName, name) { return value }
            }
            if case .name(let typeName, _) = base, scope.lookup(typeName) == nil,
                types[typeName]?.cases.contains(name) == true
            {
                return .enumValue(typeName, name)
            }
            if case .name(let typeName, _) = base, scope.lookup(typeName) == nil,
                let value = staticMember(typeName, name)
            {
                return value
            }
            let baseValue = try evaluate(base, scope, selfValue: selfValue)
            return try member(baseValue, name, position)
        case .call(let callee, let arguments, let position):
            return try evaluateCall(callee, arguments, position, scope, selfValue: selfValue)
        case .closure(let syntax, let position):
            guard syntax.capturesValues else {
                return .closure(ClosureValue(syntax: syntax, scope: scope, selfValue: selfValue, position: position))
            }
            // A block's copy of the variables it sees (the file's globals stay shared).
            let copy = Scope(parent: globals)
            var current: Scope? = scope
            while let level = current, level !== globals {
                for (name, value) in level.variables where copy.variables[name] == nil {
                    copy.variables[name] = value
                    copy.capturedFrom[name] = level
                }
                current = level.parent
            }
            return .closure(ClosureValue(syntax: syntax, scope: copy, selfValue: selfValue, position: position))
        case .binary(let op, let lhs, let rhs, let position):
            switch op {
            case "&&":
                let left = try evaluate(lhs, scope, selfValue: selfValue)
                if case .runtime = left { return left }
                guard try truth(left, position) else { return .bool(false) }
                let right = try evaluate(rhs, scope, selfValue: selfValue)
                if case .runtime = right { return right }
                return .bool(try truth(right, position))
            case "||":
                let left = try evaluate(lhs, scope, selfValue: selfValue)
                if case .runtime = left { return left }
                if try truth(left, position) { return .bool(true) }
                let right = try evaluate(rhs, scope, selfValue: selfValue)
                if case .runtime = right { return right }
                return .bool(try truth(right, position))
            case "??":
                let left = try evaluate(lhs, scope, selfValue: selfValue)
                if case .null = left { return try evaluate(rhs, scope, selfValue: selfValue) }
                return left
            case "=":
                // An assignment used as a value, as C has it: `if (self = [super initWithFrame:frame])`.
                let value = try evaluate(rhs, scope, selfValue: selfValue)
                try assign(lhs, value, scope, selfValue: selfValue)
                return value
            default:
                let left = try evaluate(lhs, scope, selfValue: selfValue)
                let right = try evaluate(rhs, scope, selfValue: selfValue)
                return try binary(op, left, right, position)
            }
        case .prefix(let op, let operand, let position):
            let value = try evaluate(operand, scope, selfValue: selfValue)
            switch (op, value) {
            case ("-", .integer(let i)): return .integer(-i)
            case ("-", .number(let d)): return .number(-d)
            case ("+", _): return value
            case ("!", .bool(let b)): return .bool(!b)
            case ("!", .runtime(let r)): return r.negated.map { .runtime($0) } ?? value
            case ("!", .null): return .bool(true)
            case ("!", .object): return .bool(false)
            case ("!", .integer(let i)): return .bool(i == 0)
            default:
                if value.isRuntime { return value }
                throw stop(position, "\(op) does not apply to \(value.kindName)")
            }
        case .ternary(let condition, let then, let otherwise, let position):
            let test = try evaluate(condition, scope, selfValue: selfValue)
            if case .runtime(let runtime) = test {
                warn(
                    position,
                    "this condition depends on \(runtime.description), known only at run time: the import takes the first branch"
                )
                return try evaluate(then, scope, selfValue: selfValue)
            }
            return try evaluate(try truth(test, position) ? then : otherwise, scope, selfValue: selfValue)
        case .array(let elements, _):
            var values: [Value] = []
            for element in elements { values.append(try evaluate(element, scope, selfValue: selfValue)) }
            return .array(values)
        case .dictionary(let pairs, _):
            var values: [(Value, Value)] = []
            for (key, value) in pairs {
                values.append(
                    (try evaluate(key, scope, selfValue: selfValue), try evaluate(value, scope, selfValue: selfValue)))
            }
            return .dictionary(values)
        case .subscriptAccess(let base, let arguments, let position):
            let container = try evaluate(base, scope, selfValue: selfValue)
            guard let first = arguments.first else { return container }
            let key = try evaluate(first.value, scope, selfValue: selfValue)
            switch container {
            case .array(let elements):
                guard let i = integer(key) else { throw stop(position, "an array index must be an Int") }
                guard elements.indices.contains(i) else {
                    throw stop(position, "index \(i) is out of range (the array has \(elements.count) elements)")
                }
                return elements[i]
            case .dictionary(let pairs):
                return pairs.first { equal($0.0, key) }?.1 ?? .null
            case .runtime:
                return container
            default:
                throw stop(position, "\(container.kindName) has no subscript")
            }
        case .unsupported(let what, let position):
            warn(position, "\(what) is not imported; its value is unknown")
            return .runtime(.unknown(what))
        }
    }

    /// A name: a variable, `self`, a stored property or method of `self`, a type, or a constant.
    func lookup(_ name: String, _ scope: Scope, selfValue: Value?, _ position: SourcePosition) throws(ImportStop)
        -> Value
    {
        // Swift's and Objective-C's scopes: locals, then `self`'s members, then the file's
        // globals (a member `view` shadows a snippet's global `view`).
        if let value = selfValue == nil ? scope.lookup(name) : scope.lookup(name, inside: globals) { return value }
        if name == "self" || name == "strongSelf" {
            // A block or callback of a snippet runs later, when its `self` is still the view
            // controller the snippet was written in.
            if selfValue == nil, topLevelEntry || isSnippet { return snippetController(position) }
            return selfValue ?? .null
        }
        // UIKit's own implementations: `super.viewDidLoad()` and friends do nothing here.
        if name == "super" { return .typeName("super") }
        if let selfValue, let object = instance(selfValue), let getter = getter(object, name) {
            return try call(getter, on: selfValue, arguments: [], at: position)
        }
        if let selfValue, let object = instance(selfValue) {
            if let lazy = try lazyProperty(object, selfValue, name, position) { return lazy }
            var stripped = name
            if stripped.hasPrefix("_") { stripped.removeFirst() }
            if let value = object.fields[name] ?? object.fields[stripped] { return value }
            // A view subclass's own view properties: `bounds`, `frame`, `layer`, `superview`.
            if let layer = layer(selfValue), sceneProperty(name, layer) != nil || Self.viewProperties.contains(name) {
                return try layerMember(selfValue, name, position)
            }
            // UIKit's properties of a view controller, before a method of the same name.
            if isViewController(object.typeName), layer(selfValue) == nil {
                if name == "view" { return try viewOf(selfValue, at: position) }
                if name == "navigationController" { return navigationController(of: selfValue) }
            }
            if method(object.typeName, name) != nil { return .method(selfValue, name) }
        }
        if let context = typeContext(selfValue) {
            if let value = try visibleTypeProperty(name, from: context, position) { return value }
            if name == "Self" { return .typeName(context) }
        }
        if name.first?.isUppercase == true, let type = resolveType(name, from: typeContext(selfValue)), type != name {
            return .typeName(type)
        }
        if let value = globals.lookup(name) { return value }
        if types[name] != nil || functions[name] != nil { return .typeName(name) }
        if let constant = constant(name) { return constant }
        if knownTypes.contains(name) { return .typeName(name) }
        if let view = snippetView(name, position) { return view }
        // A capitalised name is a type or a constant of another file of the module.
        let elsewhere = name.first?.isUppercase == true
        warn(
            position, "\(name) is not declared in this file; its value is unknown",
            fix: elsewhere
                ? "if another file declares \(name), import them together (choreo import FILE OTHER…, or files in POST /v1/import)"
                : nil)
        return .runtime(.unknown(name))
    }

    /// `view` in top-level code that does not declare it: the snippet was written in a view
    /// controller (`UIViewController.view`), so its view on screen is the canvas, as a view
    /// controller entry point's is. Once made, it is a global like the snippet's variables.
    func snippetView(_ name: String, _ position: SourcePosition) -> Value? {
        guard name == "view", topLevelEntry, canvasObject == nil else { return nil }
        let canvas = LayerObject(kind: .layer, className: "UIView", isView: true, created: position)
        canvas.isCanvas = true
        canvas.id = "view"
        canvas.everAttached = true
        if canvasSize == nil { canvasSize = (screen.width, screen.height) }
        let value = allocate(.layer(canvas))
        if case .object(let index) = value { canvasObject = index }
        globals.variables["view"] = value
        note(
            position,
            "view is not declared: the code is taken as a view controller's, and view as its view on screen (the scene's canvas)"
        )
        return value
    }

    /// `self` in top-level code: the view controller the snippet was written in, whose `view`
    /// is the canvas (``snippetView(_:_:)``).
    func snippetController(_ position: SourcePosition) -> Value {
        if let controller = globals.lookup("$snippetController") { return controller }
        let object = InstanceObject(typeName: "UIViewController")
        object.fields["view"] =
            globals.lookup("view") ?? snippetView("view", position) ?? canvasObject.map { .object($0) } ?? .null
        let controller = allocate(.instance(object))
        globals.variables["$snippetController"] = controller
        return controller
    }

    /// A method of one of the file's types (or of a type it inherits from, in the file).
    func method(_ typeName: String, _ name: String, labels: [String?]? = nil) -> FunctionDeclaration? {
        var seen: Set<String> = []
        var current: String? = typeName
        while let type = current, seen.insert(type).inserted, let syntax = types[type] {
            let named = syntax.methods.filter { $0.name == name }
            if let labels, let exact = named.first(where: { $0.labels == labels }) { return exact }
            if let labels, let counted = named.first(where: { $0.labels.count == labels.count }) { return counted }
            if let any = named.first { return any }
            current = syntax.inherits.first
        }
        return nil
    }

    /// The method of one of the file's types (or of one it inherits from, in the file) that a
    /// call means (``resolve(_:_:)``): the nearest type that declares the name decides.
    func method(_ typeName: String, _ name: String, for arguments: Arguments) -> FunctionDeclaration? {
        var seen: Set<String> = []
        var current: String? = typeName
        while let type = current, seen.insert(type).inserted, let syntax = types[type] {
            if let found = resolve(syntax.methods.filter { $0.name == name }, arguments) { return found }
            current = syntax.inherits.first
        }
        return nil
    }

    func evaluateCall(
        _ callee: Expression, _ arguments: [Argument], _ position: SourcePosition, _ scope: Scope, selfValue: Value?
    ) throws(ImportStop) -> Value {
        var evaluated = Arguments(items: [])
        for argument in arguments {
            evaluated.items.append((argument.label, try evaluate(argument.value, scope, selfValue: selfValue)))
        }
        switch callee {
        case .array(let element, _) where element.count == 1 && evaluated.items.isEmpty:
            // `[CALayer]()`: an empty array of that type.
            return .array([])
        case .dictionary(let pair, _) where pair.count == 1 && evaluated.items.isEmpty:
            return .dictionary([])
        case .name(let written, _):
            // `Keys(…)` in the type that nests `Keys`, `Color(…)` for `typealias Color = UIColor`.
            let name =
                written.first?.isUppercase == true && scope.lookup(written) == nil
                ? resolveType(written, from: typeContext(selfValue)) ?? written : written
            if let value = scope.lookup(name) {
                if case .closure(let closure) = value {
                    return try invoke(closure, evaluated.items.map(\.value), at: position)
                }
                if case .typeName(let type) = value { return try construct(type, evaluated, position) }
            }
            if let selfValue, let object = instance(selfValue),
                let function = method(object.typeName, name, for: evaluated)
            {
                return try call(function, on: selfValue, with: evaluated, at: position)
            }
            if let function = resolve(functions[name] ?? [], evaluated) {
                return try call(function, on: .null, with: evaluated, at: position)
            }
            if types[name] != nil, !extendsFrameworkType(name) {
                return try constructInstance(name, evaluated, position)
            }
            // `present(sheet, animated: false)`, `update(progress)`, `addSubview(v)`: UIKit's
            // methods of `self`, called without it.
            if let selfValue, name.first?.isLowercase == true, !Self.freeFunctions.contains(name) {
                return try callMethod(selfValue, name, evaluated, position)
            }
            return try callFunction(name, evaluated, position)
        case .member(nil, let name, _):
            return try implicitCall(name, evaluated, position)
        case .member(.name("super", _), let name, _):
            // UIKit's own implementation: an initializer returns the object being made, framed
            // as `-[UIView initWithFrame:]` frames it (`[super initWithFrame:r]` from `-init`).
            if name == "initWithFrame", let selfValue, layer(selfValue) != nil,
                let frame = evaluated.items.first?.value
            {
                try setMember(selfValue, "frame", frame, position)
            }
            return name.hasPrefix("init") ? selfValue ?? .null : .null
        case .member(let base?, let name, _):
            if case .name(let written, _) = base, scope.lookup(written) == nil,
                selfValue.flatMap(instance).map({ $0.fields[written] == nil }) ?? true,
                let typeName = Optional(resolveType(written, from: typeContext(selfValue)) ?? written),
                types[typeName] != nil || knownTypes.contains(typeName)
            {
                // `Outer.Inner(…)`: a nested type's initializer.
                if types[typeName] != nil, case .typeName(let nested)? = try typeMember(typeName, name, position) {
                    return try construct(nested, evaluated, position)
                }
                if let function = method(typeName, name, for: evaluated)
                    ?? types[typeName]?.methods.first(where: { $0.name == name })
                {
                    return try call(
                        function, on: .typeName(typeName), arguments: evaluated.items.map(\.value), at: position)
                }
                if let value = try runtimeMessage(.typeName(typeName), name, evaluated, position) { return value }
                // `UIView.AnimationOptions()`: a framework's nested type, constructed.
                if name.first?.isUppercase == true, case .typeName(let nested)? = frameworkTypeMember(typeName, name) {
                    return try construct(nested, evaluated, position)
                }
                return try callStatic(typeName, name, evaluated, position)
            }
            let target = try evaluate(base, scope, selfValue: selfValue)
            if case .array(let elements) = target, Self.arrayMutations.contains(name) {
                return try mutate(elements, name, evaluated, base, scope, selfValue: selfValue, position)
            }
            // `isOn.toggle()`: the Bool changed where it is stored.
            if case .bool(let flag) = target, name == "toggle", evaluated.items.isEmpty {
                try assign(base, .bool(!flag), scope, selfValue: selfValue)
                return .null
            }
            if case .string(let text) = target, let changed = mutatedString(text, name, evaluated) {
                try checkSize(changed.utf8.count, of: target, position)
                try assign(base, .string(changed), scope, selfValue: selfValue)
                return .null
            }
            return try callMethod(target, name, evaluated, position)
        default:
            let target = try evaluate(callee, scope, selfValue: selfValue)
            if case .closure(let closure) = target {
                return try invoke(closure, evaluated.items.map(\.value), at: position)
            }
            if case .typeName(let type) = target { return try construct(type, evaluated, position) }
            if case .method(let object, let name) = target { return try callMethod(object, name, evaluated, position) }
            warn(position, "this call is not imported; its value is unknown")
            return .runtime(.unknown("a call"))
        }
    }

    static let arrayMutations: Set<String> = [
        "append", "add", "addObject", "insert", "insertObject", "removeAll", "removeAllObjects", "removeLast",
        "removeLastObject", "removeFirst", "remove", "removeObject", "removeObjectAtIndex", "addObjectsFromArray",
    ]

    /// `nodes.append(node)`, `[nodes addObject:node]`: the array changed where it is stored, its
    /// new elements named after it (`nodes[2]`).
    func mutate(
        _ elements: [Value], _ name: String, _ arguments: Arguments, _ base: Expression, _ scope: Scope,
        selfValue: Value?, _ position: SourcePosition
    ) throws(ImportStop) -> Value {
        var updated = elements
        let values = arguments.items.map(\.value)
        var removed: Value = .null
        let added = values.first.map { value in
            if case .array(let more) = value, name == "addObjectsFromArray" || arguments.labels.first == "contentsOf" {
                return more.count
            }
            return 1
        }
        try checkSize(elements.count + (added ?? 0), of: .array([]), position)
        switch name {
        case "append", "add", "addObject":
            if case .array(let more)? = values.first, arguments.labels.first == "contentsOf" {
                updated += more
            } else if let value = values.first {
                updated.append(value)
            }
        case "addObjectsFromArray":
            if case .array(let more)? = values.first { updated += more }
        case "insert", "insertObject":
            guard let value = values.first else { break }
            let index = arguments.first("at", "atIndex").flatMap(integer) ?? updated.count
            updated.insert(value, at: min(max(index, 0), updated.count))
        case "removeAll", "removeAllObjects":
            updated.removeAll()
        case "removeLast", "removeLastObject":
            removed = updated.popLast() ?? .null
        case "removeFirst":
            if !updated.isEmpty { removed = updated.removeFirst() }
        case "remove", "removeObjectAtIndex":
            if let index = values.first.flatMap(integer), updated.indices.contains(index) {
                removed = updated.remove(at: index)
            }
        default:
            if let value = values.first { updated.removeAll { equal($0, value) } }
        }
        try assign(base, .array(updated), scope, selfValue: selfValue)
        if updated.count > elements.count, let bound = boundName(base) {
            for index in elements.count..<updated.count {
                self.name(updated[index], "\(bound)[\(index)]", provisional: false)
            }
        }
        return removed
    }

    /// The name an expression stores under: `nodes`, `self.nodes`.
    func boundName(_ expression: Expression) -> String? {
        switch expression {
        case .name(let name, _): name
        case .member(_, let name, _): name
        default: nil
        }
    }

    /// A view's properties that are not scene properties but read as values.
    static let viewProperties: Set<String> = ["layer", "superview", "subviews", "window", "superlayer", "sublayers"]

    /// The free functions the importer knows whose names begin in lower case.
    static let freeFunctions: Set<String> = [
        "print", "NSLog", "debugPrint", "os_log", "min", "max", "fmin", "fmax", "fminf", "fmaxf", "abs", "fabs",
        "fabsf",
        "sqrt", "sqrtf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "atan2", "atan2f", "pow", "powf", "floor",
        "floorf",
        "ceil", "ceilf", "round", "roundf", "dispatch_time", "dispatch_get_main_queue", "dispatch_after",
        "dispatch_async", "dispatch_once",
    ]

    /// A method on a value: the file's methods on its instances, UIKit's on views and layers.
    func callMethod(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        if let value = try runtimeMessage(target, name, arguments, position) { return value }
        switch target {
        case .object:
            if let value = try anchorMethod(target, name, arguments, position) { return value }
            if let context = transitionContext(target) { return try contextMember(context, name, arguments, position) }
            if let object = instance(target),
                let value = try controllerMethod(target, object, name, arguments, position)
            {
                return value
            }
            if let object = instance(target), let value = try gestureMethod(target, object, name, arguments, position) {
                return value
            }
            if let object = instance(target) {
                if let function = method(object.typeName, name, for: arguments) {
                    return try call(function, on: target, with: arguments, at: position)
                }
                if case .closure(let closure)? = object.fields[name] {
                    return try invoke(closure, arguments.items.map(\.value), at: position)
                }
                if let value = try accessorMessage(target, name, arguments, position) { return value }
                if layer(target) == nil { return try unknownAPI("\(object.typeName).\(name)", position) }
            }
            if path(target) != nil { return try pathMethod(target, name, arguments, position) }
            if let animator = animator(target) { return try animatorMethod(animator, name, arguments, position) }
            if let value = try accessorMessage(target, name, arguments, position) { return value }
            if layer(target) != nil { return try layerMethod(target, name, arguments, position) }
            if animation(target) != nil { return try animationMethod(target, name, arguments, position) }
            return try unknownAPI(name, position)
        case .typeName("UIScreen.main") where ["scale", "nativeScale", "bounds"].contains(name):
            // `[[UIScreen mainScreen] scale]`, a message in Objective-C.
            return try member(target, name, position)
        case .color where (name == "CGColor" || name == "cgColor") && arguments.items.isEmpty:
            return target
        case .typeName(let type):
            if types[type] != nil, let function = method(type, name, for: arguments) {
                return try call(function, on: target, with: arguments, at: position)
            }
            return try callStatic(type, name, arguments, position)
        case .enumCase(let caseName)
        where types.values.contains { $0.cases.contains(caseName) && method($0.name, name) != nil }:
            // `.ring.layerWith(…)` or a parameter given `.ring`: the case of the file's enum
            // that has the method.
            let type = types.values.filter { $0.cases.contains(caseName) && method($0.name, name) != nil }
                .min { $0.position < $1.position }!.name
            return try callMethod(.enumValue(type, caseName), name, arguments, position)
        case .enumValue(let type, _):
            guard let function = method(type, name, for: arguments) else {
                return try unknownAPI("\(type).\(name)", position)
            }
            return try call(function, on: target, with: arguments, at: position)
        case .closure(let closure) where name == "callAsFunction":
            return try invoke(closure, arguments.items.map(\.value), at: position)
        case .runtime:
            if name == "completeTransition" {
                return try completeTransition(arguments, position)
            }
            if let value = try runtimeMethod(target, name, arguments, position) { return value }
            warn(position, "\(name) is called on \(target.kindName), known only at run time; skipped")
            return .runtime(.unknown("\(name)(…)"))
        case .null:
            // Optional chaining on nil: nothing happens.
            return .null
        default:
            return try valueMethod(target, name, arguments, position)
        }
    }

    /// Objective-C's accessor messages: `[view setAlpha:0.5]` sets `alpha`, `[view alpha]` reads it.
    func accessorMessage(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        if arguments.count == 1, name.count > 3, name.hasPrefix("set"), let first = name.dropFirst(3).first,
            first.isUppercase
        {
            let property = lowerFirst(String(name.dropFirst(3)))
            let isKnown: Bool
            if let layer = layer(target) {
                isKnown = sceneProperty(property, layer) != nil || Self.ignoredProperties.contains(property)
            } else if animation(target) != nil {
                isKnown = animationField(property) != nil || property == "delegate"
            } else if let object = instance(target) {
                isKnown = hasProperty(object, property) || object.fields[property] != nil
            } else {
                isKnown = false
            }
            guard isKnown else { return nil }
            try setMember(target, property, arguments.items[0].value, position)
            return .null
        }
        if arguments.count == 0 {
            if let layer = layer(target), sceneProperty(name, layer) != nil {
                return try layerMember(target, name, position)
            }
            if animation(target) != nil, animationField(name) != nil { return animationMember(target, name) }
            if let object = instance(target), let field = object.fields[name] { return field }
        }
        return nil
    }

    func unknownAPI(_ name: String, _ position: SourcePosition) throws(ImportStop) -> Value {
        warn(position, "\(name) is not an API the importer knows; the call is skipped")
        return .runtime(.unknown(name))
    }

    /// Calls one of the file's functions or methods.
    func call(_ function: FunctionDeclaration, on target: Value, arguments: [Value], at position: SourcePosition)
        throws(ImportStop) -> Value
    {
        depth += 1
        defer { depth -= 1 }
        if depth > limits.callDepth {
            throw stop(position, "calls nest more than \(limits.callDepth) deep here (\(function.signature))")
        }
        let scope = Scope(parent: globals)
        for (index, parameter) in function.parameters.enumerated() {
            scope.variables[parameter] = index < arguments.count ? arguments[index] : .null
        }
        let selfValue: Value? = if case .null = target { nil } else { target }
        // A class method is a message to the class: `+initialize` first (ObjCRuntime.swift).
        if case .typeName(let type) = target, !(function.isStatic && function.name == "load") {
            try initializeClass(type)
        }
        // A function or getter whose body is one expression returns it (SE-0255).
        if function.body.count == 1, case .expression(let expression) = function.body[0] {
            return try evaluate(expression, scope, selfValue: selfValue)
        }
        if case .returned(let value) = try execute(function.body, scope, selfValue: selfValue) { return value }
        return .null
    }

    /// Calls a closure or block.
    func invoke(_ closure: ClosureValue, _ arguments: [Value], at position: SourcePosition) throws(ImportStop) -> Value
    {
        depth += 1
        defer { depth -= 1 }
        if depth > limits.callDepth {
            throw stop(position, "calls nest more than \(limits.callDepth) deep here")
        }
        let scope = Scope(parent: closure.scope)
        for (index, argument) in arguments.enumerated() {
            scope.variables["$\(index)"] = argument
            if index < closure.syntax.parameters.count, closure.syntax.parameters[index] != "_" {
                scope.variables[closure.syntax.parameters[index]] = argument
            }
        }
        // A single-expression closure returns its value.
        if closure.syntax.body.count == 1, case .expression(let expression) = closure.syntax.body[0] {
            return try evaluate(expression, scope, selfValue: closure.selfValue)
        }
        if case .returned(let value) = try execute(closure.syntax.body, scope, selfValue: closure.selfValue) {
            return value
        }
        return .null
    }

    /// `Type(...)` for one of the file's types.
    func constructInstance(_ name: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop)
        -> Value
    {
        if types[name]?.cases.isEmpty == false, arguments.count == 1, arguments.labels.first == "rawValue",
            method(name, "init", for: arguments) == nil
        {
            return try enumCase(name, rawValue: arguments.items[0].value, position)
        }
        let value = try instantiate(name, at: position, arguments: arguments)
        // Swift's `init(frame:)`, Objective-C's `initWithFrame:`.
        let objectiveC = arguments.labels.first.flatMap { $0 }.map {
            "initWith" + $0.prefix(1).uppercased() + $0.dropFirst()
        }
        let initializer =
            method(name, "init", for: arguments) ?? objectiveC.flatMap { method(name, $0) }
            ?? (arguments.count == 0 ? method(name, "init", labels: []) : nil)
        if let initializer {
            // The type whose initializer runs: the nearest in the chain that declares it.
            if let object = instance(value) {
                var declaring = name
                var seen: Set<String> = []
                while seen.insert(declaring).inserted, let type = types[declaring],
                    !type.methods.contains(where: { $0.position == initializer.position }),
                    let next = type.inherits.first
                {
                    declaring = next
                }
                initializing.append((ObjectIdentifier(object), declaring))
            }
            defer { if instance(value) != nil { initializing.removeLast() } }
            _ = try call(initializer, on: value, with: arguments, at: position)
        } else if layer(value) == nil, let object = instance(value) {
            // A struct's memberwise initializer.
            for item in arguments.items { if let label = item.label { object.fields[label] = item.value } }
        }
        return value
    }

    // MARK: Operators

    func integer(_ value: Value) -> Int? {
        switch value {
        case .integer(let i): i
        case .number(let d) where d == d.rounded() && abs(d) < 1e15: Int(d)
        default: nil
        }
    }

    func double(_ value: Value, _ position: SourcePosition, _ what: String = "a number") throws(ImportStop) -> Double {
        if let number = value.number { return number }
        if case .bool(let b) = value { return b ? 1 : 0 }
        throw stop(position, "expected \(what), found \(value.kindName)")
    }

    func binary(_ op: String, _ left: Value, _ right: Value, _ position: SourcePosition) throws(ImportStop) -> Value {
        if case .runtime(let runtime) = left {
            if op == "==" || op == "!=", case .enumCase(let name) = right, runtime == .animatorPosition {
                return .runtime(.positionIs(name, negated: op == "!="))
            }
            return left
        }
        if case .runtime = right { return right }
        switch op {
        case "==": return .bool(equal(left, right))
        case "!=", "!==": return .bool(!equal(left, right))
        case "===": return .bool(equal(left, right))
        case "..<", "...":
            guard let low = integer(left), let high = integer(right) else {
                throw stop(position, "a range needs whole numbers")
            }
            let upper = op == "..<" ? high : high + 1
            guard upper - low <= limits.loopIterations else {
                throw stop(position, "the range has more than \(limits.loopIterations) elements")
            }
            return .array(upper > low ? (low..<upper).map { .integer($0) } : [])
        case "<", ">", "<=", ">=":
            let a = try double(left, position)
            let b = try double(right, position)
            switch op {
            case "<": return .bool(a < b)
            case ">": return .bool(a > b)
            case "<=": return .bool(a <= b)
            default: return .bool(a >= b)
            }
        default:
            return try arithmetic(op, left, right, position)
        }
    }

    func arithmetic(_ op: String, _ left: Value, _ right: Value, _ position: SourcePosition) throws(ImportStop) -> Value
    {
        if left.isRuntime { return left }
        if right.isRuntime { return right }
        switch (left, right) {
        case (.integer(let a), .integer(let b)):
            switch op {
            case "+": return .integer(a &+ b)
            case "-": return .integer(a &- b)
            case "*": return .integer(a &* b)
            case "/":
                guard b != 0 else { throw stop(position, "division by zero") }
                return .integer(a / b)
            case "%":
                guard b != 0 else { throw stop(position, "division by zero") }
                return .integer(a % b)
            case "|": return .integer(a | b)
            case "&": return .integer(a & b)
            case "<<": return .integer(b >= 0 && b < 63 ? a << b : 0)
            case ">>": return .integer(b >= 0 && b < 63 ? a >> b : 0)
            default: break
            }
        case (.string(let a), .string(let b)) where op == "+":
            try checkSize(a.utf8.count + b.utf8.count, of: left, position)
            return .string(a + b)
        case (.array(let a), .array(let b)) where op == "+":
            try checkSize(a.count + b.count, of: left, position)
            return .array(a + b)
        case (.transform(let a), .transform(let b)) where op == "*":
            return .transform(a.concatenating(b))
        case (.options(let a), .options(let b)) where op == "|":
            return .options(a + b)
        case (.options(let a), .integer(0)) where op == "|", (.integer(0), .options(let a)) where op == "|":
            return .options(a)
        default:
            if let a = left.number, let b = right.number {
                switch op {
                case "+": return .number(a + b)
                case "-": return .number(a - b)
                case "*": return .number(a * b)
                case "/": return .number(a / b)
                case "%": return .number(a.truncatingRemainder(dividingBy: b))
                default: break
                }
            }
        }
        throw stop(position, "\(op) does not apply to \(left.kindName) and \(right.kindName)")
    }

    func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.integer, _), (.number, _):
            if let x = a.number, let y = b.number { return x == y }
            return false
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.null, .null): return true
        case (.object(let x), .object(let y)): return x == y
        case (.enumCase(let x), .enumCase(let y)): return x == y
        case (.enumValue(_, let x), .enumCase(let y)), (.enumCase(let y), .enumValue(_, let x)): return x == y
        case (.enumValue(let t, let x), .enumValue(let u, let y)): return t == u && x == y
        case (.typeName(let x), .typeName(let y)): return x == y
        case (.point(let a1, let a2), .point(let b1, let b2)): return a1 == b1 && a2 == b2
        case (.size(let a1, let a2), .size(let b1, let b2)): return a1 == b1 && a2 == b2
        case (.rect(let a1, let a2, let a3, let a4), .rect(let b1, let b2, let b3, let b4)):
            return a1 == b1 && a2 == b2 && a3 == b3 && a4 == b4
        case (.transform(let x), .transform(let y)): return x.matrix == y.matrix
        case (.color(let x), .color(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        default: return false
        }
    }

    /// A description of a value for `print` and string interpolation.
    func describe(_ value: Value) -> String {
        switch value {
        case .integer(let i): String(i)
        case .number(let d): String(d)
        case .bool(let b): String(b)
        case .string(let s): s
        case .null: "nil"
        case .point(let x, let y): "(\(x), \(y))"
        case .size(let w, let h): "(\(w), \(h))"
        case .rect(let x, let y, let w, let h): "(\(x), \(y), \(w), \(h))"
        case .enumCase(let name): name
        case .enumValue(_, let name): name
        case .array(let elements): "[" + elements.map(describe).joined(separator: ", ") + "]"
        case .object:
            if let layer = layer(value) { layer.id ?? layer.className } else { value.kindName }
        default: value.kindName
        }
    }
}
