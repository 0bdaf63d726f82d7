/// Swift's rules for the members of the code's own types, as the language core applies them
/// (The Swift Programming Language: "Nested Types", "Type Properties", "Inheritance",
/// "Declarations" — type alias declarations):
///
/// - a type declared inside another is named `Outer.Inner`, and code in `Outer`, in a type
///   nested in it, or in a subclass of `Outer` names it `Inner` (member lookup first, then the
///   enclosing types);
/// - a `static`/`class` property is one value of the type, initialised when first read, read and
///   set as `Type.name` (or `Self.name`, or bare inside the type);
/// - a subclass's instances have the stored properties of every class in their chain;
/// - `typealias Color = UIColor` is another name for the type it names.
extension ImportEvaluator {
    /// The type whose members a name in code running with `selfValue` sees first: the instance's
    /// type in an instance method, the type itself in a type method.
    func typeContext(_ selfValue: Value?) -> String? {
        if let selfValue, let object = instance(selfValue) { return object.typeName }
        if case .typeName(let name)? = selfValue, types[name] != nil { return name }
        return nil
    }

    /// `type` and the classes it inherits from, in the file, nearest first.
    func typeChain(_ type: String) -> [String] {
        var chain: [String] = []
        var current: String? = type
        while let name = current, !chain.contains(name), let declaration = types[name] {
            chain.append(name)
            current = declaration.inherits.first.map { resolveType($0, from: enclosingType(name)) ?? $0 }
        }
        return chain
    }

    /// The type `Outer.Inner` is declared in: `Outer`.
    func enclosingType(_ type: String) -> String? {
        guard let dot = type.lastIndex(of: ".") else { return nil }
        return String(type[..<dot])
    }

    /// The type a written name means in code of `context` (`Constants.Keys` in a subclass of the
    /// class that nests `Constants`): a type nested in the context or in a class it inherits
    /// from, then in the types enclosing it, then a type of the file or an alias; nil when the
    /// name is none of the file's types or aliases.
    func resolveType(_ written: String, from context: String?) -> String? {
        let parts = written.split(separator: ".").map(String.init)
        guard let first = parts.first else { return nil }
        var resolved: String?
        var scope = context
        search: while let current = scope {
            for owner in typeChain(current) {
                let candidate = "\(owner).\(first)"
                if types[candidate] != nil {
                    resolved = candidate
                    break search
                }
                if let alias = unit.aliases[candidate] {
                    resolved = resolveType(alias, from: owner) ?? alias
                    break search
                }
            }
            scope = enclosingType(current)
        }
        if resolved == nil {
            if types[first] != nil {
                resolved = first
            } else if let alias = unit.aliases[first], alias != first {
                resolved = resolveType(alias, from: nil) ?? alias
            }
        }
        guard var name = resolved else { return nil }
        for part in parts.dropFirst() {
            let nested = "\(name).\(part)"
            guard types[nested] != nil || unit.aliases[nested] != nil else { return nil }
            name = unit.aliases[nested].map { resolveType($0, from: name) ?? $0 } ?? nested
        }
        return name
    }

    /// The type property `name` of `type` or of a class it inherits from.
    func typeProperty(_ type: String, _ name: String) -> (owner: String, declaration: PropertyDeclaration)? {
        for owner in typeChain(type) {
            if let declaration = types[owner]?.properties.first(where: { $0.isStatic && $0.name == name }) {
                return (owner, declaration)
            }
        }
        return nil
    }

    /// `Type.name` for a type property of the file's: its value, initialised on first read; a
    /// computed one's getter run on the type; nil when the type has no such property.
    func typePropertyValue(_ type: String, _ name: String, _ position: SourcePosition) throws(ImportStop) -> Value? {
        if let (owner, declaration) = typeProperty(type, name) {
            let key = "\(owner).\(name)"
            if let value = typePropertyValues[key] { return value }
            guard typePropertiesInitialising.insert(key).inserted else {
                throw stop(position, "\(key) is read while its own initial value is computed")
            }
            defer { typePropertiesInitialising.remove(key) }
            let initial =
                try declaration.value.map { (e: Expression) throws(ImportStop) in
                    try evaluate(e, Scope(parent: globals), selfValue: .typeName(owner))
                } ?? .null
            typePropertyValues[key] = initial
            self.name(initial, name)
            return initial
        }
        for owner in typeChain(type) {
            if let getter = types[owner]?.methods.first(where: {
                $0.isStatic && $0.isAccessor && $0.name == name && $0.parameters.isEmpty
            }) {
                return try call(getter, on: .typeName(owner), arguments: [], at: position)
            }
        }
        return nil
    }

