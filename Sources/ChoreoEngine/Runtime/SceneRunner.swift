/// Runs a scene's script on a simulated clock and records its ``Timeline``.
///
/// A deterministic discrete-event simulation. Each `at` entry and each delegate callback is
/// one run-loop turn. At one instant, delegate callbacks fire first (in the order their
/// animations were added; a start before a stop), then the script entries at that time in
/// document order. No wall clock is read.
public struct SceneRunner {
    /// Runs the scene and records its timeline.
    ///
    /// The simulation looks as far as the later of 10 s (``Limits/neverSettlesHorizon``), the
    /// last script entry and `horizon` (the end a request samples to). Beyond that point the
    /// animations already running still end, but no more actions run: a scene that would keep
    /// going (a loop restarting itself from `onStop`) is cut there and reported as
    /// `never-settles`.
    ///
    /// `shouldStop` is asked every few thousand events (a server passes its client's
    /// cancellation): once it says yes the run ends with ``RuntimeError/stopped``.
    ///
    /// The scene is consumed: passed with `consume`, its layers are freed once the initial tree
    /// is built and each script entry once it has run.
    public static func run(
        _ scene: consuming Scene, horizon: Double? = nil, shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(RuntimeError) -> Timeline {
        try SceneSession(consume scene, appendable: false).finish(horizon: horizon, shouldStop: shouldStop)
    }
}

/// A scene run as it happens: script entries arrive over time (a live session's inputs), each
/// run when it arrives, and the timeline so far can be read at any point. A batch render is the
/// same object given the whole script and run to its end, so a session's frames equal the
/// render of its scene with the inputs appended to the script, byte for byte.
///
/// Not thread-safe: its owner serialises calls.
public final class SceneSession {
    private var state: RunnerState
    /// Entries appended, after the scene's own script (their paths continue its numbering).
    public private(set) var appended = 0
    /// The latest instant run to (the last appended entry's time).
    public private(set) var time = 0.0

    /// Builds the scene's initial tree and queues its script. The session keeps no reference
    /// to the scene itself (see ``RunnerState/start(_:)``).
    public convenience init(_ scene: consuming Scene) {
        self.init(scene, appendable: true)
    }

    /// `appendable`: whether entries may be appended (a live session's inputs, which may
    /// `addAgain`); a batch run is not, and keeps the keyed `add`s only if its scene
    /// ``Scene/mayAddAgain``.
    init(_ scene: consuming Scene, appendable: Bool) {
        state = RunnerState(
            scriptCount: scene.script.count, lastScriptTime: scene.script.map(\.at).max() ?? 0,
            horizon: Limits.maxSceneTime, keepsAddedAnimations: appendable || scene.mayAddAgain)
        state.start(scene)
    }

    /// Runs `entry` at its time, after everything before it and the callbacks due at that
    /// instant; `entry.at` must not be earlier than ``time``. On an error the session's state
    /// is undefined: rebuild it from its scene and the entries accepted before.
    public func append(_ entry: ScriptEntry) throws(RuntimeError) {
        precondition(entry.at >= time, "entries arrive in time order")
        state.enqueue(entry, offset: state.scriptCount + appended)
        appended += 1
        time = entry.at
        try state.advance(through: SceneTime.quantize(entry.at))
    }

    /// Runs what is due up to and including `at` — the scene's own script entries and the
    /// callbacks of that time — as an entry appended at `at` finds it, without appending one:
    /// the ids it may name are then those that exist when it runs (an animator the script makes
    /// at that very time too). ``time`` stays where it is. Everything at one instant runs before
    /// an entry appended at that instant (callbacks first, then entries in script order, the
    /// appended one last), so running it first changes nothing the entry sees or does.
    public func advance(to at: Double) throws(RuntimeError) {
        precondition(at >= time, "entries arrive in time order")
        try state.advance(through: SceneTime.quantize(at))
    }

    /// The events so far, in the order they fired.
    public var events: [Event] { state.timeline.events }

