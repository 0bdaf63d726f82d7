import ChoreoJSON

/// View controllers and their custom transitions: `pushViewController(_:animated:)` and
/// `present(_:animated:completion:)` with an animator (`UIViewControllerAnimatedTransitioning`)
/// from the navigation controller's delegate or the presented controller's
/// `transitioningDelegate`, read as the scene's `beginTransition` whose `animateTransition`
/// is the animator's `animateTransition(using:)`.
extension ImportEvaluator {
    /// A view controller's view: the canvas for the entry point's, else a layer made on first
    /// use, its `viewDidLoad` run then (as UIKit loads a view when it is first asked for).
    func viewOf(_ controller: Value, at position: SourcePosition) throws(ImportStop) -> Value {
        guard let object = instance(controller) else { return .null }
        if let view = object.fields["view"], case .object = view { return view }
        let view = try makeLayer(
            "UIView", Arguments(items: [("frame", .rect(0, 0, screen.width, screen.height))]), position)
        object.fields["view"] = view
        if let layer = layer(view), layer.id == nil, let name = controllerNames[objectIndex(controller)] {
            layer.id = uniqueID(name, position)
        }
        if let load = method(object.typeName, "viewDidLoad") {
            _ = try call(load, on: controller, arguments: [], at: position)
        }
        return view
    }

    func objectIndex(_ value: Value) -> Int {
        if case .object(let index) = value { return index }
        return -1
    }

    /// The name a view controller's view takes: the variable the controller is bound to
    /// (`detail`), else its class without `ViewController` (`ListViewController` → `list`).
    func controllerName(_ controller: Value) -> String {
        if let name = controllerNames[objectIndex(controller)] { return name }
        guard let object = instance(controller) else { return "view" }
        var base = object.typeName
        for suffix in ["ViewController", "Controller"] where base.hasSuffix(suffix) && base.count > suffix.count {
            base.removeLast(suffix.count)
            break
        }
        return base.prefix(1).lowercased() + base.dropFirst()
    }

    /// The entry point's view becomes a layer of the scene inside the transition container:
    /// what was on the canvas moves into it, as declared.
    func promoteCanvas(_ controller: Value, at position: SourcePosition) throws(ImportStop) -> Value {
        guard let canvasIndex = canvasObject, case .layer(let canvas) = heap[canvasIndex],
            let object = instance(controller)
        else { return try viewOf(controller, at: position) }
        let container = LayerObject(kind: .layer, className: "UIView", isView: true, created: position)
        container.model = [
            "position": .point(screen.width / 2, screen.height / 2),
            "bounds": .rect(0, 0, screen.width, screen.height), "anchorPoint": .point(0.5, 0.5),
            "opacity": .number(1), "transform": .transform(.identity),
        ]
        container.declare(
            "frame", .array([.number(0), .number(0), .number(screen.width), .number(screen.height)]))
        let containerValue = allocate(.layer(container))
        container.id = uniqueID("container", position)
        let view = LayerObject(kind: .layer, className: "UIView", isView: true, created: position)
        view.model = container.model
        view.declare(
            "frame", .array([.number(0), .number(0), .number(screen.width), .number(screen.height)]))
        if let background = canvasBackground { view.declare("backgroundColor", background) }
        let viewValue = allocate(.layer(view))
        view.id = uniqueID(controllerName(controller), position)
        guard case .object(let containerIndex) = containerValue, case .object(let viewIndex) = viewValue else {
            return .null
        }
        // What was on the canvas is the view's, declared and live.
        view.declaredChildren = declaredRoots
        view.children = canvas.children
        for child in view.children { if case .layer(let l) = heap[child] { l.parent = viewIndex } }
        for child in view.declaredChildren { if case .layer(let l) = heap[child] { l.declaredParent = viewIndex } }
        container.children = [viewIndex]
        container.declaredChildren = [viewIndex]
        view.parent = containerIndex
        view.declaredParent = containerIndex
        declaredRoots = [containerIndex]
        canvas.children = [containerIndex]
        container.parent = canvasIndex
        container.declaredParent = canvasIndex
        markAttached(containerIndex)
        object.fields["view"] = viewValue
        canvasObject = nil
        canvasBackground = nil
        transitionContainer = containerValue
        return viewValue
    }

