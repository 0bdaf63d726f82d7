/// What `print`, `NSLog` and string interpolation write, as the code would write it: a value
/// the scene can test at run time (a completion's `finished`, `transitionWasCancelled`) is
/// written as it will be — one marker for each outcome, under the scene's `if` — instead of its
/// name.
extension ImportEvaluator {
    /// The first value among `values` that the scene can test, or that a string was made from.
    static func testable(_ values: [Value]) -> RuntimeValue? {
        for value in values {
            guard case .runtime(let runtime) = value else { continue }
            if case .text(let inner, _, _) = runtime { return inner }
            if runtime.condition != nil, runtime.negated?.condition != nil { return runtime }
        }
        return nil
    }

    /// `values` as they are when `runtime` holds (`flag`) or not: the value itself a Bool, a
    /// string made from it the one it then reads.
    static func substituting(_ values: [Value], _ runtime: RuntimeValue, _ flag: Bool) -> [Value] {
        values.map { value in
            guard case .runtime(let given) = value else { return value }
            if given == runtime { return .bool(flag) }
            if case .text(let inner, let whenTrue, let whenFalse) = given, inner == runtime {
                return .string(flag ? whenTrue : whenFalse)
            }
            return value
        }
    }

    /// A string made from `values` by `render`: when one of them is a testable run-time value,
    /// a string of each outcome (``RuntimeValue/text(_:whenTrue:whenFalse:)``).
    func text(_ values: [Value], _ render: ([Value]) -> String) -> Value {
        guard let runtime = Self.testable(values) else { return .string(render(values)) }
        return .runtime(
            .text(
                runtime, whenTrue: render(Self.substituting(values, runtime, true)),
                whenFalse: render(Self.substituting(values, runtime, false))))
    }

    /// A marker of what `render` makes of `values`: in a callback, where the scene can test
    /// the run-time value one of them holds, a marker under each outcome's `if`.
    func mark(_ values: [Value], _ position: SourcePosition, _ render: ([Value]) -> String) throws(ImportStop) {
        guard let runtime = Self.testable(values), let condition = runtime.condition,
            let negated = runtime.negated?.condition, inCallback || currentTransition != nil
        else {
            let written = Self.testable(values).map { Self.substituting(values, $0, true) } ?? values
            try emit([("mark", .value(.string(render(written))))], position)
            return
        }
        for (test, flag) in [(condition, true), (negated, false)] {
            let list = ActionList()
            let written = render(Self.substituting(values, runtime, flag))
            try collecting(into: list) { () throws(ImportStop) in
                try emit([("mark", .value(.string(written)))], position)
            }
            try emit([("if", .value(.string(test))), ("do", .list(list))], position)
        }
    }
}
