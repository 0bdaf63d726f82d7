/// SwiftUI's state changes (docs/semantics.md, "SwiftUI views"): a change of `@State` gives
/// each view's modifiers their new values; the ones that change animate as SwiftUI animates
/// them, drawn with Core Animation's additive animations.
///
/// Each animatable value shows its model value plus what each running animation still has to
/// cover (``SwiftUIValueTrack``): a timing curve from (old − new) to 0, additive on the
/// layer's key path; a spring that comes while another spring runs on the value replaces it,
/// from the offset and velocity it had (the new `CASpringAnimation`'s `fromValue` and
/// `initialVelocity`).
struct SwiftUIRuntime {
    /// The views in pre-order with their parents, and each one's layer.
    let views: [(view: SwiftUIView, parent: Int?)]
    let layers: [Int]
    let scene: SwiftUIScene
    let canvas: Canvas?
    /// The state now, and the views' values for it.
    var state: [String: SwiftUIStateValue]
    var channels: [[SwiftUIScene.Channel]]
    /// What runs on each (layer, key path): its Core Animation animation and its part.
    var running: [LayerKeyPath: [Running]] = [:]
    /// The keyframe animators' plays running on each (layer, key path).
    var keyframePlays: [LayerKeyPath: Int] = [:]
    /// Whether the repeating keyframe animators and continuous phase animators have started.
    var loopsStarted = false
    /// The latest play of each phase animator (by view and modifier): older plays' steps stop.
    var phasePlays: [Int: Int] = [:]
    var nextPlay = 0
    /// Whether each view's own `if` holds (what it shows), and each removal's number: a removal
    /// hides its view when its animation ends, unless the view came back since.
    var present: [Bool] = []
    var removals: [Int] = []

    struct LayerKeyPath: Hashable {
        let layer: Int
        let keyPath: KeyPath
    }

    struct Running {
        let animation: Int
        let contribution: SwiftUIValueTrack.Contribution
    }
}

extension RunnerState {
    /// Sets up the scene's SwiftUI views, already among its layers.
    func startSwiftUI(_ scene: SwiftUIScene, canvas: Canvas?) {
        let views = scene.flattened
        let layers = views.map { timeline.layerIndex[$0.view.id] ?? -1 }
        let state = scene.initialState
        swiftUI = SwiftUIRuntime(
            views: views, layers: layers, scene: scene, canvas: canvas, state: state,
            channels: scene.channels(state, canvas: canvas), present: views.map { $0.view.isPresent(state) },
            removals: views.map { _ in 0 })
    }

