import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// The CoreGraphics, UIKit, Foundation and GCD values and functions the importer knows.
extension ImportEvaluator {
    /// Types whose names may appear as values or receivers.
    var knownTypes: Set<String> {
        [
            "UIView", "UILabel", "UIButton", "UIImageView", "CALayer", "CAShapeLayer", "CATextLayer", "CAGradientLayer",
            "CAReplicatorLayer", "CAEmitterLayer", "CAEmitterCell", "CABasicAnimation", "CAKeyframeAnimation",
            "CASpringAnimation",
            "CAAnimationGroup", "CATransition", "CAMediaTimingFunction", "CATransaction", "UIColor", "CGColor",
            "CGPoint", "CGSize", "CGRect", "CGFloat", "Double", "Float", "Int", "CGAffineTransform", "CATransform3D",
            "UIBezierPath", "DispatchQueue", "DispatchTime", "UIScreen", "UIFont", "UIEdgeInsets", "NSValue",
            "NSNumber", "UIAccessibility", "UIViewPropertyAnimator", "String", "Bool", "Array", "NSString", "Date",
            "CAMediaTimingFunctionName", "UIImage", "NSLayoutConstraint", "UIApplication", "Thread", "PlaygroundPage",
            "NSCoder", "NSMutableArray", "NSArray", "NSMutableString", "NSRange",
        ]
    }

    /// Functions and initializers that make a value from their arguments alone.
    static let valueFunctions: Set<String> = ["UIColor"]

    /// Global constants: `M_PI`, `CGFLOAT_MAX`, Core Animation's `kCA…` names, `CATransform3DIdentity`.
    func constant(_ name: String) -> Value? {
        switch name {
        case "M_PI": return .number(Double.pi)
        case "M_PI_2": return .number(Double.pi / 2)
        case "M_PI_4": return .number(Double.pi / 4)
        // "Repeat for ever" as code spells it: C's and Swift's infinities and largest numbers.
        case "HUGE_VALF", "HUGE_VAL", "HUGE", "INFINITY", "CGFLOAT_MAX", "FLT_MAX", "DBL_MAX", "MAXFLOAT":
            return .number(.infinity)
        case "YES": return .bool(true)
        case "NO": return .bool(false)
        case "nil", "NULL", "Nil": return .null
        case "CATransform3DIdentity", "CGAffineTransformIdentity": return .transform(.identity)
        case "CGPointZero": return .point(0, 0)
        case "CGSizeZero": return .size(0, 0)
        case "CGRectZero": return .rect(0, 0, 0, 0)
        case "DISPATCH_TIME_NOW": return .number(0)
        case "NSEC_PER_SEC": return .integer(1_000_000_000)
        case "NSEC_PER_MSEC": return .integer(1_000_000)
        case "USEC_PER_SEC": return .integer(1_000_000)
        default: break
        }
        if name.hasPrefix("kCA") { return .enumCase(canonicalConstant(name)) }
        if name.hasPrefix("UIViewAnimationOption") {
            return .options([lowerFirst(String(name.dropFirst("UIViewAnimationOption".count)))])
        }
        if name.hasPrefix("UIViewKeyframeAnimationOption") {
            return .options([lowerFirst(String(name.dropFirst("UIViewKeyframeAnimationOption".count)))])
        }
        if name.hasPrefix("UIGestureRecognizerState") {
            return .enumCase(lowerFirst(String(name.dropFirst("UIGestureRecognizerState".count))))
        }
        if name.hasPrefix("UINavigationControllerOperation") {
            return .enumCase(lowerFirst(String(name.dropFirst("UINavigationControllerOperation".count))))
        }
        if name.hasPrefix("UITransitionContext") {
            // UITransitionContextToViewControllerKey, UITransitionContextFromViewKey: which side.
            return .enumCase(name.contains("To") ? "to" : "from")
        }
        if name.hasPrefix("NSTextAlignment") {
            return .enumCase(lowerFirst(String(name.dropFirst("NSTextAlignment".count))))
        }
        if name.hasPrefix("UIViewAnimatingPosition") {
            return .enumCase(lowerFirst(String(name.dropFirst("UIViewAnimatingPosition".count))))
        }
        return nil
    }

