/// The C library's mathematics (`math.h`, in single and double precision) and Foundation's
/// `MIN`/`MAX` macros, as C code calls them; Swift's `min`, `max` and `abs` are in
/// ``SwiftStandardLibrary``.
enum DarwinFramework {
    /// A function of one number, in both precisions (`sin`, `sinf`).
    private static func unary(_ name: String, _ apply: @escaping @Sendable (Double) -> Double) -> [FrameworkFunction] {
        [name, name + "f"].map { spelled in
            FrameworkFunction(c: spelled, 1) { e, c throws(ImportStop) in .number(apply(try c.number(e, 0))) }
        }
    }

    private static func binary(_ name: String, _ apply: @escaping @Sendable (Double, Double) -> Double)
        -> [FrameworkFunction]
    {
        [name, name + "f"].map { spelled in
            FrameworkFunction(c: spelled, 2) { e, c throws(ImportStop) in
                .number(apply(try c.number(e, 0), try c.number(e, 1)))
            }
        }
    }

    /// The least or greatest of the values, kept as they are (an `Int` stays one).
    static func extreme(_ e: ImportEvaluator, _ values: [Value], _ position: SourcePosition, greatest: Bool)
        throws(ImportStop) -> Value
    {
        guard var best = values.first else { return .null }
        for value in values.dropFirst() {
            let (candidate, current) = (try e.double(value, position), try e.double(best, position))
            if greatest ? candidate > current : candidate < current { best = value }
        }
        return best
    }

    static let functions: [FrameworkFunction] =
        unary("sqrt") { $0.squareRoot() } + unary("sin", sine) + unary("cos", cosine) + unary("tan", tangent)
        + unary("floor") { $0.rounded(.down) } + unary("ceil") { $0.rounded(.up) } + unary("round") { $0.rounded() }
        + binary("atan2", arcTangent) + binary("pow", power)
        + ["fabs", "fabsf"].map { name in
            FrameworkFunction(c: name, 1) { e, c throws(ImportStop) in .number(abs(try c.number(e, 0))) }
        }
        + ["fmin", "fminf", "MIN"].map { name in
            FrameworkFunction(name, [.rest]) { e, c throws(ImportStop) in
                try extreme(e, c.rest(0), c.position, greatest: false)
            }
        }
        + ["fmax", "fmaxf", "MAX"].map { name in
            FrameworkFunction(name, [.rest]) { e, c throws(ImportStop) in
                try extreme(e, c.rest(0), c.position, greatest: true)
            }
        }
        // HUGE_VALF, INFINITY and HUGE_VAL, as C's headers define them.
        + ["__builtin_huge_valf", "__builtin_huge_val", "__builtin_inff", "__builtin_inf", "__builtin_huge_vall"].map {
            FrameworkFunction(c: $0, 0, pure: false) { _, _ in .number(.infinity) }
        }
}