    /// A state change: `withAnimation`, `withTransaction`, or a plain assignment.
    func performSwiftUI(_ update: SwiftUIUpdate, path: String) throws(RuntimeError) {
        guard var runtime = swiftUI else {
            throw RuntimeError(path: path, message: "the scene has no SwiftUI views (its \"swiftui\" section)")
        }
        if let removal = update.removal {
            // A removed view's transition has ended: it goes, unless it came back since.
            guard !runtime.present[removal.view], runtime.removals[removal.view] == removal.number else { return }
            finishRemoval(removal.view, &runtime)
            swiftUI = runtime
            return
        }
        if let step = update.phase {
            // A phase animator's next phase, unless a newer play of it has begun.
            guard runtime.phasePlays[step.view * 1024 + step.modifier] == step.play,
                case .phaseAnimator(let animator) = runtime.views[step.view].view.modifiers[step.modifier]
            else { return }
            var channels = runtime.channels
            try stepPhase(step, animator, &runtime, &channels, path: path)
            runtime.channels = channels
            swiftUI = runtime
            return
        }
        var state = runtime.state
        var changed = Set<String>()
        for (name, value) in update.changes {
            guard let old = state[name] else {
                throw RuntimeError(path: path + ".\(name)", message: "no @State called \"\(name)\"")
            }
            if old != value { changed.insert(name) }
            state[name] = value
        }
        var channels = runtime.scene.channels(state, canvas: runtime.canvas)
        var created: [SwiftUIAnimation] = []
        for (viewIndex, entry) in runtime.views.enumerated() {
            let layer = runtime.layers[viewIndex]
            guard layer >= 0 else { continue }
            // What a keyframe animator drives changes only when it plays.
            let driven = Set(
                entry.view.modifiers.flatMap { modifier -> [KeyPath] in
                    switch modifier {
                    case .keyframeAnimator(let animator): animator.tracks.flatMap(\.property.keyPaths)
                    case .phaseAnimator(let animator): animator.properties.flatMap(\.keyPaths)
                    default: []
                    }
                })
            for index in channels[viewIndex].indices where driven.contains(channels[viewIndex][index].keyPath) {
                channels[viewIndex][index].value =
                    runtime.channels[viewIndex].first { $0.keyPath == channels[viewIndex][index].keyPath }?.value
                    ?? channels[viewIndex][index].value
            }
            // An `if` that changes: the view is inserted or removed with its transition; its own
            // values do not animate while it is out.
            let wasPresent = runtime.present[viewIndex]
            let isPresent = entry.view.isPresent(state)
            if !wasPresent || !isPresent {
                if isPresent || !wasPresent {
                    for channel in channels[viewIndex] where !driven.contains(channel.keyPath) {
                        setSwiftUIModel(channel.keyPath, channel.value, on: layer)
                    }
                } else {
                    channels[viewIndex] = runtime.channels[viewIndex]
                }
                continue
            }
            for channel in channels[viewIndex] where !driven.contains(channel.keyPath) {
                let old = runtime.channels[viewIndex].first { $0.keyPath == channel.keyPath }?.value
                guard let old, old != channel.value else { continue }
                let animation = resolveAnimation(
                    runtime, view: viewIndex, slot: channel.slot, changed: changed, update: update)
                let key = SwiftUIRuntime.LayerKeyPath(layer: layer, keyPath: channel.keyPath)
                setSwiftUIModel(channel.keyPath, channel.value, on: layer)
                var running = runtime.running[key] ?? []
                guard let animation else {
                    // At once: the value's animations are removed.
                    // SwiftUI jumps: what was asked, not a snap-back.
                    for item in running { detach(item.animation, finished: false, checkingSnapBack: false) }
                    runtime.running[key] = nil
                    continue
                }
                running.removeAll { timeline.animations[$0.animation].removedAt != .infinity }
                let added = try animateSwiftUI(
                    channel.keyPath, from: old, to: channel.value, layer: layer, animation: animation,
                    running: &running, name: "\(entry.view.id).\(channel.keyPath)", path: path)
                runtime.running[key] = running
                if added { created.append(animation) }
            }
        }
        // Insertions and removals, with their transitions (and a matched view's geometry).
        let inserted = runtime.views.indices.filter { !runtime.present[$0] && runtime.views[$0].view.isPresent(state) }
        let removed = runtime.views.indices.filter { runtime.present[$0] && !runtime.views[$0].view.isPresent(state) }
        for view in removed {
            let animation = resolveAnimation(runtime, view: view, slot: -1, changed: changed, update: update)
            let partner = inserted.first { matched(runtime, view, $0) }
            try remove(view, animation: animation, partner: partner, &runtime, channels, path: path)
            if let animation { created.append(animation) }
        }
        for view in inserted {
            let animation = resolveAnimation(runtime, view: view, slot: -1, changed: changed, update: update)
            let partner = removed.first { matched(runtime, view, $0) }
            try insert(view, animation: animation, partner: partner, &runtime, channels, path: path)
            if let animation { created.append(animation) }
        }
        // Keyframe animators whose trigger changed play from what they show now; repeating ones
        // start with the first update (the one the scene makes at 0 s). Phase animators the same.
        for (viewIndex, entry) in runtime.views.enumerated() where runtime.layers[viewIndex] >= 0 {
            for (position, modifier) in entry.view.modifiers.enumerated() {
                switch modifier {
                case .keyframeAnimator(let animator):
                    let plays =
                        animator.repeating ? !runtime.loopsStarted : animator.trigger.map(changed.contains) ?? false
                    if plays { try playKeyframes(animator, view: viewIndex, &runtime, &channels, path: path) }
                case .phaseAnimator(let animator):
                    guard animator.phases.count > 1 else { continue }
                    let continuous = animator.trigger == nil
                    guard continuous ? !runtime.loopsStarted : changed.contains(animator.trigger!) else { continue }
                    let key = viewIndex * 1024 + position
                    runtime.nextPlay += 1
                    runtime.phasePlays[key] = runtime.nextPlay
                    let step = SwiftUIPhaseStep(
                        view: viewIndex, modifier: position, phase: 1,
                        remaining: continuous ? nil : animator.phases.count - 1, play: runtime.nextPlay)
                    try stepPhase(step, animator, &runtime, &channels, path: path)
                default:
                    continue
                }
            }
        }
        runtime.loopsStarted = true
        runtime.state = state
        runtime.channels = channels
        swiftUI = runtime
        if let completion = update.completion {
            scheduleSwiftUICompletion(
                completion, name: update.name, criteria: update.criteria, created: created, path: path)
        }
    }

