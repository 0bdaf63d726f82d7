import ChoreoImport
import Dispatch
import Glibc
import SwiftDiagnostics
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax
import Synchronization

// The toolchain's SwiftSyntax is the one this package is built against: the libraries of the
// Swift 6.3 toolchain (their interfaces change from one toolchain to the next).
#if !compiler(>=6.3)
    #error("choreo's Swift importer needs the Swift 6.3 toolchain's SwiftSyntax (usr/lib/swift/host)")
#endif

/// Swift source to the importer's intermediate form, through the toolchain's SwiftParser:
/// syntax errors come from SwiftParserDiagnostics with their line and column, operators are
/// folded by their standard precedence (SwiftOperators), and everything outside the subset is
/// lowered to `unsupported` where it stands, so the evaluator can warn at its line.
package enum SwiftFrontEnd {
    /// Sources of at least twice this many bytes are parsed in pieces, one a processor (at most
    /// four): below it, starting the threads costs more than it saves.
    package static let pieceBytes = 16 << 10

    /// `source` lowered; `file` is its index among the import's files (0 for the file imported).
    package static func lower(_ source: String, file: Int = 0) -> SourceUnit {
        let processors = min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return lower(source, pieces: processors, minimumPieceBytes: pieceBytes, file: file)
    }

    /// `source` lowered, in `pieces` pieces parsed at the same time when it can be cut into
    /// pieces of at least `minimumPieceBytes` (``SourcePieces``). The unit is the one a single
    /// parse gives; a source a piece of which does not parse cleanly is parsed whole, so that its
    /// diagnostics are the whole file's.
    package static func lower(_ source: String, pieces: Int, minimumPieceBytes: Int, file: Int = 0) -> SourceUnit {
        // A small source goes to one parse without a copy of its bytes for the cutting.
        guard pieces > 1, source.utf8.count >= 2 * minimumPieceBytes,
            let cut = SourcePieces(Array(source.utf8), count: pieces, minimumBytes: minimumPieceBytes)
        else {
            return lowerWhole(source, file: file)
        }
        let results = Mutex<[LoweredPiece?]>(Array(repeating: nil, count: cut.pieces.count))
        DispatchQueue.concurrentPerform(iterations: cut.pieces.count) { index in
            let lowered = lowerPiece(cut.pieces[index], file: file)
            results.withLock { $0[index] = lowered }
        }
        var unit = SourceUnit()
        for piece in results.withLock({ $0 }) {
            guard let piece else { return lowerWhole(source, file: file) }
            if let members = piece.continuation {
                guard !unit.types.isEmpty else { return lowerWhole(source, file: file) }
                unit.types[unit.types.count - 1].properties += members.properties
                unit.types[unit.types.count - 1].methods += members.methods
            }
            unit.types += piece.unit.types
            unit.functions += piece.unit.functions
            unit.topLevel += piece.unit.topLevel
            unit.globals += piece.unit.globals
            unit.diagnostics += piece.unit.diagnostics
            unit.aliases.merge(piece.unit.aliases) { first, _ in first }
        }
        return unit
    }

    /// A piece, lowered: the members it continues its type with, and what follows them.
    struct LoweredPiece: Sendable {
        var continuation: TypeDeclaration?
        var unit: SourceUnit
    }

    /// nil when the piece has any diagnostic of the parser's.
    static func lowerPiece(_ piece: SourcePieces.Piece, file: Int = 0) -> LoweredPiece? {
        let tree = piece.bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        guard !tree.hasError, !tree.hasWarning, ParseDiagnosticsGenerator.diagnostics(for: tree).isEmpty else {
            return nil
        }
        var lowering = SwiftLowering(converter: SourceLocationConverter(fileName: "", tree: tree), file: file)
        var items = Array(tree.statements)
        var continuation: TypeDeclaration?
        if piece.continuesType {
            guard let first = items.first, case .decl(let decl) = first.item,
                let wrapper = decl.as(ExtensionDeclSyntax.self),
                wrapper.extendedType.trimmedDescription == SourcePieces.wrapperName
            else { return nil }
            continuation = lowering.lowerType("", nil, wrapper.memberBlock, SourcePosition(line: 1, column: 1))
            items.removeFirst()
        }
        var unit = SourceUnit()
        lowering.lowerItems(items, into: &unit)
        unit.diagnostics += lowering.diagnostics
        return LoweredPiece(continuation: continuation, unit: unit)
    }

    /// The whole source in one parse.
    static func lowerWhole(_ source: String, file: Int = 0) -> SourceUnit {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        var unit = SourceUnit()
        for diagnostic in ParseDiagnosticsGenerator.diagnostics(for: tree) {
            let location = diagnostic.location(converter: converter)
            let severity: ImportDiagnostic.Severity =
                switch diagnostic.diagMessage.severity {
                case .error: .error
                case .warning: .warning
                default: .note
                }
            let fix = diagnostic.fixIts.first.map { "fix-it: \($0.message.message)" }
            unit.diagnostics.append(
                ImportDiagnostic(
                    severity, SourcePosition(line: location.line, column: location.column, file: file),
                    diagnostic.message, fix: fix))
        }
        var lowering = SwiftLowering(converter: converter, file: file)
        lowering.lowerItems(tree.statements, into: &unit)
        unit.diagnostics += lowering.diagnostics
        return unit
    }
}

