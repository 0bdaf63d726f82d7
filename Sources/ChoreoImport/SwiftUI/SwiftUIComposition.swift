/// How a SwiftUI view's body is made of other code in the file: custom views used in a body
/// (`CardView(title: "A", isOn: $isOn)`), a view's computed `some View` properties and
/// `@ViewBuilder` methods, and `ForEach` — each read as SwiftUI evaluates it, its body with the
/// values it is given (docs/import.md, "SwiftUI").
extension SwiftUIImporter {
    /// `e` with each name in `values` replaced by its expression (`self.name` too); a binding
    /// passed as `$flag` is the state `flag` itself.
    static func substitute(_ e: Expression, _ values: [String: Expression]) -> Expression {
        func s(_ e: Expression) -> Expression { substitute(e, values) }
        func args(_ arguments: [Argument]) -> [Argument] { arguments.map { Argument($0.label, s($0.value)) } }
        switch e {
        case .name(let name, let p):
            if let value = values[name] { return value }
            if name.hasPrefix("$") { return .name(String(name.dropFirst()), p) }
            return e
        case .member(.name("self", _)?, let name, let p):
            // `self.name` is the view's `name`.
            return values[name] ?? .name(name, p)
        case .member(let base, let name, let p): return .member(base.map(s), name, p)
        case .call(let callee, let arguments, let p): return .call(s(callee), args(arguments), p)
        case .closure(let closure, let p):
            var inner = values
            for parameter in closure.parameters { inner[parameter] = nil }
            var copy = closure
            copy.body = substitute(closure.body, inner)
            return .closure(copy, p)
        case .binary(let op, let a, let b, let p): return .binary(op, s(a), s(b), p)
        case .prefix(let op, let a, let p): return .prefix(op, s(a), p)
        case .ternary(let c, let a, let b, let p): return .ternary(s(c), s(a), s(b), p)
        case .array(let items, let p): return .array(items.map(s), p)
        case .subscriptAccess(let base, let arguments, let p): return .subscriptAccess(s(base), args(arguments), p)
        default: return e
        }
    }

    static func substitute(_ statements: [Statement], _ values: [String: Expression]) -> [Statement] {
        var values = values
        var result: [Statement] = []
        for statement in statements {
            func s(_ e: Expression) -> Expression { substitute(e, values) }
            func c(_ conditions: [Condition]) -> [Condition] {
                conditions.map {
                    switch $0 {
                    case .expression(let e): .expression(s(e))
                    case .binding(let name, let e): .binding(name, s(e))
                    }
                }
            }
            switch statement {
            case .expression(let e): result.append(.expression(s(e)))
            case .returnStatement(let e, let p): result.append(.returnStatement(e.map(s), p))
            case .declare(let name, let e, let p):
                result.append(.declare(name, e.map(s), p))
                values[name] = nil
            case .assign(let target, let op, let value, let p): result.append(.assign(s(target), op, s(value), p))
            case .ifStatement(let conditions, let then, let otherwise, let p):
                result.append(
                    .ifStatement(c(conditions), substitute(then, values), otherwise.map { substitute($0, values) }, p))
            case .guardStatement(let conditions, let body, let p):
                result.append(.guardStatement(c(conditions), substitute(body, values), p))
            case .switchStatement(let subject, let cases, let p):
                result.append(
                    .switchStatement(
                        s(subject), cases.map { SwitchCase(patterns: $0.patterns, body: substitute($0.body, values)) },
                        p
                    ))
            default: result.append(statement)
            }
        }
        return result
    }

    /// The view types of the file, by name, their extensions merged.
    static func viewTypes(_ unit: SourceUnit) -> [String: TypeDeclaration] {
        var merged: [String: TypeDeclaration] = [:]
        for type in unit.types {
            if var known = merged[type.name] {
                known.inherits += type.inherits
                known.properties += type.properties
                known.methods += type.methods
                merged[type.name] = known
            } else {
                merged[type.name] = type
            }
        }
        return merged.filter { $0.value.inherits.contains("View") && $0.value.methods.contains { $0.name == "body" } }
    }

    /// A custom view's body as the call makes it (`CardView(title: "A", isOn: $isOn)`): each
    /// stored property the value passed (by label, in order for a memberwise initializer), else
    /// its declared one.
    /// A property with a literal value that nothing passes is the view's own `@State`: a state
    /// of the scene under its name, unless the name is taken (then it is that value).
    mutating func instantiated(_ view: TypeDeclaration, _ arguments: [Argument]) -> [Statement] {
        var values: [String: Expression] = [:]
        let stored = view.properties.filter { !$0.isStatic }
        for property in stored {
            guard let value = property.value else { continue }
            let passed = arguments.contains { $0.label == property.name }
            if !passed, state[property.name] == nil, let literal = Self.constant(value) {
                declared.append((property.name, literal))
                state[property.name] = literal
            } else {
                values[property.name] = value
            }
        }
        for argument in arguments {
            if let label = argument.label, stored.contains(where: { $0.name == label }) {
                values[label] = argument.value
            }
        }
        // `init(_ title: String)`: an unlabelled argument sets the property the initializer
        // assigns its parameter to (`self.title = title`).
        if let initializer = view.methods.first(where: { $0.name == "init" }) {
            for (index, parameter) in initializer.parameters.enumerated() where index < arguments.count {
                for case .assign(.member(.name("self", _)?, let property, _), "=", .name(parameter, _), _)
                    in initializer.body
                {
                    values[property] = arguments[index].value
                }
            }
        }
        let body = view.methods.first { $0.name == "body" }?.body ?? []
        return Self.substitute(body, values)
    }

