import ChoreoFormat
import ChoreoJSON

/// A limit went over, or the code cannot be imported at all: the import stops here.
struct ImportStop: Error {
    let diagnostic: ImportDiagnostic
}

/// How a statement list ended.
enum Flow {
    case normal
    case returned(Value)
    case broke
    case continued
}

/// Code run later on the virtual clock: a completion, a delegate callback, a delayed block.
struct Deferred {
    enum Work {
        case closure(ClosureValue, [Value])
        case method(Value, FunctionDeclaration, [Value])
        /// A gesture recognizer's state changes (one sample of a drag), then its action runs.
        case gesture(Value, GestureSample, SourcePosition)
    }

    var time: Double
    var sequence: Int
    var work: Work
    var list: ActionList
    /// Runs inside a callback (times become `after`), or as a turn of its own at `time` (an `at` entry).
    var isCallback: Bool
    /// The transition context in effect (`animateTransition(using:)`'s completion).
    var transition: String?
    /// The works this one was queued from, oldest first: a callback that queues itself again
    /// (a completion that starts the animation that calls it) is an endless chain.
    var chain: [SourcePosition] = []

    /// Where the work's code is.
    var position: SourcePosition {
        switch work {
        case .closure(let closure, _): closure.position
        case .method(_, let method, _): method.position
        case .gesture(_, _, let added): added
        }
    }
}

/// Interprets a ``SourceUnit`` on a virtual clock and builds the scene it describes. Nothing
/// is executed: the evaluator knows the subset of Swift and Objective-C that animation code is
/// written in, and the UIKit / Core Animation calls, and reads them as the scene format's
/// actions (`UIView.animate` → `animate`, `layer.add(_:forKey:)` → `add`, …).
///
/// The clock: the entry point runs at 0 as one run-loop turn; completions, delegate callbacks
/// and delayed blocks are queued at the time they would run (estimated from the durations, which
/// is enough to order them) and run in that order, each filling the action list the scene
/// already has for it. So code sees the variables as they are when it would run.
final class ImportEvaluator {
    let unit: SourceUnit
    let options: ImportOptions
    var limits: ImportLimits { options.limits }

    var heap: [HeapObject] = []
    var diagnostics: [ImportDiagnostic] = []
    private var warned: Set<String> = []
    var steps = 0
    var depth = 0
    let globals = Scope(parent: nil)
    var types: [String: TypeDeclaration] = [:]
    var functions: [String: [FunctionDeclaration]] = [:]