    /// `kCAFillModeForwards` → `forwards`, `kCAMediaTimingFunctionEaseIn` → `easeIn`.
    func canonicalConstant(_ name: String) -> String {
        for prefix in [
            "kCAMediaTimingFunction", "kCAFillMode", "kCAAnimation", "kCATransition", "kCAEmitterLayer", "kCALineCap",
            "kCALineJoin", "kCAAlignment", "kCAGravity", "kCA",
        ] where name.hasPrefix(prefix) {
            return lowerFirst(String(name.dropFirst(prefix.count)))
        }
        return name
    }

    func lowerFirst(_ text: String) -> String { text.prefix(1).lowercased() + text.dropFirst() }

    /// `Type.member` without a call: `UIColor.systemGreen`, `CGAffineTransform.identity`.
    func staticMember(_ type: String, _ name: String) -> Value? {
        switch (type, name) {
        case ("UIColor", _), ("NSColor", _):
            return color(named: name)
        case ("CGAffineTransform", "identity"), ("CATransform3D", "identity"):
            return .transform(.identity)
        case ("CGPoint", "zero"): return .point(0, 0)
        case ("CGSize", "zero"): return .size(0, 0)
        case ("CGRect", "zero"): return .rect(0, 0, 0, 0)
        case ("UIEdgeInsets", "zero"): return .insets(0, 0, 0, 0)
        case ("CGFloat", "pi"), ("Double", "pi"), ("Float", "pi"): return .number(Double.pi)
        case ("CGFloat", "infinity"), ("Double", "infinity"), ("Float", "infinity"), ("TimeInterval", "infinity"),
            ("CFTimeInterval", "infinity"), ("Float32", "infinity"), ("Float64", "infinity"),
            ("CGFloat", "greatestFiniteMagnitude"), ("Float", "greatestFiniteMagnitude"),
            ("Double", "greatestFiniteMagnitude"), ("TimeInterval", "greatestFiniteMagnitude"),
            ("CFTimeInterval", "greatestFiniteMagnitude"):
            return .number(.infinity)
        case ("DispatchQueue", "main"): return .typeName("DispatchQueue.main")
        case ("UIScreen", "main"): return .typeName("UIScreen.main")
        case ("PlaygroundPage", "current"): return .typeName("PlaygroundPage.current")
        case ("UIAccessibility", "isReduceMotionEnabled"): return .bool(options.reduceMotion)
        case (_, _)
        where type.hasPrefix("CAMediaTimingFunctionName") || type == "CAMediaTimingFillMode"
            || type == "CAAnimationCalculationMode" || type == "CAAnimationRotationMode" || type == "CATransitionType"
            || type == "CATransitionSubtype" || type == "CAEmitterLayerEmitterShape"
            || type == "CAEmitterLayerEmitterMode"
            || type == "CAShapeLayerLineCap" || type == "CAShapeLayerLineJoin":
            return .enumCase(name)
        case ("UIView.AnimationOptions", _), ("UIViewAnimationOptions", _), ("UIView.KeyframeAnimationOptions", _):
            return .options([name])
        default:
            return nil
        }
    }

    /// A member of a framework type written through its nesting type (`UIView.AnimationOptions
    /// .allowUserInteraction`, `UIImage.RenderingMode.alwaysTemplate`): a capitalised member of
    /// a known type is its nested type (Swift imports `UIViewAnimationOptions` as
    /// `UIView.AnimationOptions`), and a member of such a nested type is one of its cases.
    func frameworkTypeMember(_ type: String, _ name: String) -> Value? {
        if let known = staticMember(type, name) { return known }
        let root = type.split(separator: ".").first.map(String.init) ?? type
        guard knownTypes.contains(root) else { return nil }
        if name.first?.isUppercase == true { return .typeName("\(type).\(name)") }
        if type.contains("."), type.split(separator: ".").last?.first?.isUppercase == true { return .enumCase(name) }
        return nil
    }

    /// A UIColor by name (`systemGreen`, `white`); `systemGreenColor` in Objective-C.
    func color(named name: String) -> Value? {
        var base = name
        if base.hasSuffix("Color"), base != "Color" { base.removeLast(5) }
        if base == "systemGrey" { base = "systemGray" }
        guard NamedColors.table[base] != nil else { return nil }
        return .color(.string(base))
    }