    /// The animation a value's change takes: the `.animation(_:value:)` nearest to it that
    /// watches a state that changed (the view's own after the modifier, then its ancestors',
    /// inner first), unless the transaction disables them; otherwise the transaction's.
    func resolveAnimation(
        _ runtime: SwiftUIRuntime, view: Int, slot: Int, changed: Set<String>, update: SwiftUIUpdate
    ) -> SwiftUIAnimation? {
        guard !update.disablesAnimations else { return update.animation }
        var current: Int? = view
        var from = slot
        while let index = current {
            let modifiers = runtime.views[index].view.modifiers
            for position in modifiers.indices where position > from {
                if case .animation(let animation, let value) = modifiers[position],
                    value.map({ changed.contains($0) }) ?? true
                {
                    return animation
                }
            }
            current = runtime.views[index].parent
            from = -1
        }
        return update.animation
    }

    /// Adds the Core Animation animation that draws one change of a value; false when nothing
    /// moves (a change back to where a spring is now).
    func animateSwiftUI(
        _ keyPath: KeyPath, from old: Value, to new: Value, layer: Int, animation: SwiftUIAnimation,
        running: inout [SwiftUIRuntime.Running], name: String, path: String
    ) throws(RuntimeError) -> Bool {
        var fromValue = Value.offset(showing: old, over: new)
        var offset = 0.0
        var velocity = 0.0
        var replaced: SwiftUIRuntime.Running?
        if case .number(let jump) = fromValue {
            offset = jump
            if case .spring = animation, let index = running.lastIndex(where: \.contribution.merges) {
                // The new spring takes over from the one running: its offset and velocity now.
                let now = running[index].contribution.remaining(at: self.now)
                offset += now.offset
                velocity = now.velocity
                replaced = running.remove(at: index)
            }
            fromValue = .number(offset)
            if offset == 0 && velocity == 0 { return false }
        }
        let contribution = SwiftUIValueTrack.Contribution(
            start: now, offset: offset, velocity: velocity, animation: animation)
        guard var made = Self.coreAnimation(animation, keyPath: keyPath, from: fromValue, contribution: contribution)
        else { return false }
        made.key = freeKey("swiftui.\(name)", layer: layer)
        try attach(made, to: layer, path: path, byUIKit: true)
        let index = timeline.animations.count - 1
        if let replaced {
            // The completions waiting for the replaced spring now wait for the one that goes on.
            for group in loop.groupsOfAnimation[replaced.animation] ?? [] { register(index, in: group) }
            detach(replaced.animation, finished: false, checkingSnapBack: false)
        }
        running.append(SwiftUIRuntime.Running(animation: index, contribution: contribution))
        return true
    }

    /// The value's layer model, set without an animation.
    func setSwiftUIModel(_ keyPath: KeyPath, _ value: Value, on layer: Int) {
        let model = timeline.layers[layer].modelValue(keyPath.property, at: now)
        setModel(keyPath.property, keyPath.insert(value, into: model), on: layer)
    }

