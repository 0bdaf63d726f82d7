import CClang
import ChoreoImport

/// Lowers libclang's cursors to the intermediate form.
struct ObjCLowering {
    let parser: ClangParser
    /// The last position in the file seen: an implicit cursor (a conversion clang made up) has
    /// none of its own.
    private let lastPosition = PositionMemory()
    /// The function-scope `static` variables met so far, each declared once for the whole
    /// program (C17 6.2.4: static storage duration, initialised once before the program runs).
    var statics: [Statement] = []

    init(parser: ClangParser) {
        self.parser = parser
        lastPosition.value = SourcePosition(line: 1, column: 1, file: parser.file)
    }

    func kind(_ cursor: CXCursor) -> CXCursorKind { parser.clang.clang_getCursorKind(cursor) }

    func position(_ cursor: CXCursor) -> SourcePosition {
        let position = parser.position(cursor)
        // A cursor of the declarations (a macro's body) is placed where the file last was.
        if position.line > 0, parser.isInMainFile(cursor) {
            lastPosition.value = position
            return position
        }
        return lastPosition.value
    }
    func children(_ cursor: CXCursor) -> [CXCursor] { parser.children(cursor) }
    func spelling(_ cursor: CXCursor) -> String { parser.spelling(cursor) }

    // MARK: Declarations

    mutating func lowerTranslationUnit(_ root: CXCursor, into unit: inout SourceUnit) {
        var types: [String: TypeDeclaration] = [:]
        var order: [String] = []
        func type(_ name: String, _ at: SourcePosition) -> TypeDeclaration {
            if let existing = types[name] { return existing }
            order.append(name)
            return TypeDeclaration(name: name, inherits: [], properties: [], methods: [], position: at)
        }
        for cursor in children(root) {
            // The file's own declarations, and the interfaces its project's headers declare (a
            // class's superclass and properties are in its header).
            // A header's constants (`static NSString *const K = @"…";`) are the including file's
            // too: `#import` pastes the header's text into it (C17 6.10.2).
            guard
                parser.isInMainFile(cursor)
                    || (parser.isInProjectHeader(cursor)
                        && (kind(cursor) == CXCursor_ObjCInterfaceDecl || kind(cursor) == CXCursor_ObjCCategoryDecl
                            || kind(cursor) == CXCursor_VarDecl))
            else { continue }
            let name = spelling(cursor)
            switch kind(cursor) {
            case CXCursor_ObjCInterfaceDecl, CXCursor_ObjCCategoryDecl:
                let typeName = kind(cursor) == CXCursor_ObjCCategoryDecl ? classOfCategory(cursor) ?? name : name
                var declaration = type(typeName, position(cursor))
                declaration.isObjectiveC = true
                for child in children(cursor) {
                    switch kind(child) {
                    case CXCursor_ObjCSuperClassRef:
                        declaration.inherits.insert(spelling(child), at: 0)
                    case CXCursor_ObjCProtocolRef:
                        if !declaration.protocols.contains(spelling(child)) {
                            declaration.protocols.append(spelling(child))
                        }
                    case CXCursor_ObjCPropertyDecl, CXCursor_ObjCIvarDecl:
                        var property = spelling(child)
                        if kind(child) == CXCursor_ObjCIvarDecl, property.hasPrefix("_") { property.removeFirst() }
                        if !declaration.properties.contains(where: { $0.name == property }) {
                            declaration.properties.append(
                                PropertyDeclaration(name: property, value: zeroValue(child), position: position(child)))
                        }
                    default: break
                    }
                }
                types[typeName] = declaration
            case CXCursor_ObjCImplementationDecl, CXCursor_ObjCCategoryImplDecl:
                let typeName = kind(cursor) == CXCursor_ObjCCategoryImplDecl ? classOfCategory(cursor) ?? name : name
                var declaration = type(typeName, position(cursor))
                declaration.isObjectiveC = true
                for child in children(cursor) {
                    switch kind(child) {
                    case CXCursor_ObjCInstanceMethodDecl, CXCursor_ObjCClassMethodDecl:
                        if let method = lowerMethod(child) { declaration.methods.append(method) }
                    case CXCursor_ObjCIvarDecl:
                        var property = spelling(child)
                        if property.hasPrefix("_") { property.removeFirst() }
                        declaration.properties.append(
                            PropertyDeclaration(name: property, value: zeroValue(child), position: position(child)))
                    default: break
                    }
                }
                types[typeName] = declaration
            case CXCursor_FunctionDecl:
                guard let body = children(cursor).last(where: { kind($0) == CXCursor_CompoundStmt }) else { continue }
                let parameters = children(cursor).filter { kind($0) == CXCursor_ParmDecl }.map(spelling)
                unit.functions.append(
                    FunctionDeclaration(
                        name: name, labels: parameters.map { _ in nil }, parameters: parameters, body: lowerBlock(body),
                        position: position(cursor)))
            case CXCursor_VarDecl:
                unit.globals.append(contentsOf: lowerVariable(cursor))
            default:
                continue
            }
        }
        unit.types += order.compactMap { types[$0] }
        unit.globals += statics
    }