    /// An implicit member without a call: `.identity`, `.curveEaseOut`, `.systemGreen`.
    func implicitMember(_ name: String, _ position: SourcePosition) -> Value {
        switch name {
        case "identity": return .transform(.identity)
        case "zero": return .enumCase("zero")
        case "pi": return .number(Double.pi)
        case "infinity", "greatestFiniteMagnitude": return .number(.infinity)
        default: return .enumCase(name)
        }
    }

    /// `.zero` given where a point, size or rect is meant.
    static func isZero(_ value: Value) -> Bool {
        if case .enumCase("zero") = value { return true }
        return false
    }

    /// A point's or size's two numbers.
    func pair(_ value: Value, _ label: String, _ position: SourcePosition) throws(ImportStop) -> (Double, Double) {
        switch value {
        case .point(let x, let y), .size(let x, let y): return (x, y)
        default: throw stop(position, "\(label) must be a CGPoint or CGSize, not \(value.kindName)")
        }
    }

    /// An implicit member call: `.now()`, `.milliseconds(300)`, `.init(x:y:)`.
    func implicitCall(_ name: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let first = arguments.items.first?.value
        switch name {
        case "now": return .number(0)
        case "seconds": return .number(try double(first ?? .null, position))
        case "milliseconds": return .number(try double(first ?? .null, position) / 1000)
        case "microseconds": return .number(try double(first ?? .null, position) / 1e6)
        case "nanoseconds": return .number(try double(first ?? .null, position) / 1e9)
        case "init":
            // `.init(…)` where the type is implied: told apart by its labels.
            let labels = Set(arguments.labels.compactMap { $0 })
            if labels.contains("red") || labels.contains("white") { return try makeColor(arguments, position) }
            for type in Frameworks.implicitInitializers
            where Frameworks.functions[type, default: []].contains(where: {
                ArgumentBinding.bind(arguments, to: $0.parameters) != nil
            }) {
                return try callFunction(type, arguments, position)
            }
            return try callFunction("CGPoint", arguments, position)
        case "systemFont", "boldSystemFont", "italicSystemFont", "monospacedDigitSystemFont", "monospacedSystemFont":
            // `.systemFont(ofSize: 17)`: a font is its size here.
            return first ?? .number(17)
        default:
            return try unknownAPI(".\(name)(…)", position)
        }
    }

    /// A `Type(…)` of UIKit, Core Animation or CoreGraphics.
    func construct(_ type: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        if types[type] != nil, !extendsFrameworkType(type) { return try constructInstance(type, arguments, position) }
        if type == Self.constraintType { return try layoutConstraint(arguments, position) }
        return try callFunction(type, arguments, position)
    }

    /// Free functions and initializers.
    func callFunction(_ name: String, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let values = arguments.items.map(\.value)
        // A value made from one known only at run time is known only at run time too.
        if let runtime = values.first(where: \.isRuntime), Self.valueFunctions.contains(name) { return runtime }
        func number(_ index: Int) throws(ImportStop) -> Double {
            guard index < values.count else { throw stop(position, "\(name) needs more arguments") }
            return try double(values[index], position)
        }
        if let overloads = Frameworks.functions[name] { return try callDeclared(name, overloads, arguments, position) }
        if let value = foundationFunction(name, arguments, position) { return value }
        switch name {
        case "UIColor", "CGColor":
            return try makeColor(arguments, position)
        case "UIFont":
            return .number(try number(0))
        case "NSMutableArray", "NSArray", "Array":
            return .array([])
        case "UIView.AnimationOptions", "UIView.KeyframeAnimationOptions", "UIViewAnimationOptions":
            // An OptionSet's `init()` is the empty set; `init(_:)` of an array, those options.
            if case .options? = values.first { return values[0] }
            return .options([])
        case "NSMutableDictionary", "NSDictionary", "Dictionary":
            return .dictionary([])
        case "NSValue", "NSNumber":
            return values.first ?? .null
        case "CAMediaTimingFunction":
            if let name = arguments.first("name", "functionWithName") {
                return timing(name) ?? .timing(.string("linear"))
            }
            if values.count == 4 {
                return .timing(.array(try (0..<4).map { (i: Int) throws(ImportStop) in .number(try number(i)) }))
            }
            return .timing(.string("default"))
        case "UIView", "UILabel", "UIButton", "UIImageView", "CALayer", "CAShapeLayer", "CATextLayer", "CAEmitterLayer",
            "CAGradientLayer", "CAReplicatorLayer", "UIStackView", "UIScrollView", "UITextField", "UISwitch",
            "UIProgressView":
            return try makeLayer(name, arguments, position)
        case "CABasicAnimation", "CAKeyframeAnimation", "CASpringAnimation", "CAAnimationGroup", "CATransition":
            return try makeAnimation(name, arguments, position)
        case "UIBezierPath", "CGMutablePath":
            return try makePath(arguments, position)
        case "CAEmitterCell":
            return allocate(.cell(EmitterCellObject()))
        case "UIPanGestureRecognizer", "UIScreenEdgePanGestureRecognizer":
            let recognizer = InstanceObject(typeName: "UIPanGestureRecognizer")
            recognizer.fields["target"] = arguments.first("target", "initWithTarget") ?? .null
            recognizer.fields["action"] = arguments["action"] ?? .null
            recognizer.fields["state"] = .enumCase("possible")
            return allocate(.instance(recognizer))
        case "UIViewPropertyAnimator":
            return try makeAnimator(arguments, start: false, position)
        default:
            if name.hasPrefix("__interpolate") {
                try checkSize(values.reduce(0) { $0 + describe($1).utf8.count }, of: .string(""), position)
                return text(values) { $0.map(describe).joined() }
            }
            if name == "__format" {
                try checkSize(formatted(values).utf8.count, of: .string(""), position)
                return text(values, formatted)
            }
            if let fix = Vocabulary.suggestion(for: name, among: Array(knownTypes) + Array(Frameworks.functions.keys)),
                fix != name
            {
                warn(
                    position, "\(name) is not an API the importer knows; the call is skipped",
                    fix: "did you mean \(fix)?")
                return .runtime(.unknown(name))
            }
            return try unknownAPI(name, position)
        }
    }