    /// The timeline as recorded so far, not run on: what the session shows at ``time``.
    public var recorded: Timeline { state.timeline }

    /// The index the next appended entry takes in the script (`$.script[n]` in its paths).
    public var nextOffset: Int { state.scriptCount + appended }

    /// Ids an input may name: every layer, animator and transition that exists so far.
    public var knownLayers: [String] { Array(state.timeline.layerIndex.keys) }
    public var knownAnimators: [String] { Array(state.interactive.animatorIndex.keys) }
    public var knownTransitions: [String] { Array(state.interactive.transitionIndex.keys) }

    /// The recorded timeline, run on to its end, as ``SceneRunner/run(_:horizon:)`` records it
    /// for the scene with the appended entries in its script; the session itself stays at ``time``.
    public func timeline(horizon: Double? = nil) throws(RuntimeError) -> Timeline {
        try state.copy().runToEnd(lookAhead: lookAhead(horizon))
    }

    /// An independent copy at the same point: appending to it leaves this session as it was.
    /// A live session tries each input on a copy, so an input that fails leaves the session at
    /// its last accepted one with nothing to replay.
    public func copy() -> SceneSession { SceneSession(copying: self) }

    private init(copying other: SceneSession) {
        state = other.state.copy()
        appended = other.appended
        time = other.time
    }

    /// The same, consuming the session: no copy (batch renders).
    func finish(horizon: Double?, shouldStop: (@Sendable () -> Bool)? = nil) throws(RuntimeError) -> Timeline {
        state.shouldStop = shouldStop
        return try state.runToEnd(lookAhead: lookAhead(horizon))
    }

    /// The later of 10 s, the last script entry and the sampled end: how far the run looks.
    private func lookAhead(_ horizon: Double?) -> Double {
        let lastEntry = max(state.lastScriptTime, appended > 0 ? time : 0)
        return SceneTime.quantize(
            min(max(Limits.neverSettlesHorizon, lastEntry, horizon ?? 0), Limits.maxSceneTime))
    }
}

/// The runner: its mutable state cut by concern — the layer tree (``RunnerTree``), the
/// animations attached now (``LiveAnimations``), the run loop (``RunLoop``) — and the
/// ``Timeline`` it records. Each part is a value, so a running scene can be copied whole
/// (``copy()``) and the copy run on without touching the original.
final class RunnerState {
    var timeline = Timeline()
    /// The number of the scene's own script entries (appended ones are numbered after them)
    /// and the latest time among them.
    let scriptCount: Int
    let lastScriptTime: Double
    /// Whether each keyed `add` is kept for a later `addAgain` (``LiveAnimations/lastAdded``).
    let keepsAddedAnimations: Bool
    var horizon: Double
    var tree = RunnerTree()
    var live = LiveAnimations()
    var loop = RunLoop()
    /// Asked every 4,096 events: whether to give up (``RuntimeError/stopped``).
    var shouldStop: (@Sendable () -> Bool)?
    var interactive = InteractiveState()
    /// Keyframe tracks shared by identical keyframe animations.
    var keyframeTracks = KeyframeTracks()
    /// The diagnostics' texts so far, each once (``diagnose(_:)``).
    var diagnosticTexts: [String: String] = [:]
    /// The scene's SwiftUI views and state, when it has them.
    var swiftUI: SwiftUIRuntime?

    /// The current instant of the run loop.
    var now: Double {
        get { loop.now }
        set { loop.now = newValue }
    }

    init(scriptCount: Int, lastScriptTime: Double, horizon: Double, keepsAddedAnimations: Bool) {
        self.scriptCount = scriptCount
        self.lastScriptTime = lastScriptTime
        self.horizon = horizon
        self.keepsAddedAnimations = keepsAddedAnimations
    }