    /// SwiftUI's animation as Core Animation's: an additive `CABasicAnimation` (a
    /// `CASpringAnimation` for springs) from the offset to 0, with the delay as `beginTime`
    /// (showing the offset before it starts: `fillMode` backwards), speeds multiplied, a repeat
    /// as `repeatCount` (`autoreverses` counting two plays a repeat); a delay inside a repeat
    /// makes a group, so each play waits for it.
    static func coreAnimation(
        _ animation: SwiftUIAnimation, keyPath: KeyPath, from: Value, contribution: SwiftUIValueTrack.Contribution
    ) -> Animation? {
        var speed = 1.0
        var delay = 0.0
        var node = animation
        var repeats: (count: Int?, autoreverses: Bool)?
        var innerSpeed = 1.0
        var innerDelay = 0.0
        walk: while true {
            switch node {
            case .sped(let s, let inner):
                if repeats == nil { speed *= s } else { innerSpeed *= s }
                node = inner
            case .delayed(let d, let inner):
                if repeats == nil { delay += d / speed } else { innerDelay += d / innerSpeed }
                node = inner
            case .repeated(let count, let autoreverses, let inner):
                // A repeat of a repeat plays the inner one as a whole (choreo reads the outer).
                if repeats == nil { repeats = (count, autoreverses) }
                node = inner
            default:
                break walk
            }
        }
        var duration: Double
        var timingFunction: TimingFunction = .linear
        var spring: Spring?
        switch node {
        case .curve(let function, let seconds):
            duration = seconds
            timingFunction = function
        case .spring(let s, _), .interpolatingSpring(let s, _):
            var fraction = 0.0
            if node == animation {
                // On its own: from the offset (and a replaced spring's velocity) to rest.
                duration = contribution.settled
                if case .number(let offset) = from, offset != 0 { fraction = -contribution.initial / offset }
            } else {
                // Delayed, sped or repeated: its progress, 0 to 1, as SwiftUIAnimation plays it.
                duration = node.removedAfter
                if case .interpolatingSpring(_, let unitVelocity) = node { fraction = unitVelocity }
            }
            spring = Spring(
                mass: s.mass, stiffness: s.stiffness, damping: s.damping, initialVelocity: fraction,
                allowsOverdamping: true)
        default:
            return nil
        }
        // An undamped spring (bounce 1, damping 0) never settles: it runs as long as a scene can.
        if duration == .infinity { duration = Limits.maxSceneTime }
        guard duration.isFinite, duration > 0 else { return nil }
        var leaf = Animation(
            content: .basic(
                PropertyAnimation(keyPath: keyPath, additive: true), BasicValues(from: from, to: from.kind.zero),
                spring: spring))
        leaf.timingFunction = timingFunction
        leaf.timing.duration = duration
        leaf.timing.fillMode = .backwards
        guard let repeats else {
            leaf.timing.speed = speed
            leaf.delay = delay
            return leaf
        }
        var count = repeats.count.map(Double.init) ?? .infinity
        if repeats.autoreverses { count /= 2 }
        guard innerDelay > 0 else {
            leaf.timing.speed = speed * innerSpeed
            leaf.delay = delay
            leaf.timing.repeatCount = count
            leaf.timing.autoreverses = repeats.autoreverses
            return leaf
        }
        // Each play waits for its delay: a group of one play, repeated.
        leaf.timing.speed = innerSpeed
        leaf.timing.beginTime = innerDelay
        var group = Animation(content: .group([leaf]))
        group.timing.duration = innerDelay + duration / innerSpeed
        group.timing.speed = speed
        group.timing.repeatCount = count
        group.timing.autoreverses = repeats.autoreverses
        group.timing.fillMode = .backwards
        group.delay = delay
        return group
    }

    /// `withAnimation`'s completion: once every animation the change made reaches the
    /// criterion (``SwiftUIAnimation/completion(_:)``), at once when it made none, never when
    /// one repeats for ever.
    func scheduleSwiftUICompletion(
        _ actions: [ScriptAction], name: String?, criteria: SwiftUIAnimation.CompletionCriteria,
        created: [SwiftUIAnimation], path: String
    ) {
        var latest = 0.0
        for animation in created {
            guard let time = animation.completion(criteria) else {
                diagnose(.completionNeverRuns(time: now, name: name))
                return
            }
            latest = max(latest, time)
        }
        loop.completionGroups.append(
            CompletionGroup(kind: .swiftUI, name: name, actions: actions, path: path + ".completion"))
        let group = loop.completionGroups.count - 1
        loop.completionGroups[group].closed = true
        loop.completionGroups[group].fired = true
        loop.nextSequence += 1
        loop.queue.push(
            .init(
                time: SceneTime.quantize(now + latest), subject: group, kind: .completion, generation: 0,
                sequence: loop.nextSequence))
    }

    // MARK: Keyframe animators