    /// The transition container: the entry point's view promoted into one, the first time.
    func container(for from: Value, at position: SourcePosition) throws(ImportStop) -> Value {
        if let transitionContainer { return transitionContainer }
        if let entryController, objectIndex(entryController) == objectIndex(from) {
            _ = try promoteCanvas(from, at: position)
        }
        if let transitionContainer { return transitionContainer }
        throw stop(position, "a transition needs its view controllers on screen")
    }

    /// `navigationController`: the entry point's navigation controller, made on first use.
    func navigationController(of controller: Value) -> Value {
        if let navigation = navigationControllerValue { return navigation }
        let navigation = InstanceObject(typeName: "UINavigationController")
        navigation.fields["topViewController"] = controller
        let value = allocate(.instance(navigation))
        navigationControllerValue = value
        return value
    }

    /// `pushViewController(_:animated:)`, `popViewController(animated:)`, `present(_:animated:completion:)`,
    /// `dismiss(animated:completion:)`: a `beginTransition` when an animator is given for it.
    ///
    /// `completion` is `present`'s and `dismiss`'s: UIKit runs it "after the presentation
    /// finishes" (UIViewController.present(_:animated:completion:)), so it runs when the
    /// animator calls `completeTransition(_:)` — in that completion's turn — or at once when the
    /// views change at once.
    func transition(
        _ operation: String, from: Value, to: Value, animated: Bool, delegate: Value?,
        completion: ClosureValue? = nil, _ position: SourcePosition
    ) throws(ImportStop) -> Value {
        let animator = animated ? try animatorFor(operation, from: from, to: to, delegate: delegate, position) : nil
        let containerValue = try container(for: from, at: position)
        let fromView = try viewOf(from, at: position)
        let toView = try viewOf(to, at: position)
        guard let animator, let animatorObject = instance(animator),
            let animate = method(animatorObject.typeName, "animateTransition")
        else {
            if animated {
                warn(
                    position,
                    "\(operation) without a custom animator is UIKit's own animation; the import changes the views at once"
                )
            }
            // The views change at once: the incoming one joins the container, the outgoing one leaves.
            if case .object(let containerIndex) = containerValue {
                if operation == "push" || operation == "present" {
                    try attach(toView, to: containerIndex, at: nil, position)
                }
                if operation != "present", case .object(let fromIndex) = fromView { try detach(fromIndex, position) }
            }
            if let completion { _ = try invoke(completion, [], at: position) }
            return .null
        }
        transitionCount += 1
        let id = transitionCount == 1 ? operation : "\(operation)-\(transitionCount)"
        let context = TransitionContext(
            id: id, operation: operation, from: from, to: to, container: containerValue, fromView: fromView,
            toView: toView)
        context.completion = completion
        let contextValue = allocate(.transitionContext(context))
        var duration = 0.3
        if let durationMethod = method(animatorObject.typeName, "transitionDuration") {
            duration = try double(
                try call(durationMethod, on: animator, arguments: [contextValue], at: position), position)
        }
        let list = ActionList()
        guard let fromLayer = layer(fromView), let toLayer = layer(toView), let containerLayer = layer(containerValue)
        else {
            return .null
        }
        var members: [(String, Piece)] = [
            ("id", .value(.string(id))), ("operation", .value(.string(operation))),
            ("from", .value(.string(self.id(of: fromLayer)))), ("to", .value(.string(self.id(of: toLayer)))),
            ("container", .value(.string(self.id(of: containerLayer)))), ("duration", .value(.number(duration))),
        ]
        if let interaction = try interactionFor(operation, animator: animator, delegate: delegate, position),
            let interactionObject = instance(interaction)
        {
            interactions[objectIndex(interaction)] = id
            let speed = interactionObject.fields["completionSpeed"]?.number ?? 1
            var curve = "easeInOut"
            if case .enumCase(let name)? = interactionObject.fields["completionCurve"] { curve = name }
            members.append(
                (
                    "interactive",
                    .value(
                        .object(JSONObject([("completionSpeed", .number(speed)), ("completionCurve", .string(curve))])))
                ))
        }
        members.append(("animateTransition", .list(list)))
        try emit([("beginTransition", .object(members, nil))], position)
        let saved = currentTransition
        currentTransition = id
        defer { currentTransition = saved }
        try collecting(into: list) { () throws(ImportStop) in
            _ = try call(animate, on: animator, arguments: [contextValue], at: position)
        }
        return .null
    }