    /// An independent copy: running it on leaves this state as it was.
    func copy() -> RunnerState {
        let other = RunnerState(
            scriptCount: scriptCount, lastScriptTime: lastScriptTime, horizon: horizon,
            keepsAddedAnimations: keepsAddedAnimations)
        other.timeline = timeline
        other.tree = tree
        other.live = live
        other.loop = loop
        other.interactive = interactive
        other.keyframeTracks = keyframeTracks
        other.swiftUI = swiftUI
        return other
    }

    // MARK: The event loop

    /// The initial tree at time 0, and the scene's own script waiting to run. Nothing keeps
    /// the scene afterwards: its layers live on as the runner's tree, and each script entry
    /// is held by the run loop's queue until it has run, then freed.
    func start(_ scene: borrowing Scene) {
        timeline.canvas = scene.canvas
        timeline.diagnostics = scene.warnings
        // Room for every layer of the scene at once: grown by doubling, a 10,000-layer scene's
        // tracks took 16,384 places (0.7 MB more), kept for the whole render.
        func count(_ nodes: [LayerNode]) -> Int { nodes.reduce(nodes.count) { $0 + count($1.sublayers) } }
        reserveLayers(count(scene.layers))
        for node in scene.layers {
            let index = register(node)
            guard !node.detached else { continue }
            tree.roots.append(index)
            markPresent(index, true)
        }
        if let views = scene.swiftUI {
            startSwiftUI(views, canvas: scene.canvas)
            // Repeating keyframe animators start as the views appear: an update at 0 s that
            // changes nothing, before the script's own.
            let loops = views.flattened.contains { entry in
                entry.view.modifiers.contains {
                    switch $0 {
                    case .keyframeAnimator(let a): a.repeating
                    case .phaseAnimator(let a): a.trigger == nil
                    default: false
                    }
                }
            }
            if loops { enqueue(ScriptEntry(at: 0, actions: [.swiftUI(SwiftUIUpdate(changes: []))]), offset: -1) }
            for (view, _) in views.flattened {
                for case .animation(_, nil) in view.modifiers { diagnose(.animationWithoutValue(view: view.id)) }
            }
        }
        snapshotShape(at: 0, force: true)
        for (offset, entry) in scene.script.enumerated() { enqueue(entry, offset: offset) }
    }

    /// Adds a script entry to the pending ones, in (time, document order).
    func enqueue(_ entry: ScriptEntry, offset: Int) {
        let pending = RunLoop.PendingEntry(at: SceneTime.quantize(entry.at), offset: offset, actions: entry.actions)
        var index = loop.entries.count
        while index > loop.nextEntry
            && (loop.entries[index - 1].at, loop.entries[index - 1].offset) > (pending.at, pending.offset)
        {
            index -= 1
        }
        loop.entries.insert(pending, at: index)
    }

    /// The next piece of work: a script entry or a queued callback, and its time.
    private func nextWork() -> (time: Double, scriptTime: Double, eventTime: Double) {
        let scriptTime = loop.nextEntry < loop.entries.count ? loop.entries[loop.nextEntry].at : .infinity
        let eventTime = loop.queue.first?.time ?? .infinity
        return (min(scriptTime, eventTime), scriptTime, eventTime)
    }

    /// Runs the work at `next`: callbacks due then come before script entries.
    private func step(scriptTime: Double, eventTime: Double) throws(RuntimeError) {
        if eventTime <= scriptTime, let entry = loop.queue.pop() {
            try handle(entry)
        } else {
            // An entry runs once: its actions are taken from the queue and each is let go once
            // performed (callbacks and `addAgain` keep what they need of them), so a large
            // entry's actions are not all held until the last has run.
            var actions: [ScriptAction] = []
            swap(&actions, &loop.entries[loop.nextEntry].actions)
            let offset = loop.entries[loop.nextEntry].offset
            loop.nextEntry += 1
            try countEvent(path: "$.script[\(offset)]")
            beginTurn()
            try performAll(taking: consume actions, path: "$.script[\(offset)].do")
            endTurn()
            noteChange(now)
        }
    }