    /// The value an instance variable has before the code sets it: `+alloc` fills an object's
    /// memory with zeros ("The Objective-C Programming Language", Allocating and Initializing
    /// Objects: "all other instance variables are set to 0"), so a number is 0, a `BOOL` NO, a
    /// geometry struct all zeros, and an object pointer nil.
    func zeroValue(_ declaration: CXCursor) -> Expression? {
        let type = FunctionDeclaration.bareType(
            parser.string(parser.clang.clang_getTypeSpelling(parser.clang.clang_getCursorType(declaration))))
        let written = parser.string(parser.clang.clang_getTypeSpelling(parser.clang.clang_getCursorType(declaration)))
        let p = position(declaration)
        if written.contains("*") || written.contains("^") || written.contains("<") || written.contains("[")
            || ["id", "Class", "instancetype", "SEL"].contains(type)
        {
            return nil
        }
        switch type {
        case "BOOL", "bool", "_Bool": return .literal(.bool(false), p)
        case "CGFloat", "double", "float", "NSTimeInterval", "CFTimeInterval", "Float", "Double":
            return .literal(.number(0), p)
        case "CGPoint": return .name("CGPointZero", p)
        case "CGSize": return .name("CGSizeZero", p)
        case "CGRect": return .name("CGRectZero", p)
        case "NSInteger", "NSUInteger", "int", "long", "unsigned", "uint32_t", "int64_t", "uint64_t", "size_t",
            "short", "char":
            return .literal(.integer(0), p)
        default:
            // An enumeration (`MBProgressHUDMode`) is an integer; other types stay unset.
            let declared = parser.clang.clang_getCursorType(declaration)
            return declared.kind == CXType_Enum || written.hasPrefix("enum ")
                || (declared.kind == CXType_Typedef && isEnumName(type))
                ? .literal(.integer(0), p) : nil
        }
    }

    /// Whether a type name is an enumeration the parse declares (`typedef NS_ENUM(…, Name)`).
    func isEnumName(_ name: String) -> Bool {
        parser.fileTokens.indices.contains { index in
            parser.fileTokens[index].text == name && index >= 2
                && (parser.fileTokens[index - 2].text == "NS_ENUM" || parser.fileTokens[index - 2].text == "NS_OPTIONS"
                    || parser.fileTokens[index - 1].text == "enum")
        }
    }

    func classOfCategory(_ cursor: CXCursor) -> String? {
        children(cursor).first { kind($0) == CXCursor_ObjCClassRef }.map(spelling)
    }

