import ChoreoFormat

/// The Objective-C runtime's class objects and introspection, as the language core applies them
/// ("The Objective-C Programming Language", Defining a Class: "Class objects"; "Objective-C
/// Runtime" and NSObject's reference for `+load`, `+initialize`, `-class`, `-isKindOfClass:`,
/// `-respondsToSelector:`, `-conformsToProtocol:`):
///
/// - a class is an object: `[X class]`, `NSClassFromString(@"X")` and `self` in a class method
///   are the class object (``Value/typeName(_:)``), kept in variables and collections, and sent
///   messages — `[[cls alloc] init…]` and `[cls new]` make an instance of the class the value
///   is, so a class factory called on a subclass makes the subclass;
/// - `+load` runs once for each class and category that implements it, after the program's
///   globals and before the entry point, a superclass's before its subclasses';
/// - `+initialize` runs before the class's first message (or its instances'), once per class
///   and superclasses first; a class that does not implement it runs the one it inherits,
///   with `self` the subclass, as the runtime sends it;
/// - `isKindOfClass:`, `isMemberOfClass:`, `respondsToSelector:`, `instancesRespondToSelector:`,
///   `conformsToProtocol:` and `+superclass` are answered from the declarations: the file's
///   classes, their methods, properties (each an accessor pair) and adopted protocols, and
///   the frameworks' class hierarchy (``ObjectiveCRuntimeFramework``).
extension ImportEvaluator {
    /// The messages the runtime answers for any object or class.
    static let runtimeSelectors: Set<String> = [
        "class", "superclass", "isKindOfClass", "isMemberOfClass", "isSubclassOfClass", "respondsToSelector",
        "instancesRespondToSelector", "conformsToProtocol", "new", "init", "isKind", "isMember", "responds",
        "conforms",
    ]

    /// A runtime message to a class object or an object; nil when it is none (or the class
    /// declares a method of that name, which overrides NSObject's).
    func runtimeMessage(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        guard Self.runtimeSelectors.contains(name) else { return nil }
        let isClass: Bool
        let cls: String
        switch target {
        case .typeName(let type) where type != "super":
            isClass = true
            cls = type
        case .object:
            guard let type = className(of: target) else { return nil }
            isClass = false
            cls = type
        default:
            return nil
        }
        if isClass, name == "init" || (name == "new" && arguments.count == 0) {
            // `[[cls alloc] initWith…]`: an instance of the class the value is.
            guard types[cls] != nil || ObjectiveCRuntimeFramework.superclasses[cls] != nil || knownTypes.contains(cls)
            else { return nil }
            return try construct(cls, arguments, position)
        }
        if types[cls] != nil, declaredMethod(cls, name, isStatic: isClass) != nil { return nil }
        let argument = arguments.items.first?.value
        switch name {
        case "class" where arguments.count == 0:
            return .typeName(cls)
        case "superclass" where arguments.count == 0:
            return superclass(of: cls).map(Value.typeName) ?? .null
        case "isKindOfClass", "isKind":
            guard case .typeName(let other)? = argument else { return nil }
            return .bool(!isClass && classInherits(cls, other))
        case "isMemberOfClass", "isMember":
            guard case .typeName(let other)? = argument else { return nil }
            return .bool(!isClass && cls == other)
        case "isSubclassOfClass" where isClass:
            guard case .typeName(let other)? = argument else { return nil }
            return .bool(classInherits(cls, other))
        case "respondsToSelector", "responds":
            guard case .string(let selector)? = argument else { return nil }
            return .bool(responds(cls, instances: !isClass, to: selector))
        case "instancesRespondToSelector" where isClass:
            guard case .string(let selector)? = argument else { return nil }
            return .bool(responds(cls, instances: true, to: selector))
        case "conformsToProtocol", "conforms":
            let named: String
            switch argument {
            case .string(let text)?: named = text
            case .typeName(let text)?: named = text
            default: return nil
            }
            return .bool(conforms(cls, to: named))
        default:
            return nil
        }
    }

    /// The class an object is an instance of: one of the file's, or the framework class it was
    /// made from.
    func className(of value: Value) -> String? {
        if let object = instance(value) { return object.typeName }
        if let layer = layer(value) { return layer.className }
        switch value {
        case .string: return "NSString"
        case .array: return "NSArray"
        case .dictionary: return "NSDictionary"
        case .integer, .number, .bool: return "NSNumber"
        case .color: return "UIColor"
        default: return nil
        }
    }