    /// Runs every callback and script entry up to and including `limit`.
    func advance(through limit: Double) throws(RuntimeError) {
        while true {
            let (next, scriptTime, eventTime) = nextWork()
            if next > limit || next > Limits.maxSceneTime { break }
            if next > now { settleSnapBacks() }
            now = next
            try step(scriptTime: scriptTime, eventTime: eventTime)
        }
    }

    /// Runs to the end: past `lookAhead` callbacks that run no actions still end their
    /// animations, and the first piece of work that would run actions stops the run.
    func runToEnd(lookAhead: Double) throws(RuntimeError) -> Timeline {
        horizon = lookAhead
        while true {
            let (next, scriptTime, eventTime) = nextWork()
            if next == .infinity { break }
            // Nothing runs past the longest scene (a layer's beginTime of 1e19 moves its
            // animations' ends out of it): what still runs then never settles within it.
            if next > Limits.maxSceneTime {
                loop.workPastLongestScene = true
                break
            }
            if next > horizon, let cut = workPastHorizon(scriptTime: scriptTime, eventTime: eventTime) {
                // Name what keeps the scene going: an `onStop` that adds an animation again,
                // rather than whichever work happens to come first.
                loop.stillRunning = loopingStop() ?? cut
                break
            }
            if next > now { settleSnapBacks() }
            now = next
            try step(scriptTime: scriptTime, eventTime: eventTime)
        }
        finish()
        timeline.expandReplicators()
        return timeline
    }

    func countEvent(path: String) throws(RuntimeError) {
        loop.eventCount += 1
        if loop.eventCount > Limits.maxEvents {
            throw RuntimeError(
                path: path, message: "the scene generated more than \(Limits.maxEvents) events; it loops without end")
        }
        if now == loop.eventInstant {
            loop.eventsAtInstant += 1
            if loop.eventsAtInstant > Limits.maxEventsPerInstant {
                throw RuntimeError(
                    path: path,
                    message:
                        "the scene generated more than \(Limits.maxEventsPerInstant) events at \(Diagnostic.seconds(now)) s without time passing; it loops without end"
                )
            }
        } else {
            loop.eventInstant = now
            loop.eventsAtInstant = 1
        }
        if loop.eventCount & 4095 == 0, let shouldStop, shouldStop() { throw .stopped }
    }

    func noteChange(_ time: Double) {
        if time > timeline.lastChange { timeline.lastChange = time }
    }

    /// One run-loop turn: the actions run in order inside the implicit transaction, which
    /// commits at the end. `finished` is what `if` guards see (a completion's or `onStop`'s flag).
    func runTurn(
        _ actions: [ScriptAction], path: String, finished: Bool? = nil, position: AnimatingPosition? = nil
    ) throws(RuntimeError) {
        beginTurn(finished: finished, position: position)
        try performAll(actions, path: path)
        endTurn()
    }

    private func beginTurn(finished: Bool? = nil, position: AnimatingPosition? = nil) {
        loop.transactions = [.implicit]
        loop.currentFinished = finished
        interactive.currentPosition = position
    }

    private func endTurn() {
        loop.currentFinished = nil
        interactive.currentPosition = nil
        if tree.structureChanged {
            snapshotShape(at: now, force: false)
            tree.structureChanged = false
        }
    }

    /// Past the horizon, callbacks that run no actions are still processed (animations end);
    /// the first piece of work that would run actions is returned (its JSON path) and stops the run.
    func workPastHorizon(scriptTime: Double, eventTime: Double) -> String? {
        guard eventTime <= scriptTime, let entry = loop.queue.first else { return "$.script" }
        switch entry.kind {
        case .completion:
            let group = loop.completionGroups[entry.subject]
            return group.actions.isEmpty ? nil : group.path
        case .deferred:
            return loop.deferredTurns[entry.subject].path
        case .clockEnd:
            return nil
        case .start, .stop:
            let animation = timeline.animations[entry.subject]
            let script = live.scripts[entry.subject]
            guard entry.generation == script.generation, animation.removedAt == .infinity else { return nil }
            let actions = entry.kind == .start ? script.onStart : script.onStop
            guard !actions.isEmpty else { return nil }
            return entry.kind == .start ? onStartPath(entry.subject) : onStopPath(entry.subject)
        }
    }