    /// A call of a declared framework function: the first overload whose parameters the
    /// arguments bind to (``ArgumentBinding``) runs; none is an error that lists the
    /// declarations.
    func callDeclared(
        _ name: String, _ overloads: [FrameworkFunction], _ arguments: Arguments, _ position: SourcePosition
    ) throws(ImportStop) -> Value {
        for function in overloads {
            guard let values = ArgumentBinding.bind(arguments, to: function.parameters) else { continue }
            // A value made from one known only at run time is known only at run time too.
            if function.pure, let runtime = arguments.items.first(where: { $0.value.isRuntime })?.value {
                return runtime
            }
            return try function.body(self, FrameworkCall(values: values, arguments: arguments, position: position))
        }
        let written = ArgumentBinding.signature(name, arguments.labels)
        let declared = overloads.map(\.signature)
        // The nearest: a declaration of as many parameters, with the most labels in common.
        let labels = arguments.labels
        let near = overloads.filter { $0.parameters.count == labels.count }
            .max { a, b in
                zip(a.parameters, labels).filter { $0.label == $1 }.count
                    < zip(b.parameters, labels).filter { $0.label == $1 }.count
            }?.signature
        throw ImportStop(
            diagnostic: ImportDiagnostic(
                .error, position,
                "\(written) matches no declaration of \(name): it is declared as \(declared.joined(separator: ", "))",
                fix: near.map { "write \($0)" }))
    }

    /// `UIColor(red:green:blue:alpha:)`, `UIColor(white:alpha:)`, `UIColor(hue:…)` is not read.
    func makeColor(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        func component(_ label: String, _ fallback: Double) throws(ImportStop) -> Double {
            guard let value = arguments[label] else { return fallback }
            return try double(value, position)
        }
        if arguments["red"] != nil || arguments["colorWithRed"] != nil {
            let r = try double(arguments.first("red", "colorWithRed") ?? .null, position)
            return .color(
                .array([
                    .number(r), .number(try component("green", 0)), .number(try component("blue", 0)),
                    .number(try component("alpha", 1)),
                ]))
        }
        if arguments["white"] != nil || arguments["colorWithWhite"] != nil {
            let w = try double(arguments.first("white", "colorWithWhite") ?? .null, position)
            return .color(.array([.number(w), .number(w), .number(w), .number(try component("alpha", 1))]))
        }
        if case .color(let c)? = arguments["cgColor"] { return .color(c) }
        warn(position, "this UIColor initializer is not imported; the colour is clear")
        return .color(.string("clear"))
    }

    /// A timing function from its name.
    func timing(_ name: Value) -> Value? {
        switch name {
        case .enumCase(let n), .string(let n): .timing(.string(n == "easeInOut" ? "easeInEaseOut" : n))
        case .timing: name
        default: nil
        }
    }

