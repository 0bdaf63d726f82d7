import ChoreoJSON

extension ImportEvaluator {
    /// Runs statements in `scope`.
    func execute(_ statements: [Statement], _ scope: Scope, selfValue: Value?) throws(ImportStop) -> Flow {
        for statement in statements {
            let flow = try execute(statement, scope, selfValue: selfValue)
            if case .normal = flow { continue }
            return flow
        }
        return .normal
    }

    func execute(_ statement: Statement, _ scope: Scope, selfValue: Value?) throws(ImportStop) -> Flow {
        try step(statement.position)
        switch statement {
        case .expression(let expression):
            _ = try evaluate(expression, scope, selfValue: selfValue)
        case .declare(let name, let expression, _):
            let value =
                try expression.map { (e: Expression) throws(ImportStop) in try evaluate(e, scope, selfValue: selfValue)
                } ?? .null
            scope.variables[name] = value
            // Locals of the top level are the file's names; in a function they are provisional.
            self.name(value, name, provisional: scope !== globals)
        case .assign(let target, let op, let expression, let position):
            var value = try evaluate(expression, scope, selfValue: selfValue)
            if op != "=" {
                let current = try evaluate(target, scope, selfValue: selfValue)
                value = try arithmetic(String(op.dropLast()), current, value, position)
            }
            try assign(target, value, scope, selfValue: selfValue)
        case .ifStatement(let conditions, let then, let otherwise, let position):
            return try executeIf(conditions, then, otherwise, position, scope, selfValue: selfValue)
        case .guardStatement(let conditions, let otherwise, let position):
            let inner = scope
            switch try test(conditions, inner, selfValue: selfValue, position) {
            case .known(true): return .normal
            case .known(false):
                let flow = try execute(otherwise, Scope(parent: scope), selfValue: selfValue)
                if case .normal = flow { return .returned(.null) }
                return flow
            case .runtime(let runtime):
                warn(
                    position,
                    "guard on \(runtime.description), known only while the animation runs: the import assumes it passes"
                )
                return .normal
            }
        case .forIn(let names, let sequence, let body, let position):
            let values = try elements(of: try evaluate(sequence, scope, selfValue: selfValue), position)
            var iterations = 0
            for value in values {
                try countIteration(&iterations, position)
                let inner = Scope(parent: scope)
                bind(names, value, inner)
                switch try execute(body, inner, selfValue: selfValue) {
                case .normal, .continued: continue
                case .broke: return .normal
                case .returned(let value): return .returned(value)
                }
            }
        case .forLoop(let initial, let condition, let increment, let body, let position):
            let inner = Scope(parent: scope)
            _ = try execute(initial, inner, selfValue: selfValue)
            var iterations = 0
            while true {
                if let condition {
                    guard try truth(try evaluate(condition, inner, selfValue: selfValue), position) else { break }
                }
                try countIteration(&iterations, position)
                switch try execute(body, Scope(parent: inner), selfValue: selfValue) {
                case .normal, .continued: break
                case .broke: return .normal
                case .returned(let value): return .returned(value)
                }
                _ = try execute(increment, inner, selfValue: selfValue)
            }
        case .whileLoop(let condition, let body, let position):
            var iterations = 0
            while try truth(try evaluate(condition, scope, selfValue: selfValue), position) {
                try countIteration(&iterations, position)
                switch try execute(body, Scope(parent: scope), selfValue: selfValue) {
                case .normal, .continued: continue
                case .broke: return .normal
                case .returned(let value): return .returned(value)
                }
            }
        case .switchStatement(let subject, let cases, let position):
            let value = try evaluate(subject, scope, selfValue: selfValue)
            if value.isRuntime {
                warn(position, "switch on \(value.kindName), known only at run time: the import takes no case")
                return .normal
            }
            for switchCase in cases {
                var matches = switchCase.patterns.isEmpty
                for pattern in switchCase.patterns where !matches {
                    let candidate = try evaluate(pattern, scope, selfValue: selfValue)
                    matches = equal(value, candidate)
                }
                if matches {
                    let flow = try execute(switchCase.body, Scope(parent: scope), selfValue: selfValue)
                    if case .broke = flow { return .normal }
                    return flow
                }
            }
        case .returnStatement(let expression, _):
            return .returned(
                try expression.map { (e: Expression) throws(ImportStop) in try evaluate(e, scope, selfValue: selfValue)
                } ?? .null)
        case .breakStatement:
            return .broke
        case .continueStatement:
            return .continued
        case .function(let function):
            let closure = ClosureValue(
                syntax: ClosureSyntax(parameters: function.parameters, body: function.body), scope: scope,
                selfValue: selfValue, position: function.position)
            scope.variables[function.name] = .closure(closure)
        case .unsupported(let what, let position):
            warn(position, "\(what) is not imported; skipped")
        }
        return .normal
    }

    /// One more turn of a loop, within the iteration limit.
    func countIteration(_ iterations: inout Int, _ position: SourcePosition) throws(ImportStop) {
        iterations += 1
        if iterations > limits.loopIterations {
            throw stop(position, "the loop runs more than \(limits.loopIterations) times")
        }
    }

