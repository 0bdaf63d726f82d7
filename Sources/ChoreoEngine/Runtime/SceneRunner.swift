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
    public static func run(_ scene: Scene, horizon: Double? = nil) throws(RuntimeError) -> Timeline {
        let lastEntry = scene.script.map(\.at).max() ?? 0
        let lookAhead = min(max(Limits.neverSettlesHorizon, lastEntry, horizon ?? 0), Limits.maxSceneTime)
        let state = RunnerState(scene: scene, horizon: SceneTime.quantize(lookAhead))
        try state.run()
        return state.timeline
    }
}

final class RunnerState {
    var timeline = Timeline()
    let scene: Scene
    let horizon: Double
    var roots: [Int] = []
    var children: [[Int]] = []
    var parent: [Int] = []
    var present: [Bool] = []
    var queue = EventQueue()
    var now = 0.0
    var eventCount = 0
    var structureChanged = false
    /// Open `CATransaction`s, innermost last; the first is the run-loop turn's implicit one.
    var transactions = [TransactionFrame.implicit]
    /// Transaction and UIView-block completions, and the animations each waits for.
    var completionGroups: [CompletionGroup] = []
    /// Completion groups collecting the animations added right now, innermost last.
    var openGroups: [Int] = []
    /// The completion groups an animation belongs to.
    var groupsOfAnimation: [Int: [Int]] = [:]
    /// The `finished` flag the current turn's `if` guards test (nil outside completions).
    var currentFinished: Bool?
    /// `after` blocks and `onStop` lists waiting in the queue.
    var deferredTurns: [DeferredTurn] = []
    var nextSequence = 0
    /// Per layer: animations attached and not yet removed, in the order added. The runner only
    /// ever looks at these, so a long-running loop does not slow down as history grows.
    var liveAnimations: [[Int]] = []
    /// Per layer and property ordinal: leaves attached and not yet removed, in the order added.
    var liveLeaves: [[[Int]]] = []
    /// Leaves removed at the current instant (they still show just before it), by layer and ordinal.
    var removedThisInstant: [Int: [Int]] = [:]
    var removedThisInstantTime = -Double.infinity
    /// The animation last added under each key of each layer, for `addAgain`.
    var lastAdded: [LayerKey: (Animation, String)] = [:]

    struct LayerKey: Hashable {
        let layer: Int
        let key: String
    }
    /// The path of the work that was still pending at the horizon, if the run was cut.
    var stillRunning: String?

    init(scene: Scene, horizon: Double) {
        self.scene = scene
        self.horizon = horizon
    }

    // MARK: The event loop

    func run() throws(RuntimeError) {
        timeline.diagnostics = scene.warnings
        for node in scene.layers {
            let index = register(node)
            roots.append(index)
            markPresent(index, true)
        }
        snapshotShape(at: 0, force: true)
        let entries = scene.script.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
        var nextEntry = 0
        while true {
            let scriptTime = nextEntry < entries.count ? SceneTime.quantize(entries[nextEntry].element.at) : .infinity
            let eventTime = queue.first?.time ?? .infinity
            let next = min(scriptTime, eventTime)
            if next == .infinity { break }
            if next > horizon, let cut = workPastHorizon(scriptTime: scriptTime, eventTime: eventTime) {
                stillRunning = cut
                break
            }
            now = next
            if eventTime <= scriptTime, let entry = queue.pop() {
                try handle(entry)
            } else {
                let (offset, entry) = entries[nextEntry]
                nextEntry += 1
                try countEvent(path: "$.script[\(offset)]")
                try runTurn(entry.actions, path: "$.script[\(offset)].do")
                noteChange(now)
            }
        }
        finish()
    }

    func countEvent(path: String) throws(RuntimeError) {
        eventCount += 1
        if eventCount > Limits.maxEvents {
            throw RuntimeError(
                path: path, message: "the scene generated more than \(Limits.maxEvents) events; it loops without end")
        }
    }

    func noteChange(_ time: Double) {
        if time > timeline.lastChange { timeline.lastChange = time }
    }