    // The scene being built.
    /// `at` entries: time, list, where in the code the turn began.
    var turns: [(time: Double, list: ActionList, position: SourcePosition)] = []
    /// Where actions go now.
    var sink = ActionList()
    var now = 0.0
    var inCallback = false
    /// While the entry point's first turn has emitted no action, model changes shape the layers
    /// as declared rather than becoming `set` actions.
    var entryTurn = false
    /// While a drawing method runs as the entry point (``hosted(_:_:)``): the layers it makes and
    /// adds are declared, as its one transaction shows them together in the first frame.
    var hostedTurn = false
    /// Top-level code runs as the entry point: a snippet as articles print it, whose `view` is
    /// the view controller's view it was written in (``snippetView(_:)``).
    var topLevelEntry = false
    /// The entry point is top-level code (a snippet): `self` is the view controller it was
    /// written in, in its blocks and callbacks too.
    var isSnippet = false
    /// Where the entry point is: diagnostics about the whole scene are placed there.
    var entryPosition = SourcePosition(line: 1, column: 1)
    var actionCount = 0
    var layerCount = 0
    var queue: [Deferred] = []
    /// The properties whose observers are running (`willSet` / `didSet` setting their own
    /// property store it without running them again, as Swift does).
    var observing: Set<String> = []
    /// The first animation the code asked for that was not carried over (``dropped(_:_:fix:)``).
    var firstDropped: ImportDiagnostic?
    /// The objects whose initializer runs, each with the type that declares that initializer:
    /// a type's own stored properties set there run no observers (Swift).
    var initializing: [(object: ObjectIdentifier, type: String)] = []
    /// Auto Layout constraints made, in order; those the layout pass left out; where the first
    /// was made (``noteConstraints()``).
    var constraints: [Value] = []
    var ignoredConstraints: Set<ObjectIdentifier> = []
    var firstConstraint: SourcePosition?
    /// The ids animators were bound to.
    var animatorIDs: Set<String> = []
    /// The chain of the queued work being run (``Deferred/chain`` and its own position).
    var chain: [SourcePosition] = []
    var sequence = 0
    var canvasObject: Int?
    /// The entry point's view controller, whose view is the canvas until a transition needs it
    /// to be a layer (``promoteCanvas(_:at:)``).
    var entryController: Value?
    /// The container of view-controller transitions (the navigation controller's or the
    /// window's view), once one has begun.
    var transitionContainer: Value?
    /// The entry point's navigation controller, once the code asks for it.
    var navigationControllerValue: Value?
    /// The names view controllers are bound to, by heap index: their views take them.
    var controllerNames: [Int: String] = [:]
    /// The transition each interaction controller drives, by heap index.
    var interactions: [Int: String] = [:]
    var canvasBackground: JSONValue?
    /// The canvas's size in points, when the code gives it (a playground's live view).
    var canvasSize: (Double, Double)?
    /// The screen a view controller's view fills, in points (an iPhone 8's and SE's, 375 × 667):
    /// the canvas of code written in a view controller, and what `UIScreen.main.bounds` reads.
    static let screen = ImportScreen.standard
    /// The screen of this import: ``screen`` unless the options give one (`--screen 390x844`).
    var screen: (width: Double, height: Double) { options.screen ?? Self.screen }
    var usedIDs: Set<String> = []
    /// The declared root layers, in order.
    var declaredRoots: [Int] = []
    /// UIView animation blocks being evaluated: their changes.
    var changeCollectors: [ChangeCollector] = []
    /// `animateKeyframes` blocks being evaluated: their keyframes.
    var keyframeCollectors: [KeyframeCollector] = []
    /// Open `CATransaction`s (begin … commit).
    var transactions: [TransactionFrame] = []
    /// The animation last added to each layer under each key, for `addAgain`.
    var lastAdded: [String: JSONValue] = [:]
    /// The transition in progress, in `animateTransition(using:)` and its completions.
    var currentTransition: String?
    var transitionCount = 0
    /// The type properties read or set so far (`Type.name` → value), and those whose initial
    /// value is being computed (``typePropertyValue(_:_:_:)``).
    var typePropertyValues: [String: Value] = [:]
    /// The Objective-C classes sent `+initialize` so far.
    var initializedClasses: Set<String> = []
    var typePropertiesInitialising: Set<String> = []
    /// The types the code declares (a class, struct or enum), not only extends.
    var declaredTypeNames: Set<String> = []

    init(unit: SourceUnit, options: ImportOptions) {
        self.unit = unit
        self.options = options
        diagnostics = unit.diagnostics
        for type in unit.types {
            if !type.isExtension { declaredTypeNames.insert(type.name) }
            if var existing = types[type.name] {
                existing.properties += type.properties
                existing.methods += type.methods
                existing.inherits += type.inherits
                existing.protocols += type.protocols
                existing.isObjectiveC = existing.isObjectiveC || type.isObjectiveC
                types[type.name] = existing
            } else {
                types[type.name] = type
            }
        }
        for function in unit.functions { functions[function.name, default: []].append(function) }
    }

    // MARK: Diagnostics

    func warn(_ position: SourcePosition, _ message: String, fix: String? = nil) {
        let key = "\(position.file):\(position.line):\(position.column):\(message)"
        guard warned.insert(key).inserted else { return }
        diagnostics.append(ImportDiagnostic(.warning, position, message, fix: fix))
    }