    /// `- (void)animationDidStop:(CAAnimation *)anim finished:(BOOL)flag` is `animationDidStop`
    /// with labels `animationDidStop`, `finished`, as messages to it are lowered.
    mutating func lowerMethod(_ cursor: CXCursor) -> FunctionDeclaration? {
        let selector = spelling(cursor)
        let pieces = selector.split(separator: ":", omittingEmptySubsequences: false).dropLast().map(String.init)
        let declared = children(cursor).filter { kind($0) == CXCursor_ParmDecl }
        let parameters = declared.map(spelling)
        guard let body = children(cursor).last(where: { kind($0) == CXCursor_CompoundStmt }) else { return nil }
        let name = pieces.first ?? selector
        return FunctionDeclaration(
            name: name.isEmpty ? selector : name, labels: pieces.map { $0.isEmpty ? nil : $0 }, parameters: parameters,
            body: lowerBlock(body), isStatic: kind(cursor) == CXCursor_ObjCClassMethodDecl, position: position(cursor),
            parameterTypes: declared.map {
                parser.string(parser.clang.clang_getTypeSpelling(parser.clang.clang_getCursorType($0)))
            })
    }

    // MARK: Statements

    mutating func lowerBlock(_ cursor: CXCursor) -> [Statement] {
        if kind(cursor) == CXCursor_CompoundStmt {
            return children(cursor).flatMap { lowerStatement($0) }
        }
        return lowerStatement(cursor)
    }

    mutating func lowerVariable(_ cursor: CXCursor) -> [Statement] {
        let value = children(cursor).last { isExpression($0) }.map { lowerExpression($0) }
        if let name = staticLocalName(cursor) {
            // Declared once, for the program: the method's later runs see what earlier ones
            // stored (`static NSMutableDictionary *registry;`, a singleton's `shared`).
            statics.append(.declare(name, value, position(cursor)))
            return []
        }
        return [.declare(spelling(cursor), value, position(cursor))]
    }

    /// The program-wide name of a `static` variable declared in a function or method body
    /// (`registry@12:5`, after its declaration's place), nil for any other variable.
    func staticLocalName(_ variable: CXCursor) -> String? {
        guard kind(variable) == CXCursor_VarDecl else { return nil }
        let parent = kind(parser.clang.clang_getCursorSemanticParent(variable))
        guard
            parent == CXCursor_ObjCInstanceMethodDecl || parent == CXCursor_ObjCClassMethodDecl
                || parent == CXCursor_FunctionDecl,
            parser.tokens(variable).first?.text == "static"
        else { return nil }
        let at = parser.position(variable)
        return "\(spelling(variable))@\(at.line):\(at.column)"
    }

    func isExpression(_ cursor: CXCursor) -> Bool {
        let k = kind(cursor).rawValue
        return k >= CXCursor_FirstExpr.rawValue && k <= CXCursor_LastExpr.rawValue
    }

    mutating func lowerStatement(_ cursor: CXCursor) -> [Statement] {
        let p = position(cursor)
        let parts = children(cursor)
        switch kind(cursor) {
        case CXCursor_CompoundStmt:
            return parts.flatMap { lowerStatement($0) }
        case CXCursor_DeclStmt:
            return parts.filter { kind($0) == CXCursor_VarDecl }.flatMap { lowerVariable($0) }
        case CXCursor_ReturnStmt:
            return [.returnStatement(parts.first.map { lowerExpression($0) }, p)]
        case CXCursor_IfStmt:
            guard parts.count >= 2 else { return [.unsupported("this if statement", p)] }
            let otherwise = parts.count > 2 ? lowerBlock(parts[2]) : nil
            return [.ifStatement([.expression(lowerExpression(parts[0]))], lowerBlock(parts[1]), otherwise, p)]
        case CXCursor_ForStmt:
            guard parts.count == 4 else { return [.unsupported("a for loop without all three clauses", p)] }
            return [
                .forLoop(
                    lowerStatement(parts[0]), lowerExpression(parts[1]), lowerStatement(parts[2]), lowerBlock(parts[3]),
                    p)
            ]
        case CXCursor_ObjCForCollectionStmt:
            // for (UIView *v in views): the variable, the collection, the body.
            guard parts.count == 3 else { return [.unsupported("this for-in loop", p)] }
            // The element is declared in the loop (`NSString *s in …`, a declaration statement
            // holding the variable) or is a variable of the scope.
            let element =
                kind(parts[0]) == CXCursor_DeclStmt
                ? children(parts[0]).first { kind($0) == CXCursor_VarDecl }.map(spelling) ?? ""
                : spelling(parts[0])
            return [.forIn([element], lowerExpression(parts[1]), lowerBlock(parts[2]), p)]
        case CXCursor_WhileStmt:
            guard parts.count == 2 else { return [.unsupported("this while loop", p)] }
            return [.whileLoop(lowerExpression(parts[0]), lowerBlock(parts[1]), p)]
        case CXCursor_BreakStmt:
            return [.breakStatement(p)]
        case CXCursor_ContinueStmt:
            return [.continueStatement(p)]
        case CXCursor_NullStmt:
            return []
        case CXCursor_SwitchStmt:
            guard parts.count == 2 else { return [.unsupported("this switch", p)] }
            return [.switchStatement(lowerExpression(parts[0]), lowerCases(parts[1]), p)]
        default:
            if isExpression(cursor) { return lowerExpressionStatement(cursor) }
            return [.unsupported("this statement", p)]
        }
    }

