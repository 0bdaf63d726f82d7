/// Swift's standard library as animation code calls it: `min`, `max`, `abs`, the numeric
/// conversions (`CGFloat(_:)`, `Int(_:)`, whose `init(_:)` rounds toward zero), `String(_:)`
/// and `String(describing:)`, and `print(_:separator:terminator:)`, whose line is a marker of
/// the scene.
enum SwiftStandardLibrary {
    private typealias P = ParameterDeclaration

    static let functions: [FrameworkFunction] =
        [
            FrameworkFunction("min", [.rest]) { e, c throws(ImportStop) in
                try DarwinFramework.extreme(e, c.rest(0), c.position, greatest: false)
            },
            FrameworkFunction("max", [.rest]) { e, c throws(ImportStop) in
                try DarwinFramework.extreme(e, c.rest(0), c.position, greatest: true)
            },
            FrameworkFunction("abs", [.unlabelled]) { e, c throws(ImportStop) in
                if case .integer(let i) = c.values[0] { return .integer(abs(i)) }
                return .number(abs(try c.number(e, 0)))
            },
            FrameworkFunction("String", [.unlabelled], pure: false) { e, c in .string(e.describe(c.values[0])) },
            FrameworkFunction("String", [P("describing")], pure: false) { e, c in .string(e.describe(c.values[0])) },
            FrameworkFunction("String", [], pure: false) { _, _ in .string("") },
            // Foundation's `String(format:_:)`, as `printf` formats.
            FrameworkFunction("String", [P("format"), .rest], pure: false) { e, c throws(ImportStop) in
                let text = e.formatted([c.values[0]] + c.rest(1))
                try e.checkSize(text.utf8.count, of: .string(""), c.position)
                return .string(text)
            },
            printing("print"), printing("debugPrint"),
        ]
        + ["CGFloat", "Double", "Float", "TimeInterval", "NSTimeInterval", "Float64"].map { name in
            FrameworkFunction(name, [.unlabelled]) { e, c throws(ImportStop) in .number(try c.number(e, 0)) }
        }
        + ["Int", "NSInteger", "NSUInteger"].map { name in
            FrameworkFunction(name, [.unlabelled]) { e, c throws(ImportStop) in
                .integer(Int((try c.number(e, 0)).rounded(.towardZero)))
            }
        }

    /// `print(_ items: Any..., separator: String = " ", terminator: String = "\n")`: the items
    /// joined by the separator, as a marker.
    static func printing(_ name: String) -> FrameworkFunction {
        FrameworkFunction(
            name, [.rest, P("separator", default: .string(" ")), P("terminator", default: .string("\n"))], pure: false
        ) {
            e, c throws(ImportStop) in
            let separator = if case .string(let text) = c.values[1] { text } else { " " }
            try e.mark(c.rest(0), c.position) { $0.map(e.describe).joined(separator: separator) }
            return .null
        }
    }
}