    /// A warning that an animation the code asks for is not carried over; the first is kept:
    /// a scene left still by it is an error that names it (``SceneCheck``).
    func dropped(_ position: SourcePosition, _ message: String, fix: String? = nil) {
        warn(position, message, fix: fix)
        if firstDropped == nil { firstDropped = ImportDiagnostic(.warning, position, message, fix: fix) }
    }

    func note(_ position: SourcePosition, _ message: String) {
        let key = "n\(position.file):\(position.line):\(position.column):\(message)"
        guard warned.insert(key).inserted else { return }
        diagnostics.append(ImportDiagnostic(.note, position, message))
    }

    func stop(_ position: SourcePosition, _ message: String) -> ImportStop {
        ImportStop(diagnostic: ImportDiagnostic(.error, position, message))
    }

    func step(_ position: SourcePosition) throws(ImportStop) {
        steps += 1
        if steps > limits.steps {
            throw stop(position, "the import evaluated more than \(limits.steps) steps here; is there an endless loop?")
        }
        if heap.count > limits.objects {
            throw stop(position, "the code makes more than \(limits.objects) objects here")
        }
    }

    /// Stops the import here when a value of `size` (a string's UTF-8 bytes, an array's or a
    /// dictionary's elements) would pass ``ImportLimits/valueSize``: checked before the value is
    /// made.
    func checkSize(_ size: Int, of value: Value, _ position: SourcePosition) throws(ImportStop) {
        guard size > limits.valueSize else { return }
        let what =
            switch value {
            case .string: "a string of more than \(limits.valueSize) bytes"
            case .dictionary: "a dictionary of more than \(limits.valueSize) entries"
            default: "an array of more than \(limits.valueSize) elements"
            }
        throw stop(position, "the code makes \(what) here")
    }

    /// The size ``checkSize(_:of:_:)`` counts, for a value that has one.
    static func size(of value: Value) -> Int {
        switch value {
        case .string(let text): text.utf8.count
        case .array(let elements): elements.count
        case .dictionary(let pairs): pairs.count
        default: 0
        }
    }

    // MARK: Running

    /// Runs the entry point, then everything it scheduled, in time order.
    func run() throws(ImportStop) {
        _ = try execute(unit.globals, globals, selfValue: nil)
        try runLoadMethods()
        let entry = try entryPoint()
        entryPosition = entry.position
        let list = ActionList()
        turns.append((0, list, entry.position))
        sink = list
        entryTurn = true
        now = 0
        switch entry.work {
        case .topLevel:
            // Top-level variables are globals: the file's functions see them.
            topLevelEntry = true
            isSnippet = true
            try makeSnippetOutlets(unit)
            _ = try execute(unit.topLevel, globals, selfValue: nil)
            topLevelEntry = false
            try solveConstraints(entry.position)
        case .hosted(let instance, let method, let arguments):
            // One run-loop turn: the layers it makes and adds are in the first frame, as one
            // transaction commits them together.
            hostedTurn = true
            _ = try call(method, on: instance, arguments: arguments, at: method.position)
            hostedTurn = false
            try solveConstraints(method.position)
        case .methods(let instance, let methods):
            for method in methods {
                // Before the view appears (viewDidLoad, viewWillAppear) the code sets up what the
                // first frame shows; from viewDidAppear(_:) on, or in a method run as the entry,
                // the view is on screen and every change is an action (a standalone layer's
                // implicit animation runs).
                if !Self.setupMethods.contains(method.name) { entryTurn = false }
                _ = try call(method, on: instance, arguments: [], at: method.position)
                // UIKit lays the view out before it appears, and at the end of the turn.
                try solveConstraints(method.position)
            }
        }
        entryTurn = false
        try drainQueue()
        noteConstraints()
    }

    enum EntryWork {
        case topLevel
        case methods(Value, [FunctionDeclaration])
        /// A method that draws into a layer it is given, called with a host view's layer.
        case hosted(Value, FunctionDeclaration, [Value])
    }