    /// A switch body's `case` and `default` labels with the statements after each.
    mutating func lowerCases(_ body: CXCursor) -> [SwitchCase] {
        var cases: [SwitchCase] = []
        for item in children(body) {
            var current = item
            var patterns: [Expression] = []
            var isDefault = false
            // case A: case B: stmt nests: CaseStmt(A, CaseStmt(B, stmt)).
            while kind(current) == CXCursor_CaseStmt || kind(current) == CXCursor_DefaultStmt {
                let parts = children(current)
                if kind(current) == CXCursor_CaseStmt {
                    guard parts.count >= 2 else { break }
                    patterns.append(lowerExpression(parts[0]))
                    current = parts[parts.count - 1]
                } else {
                    isDefault = true
                    guard let last = parts.last else { break }
                    current = last
                }
            }
            if patterns.isEmpty && !isDefault {
                if !cases.isEmpty { cases[cases.count - 1].body += lowerStatement(item) }
                continue
            }
            cases.append(SwitchCase(patterns: isDefault ? [] : patterns, body: lowerStatement(current)))
        }
        return cases
    }

    /// Assignments and increments are statements here.
    mutating func lowerExpressionStatement(_ cursor: CXCursor) -> [Statement] {
        let p = position(cursor)
        let parts = children(cursor)
        switch kind(cursor) {
        case CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator:
            guard parts.count == 2 else { break }
            let op = binaryOperator(cursor, parts[0])
            // clang's recovery from a member it cannot find (`label.unknown = NO`) keeps only the
            // base as the left operand: the assignment is not the base's, and is skipped (clang's
            // warning says which member).
            if op == "." || op == "->" || isRecoveredMember(parts[0]) { return [] }
            if op == "=" || ["+=", "-=", "*=", "/="].contains(op) {
                return [.assign(lowerExpression(parts[0]), op, lowerExpression(parts[1]), p)]
            }
        case CXCursor_UnaryOperator:
            guard parts.count == 1 else { break }
            let tokens = parser.tokens(cursor).map(\.text)
            if tokens.first == "++" || tokens.last == "++" {
                return [.assign(lowerExpression(parts[0]), "+=", .literal(.integer(1), p), p)]
            }
            if tokens.first == "--" || tokens.last == "--" {
                return [.assign(lowerExpression(parts[0]), "-=", .literal(.integer(1), p), p)]
            }
        case CXCursor_UnexposedExpr, CXCursor_ParenExpr:
            if parts.count == 1, isAssignment(parts[0]) { return lowerExpressionStatement(parts[0]) }
        default:
            break
        }
        return [.expression(lowerExpression(cursor))]
    }