    /// One run-loop turn: the actions run in order inside the implicit transaction, which
    /// commits at the end. `finished` is what `if` guards see (a completion's or `onStop`'s flag).
    func runTurn(_ actions: [ScriptAction], path: String, finished: Bool? = nil) throws(RuntimeError) {
        transactions = [.implicit]
        currentFinished = finished
        try performAll(actions, path: path)
        currentFinished = nil
        if structureChanged {
            snapshotShape(at: now, force: false)
            structureChanged = false
        }
    }

    /// `emitter-not-removed`: an emitter layer still in the tree and still emitting at the end.
    func checkEmitters() {
        let end = timeline.naturalEnd
        for index in timeline.layers.indices where present[index] {
            guard let emitter = timeline.layers[index].emitter else { continue }
            let start = timeline.layers[index].joinedAt
            let emitting = emitter.cells.contains { cell in
                cell.birthRate > 0 && (cell.duration == 0 || start + cell.beginTime + cell.duration > end)
            }
            let rate = presentation(index, KeyPath(.birthRate), at: end)
            guard emitting, case .number(let n) = rate, n > 0 else { continue }
            timeline.diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .emitterNotRemoved, time: end, layer: timeline.layers[index].id,
                    keyPath: nil,
                    message:
                        "The emitter is still emitting when the scene ends: it keeps spawning particles (and costing frames) for ever.",
                    fix:
                        "Remove the emitter layer (or set its birthRate to 0) once the effect is over, e.g. with an `after` block."
                ))
        }
    }

    /// Past the horizon, callbacks that run no actions are still processed (animations end);
    /// the first piece of work that would run actions is returned (its JSON path) and stops the run.
    func workPastHorizon(scriptTime: Double, eventTime: Double) -> String? {
        guard eventTime <= scriptTime, let entry = queue.first else { return "$.script" }
        switch entry.kind {
        case .completion:
            let group = completionGroups[entry.subject]
            return group.actions.isEmpty ? nil : group.path
        case .deferred:
            return deferredTurns[entry.subject].path
        case .start, .stop:
            let animation = timeline.animations[entry.subject]
            guard entry.generation == animation.generation, animation.removedAt == .infinity else { return nil }
            let actions = entry.kind == .start ? animation.onStart : animation.onStop
            guard !actions.isEmpty else { return nil }
            return entry.kind == .start ? onStartPath(entry.subject) : onStopPath(entry.subject)
        }
    }

    func finish() {
        timeline.horizon = horizon
        defer { checkEmitters() }
        if let stillRunning {
            timeline.neverSettles = true
            timeline.diagnostics.append(
                Diagnostic(
                    severity: .info, code: .neverSettles, time: horizon, layer: nil, keyPath: nil,
                    message:
                        "The scene is still running at \(Self.format(horizon)) s: \(stillRunning) keeps scheduling work, so it never settles; sampling stops at `end`.",
                    fix:
                        "Pass a later `end` to follow the loop further, or guard the restart (for example with {\"if\": \"finished\"}) so it can stop."
                ))
            return
        }
        for index in timeline.animations.indices {
            let animation = timeline.animations[index]
            if animation.stoppedAt == nil && animation.removedAt == .infinity
                && !animation.timing.activeDuration.isFinite
            {
                timeline.neverSettles = true
            }
        }
        if timeline.neverSettles {
            let first = timeline.animations.first { !$0.timing.activeDuration.isFinite && $0.removedAt == .infinity }
            timeline.diagnostics.append(
                Diagnostic(
                    severity: .info, code: .neverSettles, time: first?.addedAt ?? 0,
                    layer: first.map { timeline.layers[$0.layer].id }, keyPath: first?.keyPath?.description,
                    message: "An animation repeats for ever, so the scene never settles; sampling stops at `end`.",
                    fix: "Give repeatCount a finite value, or pass `end` to choose how much of the loop to sample."))
        }
    }

    // MARK: Layers

    func register(_ node: LayerNode) -> Int {
        let index = timeline.layers.count
        var model = [History<Value>?](repeating: nil, count: LayerProperty.allCases.count)
        for (property, value) in node.values {
            model[property.ordinal] = History(initial: value)
        }
        let track = Timeline.LayerTrack(
            id: node.id, type: node.type, actions: node.actions, states: node.states, emitter: node.emitter,
            joinedAt: now, model: model,
            timing: History(initial: node.timing),
            leavesByProperty: [[Int]](repeating: [], count: LayerProperty.allCases.count), transitions: [])
        timeline.layers.append(track)
        timeline.layerIndex[node.id] = index
        liveAnimations.append([])
        liveLeaves.append([[Int]](repeating: [], count: LayerProperty.allCases.count))
        children.append([])
        parent.append(-1)
        present.append(false)
        for sublayer in node.sublayers {
            let child = register(sublayer)
            children[index].append(child)
            parent[child] = index
        }
        return index
    }

    func markPresent(_ index: Int, _ value: Bool) {
        present[index] = value
        for child in children[index] { markPresent(child, value) }
    }

    func snapshotShape(at time: Double, force: Bool) {
        var order: [Int] = []
        order.reserveCapacity(timeline.layers.count)
        func visit(_ index: Int) {
            order.append(index)
            for child in children[index] { visit(child) }
        }
        for root in roots { visit(root) }
        var parents = [Int](repeating: -1, count: timeline.layers.count)
        for index in order { parents[index] = parent[index] }
        let shape = Timeline.TreeShape(order: order, parent: parents)
        if force {
            timeline.shape = History(initial: shape)
        } else {
            timeline.shape.set(shape, at: time)
        }
    }

    func layer(_ id: String, path: String) throws(RuntimeError) -> Int {
        guard let index = timeline.layerIndex[id] else {
            throw RuntimeError(path: path, message: "no layer with id \"\(id)\" exists at this time")
        }
        return index
    }

    func subtree(_ index: Int) -> [Int] {
        var result = [index]
        for child in children[index] { result += subtree(child) }
        return result
    }

    // MARK: Actions

    func performAll(_ actions: [ScriptAction], path: String) throws(RuntimeError) {
        for (index, action) in actions.enumerated() {
            try perform(action, path: "\(path)[\(index)]")
        }
    }

    func perform(_ action: ScriptAction, path: String) throws(RuntimeError) {
        switch action {
        case .add(let animation, let layerID):
            let index = try layer(layerID, path: path + ".layer")
            if let key = animation.key { lastAdded[LayerKey(layer: index, key: key)] = (animation, path + ".add") }
            try attach(animation, to: index, path: path + ".add")
        case .addAgain(let key, let layerID):
            let index = try layer(layerID, path: path + ".layer")
            guard let (animation, origin) = lastAdded[LayerKey(layer: index, key: key)] else {
                throw RuntimeError(
                    path: path + ".addAgain",
                    message: "no animation has been added to \"\(layerID)\" under the key \"\(key)\" yet")
            }
            try attach(animation, to: index, path: origin)
        case .remove(let key, let layerID):
            let index = try layer(layerID, path: path + ".layer")
            for animation in liveAnimations[index] where timeline.animations[animation].key == key {
                detach(animation, finished: hasEnded(animation))
            }
        case .removeAll(let layerID):
            let index = try layer(layerID, path: path + ".removeAll")
            for animation in liveAnimations[index] {
                detach(animation, finished: hasEnded(animation))
            }
        case .set(let changes):
            for change in changes {
                let index = try layer(change.layer, path: path + ".set")
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
            let index = register(node)
            if let parentID {
                let parentIndex = try layer(parentID, path: path + ".parent")
                let at = min(max(position ?? children[parentIndex].count, 0), children[parentIndex].count)
                children[parentIndex].insert(index, at: at)
                parent[index] = parentIndex
                markPresent(index, present[parentIndex])
            } else {
                let at = min(max(position ?? roots.count, 0), roots.count)
                roots.insert(index, at: at)
                markPresent(index, true)
            }
            structureChanged = true
            timeline.events.append(Event(time: now, kind: .layerAdded(layer: node.id)))
        case .removeLayer(let id):
            let index = try layer(id, path: path + ".removeLayer")
            if parent[index] >= 0 {
                children[parent[index]].removeAll { $0 == index }
                parent[index] = -1
            } else {
                roots.removeAll { $0 == index }
            }
            markPresent(index, false)
            for removed in subtree(index) {
                for animation in liveAnimations[removed] { detach(animation, finished: false) }
            }
            structureChanged = true
            timeline.events.append(Event(time: now, kind: .layerRemoved(layer: id)))
        case .mark(let name):
            timeline.events.append(Event(time: now, kind: .marker(name: name)))
        case .transaction(let block):
            try performTransaction(block, path: path + ".transaction")
        case .animate(let block):
            try performViewAnimation(block, path: path + ".animate")
        case .animateKeyframes(let block):
            try performViewKeyframes(block, path: path + ".animateKeyframes")
        case .transition(let block):
            try performViewTransition(block, path: path + ".transition")
        case .setState(let pairs, let animated, let duration):
            try performSetState(pairs, animated: animated, duration: duration, path: path)
        case .after(let delay, let actions):
            schedule(
                deferred: DeferredTurn(actions: actions, finished: currentFinished, path: path + ".do"),
                at: SceneTime.quantize(now + delay))
        case .ifFinished(let expected, let actions):
            guard let finished = currentFinished else {
                throw RuntimeError(
                    path: path + ".if",
                    message:
                        "\"finished\" is only known in a completion or onStop (and in `after` blocks inside them)")
            }
            if finished == expected { try performAll(actions, path: path + ".do") }
        }
    }

    /// A model change (`layer.opacity = 0.3`); on an implicit layer it also adds the implicit
    /// animation from the old presentation value (`actionForKey:`'s default `CABasicAnimation`).
    func apply(_ change: ModelChange, to index: Int) {
        switch change {
        case .property(let property, let value):
            let track = timeline.layers[index]
            var implicit: Animation?
            let frame = transactions[transactions.count - 1]
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
        if timeline.layers[index].model[property.ordinal] == nil {
            timeline.layers[index].model[property.ordinal] = History(initial: property.defaultValue)
        }
        timeline.layers[index].model[property.ordinal]!.set(value, at: now)
    }

    func setTiming(_ index: Int, _ change: (inout LayerTiming) -> Void) {
        var timing = timeline.layers[index].timing.last
        change(&timing)
        timeline.layers[index].timing.set(timing, at: now)
        // Every pending callback in the subtree moves with the new time map.
        for affected in subtree(index) {
            for animation in liveAnimations[affected] {
                timeline.animations[animation].generation += 1
                schedule(animation)
            }
        }
    }

    /// The presentation value at `now` (or just before it), from the live leaves only.
    func presentation(_ index: Int, _ keyPath: KeyPath, at time: Double) -> Value {
        let ordinal = keyPath.property.ordinal
        var leaves = liveLeaves[index][ordinal]
        if time < now && removedThisInstantTime == now, let removed = removedThisInstant[index * 1024 + ordinal] {
            leaves = (leaves + removed).sorted()
        }
        return timeline.presentationValue(
            layer: index, keyPath: keyPath, at: time, map: timeline.timeMap(of: index, at: time), leaves: leaves)
    }

    // MARK: Animations

    /// `layer.add(animation, forKey:)`. `byUIKit` marks the animations UIView blocks create:
    /// their fill (UIKit's own `fillMode = both`) is not the script's pitfall to report.
    func attach(_ animation: Animation, to index: Int, path: String, byUIKit: Bool = false) throws(RuntimeError) {
        let layerID = timeline.layers[index].id
        let map = timeline.timeMap(of: index, at: now)
        let layerNow = map.local(now)
        var timing = animation.timing
        let frame = transactions[transactions.count - 1]
        if timing.duration == 0 { timing.duration = frame.duration }
        timing.beginTime = (timing.beginTime == 0 ? layerNow : timing.beginTime) + animation.delay
        let timingFunction = animation.timingFunction ?? frame.timingFunction ?? .linear

        // Adding under a key in use replaces that animation (it stops with finished = false).
        if let key = animation.key {
            for other in liveAnimations[index] where timeline.animations[other].key == key {
                // One that reached its end at this very instant completed: it is not cut short.
                let completed = hasEnded(other)
                if timeline.animations[other].stoppedAt == nil && !completed {
                    timeline.diagnostics.append(
                        Diagnostic(
                            severity: .warning, code: .keyReplaced, time: now, layer: layerID,
                            keyPath: timeline.animations[other].keyPath?.description,
                            message:
                                "An animation was added under the key \"\(key)\" while the previous one was still running; the previous one stops with finished = false.",
                            fix:
                                "Use a different key for animations that should run together, or wait for animationDidStop before adding."
                        ))
                }
                detach(other, finished: completed)
            }
        }

        let owner = timeline.animations.count
        var leafIndices: [Int] = []
        var transition: Transition?
        var keyPath: KeyPath?
        var settling: Double?
        switch animation.content {
        case .basic(let property, _, let spring):
            keyPath = property.keyPath
            settling = spring?.settlingDuration
            leafIndices.append(
                makeLeaf(
                    animation, timing: timing, timingFunction: timingFunction, groups: [], layer: index, owner: owner))
        case .keyframe(let property, _):
            keyPath = property.keyPath
            leafIndices.append(
                makeLeaf(
                    animation, timing: timing, timingFunction: timingFunction, groups: [], layer: index, owner: owner))
        case .group(let members):
            let frame = AnimationLeafBody.GroupFrame(timing: timing, timingFunction: timingFunction)
            flatten(members, groups: [frame], layer: index, owner: owner, into: &leafIndices, path: path)
        case .transition(let value):
            transition = value
        }

        if !byUIKit && animation.timing.fillMode != .removed && animation.removedOnCompletion
            && (animation.timing.fillMode == .forwards || animation.timing.fillMode == .both)
        {
            timeline.diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .fillWithoutRetain, time: now, layer: layerID,
                    keyPath: keyPath?.description,
                    message:
                        "fillMode \(animation.timing.fillMode.rawValue) with removedOnCompletion true: the animation is removed when it ends, so the fill is never seen.",
                    fix:
                        "Set the model value to the final value before adding the animation, or set removedOnCompletion to false if the fill must stay."
                ))
        }
        checkOverride(leafIndices, layer: index)

        let attached = Timeline.AttachedAnimation(
            layer: index, key: animation.key, typeName: animation.typeName, timing: timing,
            removedOnCompletion: animation.removedOnCompletion, addedAt: now, settlingDuration: settling,
            keyPath: keyPath, leaves: leafIndices, transition: transition, timingFunction: timingFunction,
            onStart: animation.onStart, onStop: animation.onStop, path: path)
        timeline.animations.append(attached)
        liveAnimations[index].append(owner)
        if transition != nil { timeline.layers[index].transitions.append(owner) }
        for group in openGroups { register(owner, in: group) }
        schedule(owner)
    }

    func flatten(
        _ members: [Animation], groups: [AnimationLeafBody.GroupFrame], layer: Int, owner: Int,
        into leaves: inout [Int],
        path: String
    ) {
        let group = groups[groups.count - 1]
        for (offset, member) in members.enumerated() {
            var timing = member.timing
            if timing.duration == 0 { timing.duration = TransactionFrame.implicit.duration }
            timing.beginTime += member.delay
            // A child running past its group's duration is cut (CAAnimationGroup clips).
            if timing.beginTime + timing.activeDuration / max(abs(timing.speed), 1e-12) > group.timing.duration + 1e-9 {
                let keyPath: String? =
                    switch member.content {
                    case .basic(let p, _, _), .keyframe(let p, _): p.keyPath.description
                    default: nil
                    }
                let childEnd = timing.beginTime + timing.activeDuration / max(abs(timing.speed), 1e-12)
                timeline.diagnostics.append(
                    Diagnostic(
                        severity: .warning, code: .groupClipped, time: now, layer: timeline.layers[layer].id,
                        keyPath: keyPath,
                        message:
                            "Child \(offset) of the group runs \(childEnd.isFinite ? "\(Self.format(childEnd)) s" : "for ever") but the group lasts \(Self.format(group.timing.duration)) s: the child is cut off, not scaled.",
                        fix: "Make the group's duration at least as long as its longest child, or shorten the child."))
            }
            switch member.content {
            case .group(let nested):
                let frame = AnimationLeafBody.GroupFrame(
                    timing: timing, timingFunction: member.timingFunction ?? .linear)
                flatten(nested, groups: groups + [frame], layer: layer, owner: owner, into: &leaves, path: path)
            case .basic, .keyframe:
                leaves.append(
                    makeLeaf(
                        member, timing: timing, timingFunction: member.timingFunction ?? .linear, groups: groups,
                        layer: layer, owner: owner))
            case .transition:
                break
            }
        }
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "infinity" : "-infinity" }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    func makeLeaf(
        _ animation: Animation, timing: MediaTiming, timingFunction: TimingFunction,
        groups: [AnimationLeafBody.GroupFrame], layer: Int, owner: Int
    ) -> Int {
        let property: PropertyAnimation
        let curve: AnimationLeafBody.Curve
        var captured: Value?
        switch animation.content {
        case .basic(let p, let values, let spring):
            property = p
            curve = .basic(values, spring: spring)
            if values.from == nil && values.to == nil && values.by == nil {
                captured = presentation(layer, p.keyPath, at: now)
            }
        case .keyframe(let p, let keyframes):
            property = p
            curve = .keyframes(KeyframeTrack(keyframes))
            if keyframes.rotationMode != nil && keyframes.path != nil { timeline.layers[layer].hasPathRotation = true }
        default:
            fatalError("only property animations become leaves")
        }
        let leaf = AnimationLeaf(
            keyPath: property.keyPath, groups: groups, timing: timing,
            timingFunction: timingFunction, curve: curve, additive: property.additive,
            cumulative: property.cumulative, captured: captured, owner: owner, addedAt: now)
        let index = timeline.leaves.count
        timeline.leaves.append(leaf)
        timeline.layers[layer].leavesByProperty[property.keyPath.property.ordinal].append(index)
        liveLeaves[layer][property.keyPath.property.ordinal].append(index)
        timeline.layers[layer].animatedProperties.insert(property.keyPath.property)
        return index
    }

    /// `overridden`: a non-additive animation overlapping another non-additive one on the same key path.
    func checkOverride(_ leafIndices: [Int], layer: Int) {
        for index in leafIndices {
            let leaf = timeline.leaves[index]
            guard !leaf.additive else { continue }
            for other in liveLeaves[layer][leaf.keyPath.property.ordinal] where other != index {
                let previous = timeline.leaves[other]
                guard previous.owner != leaf.owner, !previous.additive, previous.keyPath == leaf.keyPath,
                    timeline.animations[previous.owner].stoppedAt == nil
                else { continue }
                timeline.diagnostics.append(
                    Diagnostic(
                        severity: .warning, code: .overridden, time: now, layer: timeline.layers[layer].id,
                        keyPath: leaf.keyPath.description,
                        message:
                            "Two non-additive animations overlap on \(leaf.keyPath): only the one added later shows while both run.",
                        fix:
                            "Remove the earlier animation first, make one of them additive, or animate different key paths."
                    ))
                break
            }
        }
    }

    /// Pushes the pending start and stop callbacks of an animation under the current time maps.
    func schedule(_ index: Int) {
        let animation = timeline.animations[index]
        let map = timeline.timeMap(of: animation.layer, at: now)
        let timing = animation.timing
        let speed = max(abs(timing.speed), 0)
        let generation = animation.generation
        if animation.startedAt == nil {
            if let start = sceneTime(localElapsed: 0, timing: timing, map: map) {
                queue.push(.init(time: start, subject: index, kind: .start, generation: generation))
            }
        }
        if animation.stoppedAt == nil && timing.activeDuration.isFinite && speed > 0 {
            if let stop = sceneTime(localElapsed: timing.activeDuration, timing: timing, map: map) {
                queue.push(.init(time: stop, subject: index, kind: .stop, generation: generation))
            }
        }
    }

    /// Whether the animation's active duration is over at `now` (its stop callback may still
    /// be pending at this instant).
    func hasEnded(_ index: Int) -> Bool {
        let animation = timeline.animations[index]
        if animation.stoppedAt != nil { return true }
        guard animation.timing.activeDuration.isFinite, abs(animation.timing.speed) > 0 else { return false }
        let map = timeline.timeMap(of: animation.layer, at: now)
        guard
            let end = sceneTime(
                localElapsed: animation.timing.activeDuration, timing: animation.timing, map: map)
        else { return false }
        return end <= now
    }

    /// The scene time (≥ now) at which the animation's elapsed time reaches `elapsed`, if ever.
    func sceneTime(localElapsed elapsed: Double, timing: MediaTiming, map: TimeMap) -> Double? {
        let speed = abs(timing.speed)
        let layerLocal = speed > 0 ? timing.beginTime + elapsed / speed : timing.beginTime
        if map.scale == 0 || speed == 0 {
            // Frozen time: the instant happens now if it is already reached, otherwise never.
            let current = speed == 0 ? 0 : (map.local(now) - timing.beginTime) * speed
            return current >= elapsed ? now : nil
        }
        guard let time = map.sceneTime(forLocal: layerLocal) else { return nil }
        let quantized = SceneTime.quantize(time)
        if map.scale < 0 { return quantized >= now ? quantized : nil }
        return max(quantized, now)
    }

    func handle(_ entry: EventQueue.Entry) throws(RuntimeError) {
        switch entry.kind {
        case .completion:
            try countEvent(path: completionGroups[entry.subject].path)
            try runCompletion(entry.subject)
            return
        case .deferred:
            let turn = deferredTurns[entry.subject]
            try countEvent(path: turn.path)
            try runTurn(turn.actions, path: turn.path, finished: turn.finished)
            noteChange(now)
            return
        case .start, .stop:
            break
        }
        let animation = timeline.animations[entry.animation]
        guard entry.generation == animation.generation, animation.removedAt == .infinity else { return }
        try countEvent(path: animation.path)
        let layerID = timeline.layers[animation.layer].id
        switch entry.kind {
        case .start:
            guard animation.startedAt == nil else { return }
            timeline.animations[entry.animation].startedAt = now
            timeline.events.append(Event(time: now, kind: .animationDidStart(layer: layerID, key: animation.key)))
            noteChange(now)
            if !animation.onStart.isEmpty { try runTurn(animation.onStart, path: onStartPath(entry.animation)) }
        case .stop:
            guard animation.stoppedAt == nil else { return }
            if animation.removedOnCompletion {
                detach(entry.animation, finished: true)
            } else {
                timeline.animations[entry.animation].stoppedAt = now
                timeline.animations[entry.animation].finished = true
                checkRetainedDivergence(entry.animation)
                timeline.events.append(
                    Event(time: now, kind: .animationDidStop(layer: layerID, key: animation.key, finished: true)))
                noteStopped(entry.animation, finished: true)
            }
            noteChange(now)
            if !animation.onStop.isEmpty {
                try runTurn(animation.onStop, path: onStopPath(entry.animation), finished: true)
            }
        case .completion, .deferred:
            return
        }
    }

    /// Removes an animation from its layer at `now` (completion or explicit removal).
    func detach(_ index: Int, finished: Bool) {
        let animation = timeline.animations[index]
        guard animation.removedAt == .infinity else { return }
        let shownBefore = snapBackProbes(index, naturalEnd: finished)
        timeline.animations[index].removedAt = now
        liveAnimations[animation.layer].removeAll { $0 == index }
        if removedThisInstantTime != now {
            removedThisInstant = [:]
            removedThisInstantTime = now
        }
        for leaf in animation.leaves {
            timeline.leaves[leaf].removedAt = now
            let ordinal = timeline.leaves[leaf].keyPath.property.ordinal
            liveLeaves[animation.layer][ordinal].removeAll { $0 == leaf }
            removedThisInstant[animation.layer * 1024 + ordinal, default: []].append(leaf)
        }
        reportSnapBacks(shownBefore, layer: animation.layer, animation: index)
        noteChange(now)
        if animation.stoppedAt == nil {
            timeline.animations[index].stoppedAt = now
            timeline.animations[index].finished = finished
            timeline.events.append(
                Event(
                    time: now,
                    kind: .animationDidStop(
                        layer: timeline.layers[animation.layer].id, key: animation.key, finished: finished)))
            // A removed animation's delegate hears animationDidStop(finished: false) in a turn of
            // its own (a natural end runs onStop from the stop callback itself).
            if !finished && !animation.onStop.isEmpty {
                schedule(
                    deferred: DeferredTurn(actions: animation.onStop, finished: false, path: onStopPath(index)), at: now
                )
            }
            noteStopped(index, finished: finished)
        }
    }

    /// The presentation of each key path the animation drives, just before it is removed
    /// (for a natural end, just before the end instant). Empty when no jump can be seen.
    func snapBackProbes(_ index: Int, naturalEnd: Bool) -> [(KeyPath, Value)] {
        let animation = timeline.animations[index]
        guard !animation.leaves.isEmpty, animation.addedAt < now || naturalEnd else { return [] }
        let probe = naturalEnd ? max(animation.addedAt, now - 1e-6) : now
        var seen = Set<KeyPath>()
        return animation.leaves.compactMap { leafIndex in
            let keyPath = timeline.leaves[leafIndex].keyPath
            guard seen.insert(keyPath).inserted else { return nil }
            return (keyPath, presentation(animation.layer, keyPath, at: probe))
        }
    }

    /// `snap-back`: after the removal, the presentation shows a visibly different value.
    func reportSnapBacks(_ shownBefore: [(KeyPath, Value)], layer: Int, animation: Int) {
        for (keyPath, before) in shownBefore where Self.differs(before, presentation(layer, keyPath, at: now)) {
            let model =
                "Set the model value to the final value before adding the animation, or keep the fill with removedOnCompletion false (and fillMode forwards)."
            var fix = model
            if let cut = springCut(animation, keyPath: keyPath) {
                // A CASpringAnimation stops at its duration (0.25 s unless given), settled or not.
                let settle =
                    "Set its duration to the spring's settlingDuration, \(Self.seconds(cut.settling)) s: it is cut at \(Self.seconds(cut.duration)) s, before it settles."
                fix = cut.modelIsEnd ? settle : "\(settle) \(model)"
            }
            timeline.diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .snapBack, time: now, layer: timeline.layers[layer].id,
                    keyPath: keyPath.description,
                    message:
                        "The animation on \(keyPath) is removed while its presentation value differs from the model value: the layer visibly jumps back.",
                    fix: fix))
        }
    }

    /// A spring animation on `keyPath` cut by its duration before its settling duration, and
    /// whether the model already holds the value it springs to (then the cut is the cause).
    func springCut(_ animation: Int, keyPath: KeyPath) -> (duration: Double, settling: Double, modelIsEnd: Bool)? {
        let record = timeline.animations[animation]
        for leafIndex in record.leaves where timeline.leaves[leafIndex].keyPath == keyPath {
            let body = timeline.leaves[leafIndex].body
            guard case .basic(let values, let spring?) = body.curve else { continue }
            let duration = body.timing.duration
            let settling = spring.settlingDuration
            guard duration < settling - 1e-9 else { continue }
            let model = keyPath.extract(from: timeline.layers[record.layer].modelValue(keyPath.property, at: now))
            let end = body.endpoints(values, model: model).1
            return (duration, settling, !Self.differs(model, end))
        }
        return nil
    }

    /// Seconds for a message: three decimals at most.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return String(value) }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Whether two values differ visibly: by more than 1/255 (one step of an 8-bit channel) of
    /// their magnitude, at least 1/255; for transforms, translations by more than half a point
    /// and other elements by more than 1/255. A spring cut at its UIKit duration, within 0.1% of
    /// its target, does not count.
    static func differs(_ a: Value, _ b: Value) -> Bool {
        if case .transform(let x) = a, case .transform(let y) = b {
            // Translations are in points (half a point is invisible); the rest is unitless.
            let (ex, ey) = (x.elements, y.elements)
            for index in 0..<16 {
                let limit = (12...14).contains(index) ? 0.5 : max(1, abs(ex[index]), abs(ey[index])) / 255
                if abs(ex[index] - ey[index]) > limit { return true }
            }
            return false
        }
        let scale = max(1, Value.distance(a, a.kind.zero), Value.distance(b, b.kind.zero))
        return Value.distance(a, b) > scale / 255
    }

    /// `retained-divergence`: a retained, ended animation keeps presentation ≠ model.
    func checkRetainedDivergence(_ index: Int) {
        let animation = timeline.animations[index]
        var checked = Set<KeyPath>()
        for leafIndex in animation.leaves {
            let keyPath = timeline.leaves[leafIndex].keyPath
            guard checked.insert(keyPath).inserted else { continue }
            let shown = presentation(animation.layer, keyPath, at: now)
            let model = keyPath.extract(from: timeline.layers[animation.layer].modelValue(keyPath.property, at: now))
            if Self.differs(shown, model) {
                timeline.diagnostics.append(
                    Diagnostic(
                        severity: .warning, code: .retainedDivergence, time: now,
                        layer: timeline.layers[animation.layer].id, keyPath: keyPath.description,
                        message:
                            "removedOnCompletion false keeps the presentation of \(keyPath) different from the model after the end: hit-testing and later animations see the model value.",
                        fix: "Set the model value to the final value and let the animation be removed."))
            }
        }
    }
}