    /// The entry point: `--entry`, else top-level code, else the view controller's
    /// `viewDidLoad` then `viewDidAppear(_:)`.
    func entryPoint() throws(ImportStop) -> (work: EntryWork, position: SourcePosition) {
        if let entry = options.entry {
            // `Type.method`, `method(_:)`, or an Objective-C selector as written: `btnClick:`,
            // `move:to:`, `-[Type btnClick:]`; a method is looked up by its name, the selector's
            // first piece.
            var written = entry
            if let open = written.firstIndex(of: "["), written.hasSuffix("]"),
                written[..<open].allSatisfy({ $0 == "-" || $0 == "+" })
            {
                let inside = written[written.index(after: open)..<written.index(before: written.endIndex)]
                written = inside.split(separator: " ", maxSplits: 1).joined(separator: ".")
            }
            let parts = written.split(separator: ".").map(String.init)
            let methodName = parts.last ?? written
            let baseName =
                methodName.split(whereSeparator: { $0 == "(" || $0 == ":" }).first.map(String.init) ?? methodName
            let candidates = unit.types.filter { parts.count < 2 || $0.name == parts[0] }
            for type in candidates {
                if let method = (types[type.name]?.methods ?? []).first(where: { $0.name == baseName }) {
                    if lifecycle(type.name, "viewDidLoad") == nil, method.takesLayer {
                        return try hosted(type.name, method)
                    }
                    let onScreen = viewBase(type.name) != nil && !isViewController(type.name) && canvasObject == nil
                    // A view is made as code makes it, `init(frame:)` / `initWithFrame:` run,
                    // the host's bounds its frame.
                    let instance =
                        onScreen
                        ? try constructInstance(
                            type.name, Arguments(items: [("frame", .rect(0, 0, Self.hostSide, Self.hostSide))]),
                            method.position)
                        : try instantiate(type.name, at: method.position)
                    if onScreen {
                        // A view's own method: that view is on screen, in a host view that is
                        // the canvas, as a view in a window.
                        let host = try construct(
                            "UIView", Arguments(items: [("frame", .rect(0, 0, Self.hostSide, Self.hostSide))]),
                            method.position)
                        try adoptCanvas(host, method.position)
                        if case .object(let hostIndex) = host, let view = layer(instance) {
                            if view.id == nil { name(instance, lowerFirst(type.name)) }
                            hostedTurn = true
                            if rectOf(view.model["bounds"]).map({ $0.2 <= 0 || $0.3 <= 0 }) ?? true {
                                try setMember(
                                    instance, "frame", .rect(0, 0, Self.hostSide, Self.hostSide), method.position)
                            }
                            try attach(instance, to: hostIndex, at: nil, method.position)
                            hostedTurn = false
                        }
                        note(
                            method.position,
                            "\(type.name) is on screen while \(entry) runs, in a \(format(Self.hostSide)) × "
                                + "\(format(Self.hostSide)) host view")
                    }
                    var methods: [FunctionDeclaration] = []
                    if let setup = lifecycle(type.name, "viewDidLoad"), setup.name != method.name {
                        methods.append(setup)
                    }
                    methods.append(method)
                    return (.methods(instance, methods), method.position)
                }
            }
            if parts.count < 2, let function = functions[baseName]?.first {
                return (.methods(.null, [function]), function.position)
            }
            // The nearest method: by its name alone when the entry names no type.
            let methods = unit.types.flatMap { type in
                (types[type.name]?.methods ?? []).map { (name: $0.name, qualified: "\(type.name).\($0.name)") }
            }
            let known =
                methods.map { (name: parts.count < 2 ? $0.name : $0.qualified, qualified: $0.qualified) }
                + unit.functions.map { (name: $0.name, qualified: $0.name) }
            let asked = parts.count < 2 ? baseName : "\(parts[0]).\(baseName)"
            let nearest = Vocabulary.suggestion(for: asked, among: known.map(\.name)).flatMap { best in
                known.first { $0.name == best }?.qualified
            }
            throw ImportStop(
                diagnostic: ImportDiagnostic(
                    .error, SourcePosition(line: 1, column: 1), "no method \(entry) in this file",
                    fix: nearest.map { "did you mean \($0)?" }))
        }
        if !unit.topLevel.isEmpty { return (.topLevel, unit.topLevel[0].position) }
        // The root view controller: one that no code of the file makes (a pushed or presented
        // one is made by another).
        let made = ConstructedTypes(unit).names
        let roots = unit.types.filter { !made.contains($0.name) } + unit.types.filter { made.contains($0.name) }
        for type in roots {
            let setup = ["viewDidLoad", "viewDidAppear", "viewWillAppear"].compactMap { lifecycle(type.name, $0) }
            if !setup.isEmpty {
                let instance = try instantiate(type.name, at: type.position)
                return (.methods(instance, setup.sorted { order($0.name) < order($1.name) }), setup[0].position)
            }
        }
        // A method that draws into a layer it is given (a loader's `setUpAnimation(in:size:color:)`),
        // in the file imported before the files read with it.
        let drawing = unit.types.sorted { $0.position < $1.position }.lazy.compactMap { type in
            (self.types[type.name]?.methods ?? []).first { $0.takesLayer && $0.position.file == type.position.file }
                .map { (type.name, $0) }
        }.first
        if let (type, method) = drawing { return try hosted(type, method) }
        // A SwiftUI view (`struct ContentView: View { var body: some View … }`): said as such.
        if let view = unit.types.first(where: { type in
            type.inherits.contains("View") && type.methods.contains { $0.name == "body" }
        }) {
            throw ImportStop(
                diagnostic: ImportDiagnostic(
                    .error, view.position,
                    "\(view.name) is a SwiftUI view: SwiftUI code is not imported yet, only UIKit and Core Animation code",
                    fix: "docs/import.md lists what is imported"))
        }
        throw ImportStop(
            diagnostic: ImportDiagnostic(
                .error, SourcePosition(line: 1, column: 1),
                "nothing to run: no top-level code, no viewDidLoad or viewDidAppear(_:), no method that draws into a "
                    + "layer it is given, and no --entry",
                fix: "name a method with --entry Type.method"))
    }