    /// clang's recovery of `base.member` where the declarations lack the member: an unexposed
    /// expression holding only the base, followed in it by `.` or `->`.
    func isRecoveredMember(_ cursor: CXCursor) -> Bool {
        guard kind(cursor) == CXCursor_UnexposedExpr, let base = children(cursor).first, children(cursor).count == 1
        else { return false }
        let end = parser.extent(base).end
        guard end < parser.extent(cursor).end else { return false }
        let next = parser.tokens(cursor).first { $0.offset >= end }?.text
        return next == "." || next == "->"
    }

    func isAssignment(_ cursor: CXCursor) -> Bool {
        let k = kind(cursor)
        return k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator
    }

    /// The operator of a binary expression: the first token after its left operand.
    func binaryOperator(_ cursor: CXCursor, _ left: CXCursor) -> String {
        let end = parser.extent(left).end
        return parser.tokens(cursor).first { $0.offset >= end && $0.kind == CXToken_Punctuation }?.text ?? "?"
    }

    // MARK: Expressions

    mutating func lowerExpression(_ cursor: CXCursor) -> Expression {
        let p = position(cursor)
        let parts = children(cursor)
        switch kind(cursor) {
        case CXCursor_IntegerLiteral, CXCursor_FloatingLiteral, CXCursor_StringLiteral, CXCursor_ObjCStringLiteral:
            // Evaluated by clang: a literal written through a macro (NSEC_PER_SEC) has the
            // macro's name as its only token.
            return parser.literal(cursor).map { .literal($0, p) } ?? .unsupported("this literal", p)
        case CXCursor_ObjCBoolLiteralExpr:
            let text = parser.tokens(cursor).first?.text ?? "NO"
            return .literal(.bool(text == "YES" || text == "true"), p)
        case CXCursor_GNUNullExpr, CXCursor_CXXNullPtrLiteralExpr:
            return .literal(.null, p)
        case CXCursor_ObjCSelfExpr:
            return .name("self", p)
        case CXCursor_DeclRefExpr:
            // A constant of an enumeration the file declares is its value; UIKit's keep their
            // names, which the evaluator reads (`UIViewAnimationOptionCurveEaseOut`).
            let referenced = parser.clang.clang_getCursorReferenced(cursor)
            let name = spelling(cursor)
            if kind(referenced) == CXCursor_EnumConstantDecl,
                !Self.namedConstants.contains(where: { name.hasPrefix($0) }), let value = parser.literal(cursor)
            {
                return .literal(value, p)
            }
            if let name = staticLocalName(referenced) { return .name(name, p) }
            return .name(spelling(cursor), p)
        case CXCursor_MemberRefExpr:
            let name = spelling(cursor)
            // `_ivar` or `self.property`: an implicit self when there is no base.
            guard let base = parts.first else { return .name(name, p) }
            return .member(lowerExpression(base), name, p)
        case CXCursor_ObjCMessageExpr:
            return lowerMessage(cursor, parts, p)
        case CXCursor_CallExpr:
            let name = spelling(cursor)
            let arguments = parts.dropFirst().map { Argument(nil, lowerExpression($0)) }
            if name.isEmpty, let callee = parts.first {
                return .call(lowerExpression(callee), arguments, p)
            }
            return .call(.name(name, p), arguments, p)
        case CXCursor_BlockExpr:
            // The block's parameters and body, directly or under its declaration.
            var inner = parts
            if !inner.contains(where: { kind($0) == CXCursor_CompoundStmt }), let declaration = parts.first {
                inner = children(declaration)
            }
            let parameters = inner.filter { kind($0) == CXCursor_ParmDecl }.map(spelling)
            let body = inner.last { kind($0) == CXCursor_CompoundStmt }.map { lowerBlock($0) } ?? []
            return .closure(ClosureSyntax(parameters: parameters, body: body, capturesValues: true), p)
        case CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator:
            guard parts.count == 2 else { return .unsupported("this operator", p) }
            let op = binaryOperator(cursor, parts[0])
            return .binary(op, lowerExpression(parts[0]), lowerExpression(parts[1]), p)
        case CXCursor_UnaryOperator:
            guard let operand = parts.first else { return .unsupported("this operator", p) }
            let op = parser.tokens(cursor).first?.text ?? ""
            if op == "&" || op == "*" { return lowerExpression(operand) }
            // `!object` is `object == nil`: a pointer's logical negation compares it with the
            // null pointer (C17 6.5.3.3: `!E` is `(0 == E)`).
            if op == "!", isPointer(operand) { return .binary("==", lowerExpression(operand), .literal(.null, p), p) }
            if ["-", "!", "+", "~"].contains(op) { return .prefix(op, lowerExpression(operand), p) }
            return lowerExpression(operand)
        case CXCursor_ConditionalOperator:
            guard parts.count == 3 else { return .unsupported("this conditional", p) }
            return .ternary(lowerExpression(parts[0]), lowerExpression(parts[1]), lowerExpression(parts[2]), p)
        case CXCursor_CStyleCastExpr where isNullPointer(cursor, parts):
            return .literal(.null, p)
        case CXCursor_ParenExpr, CXCursor_CStyleCastExpr:
            guard let inner = parts.last(where: { isExpression($0) }) else { return .unsupported("this expression", p) }
            return lowerExpression(inner)
        case CXCursor_ArraySubscriptExpr:
            guard parts.count == 2 else { return .unsupported("this subscript", p) }
            return .subscriptAccess(lowerExpression(parts[0]), [Argument(nil, lowerExpression(parts[1]))], p)
        case CXCursor_InitListExpr:
            return .array(parts.map { lowerExpression($0) }, p)
        case CXCursor_ObjCSelectorExpr:
            // @selector(startArena:): the method's name.
            let tokens = parser.tokens(cursor).map(\.text)
            let open = tokens.firstIndex(of: "(") ?? 0
            let selector = tokens.indices.contains(open + 1) ? tokens[open + 1] : ""
            return .literal(.string(selector), p)
        case CXCursor_ObjCAvailabilityCheckExpr:
            // `@available(iOS 13.0, *)`: the runtime modelled is iOS 17's (`-fobjc-runtime`).
            return .literal(.bool(true), p)
        case CXCursor_ObjCProtocolExpr:
            // @protocol(P): the protocol, by its name.
            let tokens = parser.tokens(cursor).map(\.text)
            let open = tokens.firstIndex(of: "(") ?? 0
            return .literal(.string(tokens.indices.contains(open + 1) ? tokens[open + 1] : ""), p)
        case CXCursor_UnexposedExpr:
            return lowerUnexposed(cursor, parts, p)
        default:
            if let only = parts.first, parts.count == 1, isExpression(only) { return lowerExpression(only) }
            return .unsupported("this expression", p)
        }
    }