    /// The `onStop` among the pending work that restarts a loop (it adds an animation, or adds
    /// one again), earliest first: what keeps a scene like the three-ball loader going.
    func loopingStop() -> String? {
        for entry in loop.queue.entries.sorted(by: { $0.precedes($1) }) where entry.kind == .stop {
            let script = live.scripts[entry.subject]
            guard entry.generation == script.generation, timeline.animations[entry.subject].removedAt == .infinity
            else { continue }
            let restarts = script.onStop.contains {
                switch $0 {
                case .add, .addAgain: true
                default: false
                }
            }
            if restarts { return onStopPath(entry.subject) }
        }
        return nil
    }

    func finish() {
        settleSnapBacks()
        timeline.horizon = horizon
        defer {
            checkEmitters()
            checkTransitionsCompleted()
        }
        if let stillRunning = loop.stillRunning {
            timeline.neverSettles = true
            diagnose(
                .neverSettles(horizon: horizon, stillRunning: stillRunning))
            return
        }
        // Still running at the end of the run: repeating for ever, or ending past the longest
        // scene (a repeatCount of 100,000).
        func stillRunning(_ index: Int) -> Bool {
            let animation = timeline.animations[index]
            return animation.stoppedAt == nil && animation.removedAt == .infinity
                && (!live.scripts[index].timing.activeDuration.isFinite || loop.workPastLongestScene)
        }
        if let first = timeline.animations.indices.first(where: stillRunning).map({ timeline.animations[$0] }) {
            timeline.neverSettles = true
            diagnose(
                .neverSettles(
                    time: first.addedAt, layer: timeline.layers[first.layer].id, keyPath: first.keyPath?.description,
                    forEver: !loop.workPastLongestScene))
        }
    }

    // MARK: Actions

    func performAll(_ actions: [ScriptAction], path: String) throws(RuntimeError) {
        for (index, action) in actions.enumerated() {
            try perform(action, path: "\(path)[\(index)]")
        }
    }

    /// ``performAll(_:path:)`` for actions it owns alone: each is let go once performed.
    private func performAll(taking actions: consuming [ScriptAction], path: String) throws(RuntimeError) {
        actions.reverse()
        var index = 0
        while let action = actions.popLast() {
            try perform(action, path: "\(path)[\(index)]")
            index += 1
        }
    }