    /// Properties of CoreGraphics values, arrays and strings.
    func member(_ value: Value, _ name: String, _ position: SourcePosition) throws(ImportStop) -> Value {
        if case .typeName(let type) = value, types[type] != nil, let member = try typeMember(type, name, position) {
            return member
        }
        if case .typeName(let type) = value, let member = frameworkTypeMember(type, name) {
            return member
        }
        if let getter = extensionGetter(of: value, name) {
            return try call(getter, on: value, arguments: [], at: position)
        }
        if case .enumValue(let type, let caseName) = value, name == "rawValue",
            let raw = try rawValue(type, caseName, position)
        {
            return raw
        }
        switch (value, name) {
        case (.point(let x, _), "x"), (.size(let x, _), "width"): return .number(x)
        case (.point(_, let y), "y"), (.size(_, let y), "height"): return .number(y)
        case (.rect(let x, let y, _, _), "origin"): return .point(x, y)
        case (.rect(_, _, let w, let h), "size"): return .size(w, h)
        case (.rect(_, _, let w, _), "width"): return .number(w)
        case (.rect(_, _, _, let h), "height"): return .number(h)
        case (.rect(let x, _, _, _), "minX"): return .number(x)
        case (.rect(_, let y, _, _), "minY"): return .number(y)
        case (.rect(let x, _, let w, _), "midX"): return .number(x + w / 2)
        case (.rect(_, let y, _, let h), "midY"): return .number(y + h / 2)
        case (.rect(let x, _, let w, _), "maxX"): return .number(x + w)
        case (.rect(_, let y, _, let h), "maxY"): return .number(y + h)
        case (.color, "cgColor"), (.color, "CGColor"): return value
        // `.red.cgColor` where the type is implied (a `UIColor` property's `return .red`).
        case (.enumCase(let colorName), "cgColor") where color(named: colorName) != nil:
            return color(named: colorName)!
        case (.transform(let t), "isIdentity"): return .bool(t.isIdentity)
        case (.transform(let t), _) where Self.matrixIndex(name) != nil:
            return .number(t.matrix.elements[Self.matrixIndex(name)!])
        case (.string(let s), "length"): return .integer(s.utf16.count)
        case (.array(let elements), "count"): return .integer(elements.count)
        case (.array(let elements), "first"): return elements.first ?? .null
        case (.array(let elements), "last"): return elements.last ?? .null
        case (.array(let elements), "isEmpty"): return .bool(elements.isEmpty)
        case (.array(let elements), "indices"): return .array(elements.indices.map { .integer($0) })
        case (.string(let s), "count"): return .integer(s.count)
        case (.string(let s), "isEmpty"): return .bool(s.isEmpty)
        case (.dictionary(let pairs), _) where pairs.contains { equal($0.0, .string(name)) }:
            // A struct kept as named fields (`NSRange`'s `location` and `length`).
            return pairs.first { equal($0.0, .string(name)) }!.1
        // NSNumber's and NSString's conversions: `[timeBegins[i] floatValue]`.
        case (.integer, "floatValue"), (.integer, "doubleValue"), (.integer, "cgFloatValue"), (.number, "floatValue"),
            (.number, "doubleValue"), (.number, "cgFloatValue"):
            return value.number.map { .number($0) } ?? value
        case (.integer, "integerValue"), (.integer, "intValue"), (.number, "integerValue"), (.number, "intValue"),
            (.integer, "longValue"), (.number, "longValue"):
            return value.number.map { .integer(Int($0)) } ?? value
        case (.integer(let i), "boolValue"): return .bool(i != 0)
        case (.bool, "boolValue"): return value
        case (.string(let s), "floatValue"), (.string(let s), "doubleValue"):
            return .number(Double(s.trimmingLeadingSpaces) ?? 0)
        case (.string(let s), "integerValue"), (.string(let s), "intValue"):
            return .integer(Int(s.trimmingLeadingSpaces) ?? Int(Double(s.trimmingLeadingSpaces) ?? 0))
        case (.point, "CGPointValue"), (.point, "cgPointValue"), (.size, "CGSizeValue"), (.size, "cgSizeValue"),
            (.rect, "CGRectValue"), (.rect, "cgRectValue"), (.transform, "CATransform3DValue"),
            (.transform, "caTransform3DValue"):
            return value
        case (.typeName("UIScreen.main"), "scale"), (.typeName("UIScreen.main"), "nativeScale"):
            return .number(3)
        case (.typeName("UIScreen.main"), "bounds"):
            warn(
                position,
                "the screen's size is not known here; the import takes \(format(screen.width)) × \(format(screen.height)) points"
            )
            return .rect(0, 0, screen.width, screen.height)
        case (.path, "cgPath"), (.path, "CGPath"): return value
        case (.object, "cgPath"), (.object, "CGPath"):
            if let path = path(value) { return .path(path.commands) }
            return .null
        case (.null, _): return .null
        case (.runtime, _): return value
        case (.object, _):
            if let object = instance(value), let lazy = try lazyProperty(object, value, name, position) { return lazy }
            if let animator = animator(value) { return animatorMember(animator, name) }
            if let object = instance(value), let getter = getter(object, name) {
                return try call(getter, on: value, arguments: [], at: position)
            }
            if layer(value) != nil, let anchor = anchor(of: value, name) { return anchor }
            if layer(value) != nil, Self.layoutGuides.contains(name) { return value }
            if let layer = layer(value) {
                if let object = layer.instance {
                    let field =
                        name.hasPrefix("_") && hasProperty(object, String(name.dropFirst()))
                        ? String(name.dropFirst()) : name
                    if object.fields[field] != nil || hasProperty(object, field) {
                        return object.fields[field] ?? .null
                    }
                }
                if let object = layer.instance, method(object.typeName, name) != nil { return .method(value, name) }
                return try layerMember(value, name, position)
            }
            if animation(value) != nil { return animationMember(value, name) }
            if let context = transitionContext(value) {
                return try contextMember(context, name, Arguments(items: []), position)
            }
            if let object = instance(value) {
                if let field = object.fields[name] { return field }
                if name.hasPrefix("_"), let field = object.fields[String(name.dropFirst())] { return field }
                if isViewController(object.typeName) {
                    if name == "view" { return try viewOf(value, at: position) }
                    if name == "navigationController" { return navigationController(of: value) }
                }
                if method(object.typeName, name) != nil { return .method(value, name) }
                if hasProperty(object, name) { return .null }
                return try unknownAPI("\(object.typeName).\(name)", position)
            }
            return .null
        default:
            if case .integer(let i) = value, name == "description" { return .string(String(i)) }
            warn(position, "\(value.kindName) has no member \(name) the importer knows; its value is unknown")
            return .runtime(.unknown("\(value.kindName).\(name)"))
        }
    }