    /// UIKit's enumeration constants the evaluator reads by name; others are their values.
    static let namedConstants = [
        "UIViewAnimationOption", "UIViewKeyframeAnimationOption", "NSTextAlignment", "UIViewAnimatingPosition",
        "UIGestureRecognizerState", "UINavigationControllerOperation",
    ]

    /// Whether an expression's type is an object or C pointer (`UIColor *`, `id`, `Class`).
    func isPointer(_ cursor: CXCursor) -> Bool {
        let type = parser.string(parser.clang.clang_getTypeSpelling(parser.clang.clang_getCursorType(cursor)))
        return type.contains("*") || type == "id" || type == "Class" || type.hasPrefix("id<")
            || type.hasPrefix("Class<")
    }

    /// `nil`, `NULL`: a cast of 0 to a pointer type.
    func isNullPointer(_ cursor: CXCursor, _ parts: [CXCursor]) -> Bool {
        guard parts.count == 1 || parts.count == 2, let inner = parts.last, kind(inner) == CXCursor_IntegerLiteral,
            ["0", "nil", "Nil", "NULL"].contains(parser.tokens(inner).first?.text ?? "")
        else { return false }
        let type = parser.string(parser.clang.clang_getTypeSpelling(parser.clang.clang_getCursorType(cursor)))
        return type.contains("*") || type.hasSuffix("id") || type.hasSuffix("Class")
    }

