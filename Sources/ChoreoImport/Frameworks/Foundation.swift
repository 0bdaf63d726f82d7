/// Foundation's C functions (`NSLog`, `NSMakeRange`, `NSStringFromCGPoint`'s inverses) and
/// `NSRange(location:length:)`. `NSLog`'s line, formatted as its format string says, is a
/// marker of the scene.
enum FoundationFramework {
    private typealias P = ParameterDeclaration

    /// An `NSRange`, as the evaluator keeps one.
    private static func range(_ location: Value, _ length: Value) -> Value {
        .dictionary([(.string("location"), location), (.string("length"), length)])
    }

    static let functions: [FrameworkFunction] = [
        FrameworkFunction("NSLog", [.rest], pure: false) { e, c throws(ImportStop) in
            try e.mark(c.rest(0), c.position, e.formatted)
            return .null
        },
        FrameworkFunction("os_log", [.rest], pure: false) { e, c throws(ImportStop) in
            try e.mark(c.rest(0), c.position) { $0.map(e.describe).joined(separator: " ") }
            return .null
        },
        FrameworkFunction(c: "NSMakeRange", 2, pure: false) { _, c in range(c.values[0], c.values[1]) },
        FrameworkFunction("NSRange", [P("location"), P("length")], pure: false) { _, c in
            range(c.values[0], c.values[1])
        },
        FrameworkFunction(c: "CGPointFromString", 1, pure: false) { e, c throws(ImportStop) in
            guard case .string(let text) = c.values[0] else { return try e.unknownAPI("CGPointFromString", c.position) }
            return e.pointOrSize(text, size: false, c.position)
        },
        FrameworkFunction(c: "CGSizeFromString", 1, pure: false) { e, c throws(ImportStop) in
            guard case .string(let text) = c.values[0] else { return try e.unknownAPI("CGSizeFromString", c.position) }
            return e.pointOrSize(text, size: true, c.position)
        },
    ]
}