    /// Sets a type property of `type`'s; false when it has none of that name.
    func setTypeProperty(_ type: String, _ name: String, _ value: Value, _ position: SourcePosition)
        throws(ImportStop) -> Bool
    {
        if let (owner, _) = typeProperty(type, name) {
            typePropertyValues["\(owner).\(name)"] = value
            self.name(value, name)
            return true
        }
        for owner in typeChain(type) {
            if let setter = types[owner]?.methods.first(where: { $0.isStatic && $0.name == "\(name).set" }) {
                _ = try call(setter, on: .typeName(owner), arguments: [value], at: position)
                return true
            }
        }
        return false
    }

    /// A bare name that is a type property of the context or of a type enclosing it.
    func visibleTypeProperty(_ name: String, from context: String, _ position: SourcePosition) throws(ImportStop)
        -> Value?
    {
        var scope: String? = context
        while let current = scope {
            if let value = try typePropertyValue(current, name, position) { return value }
            scope = enclosingType(current)
        }
        return nil
    }

    /// Sets a bare name that is a type property of the context or of a type enclosing it.
    func setVisibleTypeProperty(_ name: String, _ value: Value, from context: String, _ position: SourcePosition)
        throws(ImportStop) -> Bool
    {
        var scope: String? = context
        while let current = scope {
            if try setTypeProperty(current, name, value, position) { return true }
            scope = enclosingType(current)
        }
        return false
    }

    /// `Type.member` for one of the file's types: an enum case, a nested type, a type property;
    /// nil when it is none of them.
    func typeMember(_ type: String, _ name: String, _ position: SourcePosition) throws(ImportStop) -> Value? {
        if types[type]?.cases.contains(name) == true { return .enumValue(type, name) }
        for owner in typeChain(type) {
            let nested = "\(owner).\(name)"
            if types[nested] != nil { return .typeName(nested) }
            if let alias = unit.aliases[nested] { return .typeName(resolveType(alias, from: owner) ?? alias) }
        }
        return try typePropertyValue(type, name, position)
    }

    /// The stored properties an instance of `type` has: its own and those of the classes it
    /// inherits from, the class's own first (Swift's initialization, phase one, sets a class's
    /// properties before calling up to its superclass's initializer).
    func instanceProperties(_ type: String) -> [PropertyDeclaration] {
        typeChain(type).flatMap { types[$0]?.properties.filter { !$0.isStatic } ?? [] }
    }
}

/// Enumerations' raw values (The Swift Programming Language, "Enumerations", "Raw Values").
extension ImportEvaluator {
    /// The raw value of a case of one of the file's enums: as written, else implied — a
    /// `String` enum's is the case's name, an integer or floating-point enum's is one more than
    /// the case before (the first 0); nil when the enum has no raw type.
    func rawValue(_ type: String, _ caseName: String, _ position: SourcePosition) throws(ImportStop) -> Value? {
        guard let declaration = types[type], let index = declaration.cases.firstIndex(of: caseName) else { return nil }
        let rawType = declaration.inherits.first ?? ""
        let textual = ["String", "Character", "NSString"].contains(rawType)
        let numeric = [
            "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
            "Float", "CGFloat", "TimeInterval",
        ].contains(rawType)
        var value: Value?
        for position in 0...index {
            if position < declaration.rawValues.count, let written = declaration.rawValues[position] {
                value = try evaluate(written, Scope(parent: globals), selfValue: .typeName(type))
            } else if textual {
                value = .string(declaration.cases[position])
            } else if numeric {
                value = .integer((value.flatMap(integer) ?? -1) + 1)
            } else {
                return nil
            }
        }
        if let number = value?.number, ["Double", "Float", "CGFloat", "TimeInterval"].contains(rawType) {
            return .number(number)
        }
        return value
    }

