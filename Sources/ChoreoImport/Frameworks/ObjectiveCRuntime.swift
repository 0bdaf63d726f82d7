/// The Objective-C runtime's functions (`NSClassFromString`, `NSStringFromClass`,
/// `NSStringFromSelector`, `NSSelectorFromString`, `object_getClass`; Foundation's
/// `NSObjCRuntime.h`, `objc/runtime.h`) and the frameworks' classes as the runtime sees them:
/// each class's superclass, the selectors of its declared methods the importer models, and the
/// protocols it adopts, as UIKit's, Core Animation's and Foundation's headers declare them.
enum ObjectiveCRuntimeFramework {
    private typealias P = ParameterDeclaration

    /// Each framework class's superclass (`NSObject` is the root).
    static let superclasses: [String: String] = [
        "NSString": "NSObject", "NSMutableString": "NSString", "NSArray": "NSObject", "NSMutableArray": "NSArray",
        "NSDictionary": "NSObject", "NSMutableDictionary": "NSDictionary", "NSValue": "NSObject",
        "NSNumber": "NSValue", "NSNull": "NSObject", "NSDate": "NSObject", "NSTimer": "NSObject",
        "NSRunLoop": "NSObject", "NSNotification": "NSObject", "NSNotificationCenter": "NSObject",
        "NSBundle": "NSObject", "UIResponder": "NSObject", "UIView": "UIResponder", "UIWindow": "UIView",
        "UILabel": "UIView", "UIImageView": "UIView", "UIActivityIndicatorView": "UIView",
        "UIProgressView": "UIView", "UIScrollView": "UIView", "UIStackView": "UIView",
        "UIVisualEffectView": "UIView", "UIControl": "UIView", "UIButton": "UIControl", "UITextField": "UIControl",
        "UISwitch": "UIControl", "UISlider": "UIControl", "UISegmentedControl": "UIControl",
        "UIViewController": "UIResponder", "UINavigationController": "UIViewController",
        "UIApplication": "UIResponder", "UIColor": "NSObject", "UIFont": "NSObject", "UIImage": "NSObject",
        "UIBezierPath": "NSObject", "UIScreen": "NSObject", "UIGestureRecognizer": "NSObject",
        "UITapGestureRecognizer": "UIGestureRecognizer", "UIPanGestureRecognizer": "UIGestureRecognizer",
        "UIViewPropertyAnimator": "NSObject", "CALayer": "NSObject", "CAShapeLayer": "CALayer",
        "CATextLayer": "CALayer", "CAGradientLayer": "CALayer", "CAReplicatorLayer": "CALayer",
        "CAEmitterLayer": "CALayer", "CAEmitterCell": "NSObject", "CAAnimation": "NSObject",
        "CAPropertyAnimation": "CAAnimation", "CABasicAnimation": "CAPropertyAnimation",
        "CAKeyframeAnimation": "CAPropertyAnimation", "CASpringAnimation": "CABasicAnimation",
        "CAAnimationGroup": "CAAnimation", "CATransition": "CAAnimation", "CAMediaTimingFunction": "NSObject",
        "CADisplayLink": "NSObject", "CATransaction": "NSObject",
    ]

    /// The methods a framework class declares that `respondsToSelector:` (`-name`) and a class's
    /// own `respondsToSelector:` (`+name`) answer yes for, by the selector's first piece; NSObject's
    /// are every class's.
    static let selectors: [String: Set<String>] = [
        "NSObject": [
            "+alloc", "+new", "+class", "+superclass", "+load", "+initialize", "+instancesRespondToSelector",
            "+isSubclassOfClass", "+conformsToProtocol", "-init", "-class", "-superclass", "-isKindOfClass",
            "-isMemberOfClass", "-respondsToSelector", "-conformsToProtocol", "-copy", "-mutableCopy",
            "-performSelector", "-setValue", "-valueForKey", "-isEqual", "-description",
        ],
        "UIView": [
            "+animateWithDuration", "+animateKeyframesWithDuration", "+transitionWithView", "+layerClass",
            "-addSubview", "-removeFromSuperview", "-layoutSubviews", "-setNeedsLayout", "-layoutIfNeeded",
            "-sizeToFit", "-setFrame", "-frame", "-setBounds", "-bounds", "-setCenter", "-center", "-setAlpha",
            "-alpha", "-setHidden", "-isHidden", "-setTransform", "-transform", "-setBackgroundColor",
            "-backgroundColor", "-layer", "-superview", "-subviews", "-tintColor", "-setTintColor",
            "-addGestureRecognizer", "-bringSubviewToFront", "-sendSubviewToBack", "-insertSubview",
        ],
        "UIActivityIndicatorView": ["-startAnimating", "-stopAnimating", "-isAnimating", "-setColor", "-color"],
        "UIProgressView": ["-setProgress", "-progress", "-setProgressTintColor", "-setTrackTintColor"],
        "UILabel": ["-setText", "-text", "-setFont", "-font", "-setTextColor", "-textColor", "-setTextAlignment"],
        "UIButton": ["-setTitle", "-titleLabel", "-setTitleColor"],
        "UIApplication": ["+sharedApplication"],
        "CALayer": [
            "+layer", "+defaultValueForKey", "+needsDisplayForKey", "-addSublayer", "-removeFromSuperlayer",
            "-addAnimation", "-removeAnimationForKey", "-removeAllAnimations", "-animationForKey",
            "-presentationLayer", "-modelLayer", "-layoutSublayers", "-setNeedsLayout", "-setNeedsDisplay",
        ],
    ]

    /// The protocols framework classes adopt.
    static let protocols: [String: Set<String>] = [
        "NSObject": ["NSObject"], "NSString": ["NSCopying", "NSMutableCopying"], "NSArray": ["NSCopying"],
        "NSDictionary": ["NSCopying"], "CAAnimation": ["NSCopying", "CAMediaTiming"], "CALayer": ["CAMediaTiming"],
    ]

    /// A class a string names: one of the file's or a framework's, else Nil.
    static func classNamed(_ name: String, _ evaluator: ImportEvaluator) -> Value {
        evaluator.types[name] != nil || superclasses[name] != nil || name == "NSObject" ? .typeName(name) : .null
    }

    static let functions: [FrameworkFunction] = [
        FrameworkFunction(c: "NSClassFromString", 1) { e, c in
            guard case .string(let name) = c.values[0] else { return .null }
            return classNamed(name, e)
        },
        FrameworkFunction(c: "NSStringFromClass", 1) { _, c in
            guard case .typeName(let name) = c.values[0] else { return .null }
            return .string(name)
        },
        FrameworkFunction(c: "NSStringFromSelector", 1) { _, c in
            guard case .string(let name) = c.values[0] else { return .null }
            return .string(name)
        },
        FrameworkFunction(c: "NSSelectorFromString", 1) { _, c in
            // A selector is kept as the method it names: its first piece.
            guard case .string(let name) = c.values[0] else { return .null }
            return .string(String(name.prefix { $0 != ":" }))
        },
        FrameworkFunction(c: "NSStringFromProtocol", 1) { _, c in c.values[0] },
        FrameworkFunction(c: "NSProtocolFromString", 1) { _, c in c.values[0] },
        FrameworkFunction(c: "object_getClass", 1) { e, c in
            if case .typeName = c.values[0] { return c.values[0] }
            return e.className(of: c.values[0]).map(Value.typeName) ?? .null
        },
    ]
}