    /// A struct value with one field replaced: `frame.origin.x = 10` rebuilds the frame.
    func withMember(_ value: Value, _ name: String, _ newValue: Value, _ position: SourcePosition) throws(ImportStop)
        -> Value
    {
        let n = newValue.number
        switch (value, name) {
        case (.point(_, let y), "x"): return .point(try double(newValue, position), y)
        case (.point(let x, _), "y"): return .point(x, try double(newValue, position))
        case (.size(_, let h), "width"): return .size(try double(newValue, position), h)
        case (.size(let w, _), "height"): return .size(w, try double(newValue, position))
        case (.rect(_, _, let w, let h), "origin"):
            guard case .point(let x, let y) = newValue else { break }
            return .rect(x, y, w, h)
        case (.rect(let x, let y, _, _), "size"):
            guard case .size(let w, let h) = newValue else { break }
            return .rect(x, y, w, h)
        case (.rect(let x, let y, _, let h), "width") where n != nil: return .rect(x, y, n!, h)
        case (.rect(let x, let y, let w, _), "height") where n != nil: return .rect(x, y, w, n!)
        case (.dictionary(let pairs), _) where pairs.contains { equal($0.0, .string(name)) }:
            return .dictionary(pairs.map { equal($0.0, .string(name)) ? ($0.0, newValue) : $0 })
        case (.dictionary(let pairs), _):
            return .dictionary(pairs + [(.string(name), newValue)])
        case (.null, _) where Self.matrixIndex(name) == nil:
            // A C struct declared without a value (`NSRange range;`), then filled field by field.
            return .dictionary([(.string(name), newValue)])
        case (.transform(let t), _) where n != nil:
            // `transform.m34 = -1 / 500` (perspective), or an affine transform's `a` … `ty`.
            guard let index = Self.matrixIndex(name) else { break }
            var elements = t.matrix.elements
            elements[index] = n!
            return .transform(TransformValue(matrix: Transform3D(elements: elements) ?? t.matrix, readable: nil))
        default: break
        }
        throw stop(position, "cannot set \(name) of \(value.kindName)")
    }