    func perform(_ action: ScriptAction, path: String) throws(RuntimeError) {
        switch action {
        case .add(let animation, let layerID):
            let index = try layer(layerID, path: path + ".layer")
            let addPath = path + ".add"
            if keepsAddedAnimations, let key = animation.key {
                live.lastAdded[LiveAnimations.LayerKey(layer: index, key: key)] = .init(action, path: addPath)
            }
            try attach(animation, to: index, path: addPath)
        case .addAgain(let key, let layerID):
            let index = try layer(layerID, path: path + ".layer")
            guard let added = live.lastAdded[LiveAnimations.LayerKey(layer: index, key: key)] else {
                throw RuntimeError(
                    path: path + ".addAgain",
                    message: "no animation has been added to \"\(layerID)\" under the key \"\(key)\" yet")
            }
            try attach(added.animation, to: index, path: added.path)
        case .remove(let key, let layerID):
            let index = try layer(layerID, path: path + ".layer")
            for animation in live.animations[index] where timeline.animations[animation].key == key {
                detach(animation, finished: hasEnded(animation))
            }
        case .removeAll(let layerID):
            let index = try layer(layerID, path: path + ".removeAll")
            for animation in live.animations[index] {
                detach(animation, finished: hasEnded(animation))
            }
        case .set(let changes):
            for change in changes {
                let index = try layer(change.layer, path: path + ".set")
                try checkEmitterLimit(change.changes, layer: index, path: "\(path).set.\(change.layer)")
                for item in change.changes { apply(item, to: index) }
            }
        case .addLayer(let node, let parentID, let position):
            guard timeline.layerIndex[node.id] == nil else {
                throw RuntimeError(
                    path: path + ".addLayer.id", message: "a layer with id \"\(node.id)\" already exists")
            }
            if timeline.layers.count >= Limits.maxLayers {
                throw RuntimeError(path: path, message: "more than \(Limits.maxLayers) layers")
            }
            // The parent is looked up before the new layers exist: naming the layer itself, or
            // one of its sublayers, as its parent is an unknown layer, not a cycle in the tree.
            let parentIndex = try parentID.map { (parent: String) throws(RuntimeError) in
                try layer(parent, path: path + ".parent")
            }
            let index = register(node)
            place(index, in: parentIndex, at: position)
        case .insertLayer(let id, let parentID, let position):
            let index = try layer(id, path: path + ".addLayer")
            let parentIndex = try parentID.map { (parent: String) throws(RuntimeError) in
                try layer(parent, path: path + ".parent")
            }
            if let parentIndex, parentIndex == index || subtree(index).contains(parentIndex) {
                throw RuntimeError(path: path + ".parent", message: "a layer cannot be added inside itself")
            }
            // Out of where it is, into its new place.
            if tree.parent[index] >= 0 {
                tree.children[tree.parent[index]].removeAll { $0 == index }
            } else {
                tree.roots.removeAll { $0 == index }
            }
            place(index, in: parentIndex, at: position)
        case .removeLayer(let id):
            let index = try layer(id, path: path + ".removeLayer")
            if tree.parent[index] >= 0 {
                tree.children[tree.parent[index]].removeAll { $0 == index }
                tree.parent[index] = -1
            } else {
                tree.roots.removeAll { $0 == index }
            }
            markPresent(index, false)
            for removed in subtree(index) {
                for animation in live.animations[removed] { detach(animation, finished: false) }
            }
            tree.structureChanged = true
            timeline.events.append(Event(time: now, kind: .layerRemoved(layer: id)))
        case .mark(let name):
            timeline.events.append(Event(time: now, kind: .marker(name: name)))
        case .transaction(let block):
            try performTransaction(block, path: path + ".transaction")
        case .animate(let block):
            try performViewAnimation(block, path: path + ".animate")
        case .withoutAnimation(let actions):
            try performWithoutAnimation(actions, path: path + ".performWithoutAnimation")
        case .animateKeyframes(let block):
            try performViewKeyframes(block, path: path + ".animateKeyframes")
        case .transition(let block):
            try performViewTransition(block, path: path + ".transition")
        case .setState(let pairs, let animated, let duration):
            try performSetState(pairs, animated: animated, duration: duration, path: path)
        case .after(let delay, let actions):
            schedule(
                deferred: DeferredTurn(actions: actions, finished: loop.currentFinished, path: path + ".do"),
                at: SceneTime.quantize(now + delay))
        case .ifCondition(let condition, let actions):
            if try holds(condition, path: path + ".if") { try performAll(actions, path: path + ".do") }
        case .propertyAnimator(let spec):
            try createAnimator(spec, path: path + ".propertyAnimator")
        case .animator(let id, let call):
            try callAnimator(try animator(id, path: path + ".animator"), call, path: path)
        case .beginTransition(let spec):
            try beginTransition(spec, path: path + ".beginTransition")
        case .interaction(let id, let call):
            try interact(try transition(id, path: path + ".transition"), call, path: path)
        case .completeTransition(let argument, let id):
            try completeTransition(argument, id: id, path: path)
        case .pan(let gesture):
            try schedulePan(gesture, path: path + ".pan")
        case .swiftUI(let update):
            try performSwiftUI(update, path: path)
        }
    }

