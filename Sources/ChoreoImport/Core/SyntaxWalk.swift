/// Every expression of some statements, each visited once before the expressions inside it:
/// the one walk over the intermediate form that the passes before evaluation share (the types
/// a file constructs, the names a snippet uses without declaring them).
struct SyntaxWalk {
    private let visitExpression: (Expression) -> Void

    private init(_ visit: @escaping (Expression) -> Void) { visitExpression = visit }

    /// Calls `visit` with every expression in `statements`, nested ones included.
    static func expressions(in statements: [Statement], _ visit: @escaping (Expression) -> Void) {
        SyntaxWalk(visit).walk(statements)
    }

    /// Calls `visit` with every expression of the unit: its types' property values and
    /// methods, its functions, its top-level code and its globals.
    static func expressions(in unit: SourceUnit, _ visit: @escaping (Expression) -> Void) {
        let walk = SyntaxWalk(visit)
        for type in unit.types {
            for property in type.properties { if let value = property.value { walk.walk(value) } }
            for method in type.methods { walk.walk(method.body) }
        }
        for function in unit.functions { walk.walk(function.body) }
        walk.walk(unit.topLevel)
        walk.walk(unit.globals)
    }

    private func walk(_ statements: [Statement]) {
        for statement in statements { walk(statement) }
    }

    private func walk(_ statement: Statement) {
        switch statement {
        case .expression(let e): walk(e)
        case .declare(_, let e, _): if let e { walk(e) }
        case .assign(let a, _, let b, _):
            walk(a)
            walk(b)
        case .ifStatement(let conditions, let then, let otherwise, _):
            walk(conditions)
            walk(then)
            if let otherwise { walk(otherwise) }
        case .guardStatement(let conditions, let otherwise, _):
            walk(conditions)
            walk(otherwise)
        case .forIn(_, let e, let body, _):
            walk(e)
            walk(body)
        case .forLoop(let initial, let condition, let step, let body, _):
            walk(initial)
            if let condition { walk(condition) }
            walk(step)
            walk(body)
        case .whileLoop(let e, let body, _):
            walk(e)
            walk(body)
        case .switchStatement(let e, let cases, _):
            walk(e)
            for c in cases {
                for pattern in c.patterns { walk(pattern) }
                walk(c.body)
            }
        case .returnStatement(let e, _): if let e { walk(e) }
        case .function(let f): walk(f.body)
        case .breakStatement, .continueStatement, .unsupported: break
        }
    }

    private func walk(_ conditions: [Condition]) {
        for condition in conditions {
            switch condition {
            case .expression(let e), .binding(_, let e): walk(e)
            }
        }
    }

    private func walk(_ expression: Expression) {
        visitExpression(expression)
        switch expression {
        case .call(let callee, let arguments, _):
            walk(callee)
            for argument in arguments { walk(argument.value) }
        case .member(let base, _, _): if let base { walk(base) }
        case .closure(let closure, _): walk(closure.body)
        case .binary(_, let a, let b, _):
            walk(a)
            walk(b)
        case .prefix(_, let e, _): walk(e)
        case .ternary(let a, let b, let c, _):
            walk(a)
            walk(b)
            walk(c)
        case .array(let elements, _): for e in elements { walk(e) }
        case .dictionary(let pairs, _):
            for (k, v) in pairs {
                walk(k)
                walk(v)
            }
        case .subscriptAccess(let base, let arguments, _):
            walk(base)
            for argument in arguments { walk(argument.value) }
        case .literal, .name, .unsupported: break
        }
    }
}