    /// The class `type` inherits from: the file's declaration, else the frameworks'.
    func superclass(of type: String) -> String? {
        if let declared = types[type], let first = declared.inherits.first { return first }
        return ObjectiveCRuntimeFramework.superclasses[type] ?? (types[type] != nil ? "NSObject" : nil)
    }

    /// Whether `type` is `other` or inherits from it.
    func classInherits(_ type: String, _ other: String) -> Bool {
        var current: String? = type
        var seen: Set<String> = []
        while let name = current, seen.insert(name).inserted {
            if name == other { return true }
            current = superclass(of: name)
        }
        return false
    }

    /// A method `type` itself declares (not inherited) as a class or an instance method.
    func declaredMethod(_ type: String, _ name: String, isStatic: Bool) -> FunctionDeclaration? {
        types[type]?.methods.first { $0.name == name && $0.isStatic == isStatic && !$0.isAccessor }
    }

    /// Whether the class (or its instances) implements the method a selector names: a method
    /// of the class or a superclass, a property's getter or setter (`progress`, `setProgress:`),
    /// or a framework class's declared method.
    func responds(_ type: String, instances: Bool, to selector: String) -> Bool {
        let name = String(selector.prefix { $0 != ":" })
        var current: String? = type
        var seen: Set<String> = []
        while let cls = current, seen.insert(cls).inserted {
            if let declaration = types[cls] {
                if declaration.methods.contains(where: { $0.name == name && $0.isStatic != instances }) { return true }
                if instances {
                    for property in declaration.properties where !property.isStatic {
                        let capitalised = property.name.prefix(1).uppercased() + property.name.dropFirst()
                        if name == property.name || name == "set" + capitalised || name == "is" + capitalised {
                            return true
                        }
                    }
                }
            }
            let framework = ObjectiveCRuntimeFramework.selectors[cls] ?? []
            if framework.contains((instances ? "-" : "+") + name) { return true }
            current = superclass(of: cls)
        }
        return false
    }

    /// Whether `type` or a superclass adopts `proto` (or a protocol the frameworks declare it
    /// adopts).
    func conforms(_ type: String, to proto: String) -> Bool {
        var current: String? = type
        var seen: Set<String> = []
        while let cls = current, seen.insert(cls).inserted {
            if types[cls]?.protocols.contains(proto) == true { return true }
            if ObjectiveCRuntimeFramework.protocols[cls]?.contains(proto) == true { return true }
            current = superclass(of: cls)
        }
        return false
    }

    // MARK: +load and +initialize

    /// Runs every Objective-C class's and category's `+load`, superclasses first, each once
    /// ("Objective-C Runtime", NSObject `+load`: "A class's +load method is called after all of
    /// its superclasses' +load methods"; "A category +load method is called after the class's
    /// own +load method").
    func runLoadMethods() throws(ImportStop) {
        let classes = unit.types.map(\.name).reduce(into: [String]()) { names, name in
            if !names.contains(name), types[name]?.isObjectiveC == true { names.append(name) }
        }
        let ordered = classes.enumerated().sorted { a, b in
            let depthA = typeChain(a.element).count
            let depthB = typeChain(b.element).count
            return depthA != depthB ? depthA < depthB : a.offset < b.offset
        }.map(\.element)
        for type in ordered {
            for load in types[type]?.methods ?? []
            where load.isStatic && load.name == "load" && load.parameters.isEmpty && !load.isAccessor {
                _ = try call(load, on: .typeName(type), arguments: [], at: load.position)
            }
        }
    }

    /// Sends `+initialize` to `type` and its superclasses not yet initialised, superclasses
    /// first, before the class's first message.
    func initializeClass(_ type: String) throws(ImportStop) {
        guard types[type]?.isObjectiveC == true, !initializedClasses.contains(type) else { return }
        for cls in typeChain(type).reversed() where initializedClasses.insert(cls).inserted {
            // The nearest implementation, inherited when the class has none: `self` is `cls`.
            guard
                let initialize = typeChain(cls).lazy.compactMap({
                    self.declaredMethod($0, "initialize", isStatic: true)
                })
                .first(where: { $0.parameters.isEmpty })
            else { continue }
            _ = try call(initialize, on: .typeName(cls), arguments: [], at: initialize.position)
        }
    }
}
