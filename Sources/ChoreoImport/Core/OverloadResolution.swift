/// Which of the file's functions a call means, and what each parameter gets — the language
/// core's rules for the code's own declarations (The Swift Programming Language, "Functions";
/// "Declarations", "Function Declaration"):
///
/// - a function is named by its base name and its argument labels;
/// - a call fits a declaration when its arguments bind to the parameters (``ArgumentBinding``:
///   labels in order, defaults left out, variadic parameters collecting);
/// - among the declarations a call fits, the one whose parameter types the argument values
///   fit best is called (`set(colors: UIColor...)` beside `set(colors: [UIColor])`: an array
///   argument calls the second, colours the first);
/// - a default value is evaluated when the call leaves its parameter out.
///
/// Where no declaration fits (code lowered from Objective-C's selectors, a call of a method
/// the file declares with other labels), the call keeps the earlier reading: the declaration
/// of as many parameters, else the first of the name.
extension FunctionDeclaration {
    /// The parameters as the core binds them.
    var parameterShapes: [ParameterDeclaration] {
        labels.indices.map { index in
            ParameterDeclaration(
                labels[index],
                default: index < defaults.count && defaults[index] != nil ? .null : nil,
                variadic: index < variadic.count && variadic[index])
        }
    }
}

extension ImportEvaluator {
    /// The declaration among `candidates` the call means (see the extension on
    /// ``FunctionDeclaration``), or nil when there is none of the name.
    func resolve(_ candidates: [FunctionDeclaration], _ arguments: Arguments) -> FunctionDeclaration? {
        let labels = arguments.labels
        let fitting = candidates.filter { ArgumentBinding.match(labels, to: $0.parameterShapes) != nil }
        if let best = fitting.max(by: { typeFit($0, arguments) < typeFit($1, arguments) }) { return best }
        if let exact = candidates.first(where: { $0.labels == labels }) { return exact }
        if let counted = candidates.first(where: { $0.labels.count == labels.count }) { return counted }
        return candidates.first
    }

    /// How many of the call's arguments fit the types the declaration writes (an unwritten or
    /// unknown type fits anything); the first of the best is chosen, as written.
    func typeFit(_ function: FunctionDeclaration, _ arguments: Arguments) -> Int {
        guard let matches = ArgumentBinding.match(arguments.labels, to: function.parameterShapes) else { return -1 }
        var score = 0
        for (index, match) in matches.enumerated() {
            let written = index < function.parameterTypes.count ? function.parameterTypes[index] : nil
            guard let type = written.map(FunctionDeclaration.bareType) else { continue }
            switch match {
            case .argument(let at): if Self.value(arguments.items[at].value, fits: type) { score += 1 }
            case .variadic(let indices):
                if indices.allSatisfy({ Self.value(arguments.items[$0].value, fits: type) }) { score += 1 }
            case .defaulted: score += 1
            }
        }
        return score
    }

    /// Whether a value can be of a type the code writes: arrays for `[T]`, numbers for the
    /// numeric types, and so on; a type not listed here fits anything.
    static func value(_ value: Value, fits type: String) -> Bool {
        switch value {
        case .runtime, .null: return true
        default: break
        }
        if type.hasPrefix("[") && type.hasSuffix("]") && !type.contains(":") {
            if case .array = value { return true }
            return false
        }
        switch type {
        case "CGFloat", "Double", "Float", "Int", "TimeInterval", "NSInteger", "NSUInteger", "UInt":
            return value.number != nil
        case "String", "NSString": if case .string = value { return true } else { return false }
        case "Bool", "BOOL": if case .bool = value { return true } else { return false }
        case "UIColor", "CGColor", "CGColorRef": if case .color = value { return true } else { return false }
        case "CGPoint": if case .point = value { return true } else { return false }
        case "CGSize": if case .size = value { return true } else { return false }
        case "CGRect": if case .rect = value { return true } else { return false }
        default:
            // An option set takes an array literal (`OptionSet` is `ExpressibleByArrayLiteral`:
            // `[.curveEaseIn, .allowUserInteraction]` for `UIView.AnimationOptions`).
            if case .array = value { return Self.optionSets.contains(type) || type.hasSuffix("Options") }
            return true
        }
    }

    /// UIKit's and Core Animation's option sets whose names do not end in `Options`.
    static let optionSets: Set<String> = [
        "UIRectCorner", "CACornerMask", "UIControl.State", "UIControlState", "UIControl.Event", "UIControlEvents",
        "UIView.AutoresizingMask", "UIViewAutoresizing", "UIRectEdge", "CAEdgeAntialiasingMask",
    ]

    /// The values each parameter gets from the call: bound by labels, a left-out parameter's
    /// default evaluated, a variadic one's arguments as an array; where the call fits no
    /// declaration, the arguments in order (the earlier reading).
    func boundArguments(_ function: FunctionDeclaration, _ arguments: Arguments) throws(ImportStop) -> [Value] {
        guard let matches = ArgumentBinding.match(arguments.labels, to: function.parameterShapes) else {
            return arguments.items.map(\.value)
        }
        var values: [Value] = []
        for (index, match) in matches.enumerated() {
            switch match {
            case .argument(let at): values.append(arguments.items[at].value)
            case .variadic(let indices): values.append(.array(indices.map { arguments.items[$0].value }))
            case .defaulted:
                // Swift evaluates a default where the function is declared, without `self`.
                let expression = function.defaults[index]!
                values.append(try evaluate(expression, Scope(parent: globals), selfValue: nil))
            }
        }
        return values
    }

    /// Calls one of the file's functions or methods with a call's arguments, bound.
    func call(_ function: FunctionDeclaration, on target: Value, with arguments: Arguments, at position: SourcePosition)
        throws(ImportStop) -> Value
    {
        try call(function, on: target, arguments: try boundArguments(function, arguments), at: position)
    }
}
