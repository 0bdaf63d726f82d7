/// A call of a framework function, bound to its declaration: the parameters' values in the
/// declaration's order, the call's arguments as written, and where it is.
struct FrameworkCall {
    let values: [Value]
    let arguments: Arguments
    let position: SourcePosition

    /// Parameter `index` as a number (`CGFloat`, `Double`, an `Int` widened).
    func number(_ evaluator: ImportEvaluator, _ index: Int) throws(ImportStop) -> Double {
        try evaluator.double(values[index], position)
    }

    /// The values of a variadic parameter.
    func rest(_ index: Int) -> [Value] {
        if case .array(let elements) = values[index] { return elements }
        return [values[index]]
    }
}

/// A function or initializer of a framework (Core Graphics, Core Animation, Foundation,
/// Dispatch, UIKit, the C library, Swift's standard library) declared as its header declares
/// it — name and parameters — and bound to the one native implementation that gives its value
/// or effect. A new API is one declaration, found by name and told from its overloads by its
/// labels (``ArgumentBinding``).
struct FrameworkFunction: Sendable {
    let name: String
    let parameters: [ParameterDeclaration]
    /// A pure function of its arguments (`CGPointMake`, `sin`): given a value known only at run
    /// time, it gives a value known only at run time.
    let pure: Bool
    let body: @Sendable (ImportEvaluator, FrameworkCall) throws(ImportStop) -> Value

    init(
        _ name: String, _ parameters: [ParameterDeclaration], pure: Bool = true,
        _ body: @escaping @Sendable (ImportEvaluator, FrameworkCall) throws(ImportStop) -> Value
    ) {
        self.name = name
        self.parameters = parameters
        self.pure = pure
        self.body = body
    }

    /// `_` parameters, `count` of them: a C function's.
    init(
        c name: String, _ count: Int, pure: Bool = true,
        _ body: @escaping @Sendable (ImportEvaluator, FrameworkCall) throws(ImportStop) -> Value
    ) {
        self.init(name, Array(repeating: .unlabelled, count: count), pure: pure, body)
    }

    /// Its Swift name with its labels: `CGPoint(x:y:)`.
    var signature: String { ArgumentBinding.signature(name, parameters.map(\.label)) }
}

/// Every framework's declared functions, by name: what ``ImportEvaluator/callFunction(_:_:_:)``
/// looks a call up in before anything else.
enum Frameworks {
    static let functions: [String: [FrameworkFunction]] = {
        let all =
            CoreGraphicsFramework.functions + CoreAnimationFramework.functions + DarwinFramework.functions
            + SwiftStandardLibrary.functions + DispatchFramework.functions + FoundationFramework.functions
            + UIKitFramework.functions + ObjectiveCRuntimeFramework.functions + CoreGraphicsColorFramework.functions
            + ModalPresentationFramework.functions
        return Dictionary(grouping: all, by: \.name)
    }()

    /// The initializers `.init(…)` may mean when its type is not written, in the order tried:
    /// the first whose labels the call fits.
    static let implicitInitializers = ["CGPoint", "CGRect", "CGSize", "CGVector", "CGAffineTransform", "UIEdgeInsets"]
}