    /// One play of a keyframe animator: each track from the value shown now (a repeating one
    /// from its initial value, looping), the model at the value it ends at (a loop's: where it
    /// starts), a running play of the same value replaced.
    func playKeyframes(
        _ animator: SwiftUIKeyframeAnimator, view: Int, _ runtime: inout SwiftUIRuntime,
        _ channels: inout [[SwiftUIScene.Channel]], path: String
    ) throws(RuntimeError) {
        let layer = runtime.layers[view]
        for track in animator.tracks {
            let keyframes = track.keyframes.map { Self.scaled($0, track.property.layerValue(1)) }
            for keyPath in track.property.keyPaths {
                let key = SwiftUIRuntime.LayerKeyPath(layer: layer, keyPath: keyPath)
                var start = track.property.layerValue(track.initial)
                if !animator.repeating, case .number(let shown) = presentation(layer, keyPath, at: now) {
                    start = shown
                }
                if let playing = runtime.keyframePlays[key] {
                    detach(playing, finished: false, checkingSnapBack: false)
                }
                let played = SwiftUIKeyframeTrack(initial: start, keyframes)
                let model = animator.repeating ? start : played.value(at: played.duration)
                setSwiftUIModel(keyPath, .number(model), on: layer)
                if let index = channels[view].firstIndex(where: { $0.keyPath == keyPath }) {
                    channels[view][index].value = .number(model)
                }
                guard var made = Self.keyframeAnimation(played, keyPath: keyPath, model: model) else { continue }
                if animator.repeating { made.timing.repeatCount = .infinity }
                made.key = freeKey("swiftui.\(runtime.views[view].view.id).keyframes.\(keyPath)", layer: layer)
                try attach(made, to: layer, path: path, byUIKit: true)
                runtime.keyframePlays[key] = timeline.animations.count - 1
            }
        }
    }

    /// A keyframe in the layer's units (a rotation's degrees as radians).
    static func scaled(_ keyframe: SwiftUIKeyframeTrack.Keyframe, _ k: Double) -> SwiftUIKeyframeTrack.Keyframe {
        guard k != 1 else { return keyframe }
        switch keyframe {
        case .linear(let v, let d, let curve): return .linear(v * k, duration: d, curve: curve)
        case .spring(let v, let d, let spring, let velocity):
            return .spring(v * k, duration: d, spring: spring, startVelocity: velocity.map { $0 * k })
        case .cubic(let v, let d, let start, let end):
            return .cubic(v * k, duration: d, startVelocity: start.map { $0 * k }, endVelocity: end.map { $0 * k })
        case .move(let v): return .move(v * k)
        }
    }

