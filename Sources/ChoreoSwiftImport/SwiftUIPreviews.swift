import ChoreoImport
import SwiftSyntax

extension SwiftLowering {
    /// The name a `#Preview { … }` block is lowered under: a type of that name conforming to
    /// `PreviewProvider`, its block the `previews` property, as SwiftUI's older
    /// `struct ContentView_Previews: PreviewProvider { static var previews: some View { … } }`
    /// is written (docs/import.md, "SwiftUI").
    static let previewTypeName = "#Preview"

    /// `#Preview { ContentView() }` or `#Preview("Name", traits: …) { … }` (the `Preview`
    /// macro Xcode writes at the end of a SwiftUI file) as a preview provider; nil for any other
    /// expression.
    mutating func lowerPreview(_ expr: ExprSyntax) -> TypeDeclaration? {
        guard let macro = expr.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Preview" else {
            return nil
        }
        return preview(macro.trailingClosure, position(macro))
    }

    /// The same written as a declaration (`#Preview { … }` among a type's members or at the top).
    mutating func lowerPreview(_ decl: DeclSyntax) -> TypeDeclaration? {
        guard let macro = decl.as(MacroExpansionDeclSyntax.self), macro.macroName.text == "Preview" else {
            return nil
        }
        return preview(macro.trailingClosure, position(macro))
    }

    private mutating func preview(_ closure: ClosureExprSyntax?, _ position: SourcePosition) -> TypeDeclaration {
        let body = closure.map { lowerBlock($0.statements) } ?? []
        return TypeDeclaration(
            name: Self.previewTypeName, inherits: ["PreviewProvider"], properties: [],
            methods: [
                FunctionDeclaration(
                    name: "previews", labels: [], parameters: [], body: body, isStatic: true, position: position)
            ],
            position: position)
    }
}