struct SwiftLowering {
    let converter: SourceLocationConverter
    /// The file's index among the import's files.
    var file = 0
    var diagnostics: [ImportDiagnostic] = []
    /// Where the tree being lowered starts in the file: 0 but inside an operator sequence folded
    /// on its own (``folded(_:)``), whose nodes count their positions from the sequence's.
    var offset = 0

    func position(_ node: some SyntaxProtocol) -> SourcePosition {
        let location = converter.location(
            for: AbsolutePosition(utf8Offset: offset + node.positionAfterSkippingLeadingTrivia.utf8Offset))
        return SourcePosition(line: location.line, column: location.column, file: file)
    }

    /// An operator sequence (`a + b * c`, `x = y`, `c ? a : b`, `v as T`) folded by the standard
    /// precedences (SwiftOperators), lowered with `body`. Only the sequences the lowering reaches
    /// are folded, not the whole tree up front: a folded sequence is a tree of its own, so
    /// positions inside it are counted from where the sequence starts.
    mutating func folded<Result>(_ expr: ExprSyntax, _ body: (inout SwiftLowering, ExprSyntax) -> Result) -> Result {
        guard let sequence = expr.as(SequenceExprSyntax.self) else { return body(&self, expr) }
        let folded = OperatorTable.standardOperators.foldSingle(sequence) { _ in }
        let saved = offset
        if folded.parent == nil { offset += sequence.position.utf8Offset }
        defer { offset = saved }
        return body(&self, folded)
    }

    // MARK: Declarations

    mutating func lowerItems(_ items: some Sequence<CodeBlockItemSyntax>, into unit: inout SourceUnit) {
        for item in items {
            switch item.item {
            case .decl(let decl):
                if let preview = lowerPreview(decl) {
                    unit.types.append(preview)
                } else {
                    lowerTopDeclaration(decl, into: &unit)
                }
            case .stmt(let stmt):
                unit.topLevel.append(contentsOf: lowerStatement(stmt))
            case .expr(let expr):
                if let preview = lowerPreview(expr) {
                    unit.types.append(preview)
                } else {
                    unit.topLevel.append(contentsOf: lowerExpressionStatement(expr))
                }
            @unknown default:
                unit.topLevel.append(.unsupported("this statement", position(item)))
            }
        }
    }

    mutating func lowerTopDeclaration(_ decl: DeclSyntax, into unit: inout SourceUnit) {
        if let conditional = decl.as(IfConfigDeclSyntax.self) {
            // `#if canImport(UIKit)`: the clause an iOS build compiles.
            switch BuildConditions.activeClause(conditional)?.elements {
            case .statements(let items)?: lowerItems(items, into: &unit)
            case .decls(let members)?:
                for member in members { lowerTopDeclaration(member.decl, into: &unit) }
            default: break
            }
            return
        }
        if lowerTypeDeclaration(decl, enclosing: nil, into: &unit) { return }
        if let function = decl.as(FunctionDeclSyntax.self) {
            unit.functions.append(lowerFunction(function))
        } else if let alias = decl.as(TypeAliasDeclSyntax.self) {
            unit.aliases[alias.name.text] = alias.initializer.value.trimmedDescription
        } else if decl.is(ImportDeclSyntax.self) || decl.is(ProtocolDeclSyntax.self) {
            return
        } else {
            unit.topLevel.append(contentsOf: lowerDeclaration(decl))
        }
    }

