/// Grand Central Dispatch's C functions (`dispatch/time.h`, `dispatch/queue.h`,
/// `dispatch/once.h`), on the import's virtual clock: a block dispatched after a delay runs
/// that much scene time later, in a turn of its own; `dispatch_once` runs its block once (the
/// import runs the code once). `DispatchQueue`'s Swift methods are the evaluator's.
enum DispatchFramework {
    static let functions: [FrameworkFunction] = [
        // dispatch_time(DISPATCH_TIME_NOW, nanoseconds): seconds from now.
        FrameworkFunction(c: "dispatch_time", 2, pure: false) { e, c throws(ImportStop) in
            .number(try c.number(e, 1) / 1e9)
        },
        FrameworkFunction(c: "dispatch_get_main_queue", 0, pure: false) { _, _ in .typeName("DispatchQueue.main") },
        FrameworkFunction(c: "dispatch_once", 2, pure: false) { e, c throws(ImportStop) in
            if case .closure(let closure) = c.values[1] { _ = try e.invoke(closure, [], at: c.position) }
            return .null
        },
        FrameworkFunction(c: "dispatch_after", 3, pure: false) { e, c throws(ImportStop) in
            try e.dispatch(c.values[0], c.arguments, c.position)
        },
        FrameworkFunction(c: "dispatch_async", 2, pure: false) { e, c throws(ImportStop) in
            try e.dispatch(.number(0), c.arguments, c.position)
        },
    ]
}