    /// Where `CATransform3D.m11` … `m44` and `CGAffineTransform.a` … `ty` are among the sixteen
    /// numbers (row by row, as Core Animation lays them out).
    static func matrixIndex(_ name: String) -> Int? {
        switch name {
        case "a": return 0
        case "b": return 1
        case "c": return 4
        case "d": return 5
        case "tx": return 12
        case "ty": return 13
        default:
            guard name.count == 3, name.first == "m", let row = Int(String(name.dropFirst().prefix(1))),
                let column = Int(String(name.suffix(1))), (1...4).contains(row), (1...4).contains(column)
            else { return nil }
            return (row - 1) * 4 + column - 1
        }
    }

    /// Methods of values: `CGRect.offsetBy(dx:dy:)`, `CGAffineTransform.scaledBy(x:y:)`, arrays' `map`.
    func valueMethod(_ value: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value
    {
        if let function = extensionMethod(of: value, name, arguments) {
            return try call(function, on: value, with: arguments, at: position)
        }
        let values = arguments.items.map(\.value)
        func number(_ index: Int) throws(ImportStop) -> Double {
            guard index < values.count else { throw stop(position, "\(name) needs more arguments") }
            return try double(values[index], position)
        }
        switch (value, name) {
        case (.rect(let x, let y, let w, let h), "offsetBy"):
            return .rect(x + (try number(0)), y + (try number(1)), w, h)
        case (.rect(let x, let y, let w, let h), "applying"):
            // `CGRectApplyAffineTransform`: the box around the transformed corners.
            guard case .transform(let t)? = values.first else { return value }
            let m = t.matrix.elements
            let corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)].map { (px, py) in
                (m[0] * px + m[4] * py + m[12], m[1] * px + m[5] * py + m[13])
            }
            let xs = corners.map(\.0)
            let ys = corners.map(\.1)
            return .rect(xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        case (.rect(let x, let y, let w, let h), "insetBy"):
            let dx = try number(0)
            let dy = try number(1)
            return .rect(x + dx, y + dy, w - 2 * dx, h - 2 * dy)
        case (.rect(let x, let y, let w, let h), "inset"):
            guard case .insets(let t, let l, let b, let r)? = values.first else { break }
            return .rect(x + l, y + t, w - l - r, h - t - b)
        case (.transform(let t), "scaledBy"):
            let z = values.count > 2 ? try number(2) : 1
            return .transform(TransformValue.scale(try number(0), try number(1), z).concatenating(t))
        case (.transform(let t), "translatedBy"):
            let z = values.count > 2 ? try number(2) : 0
            return .transform(TransformValue.translation(try number(0), try number(1), z).concatenating(t))
        case (.transform(let t), "rotated"):
            if values.count >= 4 {
                return .transform(
                    TransformValue.rotation(try number(0), try number(1), try number(2), try number(3)).concatenating(t)
                )
            }
            return .transform(TransformValue.rotation(try number(0)).concatenating(t))
        case (.transform(let t), "concatenating"):
            guard case .transform(let other)? = values.first else { break }
            return .transform(t.concatenating(other))
        case (.color(let c), "withAlphaComponent"), (.color(let c), "colorWithAlphaComponent"):
            let alpha = try number(0)
            if case .array(let parts) = c, parts.count == 4 {
                return .color(.array(Array(parts.prefix(3)) + [.number(alpha)]))
            }
            if case .string(let name) = c, let hex = NamedColors.table[name], let rgba = NamedColors.components(hex) {
                return .color(.array(rgba.prefix(3).map { .number($0) } + [.number(alpha)]))
            }
        case (.array(let elements), "map"), (.array(let elements), "forEach"), (.array(let elements), "compactMap"):
            guard case .closure(let closure)? = values.first else { break }
            var results: [Value] = []
            for element in elements { results.append(try invoke(closure, [element], at: position)) }
            return name == "forEach" ? .null : .array(results)
        case (.array(let elements), "enumerated"):
            return .array(elements.enumerated().map { .array([.integer($0.offset), $0.element]) })
        case (.array(let elements), "reversed"):
            return .array(elements.reversed())
        case (.array(let elements), "contains"):
            guard let needle = values.first else { break }
            return .bool(elements.contains { equal($0, needle) })
        case (.array(let elements), "firstIndex"), (.array(let elements), "indexOfObject"):
            guard let needle = values.first else { break }
            return elements.firstIndex { equal($0, needle) }.map { .integer($0) } ?? .null
        case (.array(let elements), "objectAtIndex"), (.array(let elements), "objectAtIndexedSubscript"):
            guard let i = values.first.flatMap(integer), elements.indices.contains(i) else {
                throw stop(position, "index out of range")
            }
            return elements[i]
        case (.typeName("DispatchQueue.main"), "asyncAfter"):
            return try dispatch(arguments["deadline"] ?? values.first ?? .null, arguments, position)
        case (.typeName("DispatchQueue.main"), "async"):
            return try dispatch(.number(0), arguments, position)
        case (.integer, "isMultiple"):
            guard let a = integer(value), let b = values.first.flatMap(integer), b != 0 else { break }
            return .bool(a % b == 0)
        case (.enumCase, "rawValue"):
            return value
        case (_, "copy"), (_, "mutableCopy"):
            return value
        default:
            break
        }
        // An Objective-C getter sent as a message: `[number floatValue]`, `[value CGPointValue]`.
        if arguments.count == 0, Self.valueGetters.contains(name) { return try member(value, name, position) }
        return try unknownAPI("\(value.kindName).\(name)", position)
    }