    /// A method of the view (`@ViewBuilder func card(_ i: Int) -> some View`) or a computed
    /// `some View` property, as a call makes it: its parameters the arguments.
    func called(_ method: FunctionDeclaration, _ arguments: [Argument]) -> [Statement] {
        var values: [String: Expression] = [:]
        for (index, parameter) in method.parameters.enumerated() {
            if index < arguments.count {
                values[parameter] = arguments[index].value
            } else if index < method.defaults.count, let value = method.defaults[index] {
                values[parameter] = value
            }
        }
        return Self.substitute(method.body, values)
    }

    /// The elements `ForEach` makes views of: a range (`0..<5`, `0...n`), an array literal, or
    /// `enumerated()` of one (each element then its offset and itself); nil when not known.
    func elements(_ e: Expression) -> [Expression]? {
        switch e {
        case .binary(let op, let a, let b, let p) where op == "..<" || op == "...":
            guard let low = evaluate(a).flatMap(Self.double), let high = evaluate(b).flatMap(Self.double),
                low.isFinite, high.isFinite, high - low < 1000
            else { return nil }
            let end = op == "..<" ? Int(high) - 1 : Int(high)
            guard Int(low) <= end else { return [] }
            return (Int(low)...end).map { .literal(.integer($0), p) }
        case .array(let items, _): return items
        case .call(.name("Array", _), let arguments, _) where arguments.count == 1:
            return elements(arguments[0].value)
        case .call(.member(let base?, "enumerated", _), _, let p):
            return elements(base).map { items in
                items.enumerated().map { .array([.literal(.integer($0.offset), p), $0.element], p) }
            }
        case .call(.member(let base?, "indices", _), _, let p), .member(let base?, "indices", let p):
            return elements(base).map { items in items.indices.map { .literal(.integer($0), p) } }
        case .name(let name, _):
            if let property = type.properties.first(where: { $0.name == name }), let value = property.value {
                return elements(value)
            }
            return nil
        default: return nil
        }
    }

    /// `ForEach(data, id:) { item in … }`: the content's views for each element, the closure's
    /// parameter the element (`(offset, element)` for `enumerated()`: `item.offset`,
    /// `item.element`, or a tuple parameter).
    func forEachBodies(_ arguments: [Argument]) -> [[Statement]]? {
        guard let data = arguments.first(where: { $0.label == nil && !Self.isClosure($0.value) }),
            case .closure(let content, _)? = arguments.last?.value, let items = elements(data.value)
        else { return nil }
        return items.map { item in
            var values: [String: Expression] = [:]
            if content.parameters.count == 1 {
                values[content.parameters[0]] = item
            } else if content.parameters.count == 2, case .array(let parts, _) = item, parts.count == 2 {
                values[content.parameters[0]] = parts[0]
                values[content.parameters[1]] = parts[1]
            }
            // `$0`, and `item.offset` / `item.element` of an enumerated element.
            values["$0"] = item
            let body = Self.substitute(content.body, values)
            if case .array(let parts, _) = item, parts.count == 2 {
                return body.map { Self.resolvingTuples($0, parts) }
            }
            return body
        }
    }

    /// `pair.offset` / `pair.element` (and `.0` / `.1`) of an enumerated element as its parts.
    static func resolvingTuples(_ statement: Statement, _ parts: [Expression]) -> Statement {
        func r(_ e: Expression) -> Expression {
            switch e {
            case .member(.array(let items, _)?, let name, _) where items.count == 2:
                if name == "offset" || name == "0" { return items[0] }
                if name == "element" || name == "1" { return items[1] }
                return e
            case .member(let base, let name, let p): return .member(base.map(r), name, p)
            case .call(let callee, let arguments, let p):
                return .call(r(callee), arguments.map { Argument($0.label, r($0.value)) }, p)
            case .binary(let op, let a, let b, let p): return .binary(op, r(a), r(b), p)
            case .prefix(let op, let a, let p): return .prefix(op, r(a), p)
            case .ternary(let c, let a, let b, let p): return .ternary(r(c), r(a), r(b), p)
            case .closure(var closure, let p):
                closure.body = closure.body.map { resolvingTuples($0, parts) }
                return .closure(closure, p)
            default: return e
            }
        }
        switch statement {
        case .expression(let e): return .expression(r(e))
        case .returnStatement(let e, let p): return .returnStatement(e.map(r), p)
        default: return statement
        }
    }
}