    /// A play of a keyframe track as Core Animation's: a group as long as the track, of
    /// additive animations that add up to the track's value over the model — the start's
    /// offset from the model for the whole play, then each keyframe's change from where the one
    /// before it ended, held once done: a linear keyframe a `CABasicAnimation` with its curve; a
    /// spring keyframe a `CASpringAnimation` towards its value from the motion's velocity, cut at
    /// its duration; a cubic keyframe a `CABasicAnimation` whose timing function is the Hermite
    /// curve itself (control points at a third and two thirds of the time, so time runs
    /// linearly and the value follows the cubic; one that ends where it began, as two such
    /// moves); a move a constant from its time on.
    static func keyframeAnimation(_ track: SwiftUIKeyframeTrack, keyPath: KeyPath, model: Double) -> Animation? {
        let total = track.duration
        guard total > 0 else { return nil }
        func additive(_ from: Double, _ to: Double, begin: Double, duration: Double, spring: Spring? = nil) -> Animation
        {
            var child = Animation(
                content: .basic(
                    PropertyAnimation(keyPath: keyPath, additive: true),
                    BasicValues(from: .number(from), to: .number(to)),
                    spring: spring))
            child.timing.beginTime = begin
            child.timing.duration = duration
            child.timing.fillMode = .forwards
            return child
        }
        var children: [Animation] = []
        if track.initial != model {
            children.append(additive(track.initial - model, track.initial - model, begin: 0, duration: total))
        }
        let velocities = track.velocities
        var start = 0.0
        var value = track.initial
        var velocity = 0.0
        for (index, keyframe) in track.keyframes.enumerated() {
            let duration = keyframe.duration
            switch keyframe {
            case .move(let target):
                if target != value && total > start {
                    children.append(additive(target - value, target - value, begin: start, duration: total - start))
                }
            case .linear(let target, _, let curve):
                if duration > 0 {
                    var child = additive(0, target - value, begin: start, duration: duration)
                    child.timingFunction = curve
                    children.append(child)
                } else if target != value, total > start {
                    children.append(additive(target - value, target - value, begin: start, duration: total - start))
                }
            case .spring(let target, _, let spring, let startVelocity):
                let distance = target - value
                let v0 = startVelocity ?? velocity
                if duration > 0 && (distance != 0 || v0 != 0) {
                    // A velocity with nowhere to go cannot be a fraction of the distance: the
                    // spring then starts from rest (a documented approximation).
                    let fraction = distance != 0 ? v0 / distance : 0
                    children.append(
                        additive(
                            0, distance, begin: start, duration: duration,
                            spring: Spring(
                                mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
                                initialVelocity: fraction, allowsOverdamping: true)))
                }
            case .cubic(let target, _, let startVelocity, let endVelocity):
                let change = target - value
                let m0 = startVelocity ?? velocities[index]
                let m1 = endVelocity ?? velocities[index + 1]
                if duration > 0 && change != 0 {
                    var child = additive(0, change, begin: start, duration: duration)
                    child.timingFunction = .bezier(
                        UnitBezier(1.0 / 3, m0 * duration / (3 * change), 2.0 / 3, 1 - m1 * duration / (3 * change)))
                    children.append(child)
                } else if duration > 0 && (m0 != 0 || m1 != 0) {
                    // Out and back to the same value: no change for a timing curve to scale. The
                    // loop f(s) is written as s − (s − f(s)): a linear move of one unit, less a
                    // move of one unit along the cubic s − f(s), which does start at 0 and end
                    // at 1.
                    children.append(additive(0, 1, begin: start, duration: duration))
                    var back = additive(0, -1, begin: start, duration: duration)
                    back.timingFunction = .bezier(
                        UnitBezier(1.0 / 3, (1 - m0 * duration) / 3, 2.0 / 3, 1 - (1 - m1 * duration) / 3))
                    children.append(back)
                }
            }
            if duration > 0 {
                (value, velocity) = track.state(at: start + duration)
            } else {
                (value, velocity) = (keyframe.target, 0)
            }
            start += duration
        }
        guard !children.isEmpty else { return nil }
        var group = Animation(content: .group(children))
        group.timing.duration = total
        return group
    }

    // MARK: Phase animators

    /// A phase animator goes to a phase: each value it drives animates there with the phase's
    /// animation (springs take over from the step before, as any spring does), and the next
    /// step comes when this one is logically complete.
    func stepPhase(
        _ step: SwiftUIPhaseStep, _ animator: SwiftUIPhaseAnimator, _ runtime: inout SwiftUIRuntime,
        _ channels: inout [[SwiftUIScene.Channel]], path: String
    ) throws(RuntimeError) {
        let layer = runtime.layers[step.view]
        let phase = animator.phases[step.phase]
        let animation = animator.animations[step.phase]
        for (property, target) in phase {
            for keyPath in property.keyPaths {
                guard let index = channels[step.view].firstIndex(where: { $0.keyPath == keyPath }) else { continue }
                let old = channels[step.view][index].value
                let new = Value.number(property.layerValue(target))
                guard old != new else { continue }
                channels[step.view][index].value = new
                setSwiftUIModel(keyPath, new, on: layer)
                let key = SwiftUIRuntime.LayerKeyPath(layer: layer, keyPath: keyPath)
                var running = runtime.running[key] ?? []
                running.removeAll { timeline.animations[$0.animation].removedAt != .infinity }
                guard let animation else {
                    for item in running { detach(item.animation, finished: false, checkingSnapBack: false) }
                    runtime.running[key] = nil
                    continue
                }
                _ = try animateSwiftUI(
                    keyPath, from: old, to: new, layer: layer, animation: animation, running: &running,
                    name: "\(runtime.views[step.view].view.id).phases.\(keyPath)", path: path)
                runtime.running[key] = running
            }
        }
        guard step.remaining != 0 else { return }
        let seconds = animation.map { $0.completion(.logicallyComplete) ?? .infinity } ?? 0
        // A phase whose animation never completes ends the cycle; so does a cycle that takes no
        // time (every phase at once), which would step for ever at one instant.
        let cycle = animator.animations.reduce(0.0) { $0 + ($1.map { $0.completion(.logicallyComplete) ?? 0 } ?? 0) }
        guard seconds.isFinite, cycle > 0 || step.remaining != nil else { return }
        var next = step
        next.phase = (step.phase + 1) % animator.phases.count
        next.remaining = step.remaining.map { $0 - 1 }
        var update = SwiftUIUpdate(changes: [])
        update.phase = next
        // The steps' path names the animator, not the step before: a cycle's steps do not
        // lengthen it.
        let stepPath = "$.swiftui.\(runtime.views[step.view].view.id).phaseAnimator"
        schedule(
            deferred: DeferredTurn(actions: [.swiftUI(update)], finished: nil, path: stepPath),
            at: SceneTime.quantize(now + seconds))
    }

