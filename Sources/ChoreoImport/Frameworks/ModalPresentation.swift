/// UIKit's view controllers as the code makes them: `UIViewController()` and
/// `UIViewController(nibName:bundle:)` (UIViewController.h). Its view is loaded when first asked
/// for (`loadView` makes a plain `UIView` that fills the screen, no background colour); it is
/// presented and dismissed by ``ImportEvaluator/controllerMethod(_:_:_:_:_:)``.
enum ModalPresentationFramework {
    private typealias P = ParameterDeclaration

    static let functions: [FrameworkFunction] = [
        FrameworkFunction("UIViewController", [], pure: false) { e, _ in e.makeViewController() },
        FrameworkFunction("UIViewController", [P("nibName", default: .null), P("bundle", default: .null)], pure: false)
        { e, _ in e.makeViewController() },
    ]
}

extension ImportEvaluator {
    /// A `UIViewController` of UIKit's own class (not one of the file's types): presented with
    /// UIKit's default `modalPresentationStyle` and `modalTransitionStyle` unless the code sets them.
    func makeViewController() -> Value {
        let object = InstanceObject(typeName: "UIViewController")
        return allocate(.instance(object))
    }
}
