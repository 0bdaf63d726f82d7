/// A parameter of a function or initializer, as its declaration writes it: the argument label a
/// call uses, a default value, or variadic.
struct ParameterDeclaration: Sendable {
    /// A default argument: a literal, as a declaration writes it.
    enum Default: Sendable {
        case string(String), number(Double), integer(Int), bool(Bool), null

        var value: Value {
            switch self {
            case .string(let text): .string(text)
            case .number(let number): .number(number)
            case .integer(let integer): .integer(integer)
            case .bool(let flag): .bool(flag)
            case .null: .null
            }
        }
    }

    /// The argument label (`x` in `CGPoint(x:y:)`); nil for `_` and for C's parameters.
    let label: String?
    /// Swift's default argument: used when a call leaves the parameter out.
    let defaultValue: Default?
    /// `T...` (C's `...`): takes the argument of its label and every unlabelled one after it.
    let variadic: Bool

    init(_ label: String?, default defaultValue: Default? = nil, variadic: Bool = false) {
        self.label = label
        self.defaultValue = defaultValue
        self.variadic = variadic
    }

    /// `_`, `_ …` and C's: no label.
    static let unlabelled = ParameterDeclaration(nil)
    static let rest = ParameterDeclaration(nil, variadic: true)
}

/// How a call's arguments meet a declaration's parameters — Swift's rule (The Swift Programming
/// Language, "Functions": "Function Argument Labels and Parameter Names", "Default Parameter
/// Values", "Variadic Parameters"), which is C's too when no parameter has a label:
///
/// - arguments are matched to parameters in order; each argument's label must be its
///   parameter's (none for `_`);
/// - a parameter with a default value may be left out, and takes its default;
/// - a variadic parameter takes the argument of its label and the unlabelled ones after it,
///   as an array (none: an empty array);
/// - every argument must be taken.
///
/// A declaration's overloads are told apart this way (`CGAffineTransform(scaleX:y:)` and
/// `CGAffineTransform(rotationAngle:)`): the first that binds is the one called.
enum ArgumentBinding {
    /// What a parameter is given by a call.
    enum Match: Equatable {
        /// The argument at this index.
        case argument(Int)
        /// Nothing: its default value.
        case defaulted
        /// A variadic parameter: the arguments at these indices.
        case variadic([Int])
    }

    /// For each parameter, what the call's arguments (their labels, in order) give it; nil when
    /// the call does not fit the declaration.
    static func match(_ labels: [String?], to parameters: [ParameterDeclaration]) -> [Match]? {
        var matches: [Match] = []
        var next = 0
        for parameter in parameters {
            if parameter.variadic {
                var taken: [Int] = []
                if next < labels.count, labels[next] == parameter.label {
                    taken.append(next)
                    next += 1
                    // The rest are unlabelled (Swift labels the parameter after a variadic one).
                    while next < labels.count, labels[next] == nil {
                        taken.append(next)
                        next += 1
                    }
                }
                matches.append(.variadic(taken))
            } else if next < labels.count, labels[next] == parameter.label {
                matches.append(.argument(next))
                next += 1
            } else if parameter.defaultValue != nil {
                matches.append(.defaulted)
            } else {
                return nil
            }
        }
        return next == labels.count ? matches : nil
    }

    /// The parameters' values in order (a variadic one as `.array`, a left-out one its default),
    /// or nil when the call does not fit the declaration.
    static func bind(_ arguments: Arguments, to parameters: [ParameterDeclaration]) -> [Value]? {
        guard let matches = match(arguments.labels, to: parameters) else { return nil }
        return zip(matches, parameters).map { match, parameter in
            switch match {
            case .argument(let index): arguments.items[index].value
            case .defaulted: parameter.defaultValue?.value ?? .null
            case .variadic(let indices): .array(indices.map { arguments.items[$0].value })
            }
        }
    }

    /// `name(label:label:)`, as Swift names a function by its labels (`_` for none).
    static func signature(_ name: String, _ labels: [String?]) -> String {
        "\(name)(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }
}