    /// The host a drawing method is given: a view of ``hostSide`` points square that is the
    /// canvas, a size of ``hostContentSide`` points, UIKit's default tint colour (`systemBlue`).
    static let hostSide = 120.0
    static let hostContentSide = 80.0

    /// `type`'s `method` as the entry point, its arguments made by their types.
    func hosted(_ type: String, _ method: FunctionDeclaration) throws(ImportStop) -> (
        work: EntryWork, position: SourcePosition
    ) {
        let instance = try instantiate(type, at: method.position)
        let host = try construct(
            "UIView", Arguments(items: [("frame", .rect(0, 0, Self.hostSide, Self.hostSide))]), method.position)
        try adoptCanvas(host, method.position)
        var arguments: [Value] = []
        var given: [String] = []
        for (index, parameter) in method.parameters.enumerated() {
            let type = index < method.parameterTypes.count ? method.parameterTypes[index] : nil
            switch type.map(FunctionDeclaration.bareType) {
            case let name? where FunctionDeclaration.isLayerType(name):
                arguments.append(host)
                given.append("\(parameter): a \(format(Self.hostSide)) × \(format(Self.hostSide)) host view")
            case "CGSize"?:
                arguments.append(.size(Self.hostContentSide, Self.hostContentSide))
                given.append("\(parameter): \(format(Self.hostContentSide)) × \(format(Self.hostContentSide))")
            case "CGRect"?:
                arguments.append(.rect(0, 0, Self.hostSide, Self.hostSide))
                given.append("\(parameter): the host's bounds")
            case "UIColor"?, "CGColor"?, "CGColorRef"?:
                arguments.append(.color(.string("systemBlue")))
                given.append("\(parameter): systemBlue (UIKit's default tint)")
            default:
                arguments.append(.runtime(.unknown(parameter)))
                given.append("\(parameter): unknown")
            }
        }
        note(
            method.position,
            "\(type).\(method.signature) runs as the entry point, given " + given.joined(separator: ", "))
        return (.hosted(instance, method, arguments), method.position)
    }