    /// `Type(rawValue: v)`: the case whose raw value is `v`, or nil (the failable initializer
    /// Swift gives an enum with a raw type).
    func enumCase(_ type: String, rawValue: Value, _ position: SourcePosition) throws(ImportStop) -> Value {
        for caseName in types[type]?.cases ?? [] {
            if let raw = try self.rawValue(type, caseName, position), equal(raw, rawValue) {
                return .enumValue(type, caseName)
            }
        }
        return .null
    }
}

/// Lazy stored properties (The Swift Programming Language, "Properties", "Lazy Stored
/// Properties"): "a property whose initial value isn't calculated until the first time it's
/// used".
extension ImportEvaluator {
    /// The value of `object`'s lazy property `name`, computed now if it has not been read or set;
    /// nil when `name` is not a lazy property of its type or already has a value.
    func lazyProperty(_ object: InstanceObject, _ value: Value, _ name: String, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        guard object.fields[name] == nil,
            let property = instanceProperties(object.typeName).first(where: { $0.isLazy && $0.name == name })
        else { return nil }
        let initial =
            try property.value.map { (e: Expression) throws(ImportStop) in
                try evaluate(e, Scope(parent: globals), selfValue: value)
            } ?? .null
        // Set by its own initial value's code: that value stands.
        if let set = object.fields[name] { return set }
        object.fields[name] = initial
        self.name(initial, name)
        return initial
    }
}

/// Extensions of framework types (The Swift Programming Language, "Extensions"): `extension
/// CGRect { var center: CGPoint { … } }` adds members to CGRect's values; it declares no new
/// type, so `CGRect(x:y:width:height:)` is still Core Graphics' initializer.
extension ImportEvaluator {
    /// Whether the file only extends `name`, a framework type it does not declare, whose values
    /// the framework makes (`CGRect`, `UIColor`, `CABasicAnimation`). A view, layer or view
    /// controller class is made as an instance of the file's types is, so that an extension's
    /// methods are found on it.
    func extendsFrameworkType(_ name: String) -> Bool {
        types[name] != nil && !declaredTypeNames.contains(name) && viewBase(name) == nil && !isViewController(name)
    }

    /// The framework types a value is an instance of, as an extension names them.
    func extendedTypes(of value: Value) -> [String] {
        switch value {
        case .rect: ["CGRect"]
        case .point: ["CGPoint"]
        case .size: ["CGSize"]
        case .color: ["UIColor", "CGColor"]
        case .transform: ["CGAffineTransform", "CATransform3D"]
        case .string: ["String", "NSString"]
        case .array: ["Array", "Collection", "Sequence"]
        case .integer: ["Int", "BinaryInteger", "Numeric"]
        case .number: ["CGFloat", "Double", "Float", "BinaryFloatingPoint", "FloatingPoint", "Numeric"]
        case .bool: ["Bool"]
        default: []
        }
    }

    /// A computed property an extension gives the value's framework type.
    func extensionGetter(of value: Value, _ name: String) -> FunctionDeclaration? {
        for type in extendedTypes(of: value) where extendsFrameworkType(type) {
            if let getter = types[type]?.methods.first(where: {
                $0.isAccessor && !$0.isStatic && $0.name == name && $0.parameters.isEmpty
            }) {
                return getter
            }
        }
        return nil
    }

    /// A method an extension gives the value's framework type that the call fits.
    func extensionMethod(of value: Value, _ name: String, _ arguments: Arguments) -> FunctionDeclaration? {
        for type in extendedTypes(of: value) where extendsFrameworkType(type) {
            let candidates = types[type]?.methods.filter { !$0.isAccessor && !$0.isStatic && $0.name == name } ?? []
            if let function = resolve(candidates, arguments) { return function }
        }
        return nil
    }
}