    static let valueGetters: Set<String> = [
        "floatValue", "doubleValue", "cgFloatValue", "integerValue", "intValue", "longValue", "boolValue",
        "CGPointValue", "CGSizeValue", "CGRectValue", "CATransform3DValue", "length", "count",
    ]

    /// `[NSString stringWithFormat:@"%@ at %.1f", a, b]`: each `%…` conversion takes the next argument.
    func formatted(_ values: [Value]) -> String {
        guard case .string(let format)? = values.first else { return values.map(describe).joined() }
        var rest = values.dropFirst().makeIterator()
        var result = ""
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            var specifier = ""
            while let next = characters.next() {
                specifier.append(next)
                if next.isLetter && !"lhqLzjt".contains(next) || next == "@" || next == "%" { break }
            }
            if specifier == "%" {
                result.append("%")
            } else if let value = rest.next() {
                if specifier.hasSuffix("f"), let number = value.number, let dot = specifier.firstIndex(of: "."),
                    let digits = Int(specifier[specifier.index(after: dot)...].dropLast())
                {
                    let scale = power(10, Double(digits))
                    result += describe(.number((number * scale).rounded() / scale))
                } else if case .bool(let flag) = value {
                    // A BOOL is a number to printf (`%d`) and to NSNumber (`%@`): 1 or 0.
                    result += flag ? "1" : "0"
                } else {
                    result += describe(value)
                }
            }
        }
        return result
    }

    /// `DispatchQueue.main.asyncAfter(deadline: .now() + d) { … }` and `dispatch_after`: the block
    /// runs `d` seconds later, in a turn of its own.
    func dispatch(_ deadline: Value, _ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        guard let closure = arguments.closure("execute", orTrailing: 0) else {
            warn(position, "the dispatched work is not a closure the importer can read; skipped")
            return .null
        }
        let delay = try double(deadline, position, "a delay in seconds")
        guard delay.isFinite, delay >= 0 else {
            throw stop(position, "the delay must be a finite number of seconds ≥ 0")
        }
        let list = ActionList()
        if inCallback || !isTopLevelTurn {
            try emit([("after", .value(.number(delay))), ("do", .list(list))], position)
            schedule(.closure(closure, []), at: now + delay, into: list, callback: true)
        } else {
            let time = roundedTime(now + delay)
            turns.append((time, list, position))
            schedule(.closure(closure, []), at: time, into: list, callback: false)
        }
        return .null
    }

    /// Whether actions now go to a top-level turn (`at`), not inside a block or callback.
    var isTopLevelTurn: Bool {
        turns.contains { $0.list === sink } && transactions.isEmpty
    }

    /// Times on the nanosecond, as the runtime schedules them (1.2 + 0.6 is 1.8).
    func roundedTime(_ t: Double) -> Double { SceneTime.quantize(t) }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
