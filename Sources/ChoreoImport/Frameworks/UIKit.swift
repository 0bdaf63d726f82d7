/// UIKit's functions and value types as its headers declare them (`UIGeometry.h`,
/// `UIAccessibility.h`). UIKit's classes (views, controllers, animators) are the evaluator's.
enum UIKitFramework {
    private typealias P = ParameterDeclaration

    static let functions: [FrameworkFunction] = [
        FrameworkFunction("UIEdgeInsets", [P("top"), P("left"), P("bottom"), P("right")]) { e, c throws(ImportStop) in
            .insets(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2), try c.number(e, 3))
        },
        FrameworkFunction("UIEdgeInsets", []) { _, _ in .insets(0, 0, 0, 0) },
        FrameworkFunction(c: "UIEdgeInsetsMake", 4) { e, c throws(ImportStop) in
            .insets(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2), try c.number(e, 3))
        },
        FrameworkFunction(c: "UIAccessibilityIsReduceMotionEnabled", 0, pure: false) { e, _ in
            .bool(e.options.reduceMotion)
        },
    ]
}