    /// The animator the delegate gives for an operation.
    func animatorFor(_ operation: String, from: Value, to: Value, delegate: Value?, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        guard let delegate, let object = instance(delegate) else { return nil }
        let navigation = navigationControllerValue ?? .null
        let candidates: [(String, [Value])] =
            switch operation {
            case "push", "pop":
                [("navigationController", [navigation, .enumCase(operation), from, to])]
            case "present":
                [
                    ("animationController", [to, from, from]),
                    ("animationControllerForPresentedController", [to, from, from]),
                ]
            default:
                [("animationController", [from]), ("animationControllerForDismissedController", [from])]
            }
        for (name, arguments) in candidates {
            let methods = (types[object.typeName]?.methods ?? []).filter { $0.name == name }
            let chosen =
                methods.first {
                    $0.labels.count == arguments.count && (operation != "dismiss" || $0.labels.contains("forDismissed"))
                }
                ?? methods.first { $0.labels.count == arguments.count }
            guard let function = chosen else { continue }
            let result = try call(function, on: delegate, arguments: arguments, at: position)
            if case .null = result { return nil }
            return result
        }
        return nil
    }

    /// The interaction controller the delegate gives for a transition (nil: not interactive).
    func interactionFor(_ operation: String, animator: Value, delegate: Value?, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        guard let delegate, let object = instance(delegate) else { return nil }
        let (name, arguments): (String, [Value]) =
            switch operation {
            case "dismiss": ("interactionControllerForDismissal", [animator])
            case "present": ("interactionControllerForPresentation", [animator])
            default: ("navigationController", [navigationControllerValue ?? .null, animator])
            }
        let methods = (types[object.typeName]?.methods ?? []).filter {
            $0.name == name && $0.labels.count == arguments.count
        }
        guard
            let function = methods.first(where: {
                name != "navigationController" || $0.labels.contains("interactionControllerFor")
            })
        else { return nil }
        let result = try call(function, on: delegate, arguments: arguments, at: position)
        if case .object = result { return result }
        return nil
    }

    /// Methods and properties of a transition context (`UIViewControllerContextTransitioning`).
    func contextMember(_ context: TransitionContext, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        let key = arguments.items.first?.value
        func side(_ value: Value?) -> String? {
            switch value {
            case .enumCase(let name)?: name.hasPrefix("to") ? "to" : name.hasPrefix("from") ? "from" : nil
            case .string(let name)?: name.contains("To") || name == "to" ? "to" : "from"
            default: nil
            }
        }
        switch name {
        case "containerView":
            return context.container
        case "transitionDuration":
            return .null
        case "viewController", "viewControllerForKey":
            return side(key) == "to" ? context.to : context.from
        case "view", "viewForKey":
            return side(key) == "to" ? context.toView : context.fromView
        case "finalFrame", "finalFrameForViewController", "initialFrame", "initialFrameForViewController":
            return .rect(0, 0, screen.width, screen.height)
        case "transitionWasCancelled":
            return .runtime(.transitionWasCancelled(negated: false))
        case "isAnimated":
            return .bool(true)
        case "isInteractive":
            return .bool(false)
        case "completeTransition":
            let result = try completeTransition(arguments, position)
            if let completion = context.completion {
                context.completion = nil
                _ = try invoke(completion, [], at: position)
            }
            return result
        default:
            return try unknownAPI("UIViewControllerContextTransitioning.\(name)", position)
        }
    }
}

/// A transition in progress, as `animateTransition(using:)` sees it.
final class TransitionContext {
    let id: String
    let operation: String
    let from: Value
    let to: Value
    let container: Value
    let fromView: Value
    let toView: Value
    /// `present`'s or `dismiss`'s completion, run when the animator completes the transition.
    var completion: ClosureValue?

