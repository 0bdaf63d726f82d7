/// The names of the file's types that its code makes (`DetailViewController()`), found by
/// walking every statement and expression once.
struct ConstructedTypes {
    private(set) var names: Set<String> = []
    private let declared: Set<String>

    init(_ unit: SourceUnit) {
        declared = Set(unit.types.map(\.name))
        for type in unit.types {
            for property in type.properties { if let value = property.value { visit(value) } }
            for method in type.methods { visit(method.body) }
        }
        for function in unit.functions { visit(function.body) }
        visit(unit.topLevel)
        visit(unit.globals)
    }

    private mutating func visit(_ statements: [Statement]) {
        for statement in statements { visit(statement) }
    }

    private mutating func visit(_ statement: Statement) {
        switch statement {
        case .expression(let e): visit(e)
        case .declare(_, let e, _): if let e { visit(e) }
        case .assign(let a, _, let b, _):
            visit(a)
            visit(b)
        case .ifStatement(let conditions, let then, let otherwise, _):
            visit(conditions)
            visit(then)
            if let otherwise { visit(otherwise) }
        case .guardStatement(let conditions, let otherwise, _):
            visit(conditions)
            visit(otherwise)
        case .forIn(_, let e, let body, _):
            visit(e)
            visit(body)
        case .forLoop(let initial, let condition, let step, let body, _):
            visit(initial)
            if let condition { visit(condition) }
            visit(step)
            visit(body)
        case .whileLoop(let e, let body, _):
            visit(e)
            visit(body)
        case .switchStatement(let e, let cases, _):
            visit(e)
            for c in cases {
                for pattern in c.patterns { visit(pattern) }
                visit(c.body)
            }
        case .returnStatement(let e, _): if let e { visit(e) }
        case .function(let f): visit(f.body)
        case .breakStatement, .continueStatement, .unsupported: break
        }
    }

    private mutating func visit(_ conditions: [Condition]) {
        for condition in conditions {
            switch condition {
            case .expression(let e), .binding(_, let e): visit(e)
            }
        }
    }

    private mutating func visit(_ expression: Expression) {
        switch expression {
        case .call(let callee, let arguments, _):
            if case .name(let name, _) = callee, declared.contains(name) { names.insert(name) }
            visit(callee)
            for argument in arguments { visit(argument.value) }
        case .member(let base, _, _): if let base { visit(base) }
        case .closure(let closure, _): visit(closure.body)
        case .binary(_, let a, let b, _):
            visit(a)
            visit(b)
        case .prefix(_, let e, _): visit(e)
        case .ternary(let a, let b, let c, _):
            visit(a)
            visit(b)
            visit(c)
        case .array(let elements, _): for e in elements { visit(e) }
        case .dictionary(let pairs, _):
            for (k, v) in pairs {
                visit(k)
                visit(v)
            }
        case .subscriptAccess(let base, let arguments, _):
            visit(base)
            for argument in arguments { visit(argument.value) }
        case .literal, .name, .unsupported: break
        }
    }
}