    /// The view controller methods that run before its view is on screen.
    static let setupMethods: Set<String> = ["viewDidLoad", "loadView", "viewWillAppear", "viewWillLayoutSubviews"]

    private func order(_ name: String) -> Int {
        ["viewDidLoad", "viewWillAppear", "viewDidAppear"].firstIndex(of: name) ?? 3
    }

    private func lifecycle(_ type: String, _ name: String) -> FunctionDeclaration? {
        types[type]?.methods.first { $0.name == name }
    }

    /// Runs queued work in time order until none is left or the horizon is passed.
    func drainQueue() throws(ImportStop) {
        while !queue.isEmpty {
            var best = 0
            for index in queue.indices.dropFirst()
            where (queue[index].time, queue[index].sequence) < (queue[best].time, queue[best].sequence) {
                best = index
            }
            let item = queue.remove(at: best)
            if item.time > limits.horizon {
                warn(item.position, "runs after \(format(limits.horizon)) s of scene time; the import stops before it")
                continue
            }
            now = item.time
            chain = item.chain + [item.position]
            sink = item.list
            inCallback = item.isCallback
            currentTransition = item.transition
            switch item.work {
            case .closure(let closure, let arguments):
                _ = try invoke(closure, arguments, at: closure.position)
            case .method(let target, let method, let arguments):
                _ = try call(method, on: target, arguments: arguments, at: method.position)
            case .gesture(let recognizer, let sample, let position):
                try deliver(sample, to: recognizer, at: position)
            }
            try solveConstraints(item.position)
        }
    }

    /// Queues `work` to fill `list` at `time`. A work that the chain it is queued from has run
    /// ``ImportLimits/chainRounds`` times already is an endless chain (each round nests its
    /// actions in the last one's callback): it is not queued, and a warning names it.
    func schedule(_ work: Deferred.Work, at time: Double, into list: ActionList, callback: Bool = true) {
        var item = Deferred(
            time: time, sequence: sequence + 1, work: work, list: list, isCallback: callback,
            transition: currentTransition, chain: chain)
        let rounds = chain.count { $0 == item.position }
        if rounds >= limits.chainRounds {
            warn(
                item.position,
                "this code starts itself again each time it runs: an endless chain of animations; the import "
                    + "stops it after \(limits.chainRounds) rounds, at \(format(now)) s",
                fix: "to repeat an animation for ever, give it repeatCount = .infinity (options: [.repeat] in a UIView "
                    + "block) instead of starting it again from its completion")
            return
        }
        if chain.count > limits.chainRounds * 4 { item.chain.removeFirst(chain.count - limits.chainRounds * 4) }
        sequence += 1
        queue.append(item)
    }

    // MARK: Emitting

    /// Appends an action to the current list.
    func emit(_ members: [(String, Piece)], _ position: SourcePosition, at slot: Slot? = nil) throws(ImportStop) {
        actionCount += 1
        if actionCount > limits.actions {
            throw stop(position, "the scene has more than \(limits.actions) actions")
        }
        entryTurn = false
        if let slot {
            slot.list.items.insert(.object(members, position), at: min(slot.index, slot.list.items.count))
        } else {
            sink.items.append(.object(members, position))
        }
    }

    /// Where an action goes that is emitted after the code inside it ran: a UIView block's
    /// animations run first (their own blocks become actions), but UIKit adds the block's
    /// animations as its properties change, before those of a block nested in it.
    struct Slot {
        let list: ActionList
        let index: Int
    }

    var slot: Slot { Slot(list: sink, index: sink.items.count) }

