import SwiftOperators
import SwiftSyntax

/// Which clause of an `#if` block an iOS build compiles: the code an import reads is the code
/// that runs on an iPhone. `canImport(M)` holds for the frameworks an iOS SDK has (UIKit,
/// QuartzCore, SwiftUI …), `os(iOS)` holds and other systems do not, `targetEnvironment(…)`
/// and compilation flags (`DEBUG`) do not hold, `swift(>=…)` and `compiler(>=…)` hold (the
/// Swift 6 language); `!`, `&&`, `||` and parentheses combine them.
enum BuildConditions {
    /// The frameworks an iOS SDK provides, as `canImport` names them.
    static let frameworks: Set<String> = [
        "UIKit", "QuartzCore", "CoreGraphics", "Foundation", "SwiftUI", "Combine", "CoreAnimation", "Darwin",
        "ObjectiveC", "Dispatch", "CoreFoundation", "CoreImage", "CoreText", "AVFoundation", "Observation",
    ]

    /// The first clause whose condition holds, or the `#else` clause, or nil.
    static func activeClause(_ declaration: IfConfigDeclSyntax) -> IfConfigClauseSyntax? {
        declaration.clauses.first { clause in
            guard let condition = clause.condition else { return true }
            return holds(condition)
        }
    }

    static func holds(_ condition: ExprSyntax) -> Bool {
        if let sequence = condition.as(SequenceExprSyntax.self) {
            let folded = OperatorTable.standardOperators.foldSingle(sequence) { _ in }
            return holds(folded)
        }
        if let literal = condition.as(BooleanLiteralExprSyntax.self) {
            return literal.literal.tokenKind == .keyword(.true)
        }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return holds(only.expression)
        }
        if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return !holds(prefix.expression)
        }
        if let infix = condition.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self)
        {
            switch op.operator.text {
            case "&&": return holds(infix.leftOperand) && holds(infix.rightOperand)
            case "||": return holds(infix.leftOperand) || holds(infix.rightOperand)
            default: return false
            }
        }
        if let call = condition.as(FunctionCallExprSyntax.self),
            let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        {
            let argument = call.arguments.first?.expression.trimmedDescription ?? ""
            switch name {
            case "canImport":
                let module = argument.split(separator: ".").first.map(String.init) ?? argument
                return frameworks.contains(module)
            case "os": return argument == "iOS"
            case "arch": return argument == "arm64"
            case "swift", "compiler", "hasFeature", "hasAttribute": return true
            case "targetEnvironment": return false
            default: return false
            }
        }
        // A compilation flag (`DEBUG`): not set.
        return false
    }
}