    /// A class, struct, enum or extension, with the types nested in it, each under its
    /// qualified name (`Outer.Inner`: The Swift Programming Language, "Nested Types"); false
    /// when `decl` is none of them.
    mutating func lowerTypeDeclaration(_ decl: DeclSyntax, enclosing: String?, into unit: inout SourceUnit) -> Bool {
        let name: String
        let inheritance: InheritanceClauseSyntax?
        let members: MemberBlockSyntax
        if let type = decl.as(ClassDeclSyntax.self) {
            (name, inheritance, members) = (type.name.text, type.inheritanceClause, type.memberBlock)
        } else if let type = decl.as(StructDeclSyntax.self) {
            (name, inheritance, members) = (type.name.text, type.inheritanceClause, type.memberBlock)
        } else if let type = decl.as(EnumDeclSyntax.self) {
            (name, inheritance, members) = (type.name.text, type.inheritanceClause, type.memberBlock)
        } else if let type = decl.as(ExtensionDeclSyntax.self) {
            name = type.extendedType.trimmedDescription
            (inheritance, members) = (type.inheritanceClause, type.memberBlock)
        } else if let type = decl.as(ActorDeclSyntax.self) {
            (name, inheritance, members) = (type.name.text, type.inheritanceClause, type.memberBlock)
        } else {
            return false
        }
        let qualified = enclosing.map { "\($0).\(name)" } ?? name
        var lowered = lowerType(qualified, inheritance, members, position(decl))
        lowered.isExtension = decl.is(ExtensionDeclSyntax.self)
        unit.types.append(lowered)
        for member in activeMembers(members.members) {
            if let alias = member.decl.as(TypeAliasDeclSyntax.self) {
                unit.aliases["\(qualified).\(alias.name.text)"] = alias.initializer.value.trimmedDescription
            } else {
                _ = lowerTypeDeclaration(member.decl, enclosing: qualified, into: &unit)
            }
        }
        return true
    }

    mutating func lowerType(
        _ name: String, _ inheritance: InheritanceClauseSyntax?, _ members: MemberBlockSyntax,
        _ position: SourcePosition
    ) -> TypeDeclaration {
        var properties: [PropertyDeclaration] = []
        var methods: [FunctionDeclaration] = []
        var cases: [String] = []
        var rawValues: [Expression?] = []
        for member in activeMembers(members.members) {
            if let enumCase = member.decl.as(EnumCaseDeclSyntax.self) {
                cases += enumCase.elements.map(\.name.text)
                rawValues += enumCase.elements.map { $0.rawValue.map { lowerExpression($0.value) } }
            } else if let variable = member.decl.as(VariableDeclSyntax.self) {
                let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
                let isStatic = variable.modifiers.contains {
                    $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
                }
                for binding in variable.bindings {
                    guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                    if let accessor = binding.accessorBlock {
                        let name = identifier.identifier.text
                        var accessors = propertyAccessors(name, accessor, self.position(binding))
                        for index in accessors.indices { accessors[index].isStatic = isStatic }
                        methods += accessors
                        // A computed property is its accessors; one with only observers
                        // (`willSet`, `didSet`) is stored, and they run when it is set.
                        let observed =
                            !accessors.isEmpty
                            && accessors.allSatisfy {
                                $0.name.hasSuffix(".willSet") || $0.name.hasSuffix(".didSet")
                            }
                        guard observed else { continue }
                    }
                    var property = PropertyDeclaration(
                        name: identifier.identifier.text,
                        value: binding.initializer.map { lowerExpression($0.value) },
                        position: self.position(binding), isStatic: isStatic)
                    property.isLazy = isLazy
                    properties.append(property)
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                methods.append(lowerFunction(function))
            } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                let (labels, parameters) = lowerParameters(initializer.signature.parameterClause)
                var made = FunctionDeclaration(
                    name: "init", labels: labels, parameters: parameters,
                    body: initializer.body.map { lowerBlock($0.statements) } ?? [],
                    position: self.position(initializer))
                (made.defaults, made.variadic) = lowerParameterShapes(initializer.signature.parameterClause)
                methods.append(made)
            }
        }
        let inherits = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        var type = TypeDeclaration(
            name: name, inherits: inherits, properties: properties, methods: methods, position: position)
        type.cases = cases
        type.rawValues = rawValues
        return type
    }