    /// Implicit casts, `@(…)`, `@[…]`, `@{…}` and pseudo-objects all come as unexposed expressions.
    mutating func lowerUnexposed(_ cursor: CXCursor, _ parts: [CXCursor], _ p: SourcePosition) -> Expression {
        // An implicit conversion around the expression itself: the same extent, one child.
        if parts.count == 1, kind(parts[0]) == CXCursor_UnexposedExpr, parser.extent(parts[0]) == parser.extent(cursor)
        {
            return lowerUnexposed(parts[0], children(parts[0]), p)
        }
        let tokens = parser.tokens(cursor)
        // `array[i]`, `info[@"name"]`: Objective-C's subscripts (ObjCSubscriptRefExpr).
        if parts.count == 2, tokens.last?.text == "]", tokens.first?.text != "@", tokens.first?.text != "[",
            isExpression(parts[0]), isExpression(parts[1])
        {
            return .subscriptAccess(lowerExpression(parts[0]), [Argument(nil, lowerExpression(parts[1]))], p)
        }
        if tokens.count >= 2, tokens[0].text == "@" {
            switch tokens[1].text {
            case "[": return .array(parts.map { lowerExpression($0) }, p)
            case "{":
                var pairs: [(Expression, Expression)] = []
                var index = 0
                while index + 1 < parts.count {
                    pairs.append((lowerExpression(parts[index]), lowerExpression(parts[index + 1])))
                    index += 2
                }
                return .dictionary(pairs, p)
            default:
                if let inner = parts.first { return lowerExpression(inner) }
                if tokens.count >= 2, let number = Double(tokens[1].text.filter { !"fFlL".contains($0) }) {
                    return .literal(.number(number), p)
                }
            }
        }
        if let inner = parts.last(where: { isExpression($0) }) { return lowerExpression(inner) }
        // An implicit zero value (`static Foo *shared;`).
        if parts.isEmpty && tokens.isEmpty { return .literal(.null, p) }
        if parts.isEmpty, let first = tokens.first, tokens.count == 1 {
            if let value = Int(first.text) { return .literal(.integer(value), p) }
            return .name(first.text, p)
        }
        return .unsupported("this expression", p)
    }

    /// `[receiver selector:argument …]`.
    mutating func lowerMessage(_ cursor: CXCursor, _ parts: [CXCursor], _ p: SourcePosition) -> Expression {
        let selector = spelling(cursor)
        let pieces = selector.split(separator: ":", omittingEmptySubsequences: false).dropLast().map(String.init)
        let argumentCount = pieces.count
        var expressions = parts.filter { isExpression($0) || kind($0) == CXCursor_ObjCClassRef }
        // A class message names its class as the first child (or not at all: read the token).
        var receiver: Expression
        if expressions.count > argumentCount, let first = expressions.first {
            expressions.removeFirst()
            receiver =
                kind(first) == CXCursor_ObjCClassRef ? .name(spelling(first), position(first)) : lowerExpression(first)
        } else {
            let tokens = parser.tokens(cursor)
            let name = tokens.count > 1 ? tokens[1].text : "self"
            receiver = .name(name, p)
        }
        let arguments = expressions.map { lowerExpression($0) }
        let name = pieces.first ?? selector
        if pieces.isEmpty {
            return ObjCNames.message(receiver, selector, [], p)
        }
        // Variadic arguments (`arrayWithObjects:a, b, nil`) follow the labelled ones.
        let labelled =
            zip(pieces, arguments).map { Argument($0.0.isEmpty ? nil : $0.0, $0.1) }
            + arguments.dropFirst(pieces.count).map { Argument(nil, $0) }
        return ObjCNames.message(receiver, name, labelled, p)
    }
}

/// A position remembered across a walk.
final class PositionMemory {
    var value = SourcePosition(line: 1, column: 1)
}
