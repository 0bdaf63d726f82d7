import ChoreoImport

/// Objective-C messages in Swift's spelling, where the importer knows the API by its Swift name:
/// `[[UIView alloc] initWithFrame:r]` is `UIView(frame: r)`, `[UIColor colorWithRed:…]` is
/// `UIColor(red:…)`, `[CABasicAnimation animationWithKeyPath:@"opacity"]` is
/// `CABasicAnimation(keyPath: "opacity")`. Every other message keeps its selector's pieces as
/// argument labels, the first piece naming the method.
enum ObjCNames {
    /// Class factories: selector's first piece → the Swift initializer's first label (nil: none).
    static let factories: [String: String?] = [
        "colorWithRed": "red", "colorWithWhite": "white", "bezierPathWithRect": "rect",
        "bezierPathWithOvalInRect": "ovalIn", "bezierPathWithRoundedRect": "roundedRect",
        "bezierPathWithArcCenter": "arcCenter", "animationWithKeyPath": "keyPath", "functionWithName": "name",
        "functionWithControlPoints": nil, "buttonWithType": "type",
    ]

    /// Messages whose receiver returns its argument in Swift (`NSValue(cgPoint:)`, `@(x)`).
    static let wrappers: Set<String> = [
        "valueWithCGPoint", "valueWithCGSize", "valueWithCGRect", "valueWithCATransform3D",
        "valueWithCGAffineTransform", "numberWithFloat", "numberWithDouble", "numberWithInt", "numberWithInteger",
        "numberWithBool", "systemFontOfSize", "boldSystemFontOfSize", "stringWithString",
    ]

    /// Zero-argument class messages that make an instance (`[CALayer layer]`).
    static let makers: Set<String> = ["new", "layer", "animation", "bezierPath", "emitterCell", "array"]

    static func message(_ receiver: Expression, _ name: String, _ arguments: [Argument], _ p: SourcePosition)
        -> Expression
    {
        // [[X alloc] init…]: X's initializer. A receiver that is a class object only at run time
        // (`self` in a class method, `[self class]`, `registry[key]`) is sent `init` as a value:
        // alloc and init go to the class the value is ("The Objective-C Programming Language",
        // Defining a Class: "Class objects"; `+alloc` is a class method).
        if case .call(.member(let allocated?, "alloc", _), let none, _) = receiver, none.isEmpty,
            name.hasPrefix("init")
        {
            if case .name(let type, _) = allocated, type != "self" {
                return .call(.name(type, p), initializerArguments(name, arguments), p)
            }
            return .call(.member(allocated, "init", p), initializerArguments(name, arguments), p)
        }
        if case .name(let type, _) = receiver, type.first?.isUppercase == true {
            // `[X class]` is the class object X names (NSObject's `+class` returns self).
            if name == "class", arguments.isEmpty { return receiver }
            if name == "alloc" { return .call(.member(receiver, "alloc", p), [], p) }
            if makers.contains(name), arguments.isEmpty { return .call(.name(type, p), [], p) }
            if let first = factories[name] {
                var mapped = arguments
                if !mapped.isEmpty { mapped[0].label = first }
                if name == "functionWithControlPoints" { mapped = mapped.map { Argument(nil, $0.value) } }
                return .call(.name(type, p), mapped, p)
            }
            if wrappers.contains(name), let first = arguments.first { return first.value }
            if type == "UIColor", arguments.isEmpty { return .member(receiver, name, p) }
            if type == "UIScreen", name == "mainScreen" { return .member(receiver, "main", p) }
            if type == "NSString", name == "stringWithFormat" {
                return .call(.name("__format", p), arguments.map { Argument(nil, $0.value) }, p)
            }
            if type == "NSArray" || type == "NSMutableArray", name == "arrayWithCapacity" { return .array([], p) }
            if type == "NSDictionary" || type == "NSMutableDictionary",
                (name == "dictionary" && arguments.isEmpty) || name == "dictionaryWithCapacity"
            {
                return .dictionary([], p)
            }
            if type == "NSArray" || type == "NSMutableArray", name == "arrayWithObjects" {
                return .array(
                    arguments.map(\.value).filter { if case .literal(.null, _) = $0 { false } else { true } }, p)
            }
        }
        if name == "removeAnimationForKey" {
            return .call(.member(receiver, "removeAnimation", p), arguments.map { Argument("forKey", $0.value) }, p)
        }
        if name == "presentationLayer" || name == "modelLayer" {
            return .call(.member(receiver, name == "presentationLayer" ? "presentation" : "model", p), [], p)
        }
        return .call(.member(receiver, name, p), arguments, p)
    }

    /// `initWithFrame:` → `frame:`, `initWithRed:green:…` → `red:green:…`.
    static func initializerArguments(_ name: String, _ arguments: [Argument]) -> [Argument] {
        guard var first = arguments.first else { return [] }
        var label = String(name.dropFirst("init".count))
        if label.hasPrefix("With") { label.removeFirst(4) }
        label = label.prefix(1).lowercased() + label.dropFirst()
        if name == "initWithControlPoints" { return arguments.map { Argument(nil, $0.value) } }
        first.label = label.isEmpty ? nil : label
        return [first] + arguments.dropFirst()
    }
}
