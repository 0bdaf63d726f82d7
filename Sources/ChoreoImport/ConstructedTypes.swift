/// The names of the file's types that its code makes (`DetailViewController()`), found by
/// walking every statement and expression once.
struct ConstructedTypes {
    let names: Set<String>

    init(_ unit: SourceUnit) {
        let declared = Set(unit.types.map(\.name))
        final class Found { var names: Set<String> = [] }
        let found = Found()
        SyntaxWalk.expressions(in: unit) { expression in
            if case .call(.name(let name, _), _, _) = expression, declared.contains(name) { found.names.insert(name) }
        }
        names = found.names
    }
}