    /// An enum: its cases and its members (`enum Shape { case circle; func layerWith(…) }`).
    mutating func lowerEnum(_ declaration: EnumDeclSyntax) -> TypeDeclaration {
        lowerType(declaration.name.text, declaration.inheritanceClause, declaration.memberBlock, position(declaration))
    }

    /// A member list with its `#if` blocks replaced by the clause an iOS build compiles.
    func activeMembers(_ members: MemberBlockItemListSyntax) -> [MemberBlockItemSyntax] {
        var result: [MemberBlockItemSyntax] = []
        for member in members {
            if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                if case .decls(let inner)? = BuildConditions.activeClause(conditional)?.elements {
                    result += activeMembers(inner)
                }
            } else {
                result.append(member)
            }
        }
        return result
    }

    /// A property's accessors as methods: the getter is `name` (no arguments), the setter
    /// `name.set`, the observers `name.willSet` and `name.didSet`, each taking the value
    /// (`newValue`, `oldValue`, or the name the code gives it).
    mutating func propertyAccessors(_ name: String, _ accessor: AccessorBlockSyntax, _ position: SourcePosition)
        -> [FunctionDeclaration]
    {
        var result: [FunctionDeclaration] = []
        func add(_ suffix: String, _ parameter: String?, _ body: [Statement]) {
            var function = FunctionDeclaration(
                name: name + suffix, labels: parameter == nil ? [] : [nil], parameters: parameter.map { [$0] } ?? [],
                body: body, position: position)
            function.isAccessor = true
            result.append(function)
        }
        switch accessor.accessors {
        case .getter(let statements):
            add("", nil, lowerBlock(statements))
        case .accessors(let list):
            for item in list {
                let body = item.body.map { lowerBlock($0.statements) } ?? []
                let given = item.parameters?.name.text
                switch item.accessorSpecifier.tokenKind {
                case .keyword(.get): add("", nil, body)
                case .keyword(.set): add(".set", given ?? "newValue", body)
                case .keyword(.willSet): add(".willSet", given ?? "newValue", body)
                case .keyword(.didSet): add(".didSet", given ?? "oldValue", body)
                default: break
                }
            }
        @unknown default:
            break
        }
        return result
    }

    mutating func lowerFunction(_ function: FunctionDeclSyntax) -> FunctionDeclaration {
        let (labels, parameters) = lowerParameters(function.signature.parameterClause)
        let isStatic = function.modifiers.contains {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        }
        var lowered = FunctionDeclaration(
            name: function.name.text, labels: labels, parameters: parameters,
            body: function.body.map { lowerBlock($0.statements) } ?? [], isStatic: isStatic,
            position: position(function),
            parameterTypes: function.signature.parameterClause.parameters.map { $0.type.trimmedDescription })
        (lowered.defaults, lowered.variadic) = lowerParameterShapes(function.signature.parameterClause)
        return lowered
    }

    /// Each parameter's default value (`= 0.5`) and whether it is variadic (`UIColor...`).
    mutating func lowerParameterShapes(_ clause: FunctionParameterClauseSyntax) -> ([Expression?], [Bool]) {
        var defaults: [Expression?] = []
        var variadic: [Bool] = []
        for parameter in clause.parameters {
            defaults.append(parameter.defaultValue.map { lowerExpression($0.value) })
            variadic.append(parameter.ellipsis != nil)
        }
        return (defaults, variadic)
    }

    func lowerParameters(_ clause: FunctionParameterClauseSyntax) -> ([String?], [String]) {
        var labels: [String?] = []
        var names: [String] = []
        for parameter in clause.parameters {
            let first = parameter.firstName.text
            labels.append(first == "_" ? nil : first)
            names.append(parameter.secondName?.text ?? first)
        }
        return (labels, names)
    }

    // MARK: Statements

    mutating func lowerBlock(_ items: CodeBlockItemListSyntax) -> [Statement] {
        var statements: [Statement] = []
        for item in items {
            switch item.item {
            case .decl(let decl): statements += lowerDeclaration(decl)
            case .stmt(let stmt): statements += lowerStatement(stmt)
            case .expr(let expr): statements += lowerExpressionStatement(expr)
            @unknown default: statements.append(.unsupported("this statement", position(item)))
            }
        }
        return statements
    }

    /// The floating-point types a literal takes from its context.
    static let floatingTypes: Set<String> = ["CGFloat", "Double", "Float", "TimeInterval", "CFTimeInterval"]

    /// Arithmetic of integer literals where a floating-point number is meant (an argument of
    /// UIKit, a view's property, a `CGFloat` constant): Swift types the literals from that
    /// context, so `253 / 255` is 0.992…, not the integer 0. Other expressions are unchanged.
    static func floatingLiterals(_ expression: Expression) -> Expression {
        func value(_ e: Expression) -> (Double, hasDivision: Bool)? {
            switch e {
            case .literal(.integer(let i), _): return (Double(i), false)
            case .literal(.number(let d), _): return (d, false)
            case .prefix("-", let operand, _): return value(operand).map { (-$0.0, $0.hasDivision) }
            case .binary(let op, let lhs, let rhs, _) where ["+", "-", "*", "/"].contains(op):
                guard let l = value(lhs), let r = value(rhs) else { return nil }
                let division = op == "/" || l.hasDivision || r.hasDivision
                switch op {
                case "+": return (l.0 + r.0, division)
                case "-": return (l.0 - r.0, division)
                case "*": return (l.0 * r.0, division)
                default: return r.0 == 0 ? nil : (l.0 / r.0, true)
                }
            default: return nil
            }
        }
        guard case .binary = expression, let (result, hasDivision) = value(expression), hasDivision else {
            return expression
        }
        return .literal(.number(result), expression.position)
    }

    mutating func lowerDeclaration(_ decl: DeclSyntax) -> [Statement] {
        if let variable = decl.as(VariableDeclSyntax.self) {
            var statements: [Statement] = []
            for binding in variable.bindings {
                if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) {
                    var value = binding.initializer.map { lowerExpression($0.value) }
                    if let type = binding.typeAnnotation?.type.trimmedDescription, Self.floatingTypes.contains(type) {
                        value = value.map(Self.floatingLiterals)
                    }
                    statements.append(.declare(identifier.identifier.text, value, position(binding)))
                } else if let tuple = binding.pattern.as(TuplePatternSyntax.self),
                    let value = binding.initializer?.value
                {
                    // let (a, b) = (1, 2)
                    let lowered = lowerExpression(value)
                    let temporary = "$tuple\(position(binding).line)_\(position(binding).column)"
                    statements.append(.declare(temporary, lowered, position(binding)))
                    for (index, element) in tuple.elements.enumerated() {
                        guard let name = element.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
                            continue
                        }
                        statements.append(
                            .declare(
                                name,
                                .subscriptAccess(
                                    .name(temporary, position(element)),
                                    [Argument(nil, .literal(.integer(index), position(element)))], position(element)),
                                position(element)))
                    }
                } else {
                    statements.append(.unsupported("this pattern", position(binding)))
                }
            }
            return statements
        }
        if let function = decl.as(FunctionDeclSyntax.self) {
            return [.function(lowerFunction(function))]
        }
        if let conditional = decl.as(IfConfigDeclSyntax.self) {
            guard case .statements(let items)? = BuildConditions.activeClause(conditional)?.elements else { return [] }
            return lowerBlock(items)
        }
        return [.unsupported("this declaration", position(decl))]
    }

    mutating func lowerStatement(_ stmt: StmtSyntax) -> [Statement] {
        if let expression = stmt.as(ExpressionStmtSyntax.self) {
            return lowerExpressionStatement(expression.expression)
        }
        if let ret = stmt.as(ReturnStmtSyntax.self) {
            return [.returnStatement(ret.expression.map { lowerExpression($0) }, position(ret))]
        }
        if let guardStmt = stmt.as(GuardStmtSyntax.self) {
            return [
                .guardStatement(
                    lowerConditions(guardStmt.conditions), lowerBlock(guardStmt.body.statements), position(guardStmt))
            ]
        }
        if let forStmt = stmt.as(ForStmtSyntax.self) {
            var names: [String] = []
            if let identifier = forStmt.pattern.as(IdentifierPatternSyntax.self) {
                names = [identifier.identifier.text]
            } else if let tuple = forStmt.pattern.as(TuplePatternSyntax.self) {
                names = tuple.elements.map { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? "_" }
            } else {
                names = ["_"]
            }
            var body = lowerBlock(forStmt.body.statements)
            if let whereClause = forStmt.whereClause {
                body = [
                    .ifStatement(
                        [.expression(lowerExpression(whereClause.condition))], body, nil, position(whereClause))
                ]
            }
            return [.forIn(names, lowerExpression(forStmt.sequence), body, position(forStmt))]
        }
        if let whileStmt = stmt.as(WhileStmtSyntax.self) {
            let conditions = lowerConditions(whileStmt.conditions)
            if conditions.count == 1, case .expression(let e) = conditions[0] {
                return [.whileLoop(e, lowerBlock(whileStmt.body.statements), position(whileStmt))]
            }
            return [.unsupported("this while loop", position(whileStmt))]
        }
        if let repeatStmt = stmt.as(RepeatStmtSyntax.self) {
            let body = lowerBlock(repeatStmt.body.statements)
            let p = position(repeatStmt)
            return body + [.whileLoop(lowerExpression(repeatStmt.condition), body, p)]
        }
        if stmt.is(BreakStmtSyntax.self) { return [.breakStatement(position(stmt))] }
        if stmt.is(ContinueStmtSyntax.self) { return [.continueStatement(position(stmt))] }
        if let deferStmt = stmt.as(DeferStmtSyntax.self) {
            return [.unsupported("defer", position(deferStmt))]
        }
        return [.unsupported("this statement", position(stmt))]
    }

    mutating func lowerConditions(_ conditions: ConditionElementListSyntax) -> [Condition] {
        conditions.map { element in
            switch element.condition {
            case .expression(let expression):
                return .expression(lowerExpression(expression))
            case .optionalBinding(let binding):
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? "_"
                let value = binding.initializer.map { lowerExpression($0.value) } ?? .name(name, position(binding))
                return .binding(name, value)
            default:
                return .expression(.unsupported("this condition", position(element)))
            }
        }
    }

    /// An expression in statement position: assignments and `if` / `switch` are statements here.
    mutating func lowerExpressionStatement(_ expr: ExprSyntax) -> [Statement] {
        if expr.is(SequenceExprSyntax.self) { return folded(expr) { $0.lowerExpressionStatement($1) } }
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            if infix.operator.is(AssignmentExprSyntax.self) {
                let target = lowerExpression(infix.leftOperand)
                var value = lowerExpression(infix.rightOperand)
                // A property of a view, layer or animation is a CGFloat, Float or Double.
                if case .member = target { value = Self.floatingLiterals(value) }
                return [.assign(target, "=", value, position(infix))]
            }
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self),
                ["+=", "-=", "*=", "/="].contains(op.operator.text)
            {
                return [
                    .assign(
                        lowerExpression(infix.leftOperand), op.operator.text, lowerExpression(infix.rightOperand),
                        position(infix))
                ]
            }
        }
        if let ifExpr = expr.as(IfExprSyntax.self) { return [lowerIf(ifExpr)] }
        if let switchExpr = expr.as(SwitchExprSyntax.self) {
            var cases: [SwitchCase] = []
            for item in switchExpr.cases {
                guard case .switchCase(let switchCase) = item else { continue }
                var patterns: [Expression] = []
                if case .case(let label) = switchCase.label {
                    for caseItem in label.caseItems {
                        if let pattern = caseItem.pattern.as(ExpressionPatternSyntax.self) {
                            patterns.append(lowerExpression(pattern.expression))
                        } else {
                            patterns.append(.unsupported("this pattern", position(caseItem)))
                        }
                    }
                }
                cases.append(SwitchCase(patterns: patterns, body: lowerBlock(switchCase.statements)))
            }
            return [.switchStatement(lowerExpression(switchExpr.subject), cases, position(switchExpr))]
        }
        return [.expression(lowerExpression(expr))]
    }

    mutating func lowerIf(_ ifExpr: IfExprSyntax) -> Statement {
        var otherwise: [Statement]?
        switch ifExpr.elseBody {
        case .ifExpr(let nested)?: otherwise = [lowerIf(nested)]
        case .codeBlock(let block)?: otherwise = lowerBlock(block.statements)
        case nil: otherwise = nil
        @unknown default: otherwise = nil
        }
        return .ifStatement(
            lowerConditions(ifExpr.conditions), lowerBlock(ifExpr.body.statements), otherwise, position(ifExpr))
    }

    // MARK: Expressions

    mutating func lowerExpression(_ expr: ExprSyntax) -> Expression {
        if expr.is(SequenceExprSyntax.self) { return folded(expr) { $0.lowerExpression($1) } }
        let p = position(expr)
        if let literal = expr.as(IntegerLiteralExprSyntax.self) {
            let text = literal.literal.text.replacingUnderscores
            if let value = Int(text) { return .literal(.integer(value), p) }
            if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) {
                return .literal(.integer(value), p)
            }
            return .unsupported("this number", p)
        }
        if let literal = expr.as(FloatLiteralExprSyntax.self) {
            guard let value = Double(literal.literal.text.replacingUnderscores) else {
                return .unsupported("this number", p)
            }
            return .literal(.number(value), p)
        }
        if let literal = expr.as(BooleanLiteralExprSyntax.self) {
            return .literal(.bool(literal.literal.tokenKind == .keyword(.true)), p)
        }
        if expr.is(NilLiteralExprSyntax.self) { return .literal(.null, p) }
        if let literal = expr.as(StringLiteralExprSyntax.self) {
            var pieces: [Argument] = []
            var plain = ""
            var interpolated = false
            for segment in literal.segments {
                if let text = segment.as(StringSegmentSyntax.self) {
                    plain += text.content.text
                    pieces.append(Argument(nil, .literal(.string(text.content.text), p)))
                } else if let inner = segment.as(ExpressionSegmentSyntax.self) {
                    interpolated = true
                    for element in inner.expressions {
                        pieces.append(Argument(nil, lowerExpression(element.expression)))
                    }
                }
            }
            if !interpolated { return .literal(.string(unescapedStringLiteral(plain)), p) }
            return .call(.name("__interpolate", p), pieces, p)
        }
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            return .name(reference.baseName.text, p)
        }
        if expr.is(SuperExprSyntax.self) { return .name("super", p) }
        if let member = expr.as(MemberAccessExprSyntax.self) {
            // At its `.name`: a chained modifier (`.blur(radius:)` on a line of its own) is
            // found where it is written, not where the chain starts.
            let at = member.base == nil ? p : position(member.period)
            return .member(member.base.map { lowerExpression($0) }, member.declName.baseName.text, at)
        }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            var arguments = call.arguments.map {
                Argument($0.label?.text, Self.floatingLiterals(lowerExpression($0.expression)))
            }
            if let trailing = call.trailingClosure { arguments.append(Argument(nil, lowerClosure(trailing))) }
            for extra in call.additionalTrailingClosures {
                arguments.append(Argument(extra.label.text, lowerClosure(extra.closure)))
            }
            return .call(lowerExpression(call.calledExpression), arguments, p)
        }
        if let closure = expr.as(ClosureExprSyntax.self) { return lowerClosure(closure) }
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
                return .binary(
                    op.operator.text, lowerExpression(infix.leftOperand), lowerExpression(infix.rightOperand), p)
            }
            return .unsupported("this operator", p)
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self) {
            return .prefix(prefix.operator.text, lowerExpression(prefix.expression), p)
        }
        if let ternary = expr.as(TernaryExprSyntax.self) {
            return .ternary(
                lowerExpression(ternary.condition), lowerExpression(ternary.thenExpression),
                lowerExpression(ternary.elseExpression), p)
        }
        if let array = expr.as(ArrayExprSyntax.self) {
            return .array(array.elements.map { lowerExpression($0.expression) }, p)
        }
        if let dictionary = expr.as(DictionaryExprSyntax.self) {
            if case .elements(let elements) = dictionary.content {
                return .dictionary(elements.map { (lowerExpression($0.key), lowerExpression($0.value)) }, p)
            }
            return .dictionary([], p)
        }
        if let subscriptCall = expr.as(SubscriptCallExprSyntax.self) {
            return .subscriptAccess(
                lowerExpression(subscriptCall.calledExpression),
                subscriptCall.arguments.map { Argument($0.label?.text, lowerExpression($0.expression)) }, p)
        }
        if let tuple = expr.as(TupleExprSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first { return lowerExpression(only.expression) }
            return .array(tuple.elements.map { lowerExpression($0.expression) }, p)
        }
        if let optional = expr.as(OptionalChainingExprSyntax.self) { return lowerExpression(optional.expression) }
        if let forced = expr.as(ForceUnwrapExprSyntax.self) { return lowerExpression(forced.expression) }
        if let tryExpr = expr.as(TryExprSyntax.self) { return lowerExpression(tryExpr.expression) }
        if let awaitExpr = expr.as(AwaitExprSyntax.self) { return lowerExpression(awaitExpr.expression) }
        if let cast = expr.as(AsExprSyntax.self) { return lowerExpression(cast.expression) }
        if let inout_ = expr.as(InOutExprSyntax.self) { return lowerExpression(inout_.expression) }
        if let postfix = expr.as(PostfixOperatorExprSyntax.self) { return lowerExpression(postfix.expression) }
        if let type = expr.as(TypeExprSyntax.self) { return .name(type.type.trimmedDescription, p) }
        // `\.scale`, as SwiftUI's keyframe tracks name what they drive: read by its text.
        if let keyPath = expr.as(KeyPathExprSyntax.self) { return .name(keyPath.trimmedDescription, p) }
        if expr.is(DiscardAssignmentExprSyntax.self) { return .name("_", p) }
        if let macro = expr.as(MacroExpansionExprSyntax.self), macro.macroName.text == "keyPath",
            let argument = macro.arguments.first
        {
            // #keyPath(CALayer.transform.scale): the key path without its type.
            var components = argument.expression.trimmedDescription.split(separator: ".").map(String.init)
            if let first = components.first, first.first?.isUppercase == true, components.count > 1 {
                components.removeFirst()
            }
            return .literal(.string(components.joined(separator: ".")), p)
        }
        if let macro = expr.as(MacroExpansionExprSyntax.self), macro.macroName.text == "selector",
            let argument = macro.arguments.first
        {
            // #selector(tick) / #selector(Type.tick(_:)): the method's name; the target it is
            // sent to is given beside it (`UIPanGestureRecognizer(target:action:)`).
            let name = argument.expression.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
            return .literal(.string(String(name.split(separator: "(").first ?? "")), p)
        }
        if let ifExpr = expr.as(IfExprSyntax.self) {
            return .unsupported("if as an expression", position(ifExpr))
        }
        return .unsupported("this expression (\(expr.kind))", p)
    }

    mutating func lowerClosure(_ closure: ClosureExprSyntax) -> Expression {
        var parameters: [String] = []
        var weak: [String] = []
        if let signature = closure.signature {
            switch signature.parameterClause {
            case .simpleInput(let list)?: parameters = list.map(\.name.text)
            case .parameterClause(let clause)?:
                parameters = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
            case nil: break
            @unknown default: break
            }
            if let capture = signature.capture {
                for item in capture.items where item.specifier != nil {
                    weak.append(item.name.text)
                }
            }
        }
        return .closure(
            ClosureSyntax(parameters: parameters, body: lowerBlock(closure.statements), weakCaptures: weak),
            position(closure))
    }

}

extension String {
    fileprivate var replacingUnderscores: String { String(filter { $0 != "_" }) }
}

/// A Swift string literal's text with its escapes read (`\n`, `\t`, and a backslash before any
/// other character keeps that character). Objective-C's literals are read by clang.
func unescapedStringLiteral(_ text: String) -> String {
    guard text.contains("\\") else { return text }
    var result = ""
    var escaping = false
    for character in text {
        if escaping {
            switch character {
            case "n": result.append("\n")
            case "t": result.append("\t")
            default: result.append(character)
            }
            escaping = false
        } else if character == "\\" {
            escaping = true
        } else {
            result.append(character)
        }
    }
    return result
}