    /// A model change (`layer.opacity = 0.3`); on an implicit layer it also adds the implicit
    /// animation from the old presentation value (`actionForKey:`'s default `CABasicAnimation`).
    func apply(_ change: ModelChange, to index: Int) {
        switch change {
        case .property(let property, let value):
            let track = timeline.layers[index]
            var implicit: Animation?
            let frame = loop.transactions[loop.transactions.count - 1]
            if track.actions == .implicit && property.isAnimatable && !frame.disableActions {
                let old = presentation(index, KeyPath(property), at: now)
                if old != value {
                    // actionForKey:'s default: a basic animation from the old presentation value,
                    // with the transaction's duration and timing function.
                    var animation = Animation(
                        content: .basic(
                            PropertyAnimation(keyPath: KeyPath(property)), BasicValues(from: old), spring: nil))
                    animation.key = property.rawValue
                    animation.timingFunction = frame.timingFunction ?? .systemDefault
                    implicit = animation
                }
            }
            setModel(property, value, on: index)
            if let implicit { try? attach(implicit, to: index, path: "$") }
        case .frame:
            for item in expandingFrames([change], layer: index) { apply(item, to: index) }
        case .beginTime(let value): setTiming(index) { $0.beginTime = value }
        case .speed(let value): setTiming(index) { $0.speed = value }
        case .timeOffset(let value): setTiming(index) { $0.timeOffset = value }
        }
    }

    /// Replaces each `frame` change by the `bounds` and `position` UIView's setter writes, with
    /// the anchor point and bounds origin the layer has at that point of the list.
    func expandingFrames(_ changes: [ModelChange], layer index: Int) -> [ModelChange] {
        guard changes.contains(where: { if case .frame = $0 { true } else { false } }) else { return changes }
        var anchor = Point(0.5, 0.5)
        if case .point(let given) = timeline.layers[index].modelValue(.anchorPoint, at: now) { anchor = given }
        var origin = Point(0, 0)
        if case .rect(let bounds) = timeline.layers[index].modelValue(.bounds, at: now) { origin = bounds.origin }
        var result: [ModelChange] = []
        for change in changes {
            switch change {
            case .frame(let frame):
                result.append(.property(.bounds, .rect(Rect(origin: origin, size: frame.size))))
                result.append(
                    .property(
                        .position,
                        .point(
                            Point(frame.origin.x + anchor.x * frame.size.x, frame.origin.y + anchor.y * frame.size.y))))
            case .property(.anchorPoint, .point(let given)):
                anchor = given
                result.append(change)
            case .property(.bounds, .rect(let bounds)):
                origin = bounds.origin
                result.append(change)
            default:
                result.append(change)
            }
        }
        return result
    }

    func setModel(_ property: LayerProperty, _ value: Value, on index: Int) {
        noteTransitionChange(property, on: index)
        timeline.layers[index].model[property.ordinal, default: History(initial: property.defaultValue)]
            .set(value, at: now)
    }

    func setTiming(_ index: Int, _ change: (inout LayerTiming) -> Void) {
        var timing = timeline.layers[index].timing.last
        change(&timing)
        timeline.layers[index].timing.set(timing, at: now)
        // Every pending callback in the subtree moves with the new time map.
        for affected in subtree(index) {
            for animation in live.animations[affected] {
                live.scripts[animation].generation += 1
                schedule(animation)
            }
        }
    }

    /// The presentation value at `now` (or just before it), from the live leaves only.
    func presentation(_ index: Int, _ keyPath: KeyPath, at time: Double) -> Value {
        let ordinal = keyPath.property.ordinal
        var leaves = live.leaves[index][ordinal] ?? []
        if time < now && live.removedThisInstantTime == now,
            let removed = live.removedThisInstant[index * 1024 + ordinal]
        {
            leaves = (leaves + removed).sorted()
        }
        return timeline.presentationValue(
            layer: index, keyPath: keyPath, at: time, map: timeline.timeMap(of: index, at: time), leaves: leaves)
    }

}