    /// Runs `body` with actions going to `list`.
    func collecting(into list: ActionList, _ body: () throws(ImportStop) -> Void) throws(ImportStop) {
        let saved = sink
        let savedEntry = entryTurn
        sink = list
        entryTurn = false
        defer {
            sink = saved
            entryTurn = savedEntry && actionCount == 0
        }
        try body()
    }

    // MARK: Objects

    func allocate(_ object: HeapObject) -> Value {
        heap.append(object)
        return .object(heap.count - 1)
    }

    /// What a value refers to in the heap, if it refers to anything.
    func object(_ value: Value) -> HeapObject? {
        if case .object(let index) = value { return heap[index] }
        return nil
    }

    func layer(_ value: Value) -> LayerObject? {
        if case .layer(let layer)? = object(value) { return layer }
        return nil
    }

    func transitionContext(_ value: Value) -> TransitionContext? {
        if case .transitionContext(let context)? = object(value) { return context }
        return nil
    }

    func animator(_ value: Value) -> AnimatorObject? {
        if case .animator(let animator)? = object(value) { return animator }
        return nil
    }

    func path(_ value: Value) -> PathObject? {
        if case .path(let path)? = object(value) { return path }
        return nil
    }

    func animation(_ value: Value) -> AnimationObject? {
        if case .animation(let animation)? = object(value) { return animation }
        return nil
    }

    /// An instance of the file's types: a plain one, or a view or layer subclass's.
    func instance(_ value: Value) -> InstanceObject? {
        switch object(value) {
        case .instance(let instance)?: instance
        case .layer(let layer)?: layer.instance
        default: nil
        }
    }

    /// The UIKit or Core Animation class a type of the file is a subclass of, if it is a view or layer.
    func viewBase(_ typeName: String) -> String? {
        var seen: Set<String> = []
        var current = typeName
        while seen.insert(current).inserted {
            if Self.layerClasses.contains(current) { return current }
            guard let next = types[current]?.inherits.first else { return nil }
            current = next
        }
        return nil
    }

    static let layerClasses: Set<String> = [
        "UIView", "UILabel", "UIButton", "UIImageView", "UIControl", "CALayer", "CAShapeLayer", "CATextLayer",
        "CAEmitterLayer", "CAGradientLayer", "CAReplicatorLayer",
    ]

    /// An instance of one of the file's types, its stored properties initialised; a view or
    /// layer subclass is a layer of the scene that has them.
    func instantiate(_ typeName: String, at position: SourcePosition, arguments: Arguments = Arguments(items: []))
        throws(ImportStop) -> Value
    {
        // `+alloc` is the class's first message, if nothing was sent before it.
        try initializeClass(typeName)
        let object = InstanceObject(typeName: typeName)
        let value: Value
        if let base = viewBase(typeName) {
            value = try makeLayer(base, arguments, position)
            layer(value)?.instance = object
        } else {
            value = allocate(.instance(object))
        }
        if isViewController(typeName), canvasObject == nil {
            // The entry point's view controller: its view is the canvas. Other view controllers
            // get a view of their own when it is first needed (``viewOf(_:at:)``).
            let canvas = LayerObject(kind: .layer, className: "UIView", isView: true, created: position)
            canvas.isCanvas = true
            canvas.id = "view"
            // Its view fills the screen, and the scene's canvas is the screen.
            if canvasSize == nil { canvasSize = (screen.width, screen.height) }
            let canvasValue = allocate(.layer(canvas))
            if case .object(let index) = canvasValue { canvasObject = index }
            object.fields["view"] = canvasValue
            entryController = value
        }
        for property in instanceProperties(typeName) where !property.isLazy {
            let scope = Scope(parent: globals)
            let initial =
                try property.value.map { (e: Expression) throws(ImportStop) in try evaluate(e, scope, selfValue: value)
                } ?? .null
            object.fields[property.name] = initial
            name(initial, property.name)
        }
        return value
    }

    func isViewController(_ typeName: String) -> Bool {
        var seen: Set<String> = []
        var current = typeName
        while seen.insert(current).inserted, let type = types[current] {
            if type.inherits.contains(where: { $0.hasSuffix("ViewController") }) { return true }
            guard let next = type.inherits.first else { break }
            current = next
        }
        return typeName.hasSuffix("ViewController")
    }