    /// Whether conditions hold, or which run-time value they depend on.
    enum Truth {
        case known(Bool)
        case runtime(RuntimeValue)
    }

    func test(_ conditions: [Condition], _ scope: Scope, selfValue: Value?, _ position: SourcePosition)
        throws(ImportStop) -> Truth
    {
        for condition in conditions {
            switch condition {
            case .expression(let expression):
                let value = try evaluate(expression, scope, selfValue: selfValue)
                if case .runtime(let runtime) = value { return .runtime(runtime) }
                if !(try truth(value, position)) { return .known(false) }
            case .binding(let name, let expression):
                let value = try evaluate(expression, scope, selfValue: selfValue)
                if case .null = value { return .known(false) }
                scope.variables[name] = value
                self.name(value, name)
            }
        }
        return .known(true)
    }

    private func executeIf(
        _ conditions: [Condition], _ then: [Statement], _ otherwise: [Statement]?, _ position: SourcePosition,
        _ scope: Scope, selfValue: Value?
    ) throws(ImportStop) -> Flow {
        let inner = Scope(parent: scope)
        switch try test(conditions, inner, selfValue: selfValue, position) {
        case .known(true):
            return try execute(then, inner, selfValue: selfValue)
        case .known(false):
            guard let otherwise else { return .normal }
            return try execute(otherwise, Scope(parent: scope), selfValue: selfValue)
        case .runtime(let runtime):
            guard let condition = runtime.condition, inCallback || currentTransition != nil else {
                warn(
                    position,
                    "this condition depends on \(runtime.description), known only at run time: the import assumes it holds",
                    fix:
                        "to import the other branch, give the value a constant for the import, or run the method that takes it with --entry"
                )
                return try execute(then, inner, selfValue: selfValue)
            }
            // Both branches become the scene's run-time `if`.
            let thenList = ActionList()
            try collecting(into: thenList) { () throws(ImportStop) in _ = try execute(then, inner, selfValue: selfValue)
            }
            try emit([("if", .value(.string(condition))), ("do", .list(thenList))], position)
            if let otherwise, let negated = runtime.negated?.condition {
                let elseList = ActionList()
                try collecting(into: elseList) { () throws(ImportStop) in
                    _ = try execute(otherwise, Scope(parent: scope), selfValue: selfValue)
                }
                try emit([("if", .value(.string(negated))), ("do", .list(elseList))], position)
            }
            return .normal
        }
    }

    /// Assigns to a name, a member (a view's property, a struct's field) or an element.
    func assign(_ target: Expression, _ value: Value, _ scope: Scope, selfValue: Value?) throws(ImportStop) {
        switch target {
        case .name(let name, let position):
            if selfValue == nil ? scope.assign(name, value) : scope.assign(name, value, inside: globals) { return }
            // `self = [super initWithFrame:frame]`: the object stays itself.
            if name == "self" { return }
            if let selfValue, let object = instance(selfValue),
                setter(object, name) != nil || observers(object, name) != nil
            {
                try setMember(selfValue, name, value, position)
                return
            }
            if let selfValue, let object = instance(selfValue) {
                // `_card` is the backing ivar of `card`.
                let stripped = name.hasPrefix("_") ? String(name.dropFirst()) : name
                for candidate in [name, stripped]
                where object.fields[candidate] != nil || hasProperty(object, candidate) {
                    object.fields[candidate] = value
                    self.name(value, candidate)
                    return
                }
            }
            if name == "_" { return }
            if let context = typeContext(selfValue),
                try setVisibleTypeProperty(name, value, from: context, position)
            {
                return
            }
            if selfValue != nil, globals.assign(name, value) { return }
            // `backgroundColor = .white` in a view subclass: the view's own property.
            if let selfValue, let layer = layer(selfValue),
                sceneProperty(name, layer) != nil || Self.ignoredProperties.contains(name)
            {
                try setMember(selfValue, name, value, position)
                return
            }
            warn(
                position, "assignment to \(name), which is not declared; it is declared here",
                fix: "declare it before the assignment (var \(name) = …)")
            scope.variables[name] = value
        case .member(let base?, let name, let position):
            let baseValue = try evaluate(base, scope, selfValue: selfValue)
            switch baseValue {
            case .object:
                try setMember(baseValue, name, value, position)
            case .typeName("PlaygroundPage.current") where name == "liveView":
                try adoptCanvas(value, position)
            case .typeName(let type) where try setTypeProperty(type, name, value, position):
                return
            case .runtime:
                let message = "\(name) of \(baseValue.kindName) is known only at run time; the assignment is skipped"
                // In an animation block, it is an animation not carried over.
                if changeCollectors.isEmpty { warn(position, message) } else { dropped(position, message) }
            default:
                let updated = try withMember(baseValue, name, value, position)
                try assign(base, updated, scope, selfValue: selfValue)
            }
        case .subscriptAccess(let base, let arguments, let position):
            let container = try evaluate(base, scope, selfValue: selfValue)
            guard let key = arguments.first else { return }
            let index = try evaluate(key.value, scope, selfValue: selfValue)
            switch container {
            case .array(var elements):
                guard let i = integer(index), elements.indices.contains(i) else {
                    throw stop(position, "index \(index.kindName) is out of range")
                }
                elements[i] = value
                try assign(base, .array(elements), scope, selfValue: selfValue)
            case .dictionary(var pairs):
                if let i = pairs.firstIndex(where: { equal($0.0, index) }) {
                    pairs[i].1 = value
                } else {
                    pairs.append((index, value))
                }
                try assign(base, .dictionary(pairs), scope, selfValue: selfValue)
            default:
                warn(position, "subscript assignment on \(container.kindName) is not imported; skipped")
            }
        default:
            warn(target.position, "this assignment is not imported; skipped")
        }
    }