    // MARK: Insertion and removal

    /// Whether two views share a `matchedGeometryEffect` id.
    func matched(_ runtime: SwiftUIRuntime, _ a: Int, _ b: Int) -> Bool {
        guard let id = runtime.views[a].view.matchedGeometryID else { return false }
        return runtime.views[b].view.matchedGeometryID == id
    }

    /// A view's values with its transition's removed state: faded, scaled, moved.
    func removedState(_ runtime: SwiftUIRuntime, _ view: Int, _ values: [SwiftUIScene.Channel], inserting: Bool)
        -> [KeyPath: Value]
    {
        func number(_ keyPath: KeyPath) -> Double {
            if case .number(let n)? = values.first(where: { $0.keyPath == keyPath })?.value { return n }
            return 0
        }
        let size = (number(KeyPath(.bounds, .sizeWidth)), number(KeyPath(.bounds, .sizeHeight)))
        let effect = runtime.views[view].view.transition.effect(inserting: inserting, size: size)
        return [
            KeyPath(.opacity): .number(number(KeyPath(.opacity)) * effect.opacity),
            KeyPath(.transform, .scaleX): .number(number(KeyPath(.transform, .scaleX)) * effect.scale),
            KeyPath(.transform, .scaleY): .number(number(KeyPath(.transform, .scaleY)) * effect.scale),
            KeyPath(.transform, .translationX): .number(number(KeyPath(.transform, .translationX)) + effect.x),
            KeyPath(.transform, .translationY): .number(number(KeyPath(.transform, .translationY)) + effect.y),
        ]
    }

    /// Where a view is and how large, in the space of `other`'s parent (the parents' own
    /// effects left out): its centre and size.
    func geometry(_ runtime: SwiftUIRuntime, _ view: Int, _ channels: [[SwiftUIScene.Channel]], in other: Int)
        -> (x: Double, y: Double, width: Double, height: Double)
    {
        func number(_ v: Int, _ keyPath: KeyPath) -> Double {
            if case .number(let n)? = channels[v].first(where: { $0.keyPath == keyPath })?.value { return n }
            return 0
        }
        // A view's centre in the canvas: its position plus its parents' top-left corners.
        func absolute(_ v: Int) -> (Double, Double) {
            var x = number(v, KeyPath(.position, .x))
            var y = number(v, KeyPath(.position, .y))
            var parent = runtime.views[v].parent
            while let p = parent {
                x += number(p, KeyPath(.position, .x)) - number(p, KeyPath(.bounds, .sizeWidth)) / 2
                y += number(p, KeyPath(.position, .y)) - number(p, KeyPath(.bounds, .sizeHeight)) / 2
                parent = runtime.views[p].parent
            }
            return (x, y)
        }
        let (x, y) = absolute(view)
        var origin = (0.0, 0.0)
        if let parent = runtime.views[other].parent {
            let centre = absolute(parent)
            origin = (
                centre.0 - number(parent, KeyPath(.bounds, .sizeWidth)) / 2,
                centre.1 - number(parent, KeyPath(.bounds, .sizeHeight)) / 2
            )
        }
        return (
            x - origin.0, y - origin.1, number(view, KeyPath(.bounds, .sizeWidth)),
            number(view, KeyPath(.bounds, .sizeHeight))
        )
    }

    /// The key paths of a view's place and size, with the values of a geometry.
    static func frameValues(_ g: (x: Double, y: Double, width: Double, height: Double)) -> [KeyPath: Value] {
        [
            KeyPath(.position, .x): .number(g.x), KeyPath(.position, .y): .number(g.y),
            KeyPath(.bounds, .sizeWidth): .number(g.width), KeyPath(.bounds, .sizeHeight): .number(g.height),
        ]
    }

