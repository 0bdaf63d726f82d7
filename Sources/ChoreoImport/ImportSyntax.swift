/// The one intermediate form both front ends lower to: a small typed tree of the subset of Swift
/// and Objective-C that the importer understands. The Swift front end (SwiftSyntax) and the
/// Objective-C one (libclang) produce it; ``ImportEvaluator`` interprets it.
///
/// Objective-C messages are lowered in Swift's spelling (`[UIView animateWithDuration:0.3
/// animations:^{…}]` is a call of `UIView.animate(withDuration:animations:)`), so the evaluator
/// knows each API once.

/// A place in the source: 1-based line and column (columns count UTF-8 bytes, as compilers do),
/// and which of the import's files it is in (0 for the file imported, 1… for the files read with
/// it: the rest of its module, the headers it includes).
package struct SourcePosition: Sendable, Equatable, Hashable, Comparable {
    package var line: Int
    package var column: Int
    package var file: Int

    package init(line: Int, column: Int, file: Int = 0) {
        self.line = line
        self.column = column
        self.file = file
    }

    package static let unknown = SourcePosition(line: 0, column: 0)

    package static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// A literal as written.
package enum Literal: Sendable, Equatable {
    case integer(Int)
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
}

/// One argument of a call: its label (`withDuration`), or nil for an unlabelled one.
package struct Argument: Sendable {
    package var label: String?
    package var value: Expression

    package init(_ label: String?, _ value: Expression) {
        self.label = label
        self.value = value
    }
}

/// A closure or an Objective-C block: its parameters' names (`_` for an unnamed one) and body.
package struct ClosureSyntax: Sendable {
    package var parameters: [String]
    package var body: [Statement]
    /// `[weak self]` and friends: names captured weakly (they read as the object while it lives).
    package var weakCaptures: [String] = []
    /// An Objective-C block captures the values its variables have when it is made (a Swift
    /// closure captures the variables themselves).
    package var capturesValues = false

    package init(parameters: [String], body: [Statement], weakCaptures: [String] = [], capturesValues: Bool = false) {
        self.parameters = parameters
        self.body = body
        self.weakCaptures = weakCaptures
        self.capturesValues = capturesValues
    }
}

/// An expression.
package indirect enum Expression: Sendable {
    case literal(Literal, SourcePosition)
    /// An identifier: a variable, a type (`UIView`), a function, or `self`.
    case name(String, SourcePosition)
    /// `base.name`; a nil base is Swift's implicit member (`.identity`, `.curveEaseOut`).
    case member(Expression?, String, SourcePosition)
    case call(Expression, [Argument], SourcePosition)
    case closure(ClosureSyntax, SourcePosition)
    /// A binary operator (`+`, `==`, `&&`, `..<`, `??`), operands folded by precedence.
    case binary(String, Expression, Expression, SourcePosition)
    /// A prefix operator (`-`, `!`).
    case prefix(String, Expression, SourcePosition)
    case ternary(Expression, Expression, Expression, SourcePosition)
    case array([Expression], SourcePosition)
    case dictionary([(Expression, Expression)], SourcePosition)
    case subscriptAccess(Expression, [Argument], SourcePosition)
    /// What the front end could not lower; evaluating it is a warning at its position.
    case unsupported(String, SourcePosition)

    package var position: SourcePosition {
        switch self {
        case .literal(_, let p), .name(_, let p), .member(_, _, let p), .call(_, _, let p), .closure(_, let p),
            .binary(_, _, _, let p), .prefix(_, _, let p), .ternary(_, _, _, let p), .array(_, let p),
            .dictionary(_, let p), .subscriptAccess(_, _, let p), .unsupported(_, let p):
            p
        }
    }
}

/// A condition of `if`, `guard` or `while`.
package enum Condition: Sendable {
    case expression(Expression)
    /// `if let name = value` (`guard let`), also `if let name` (Swift 5.7).
    case binding(String, Expression)
}

/// One case of a `switch`: its patterns (empty for `default`) and body.
package struct SwitchCase: Sendable {
    package var patterns: [Expression]
    package var body: [Statement]

    package init(patterns: [Expression], body: [Statement]) {
        self.patterns = patterns
        self.body = body
    }
}

/// A statement.
package indirect enum Statement: Sendable {
    case expression(Expression)
    /// `let name = value` / `var name = value` (`CGFloat x = 1;` in Objective-C).
    case declare(String, Expression?, SourcePosition)
    /// `target = value`, or a compound assignment (`+=`, `-=`, `*=`, `/=`).
    case assign(Expression, String, Expression, SourcePosition)
    case ifStatement([Condition], [Statement], [Statement]?, SourcePosition)
    case guardStatement([Condition], [Statement], SourcePosition)
    /// `for name in sequence`; `for (i, node) in …` binds several names (`_` binds none).
    case forIn([String], Expression, [Statement], SourcePosition)
    /// `for (init; condition; step)` in Objective-C.
    case forLoop([Statement], Expression?, [Statement], [Statement], SourcePosition)
    case whileLoop(Expression, [Statement], SourcePosition)
    case switchStatement(Expression, [SwitchCase], SourcePosition)
    case returnStatement(Expression?, SourcePosition)
    case breakStatement(SourcePosition)
    case continueStatement(SourcePosition)
    /// A nested function declared in a body.
    case function(FunctionDeclaration)
    case unsupported(String, SourcePosition)

    package var position: SourcePosition {
        switch self {
        case .expression(let e): e.position
        case .declare(_, _, let p), .assign(_, _, _, let p), .ifStatement(_, _, _, let p), .guardStatement(_, _, let p),
            .forIn(_, _, _, let p), .forLoop(_, _, _, _, let p), .whileLoop(_, _, let p),
            .switchStatement(_, _, let p), .returnStatement(_, let p), .breakStatement(let p),
            .continueStatement(let p), .unsupported(_, let p):
            p
        case .function(let f): f.position
        }
    }
}

/// A function or method: `animationDidStop(_:finished:)` is name `animationDidStop`, labels
/// `[nil, "finished"]`, whatever the language it was written in.
package struct FunctionDeclaration: Sendable {
    package var name: String
    package var labels: [String?]
    package var parameters: [String]
    package var body: [Statement]
    package var isStatic: Bool
    package var position: SourcePosition
    /// The parameters' types as written (`CALayer`, `CGSize`, `UIColor *`), nil where not known:
    /// they tell the entry point a method that draws into a layer it is given (docs/import.md).
    package var parameterTypes: [String?]
    /// A computed property's `get` or `set`, or a stored property's `willSet` / `didSet`
    /// (named `name`, `name.set`, `name.willSet`, `name.didSet`): run when the property is read
    /// or written, not called by name.
    package var isAccessor = false
    /// Each parameter's default value as written (`duration: CGFloat = 0.5`), nil where it has
    /// none: evaluated when a call leaves the parameter out.
    package var defaults: [Expression?] = []
    /// Which parameters are variadic (`colors: UIColor...`).
    package var variadic: [Bool] = []

    package init(
        name: String, labels: [String?], parameters: [String], body: [Statement], isStatic: Bool = false,
        position: SourcePosition, parameterTypes: [String?] = []
    ) {
        self.name = name
        self.labels = labels
        self.parameters = parameters
        self.body = body
        self.isStatic = isStatic
        self.position = position
        self.parameterTypes = parameterTypes
    }

    /// Whether a parameter is a layer or view the method draws into (`in layer: CALayer`,
    /// `(CALayer *)layer`).
    package var takesLayer: Bool {
        parameterTypes.contains { $0.map { Self.isLayerType(Self.bareType($0)) } ?? false }
    }

    /// A type as written without pointer stars, optionality, nullability and spaces.
    package static func bareType(_ written: String) -> String {
        var words = written.split(whereSeparator: { " *?!".contains($0) }).map(String.init)
        words.removeAll {
            ["_Nonnull", "_Nullable", "nonnull", "nullable", "const", "__kindof", "inout", "__strong", "__weak"]
                .contains($0)
        }
        return words.joined()
    }

    package static func isLayerType(_ name: String) -> Bool {
        name == "UIView" || name == "CALayer" || (name.hasPrefix("CA") && name.hasSuffix("Layer"))
    }

    /// `name(label:label:)`, as diagnostics and `--entry` spell it.
    package var signature: String {
        "\(name)(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }
}

/// A stored property and its initial value.
package struct PropertyDeclaration: Sendable {
    package var name: String
    package var value: Expression?
    package var position: SourcePosition
    /// A type property (`static let`, `class var`, Objective-C's class property): one value for
    /// the type, initialised when first read (The Swift Programming Language, "Type
    /// Properties"), not a field of each instance.
    package var isStatic: Bool
    /// `lazy var`: its initial value is computed when the property is first read, not when the
    /// instance is made (The Swift Programming Language, "Properties", "Lazy Stored
    /// Properties").
    package var isLazy = false

    package init(name: String, value: Expression?, position: SourcePosition, isStatic: Bool = false) {
        self.name = name
        self.value = value
        self.position = position
        self.isStatic = isStatic
    }
}

/// A class, struct, enum or extension (extensions merge into their type).
package struct TypeDeclaration: Sendable {
    package var name: String
    package var inherits: [String]
    package var properties: [PropertyDeclaration]
    package var methods: [FunctionDeclaration]
    package var position: SourcePosition
    /// An enum's cases, in order (`case circle, ring`): its values are `.circle`, `Type.ring`.
    package var cases: [String] = []
    /// Each case's raw value as written (`case slideLeft = "slideLeft"`), nil where it is
    /// implied; parallel to ``cases``.
    package var rawValues: [Expression?] = []
    /// The protocols an Objective-C class adopts (`@interface X : UIView <P, Q>`, a class
    /// extension's or category's `<P>`): what `conformsToProtocol:` answers from.
    package var protocols: [String] = []
    /// A class the Objective-C runtime loads: its `+load` runs before the entry point and its
    /// `+initialize` before its first message ("Objective-C Runtime", NSObject).
    package var isObjectiveC = false
    /// `extension CGRect { … }`: members added to a type declared elsewhere — by this import's
    /// other declarations, or by a framework, whose values keep their kind and get the members.
    package var isExtension = false

    package init(
        name: String, inherits: [String], properties: [PropertyDeclaration], methods: [FunctionDeclaration],
        position: SourcePosition
    ) {
        self.name = name
        self.inherits = inherits
        self.properties = properties
        self.methods = methods
        self.position = position
    }
}

/// A whole source file, lowered.
package struct SourceUnit: Sendable {
    package var types: [TypeDeclaration] = []
    package var functions: [FunctionDeclaration] = []
    package var topLevel: [Statement] = []
    /// Global variables and constants (Objective-C's `static const CGFloat kRadius = 20;`),
    /// evaluated before the entry point whatever it is.
    package var globals: [Statement] = []
    /// The front end's own diagnostics: syntax errors, constructs it skipped.
    package var diagnostics: [ImportDiagnostic] = []
    /// `typealias Color = UIColor`: another name for a type, as written (a nested one qualified,
    /// `Outer.Name`), with the type it names.
    package var aliases: [String: String] = [:]

    package init() {}

    /// Another file of the same import joined to this one, as a compiler sees a module's files
    /// together: its types, functions, statements and diagnostics follow this unit's.
    package mutating func join(_ other: SourceUnit) {
        types += other.types
        functions += other.functions
        // Only the file imported (file 0) is the program's top-level code (a module's
        // `main.swift`); in the others a top-level `let`/`var` is a global variable (The Swift Programming
        // Language, "Declarations": top-level code), which every file sees.
        for statement in other.topLevel {
            if case .declare = statement, statement.position.file != 0 {
                globals.append(statement)
            } else {
                topLevel.append(statement)
            }
        }
        globals += other.globals
        diagnostics += other.diagnostics
        aliases.merge(other.aliases) { first, _ in first }
    }
}