    /// Binds a loop's names: one name takes the element, several take a tuple's parts.
    private func bind(_ names: [String], _ value: Value, _ scope: Scope) {
        if names.count == 1 {
            if names[0] != "_" { scope.variables[names[0]] = value }
            return
        }
        guard case .array(let parts) = value else { return }
        for (name, part) in zip(names, parts) where name != "_" { scope.variables[name] = part }
    }

    func hasProperty(_ object: InstanceObject, _ name: String) -> Bool {
        instanceProperties(object.typeName).contains { $0.name == name }
    }

    /// Whether `typeName` or a type it inherits from, in the file, declares the property.
    func declaresProperty(_ typeName: String, _ name: String) -> Bool {
        var seen: Set<String> = []
        var current: String? = typeName
        while let type = current, seen.insert(type).inserted {
            if types[type]?.properties.contains(where: { $0.name == name }) == true { return true }
            current = types[type]?.inherits.first
        }
        return false
    }

    /// What reading `name` runs: a computed property's `get`, or an Objective-C method of a
    /// declared property's name (`- (CALayer *)dot`, a lazy getter), as `self.dot` sends it.
    func getter(_ object: InstanceObject, _ name: String) -> FunctionDeclaration? {
        guard !name.hasPrefix("_"), let function = method(object.typeName, name), function.parameters.isEmpty
        else { return nil }
        return function.isAccessor || declaresProperty(object.typeName, name) ? function : nil
    }

    /// What writing `name` runs: a computed property's `set`, or an Objective-C setter of a
    /// declared property (`- (void)setProgress:(CGFloat)progress`).
    func setter(_ object: InstanceObject, _ name: String) -> FunctionDeclaration? {
        guard !name.hasPrefix("_"), let first = name.first else { return nil }
        if let function = method(object.typeName, name + ".set"), function.isAccessor { return function }
        // Objective-C's accessor for a declared property: `- (void)setCard:(Card *)card`, the
        // selector `setCard:`, its one piece the method's name. Swift has no such rule: a
        // `func setView(completion:)` beside a `var view` is a method, not the property's setter.
        guard declaresProperty(object.typeName, name),
            let function = method(object.typeName, "set" + first.uppercased() + name.dropFirst()),
            function.parameters.count == 1, function.labels == [function.name]
        else { return nil }
        return function
    }

    /// A stored property's `willSet` and `didSet` — not while the initializer of the type that
    /// declares the property runs on the object: "The willSet and didSet observers of
    /// superclass properties are called when a property is set in a subclass initializer, after
    /// the superclass initializer has been called. They aren't called while a class is setting
    /// its own properties" (The Swift Programming Language, "Properties", "Property Observers").
    func observers(_ object: InstanceObject, _ name: String) -> (will: FunctionDeclaration?, did: FunctionDeclaration?)?
    {
        guard !name.hasPrefix("_") else { return nil }
        let identity = ObjectIdentifier(object)
        if initializing.contains(where: { running in
            running.object == identity && types[running.type]?.properties.contains { $0.name == name } == true
        }) {
            return nil
        }
        let will = method(object.typeName, name + ".willSet").flatMap { $0.isAccessor ? $0 : nil }
        let did = method(object.typeName, name + ".didSet").flatMap { $0.isAccessor ? $0 : nil }
        return will == nil && did == nil ? nil : (will, did)
    }

    /// The elements a `for-in` walks.
    func elements(of value: Value, _ position: SourcePosition) throws(ImportStop) -> [Value] {
        switch value {
        case .array(let elements): return elements
        case .dictionary(let pairs): return pairs.map { .array([$0.0, $0.1]) }
        case .string(let text): return text.map { .string(String($0)) }
        case .runtime:
            warn(
                position, "the loop walks \(value.kindName), known only at run time: it runs no times",
                fix: "loop over an array or a range the code builds from constants")
            return []
        default:
            throw stop(position, "cannot loop over \(value.kindName)")
        }
    }

    func truth(_ value: Value, _ position: SourcePosition) throws(ImportStop) -> Bool {
        switch value {
        case .bool(let b): return b
        case .integer(let i): return i != 0
        case .number(let d): return d != 0
        case .null: return false
        case .object, .closure: return true
        case .runtime(let runtime):
            warn(
                position,
                "this condition depends on \(runtime.description), known only at run time: the import assumes it holds")
            return true
        default:
            throw stop(position, "\(value.kindName) is not a condition")
        }
    }
}