    /// Animates a view's values from `from` to what `to` gives (the model set to `to`).
    func animateValues(
        _ view: Int, from: [KeyPath: Value], to: [KeyPath: Value], animation: SwiftUIAnimation,
        _ runtime: inout SwiftUIRuntime, path: String
    ) throws(RuntimeError) {
        let layer = runtime.layers[view]
        for (keyPath, target) in to.sorted(by: { $0.key.description < $1.key.description }) {
            guard let start = from[keyPath], start != target else { continue }
            setSwiftUIModel(keyPath, target, on: layer)
            let key = SwiftUIRuntime.LayerKeyPath(layer: layer, keyPath: keyPath)
            var running = runtime.running[key] ?? []
            running.removeAll { timeline.animations[$0.animation].removedAt != .infinity }
            _ = try animateSwiftUI(
                keyPath, from: start, to: target, layer: layer, animation: animation, running: &running,
                name: "\(runtime.views[view].view.id).transition.\(keyPath)", path: path)
            runtime.running[key] = running
        }
    }

    /// An `if` inserts a view: shown, from its transition's removed state (and a matched
    /// view's place and size) to itself.
    func insert(
        _ view: Int, animation: SwiftUIAnimation?, partner: Int?, _ runtime: inout SwiftUIRuntime,
        _ channels: [[SwiftUIScene.Channel]], path: String
    ) throws(RuntimeError) {
        let layer = runtime.layers[view]
        runtime.present[view] = true
        runtime.removals[view] += 1
        setModel(.hidden, .bool(false), on: layer)
        let normal = Dictionary(channels[view].map { ($0.keyPath, $0.value) }, uniquingKeysWith: { $1 })
        guard let animation else { return }
        var from = removedState(runtime, view, channels[view], inserting: true)
        var to = normal.filter { from[$0.key] != nil }
        if let partner {
            from.merge(Self.frameValues(geometry(runtime, partner, channels, in: view))) { $1 }
            to.merge(normal.filter { Self.frameValues((0, 0, 0, 0))[$0.key] != nil }) { $1 }
        }
        try animateValues(view, from: from, to: to, animation: animation, &runtime, path: path)
    }

    /// An `if` removes a view: it animates to its transition's removed state (and a matched
    /// view's place and size), and goes when that animation is removed; at once without one.
    func remove(
        _ view: Int, animation: SwiftUIAnimation?, partner: Int?, _ runtime: inout SwiftUIRuntime,
        _ channels: [[SwiftUIScene.Channel]], path: String
    ) throws(RuntimeError) {
        runtime.present[view] = false
        runtime.removals[view] += 1
        guard let animation, let seconds = animation.completion(.removed) else {
            finishRemoval(view, &runtime)
            return
        }
        let current = runtime.channels[view]
        let normal = Dictionary(current.map { ($0.keyPath, $0.value) }, uniquingKeysWith: { $1 })
        var to = removedState(runtime, view, current, inserting: false)
        if let partner { to.merge(Self.frameValues(geometry(runtime, partner, channels, in: view))) { $1 } }
        try animateValues(view, from: normal, to: to, animation: animation, &runtime, path: path)
        var update = SwiftUIUpdate(changes: [])
        update.removal = SwiftUIRemoval(view: view, number: runtime.removals[view])
        schedule(
            deferred: DeferredTurn(actions: [.swiftUI(update)], finished: nil, path: path),
            at: SceneTime.quantize(now + seconds))
    }

    /// A removed view goes: hidden, its animations removed, its values back to its own for
    /// when it comes back.
    func finishRemoval(_ view: Int, _ runtime: inout SwiftUIRuntime) {
        let layer = runtime.layers[view]
        setModel(.hidden, .bool(true), on: layer)
        for channel in runtime.channels[view] {
            let key = SwiftUIRuntime.LayerKeyPath(layer: layer, keyPath: channel.keyPath)
            for item in runtime.running[key] ?? [] { detach(item.animation, finished: true, checkingSnapBack: false) }
            runtime.running[key] = nil
            setSwiftUIModel(channel.keyPath, channel.value, on: layer)
        }
    }
}