    init(id: String, operation: String, from: Value, to: Value, container: Value, fromView: Value, toView: Value) {
        self.id = id
        self.operation = operation
        self.from = from
        self.to = to
        self.container = container
        self.fromView = fromView
        self.toView = toView
    }
}

extension ImportEvaluator {
    /// UIKit's methods of view controllers and the navigation controller, when the file does not
    /// define them: nil otherwise.
    func controllerMethod(
        _ target: Value, _ object: InstanceObject, _ name: String, _ arguments: Arguments, _ position: SourcePosition
    ) throws(ImportStop) -> Value? {
        let first = arguments.items.first?.value ?? .null
        let animated = (try? truth(arguments.first("animated", "animated") ?? .bool(true), position)) ?? true
        if object.typeName == "UINavigationController" {
            switch name {
            case "pushViewController":
                let from = object.fields["topViewController"] ?? .null
                object.fields["previous"] = from
                object.fields["topViewController"] = first
                return try transition(
                    "push", from: from, to: first, animated: animated, delegate: object.fields["delegate"], position)
            case "popViewController", "popViewControllerAnimated":
                let from = object.fields["topViewController"] ?? .null
                let to = object.fields["previous"] ?? .null
                object.fields["topViewController"] = to
                return try transition(
                    "pop", from: from, to: to, animated: animated, delegate: object.fields["delegate"], position)
            default:
                return nil
            }
        }
        guard isViewController(object.typeName), method(object.typeName, name) == nil else { return nil }
        switch name {
        case "present", "presentViewController":
            guard let presented = instance(first) else { return nil }
            presented.fields["presentingViewController"] = target
            object.fields["presentedViewController"] = first
            return try transition(
                "present", from: target, to: first, animated: animated,
                delegate: presented.fields["transitioningDelegate"],
                completion: arguments.closure("completion", orTrailing: 0), position)
        case "dismiss", "dismissViewControllerAnimated":
            // Sent to the presenting view controller, it dismisses the one it presented ("If you
            // call this method on the presenting view controller, UIKit asks the presented view
            // controller to dismiss itself", UIViewController.dismiss(animated:completion:)).
            var dismissed = target
            var dismissedObject = object
            if let presented = object.fields["presentedViewController"], let presentedObject = instance(presented) {
                dismissed = presented
                dismissedObject = presentedObject
            }
            let presenting = dismissedObject.fields["presentingViewController"] ?? .null
            if let presenter = instance(presenting) { presenter.fields["presentedViewController"] = nil }
            return try transition(
                "dismiss", from: dismissed, to: presenting, animated: animated,
                delegate: dismissedObject.fields["transitioningDelegate"],
                completion: arguments.closure("completion", orTrailing: 0), position)
        case "beginAppearanceTransition":
            // UIViewController.beginAppearanceTransition(_:animated:): "tells a child controller
            // its appearance is about to change" — its viewWillAppear(_:) or viewWillDisappear(_:)
            // runs; endAppearanceTransition() runs viewDidAppear(_:) or viewDidDisappear(_:).
            let appearing = (try? truth(first, position)) ?? true
            object.fields["$appearing"] = .bool(appearing)
            object.fields["$appearanceAnimated"] = .bool(animated)
            return try appearanceCallback(target, object, appearing ? "viewWillAppear" : "viewWillDisappear", position)
        case "endAppearanceTransition":
            guard case .bool(let appearing)? = object.fields.removeValue(forKey: "$appearing") else { return .null }
            return try appearanceCallback(target, object, appearing ? "viewDidAppear" : "viewDidDisappear", position)
        default:
            return nil
        }
    }

    /// One of a view controller's appearance methods, when its class declares it (UIKit's own do
    /// nothing a scene shows), called with the `animated` of the appearance transition.
    func appearanceCallback(_ target: Value, _ object: InstanceObject, _ name: String, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        guard let function = method(object.typeName, name) else { return .null }
        let animated = object.fields["$appearanceAnimated"] ?? .bool(true)
        _ = try call(function, on: target, arguments: function.parameters.isEmpty ? [] : [animated], at: position)
        return .null
    }
}