    /// `base`, or `base-2`, `base-3`… when an animator has it already; taken.
    func uniqueAnimatorID(_ base: String) -> String {
        var id = base
        var suffix = 1
        while animatorIDs.contains(id) {
            suffix += 1
            id = "\(base)-\(suffix)"
        }
        animatorIDs.insert(id)
        return id
    }

    /// Gives an unnamed layer the name it is first bound to: `card`, `self.card` and `_card` are `card`.
    /// A local variable's name is provisional: a stored property or a stored array the layer is
    /// bound to later names it instead (`let node = …; nodes.append(node)` is `nodes[2]`), as long
    /// as no action has used the first name.
    func name(_ value: Value, _ bound: String, provisional: Bool = false) {
        switch value {
        case .object(let index)
        where instance(value).map({ isViewController($0.typeName) }) == true && layer(value) == nil:
            var base = bound
            while base.hasPrefix("_") { base.removeFirst() }
            if controllerNames[index] == nil { controllerNames[index] = base }
        case .object where animator(value) != nil:
            guard let box = animator(value)?.name, !box.named else { return }
            box.named = true
            // Each animator has an id of its own: one made again (a completion that makes the
            // next) is `slide-2`, `slide-3`…
            animatorIDs.remove(box.value)
            box.value = uniqueAnimatorID(bound)
        case .object:
            guard let layer = layer(value), !layer.isCanvas else { return }
            var base = bound
            while base.hasPrefix("_") { base.removeFirst() }
            if base.isEmpty { base = layer.className }
            if let id = layer.id {
                guard layer.provisional, !provisional, !layer.referenced, id != base else { return }
                usedIDs.remove(id)
            }
            layer.id = uniqueID(base, layer.created)
            layer.provisional = provisional
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                name(element, "\(bound)[\(index)]", provisional: provisional)
            }
        default:
            break
        }
    }

    func uniqueID(_ base: String, _ position: SourcePosition) -> String {
        if usedIDs.insert(base).inserted { return base }
        var suffix = 2
        while !usedIDs.insert("\(base)-\(suffix)").inserted { suffix += 1 }
        note(position, "the layer is named \(base)-\(suffix): \(base) names another one")
        return "\(base)-\(suffix)"
    }

    /// The scene id of a layer, naming it after its class when it was never bound to a name.
    func id(of layer: LayerObject) -> String {
        layer.referenced = true
        if let id = layer.id { return id }
        var base = layer.className
        if base.hasPrefix("UI") || base.hasPrefix("CA") { base.removeFirst(2) }
        base = base.prefix(1).lowercased() + base.dropFirst()
        let id = uniqueID(base, layer.created)
        layer.id = id
        return id
    }
}

/// The changes a UIView animation block makes, by layer then property, in the order made.
final class ChangeCollector {
    var changes: [(String, [(String, JSONValue)])] = []
    var position: SourcePosition

    init(position: SourcePosition) { self.position = position }

    func record(_ layer: String, _ property: String, _ value: JSONValue) {
        if let index = changes.firstIndex(where: { $0.0 == layer }) {
            if let p = changes[index].1.firstIndex(where: { $0.0 == property }) {
                changes[index].1[p].1 = value
            } else {
                changes[index].1.append((property, value))
            }
        } else {
            changes.append((layer, [(property, value)]))
        }
    }

    var json: JSONValue {
        .object(JSONObject(changes.map { ($0.0, .object(JSONObject($0.1))) }))
    }
}

/// An open `CATransaction`: its settings and the latest end of the animations added inside.
struct TransactionFrame {
    var position: SourcePosition
    var members: [(String, Piece)] = []
    var list = ActionList()
    var completion: ClosureValue?
    var latestEnd: Double
    var outerSink: ActionList
}

/// A number as diagnostics print it: `1.2`, `3`.
func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
