import Glibc

/// `UIViewPropertyAnimator`: its states, its clock, its animations and completions.
///
/// An animator's animations are UIKit's: its blocks set the model at once and add additive
/// animations from (old − new) to zero (docs/semantics.md, decision 15), linear in the
/// animator's clock, whose local time the animator's curve paces (``ClockSegment``). Pausing,
/// scrubbing, reversing and continuing only change the clock.
extension RunnerState {
    typealias AnimatorState = InteractiveState.AnimatorState

    func animator(_ id: String, path: String) throws(RuntimeError) -> Int {
        guard let index = interactive.animatorIndex[id] else {
            throw RuntimeError(path: path, message: "no property animator has the id \"\(id)\" at this time")
        }
        return index
    }

    /// A new clock, held at 0, owned by `owner`.
    func newClock(_ owner: InteractiveState.ClockOwner) -> Int {
        timeline.clocks.append(History(initial: .paused(at: 0, fraction: 0, since: now)))
        interactive.clockOwners.append(owner)
        return timeline.clocks.count - 1
    }

    /// `UIViewPropertyAnimator(duration:…animations:)`; `start` makes it a running one.
    func createAnimator(_ spec: PropertyAnimatorSpec, path: String) throws(RuntimeError) {
        guard interactive.animatorIndex[spec.id] == nil else {
            throw RuntimeError(path: path + ".id", message: "an animator with the id \"\(spec.id)\" already exists")
        }
        let index = interactive.animators.count
        let clock = newClock(.animator(index))
        var record = InteractiveState.AnimatorRecord(spec: spec, clock: clock, path: path)
        record.pending = [(spec.changes, 0, path + ".changes")]
        record.completions = [(spec.completion, path + ".completion")]
        record.transition = interactive.beginning
        interactive.animators.append(record)
        interactive.animatorIndex[spec.id] = index
        timeline.animators.append(
            Timeline.AnimatorTrack(
                id: spec.id, clock: clock,
                status: History(initial: Timeline.AnimatorStatus(state: "inactive", running: false, isReversed: false)))
        )
        if let transition = interactive.beginning { interactive.transitions[transition].animators.append(index) }
        if spec.start { try callAnimator(index, .start(afterDelay: spec.delay), path: path) }
    }

    /// The animator's curve for its clock: a cubic's own; springs pace the clock linearly and
    /// spring their animations instead.
    private func clockCurve(_ timing: AnimatorTiming) -> TimingFunction {
        if case .cubic(let function) = timing { return function }
        return .linear
    }

    /// One call, as UIKit takes it; the calls UIKit raises on are errors naming the action.
    func callAnimator(_ index: Int, _ call: AnimatorCall, path: String) throws(RuntimeError) {
        let record = interactive.animators[index]
        let id = record.spec.id
        func refuse(_ what: String) -> RuntimeError {
            RuntimeError(
                path: path, message: "\(what) on the \(record.state.rawValue) animator \"\(id)\": UIKit raises")
        }
        switch call {
        case .start(let delay):
            guard record.state != .stopped else { throw refuse("startAnimation") }
            if record.state == .inactive { try activate(index) }
            guard !interactive.animators[index].running else { return }
            run(index, from: now + delay)
        case .pause:
            guard record.state != .stopped else { throw refuse("pauseAnimation") }
            if record.state == .inactive { try activate(index) }
            if interactive.animators[index].running { freeze(index) }
        case .stop(let withoutFinishing):
            guard record.state != .stopped else { throw refuse("stopAnimation") }
            guard record.state == .active else { return }
            freeze(index)
            if withoutFinishing {
                // The model takes what is on screen; no completion runs.
                settleModel(index, at: .current)
                detachAnimations(index, finished: false)
                interactive.animators[index].state = .inactive
            } else {
                interactive.animators[index].state = .stopped
            }
        case .finish(let position):
            guard record.state == .stopped else {
                throw RuntimeError(
                    path: path,
                    message:
                        "finishAnimation(at:) needs a stopped animator (stopAnimation(false) first); \"\(id)\" is \(record.state.rawValue): UIKit raises"
                )
            }
            complete(index, at: position, finished: position == .end)
        case .fractionComplete(let given):
            guard record.state != .stopped, !record.running else {
                throw RuntimeError(
                    path: path,
                    message: "fractionComplete can be set only while \"\(id)\" is paused or inactive: UIKit raises")
            }
            if record.state == .inactive { try activate(index) }
            let fraction = min(max(given, 0), 1)
            let duration = record.spec.duration
            // Linearly in the value, or through the curve (scrubsLinearly false).
            let local =
                record.spec.scrubsLinearly
                ? fraction * duration : clockCurve(record.spec.timing).evaluate(fraction) * duration
            timeline.clocks[record.clock].set(.paused(at: local, fraction: fraction, since: now), at: now)
            interactive.animators[index].generation += 1
        case .reversed(let flag):
            guard record.state != .stopped else { throw refuse("isReversed") }
            guard flag != record.reversed else { return }
            interactive.animators[index].reversed = flag
            // A running animator turns round where it is.
            if record.running { run(index, from: now) }
        case .continueAnimation(let timing, let factor):
            guard record.state == .active, !record.running else {
                throw RuntimeError(
                    path: path, message: "continueAnimation needs a paused animator; \"\(id)\" is not: UIKit raises")
            }
            var curve: TimingFunction?
            if let timing {
                guard case .cubic(let function) = timing else {
                    throw RuntimeError(
                        path: path + ".continueAnimation.timingParameters",
                        message: "continueAnimation takes cubic timing parameters (a curve or control points)")
                }
                curve = function
            }
            run(index, from: now, curve: curve, durationFactor: factor == 0 ? 1 : factor)
        case .addAnimations(let changes, let delayFactor):
            guard record.state != .stopped else { throw refuse("addAnimations") }
            if record.state == .inactive {
                interactive.animators[index].pending.append((changes, delayFactor, path + ".addAnimations.changes"))
                return
            }
            // Over the time that remains, after delayFactor · duration (rule 2 of the contract).
            let segment = timeline.clocks[record.clock].last
            let fraction = segment.fraction(at: now)
            let local = segment.local(at: now)
            let duration = record.spec.duration
            let share = fraction < 1 ? min(1, delayFactor / (1 - fraction)) : 1
            try runBlock(
                index, changes, begin: local + (duration - local) * share, path: path + ".addAnimations.changes")
        case .addCompletion(let actions):
            interactive.animators[index].completions.append((actions, path + ".addCompletion"))
        }
        updateStatus(index)
    }

    /// The animator becomes active: its pending blocks run.
    private func activate(_ index: Int) throws(RuntimeError) {
        interactive.animators[index].state = .active
        let pending = interactive.animators[index].pending
        interactive.animators[index].pending = []
        let duration = interactive.animators[index].spec.duration
        for block in pending {
            try runBlock(index, block.changes, begin: min(max(block.delayFactor, 0), 1) * duration, path: block.path)
        }
    }

    /// Runs an animations block on the animator's clock: from local time `begin` to its end.
    private func runBlock(_ index: Int, _ changes: [LayerChanges], begin: Double, path: String) throws(RuntimeError) {
        let record = interactive.animators[index]
        var block = ViewAnimation(duration: max(record.spec.duration - begin, 0))
        block.options.curve = .linear
        block.reportsCompletion = false
        switch record.spec.timing {
        case .cubic: break
        case .springRatio(let ratio, let velocity):
            block.spring = ViewSpring(dampingRatio: ratio, initialVelocity: velocity)
        case .spring(let spring):
            block.physics = spring
        }
        // What each change sets, before and after, for finishing at the start or reversing.
        var captured: [(layer: Int, property: LayerProperty, from: Value, to: Value)] = []
        var expanded: [LayerChanges] = []
        for change in changes {
            let layer = try self.layer(change.layer, path: "\(path).\(change.layer)")
            let items = expandingFrames(change.changes, layer: layer)
            expanded.append(LayerChanges(layer: change.layer, changes: items))
            for case .property(let property, let value) in items where property.isAnimatable {
                captured.append((layer, property, timeline.layers[layer].modelValue(property, at: now), value))
            }
        }
        block.changes = expanded
        let first = timeline.animations.count
        let saved = interactive.clockContext
        interactive.clockContext = (record.clock, begin)
        defer { interactive.clockContext = saved }
        try performViewAnimation(block, path: path)
        interactive.animators[index].animations += (first..<timeline.animations.count).filter {
            timeline.animations[$0].clock == record.clock
        }
        interactive.animators[index].captured += captured
    }

    /// Runs from where the animator is to its end (its start when reversed), after `start`.
    /// Its own curve continues where it left off; `curve` paces the rest anew
    /// (`continueAnimation` with timing parameters). The remaining time is scaled by
    /// `durationFactor`.
    private func run(_ index: Int, from start: Double, curve: TimingFunction? = nil, durationFactor: Double = 1) {
        let record = interactive.animators[index]
        let segment = timeline.clocks[record.clock].last
        let fraction = segment.fraction(at: now)
        let local = segment.local(at: now)
        let duration = record.spec.duration
        let target = record.reversed ? 0.0 : duration
        let targetFraction = record.reversed ? 0.0 : 1.0
        let remaining = abs(targetFraction - fraction) * duration * durationFactor
        let next: ClockSegment
        if let curve {
            next = ClockSegment(
                start: start, from: local, to: target, duration: remaining, curve: curve, window: (0, 1),
                fractions: (fraction, targetFraction))
        } else {
            next = ClockSegment(
                start: start, from: local, to: target, duration: remaining, curve: clockCurve(record.spec.timing),
                window: (fraction, targetFraction))
        }
        timeline.clocks[record.clock].set(next, at: now)
        interactive.animators[index].running = true
        interactive.animators[index].generation += 1
        scheduleClockEnd(record.clock, at: next.end, generation: interactive.animators[index].generation)
    }

    func scheduleClockEnd(_ clock: Int, at time: Double, generation: Int) {
        loop.nextSequence += 1
        loop.queue.push(
            .init(
                time: SceneTime.quantize(max(time, now)), subject: clock, kind: .clockEnd, generation: generation,
                sequence: loop.nextSequence))
    }

    /// Holds the clock where it is now.
    func freeze(_ index: Int) {
        let clock = interactive.animators[index].clock
        let segment = timeline.clocks[clock].last
        timeline.clocks[clock].set(
            .paused(at: segment.local(at: now), fraction: segment.fraction(at: now), since: now), at: now)
        interactive.animators[index].running = false
        interactive.animators[index].generation += 1
    }

    /// The animator's clock reached its end, or its start when reversed.
    func animatorReachedEnd(_ index: Int) {
        let record = interactive.animators[index]
        freeze(index)
        if record.spec.pausesOnCompletion {
            // It stays active, paused at the end; no completion runs.
            updateStatus(index)
            return
        }
        complete(index, at: record.reversed ? .start : .end, finished: true)
        updateStatus(index)
    }

    /// Ends the animator at a position: the model takes that position's values, its animations
    /// go, it becomes inactive, and its completions run in a turn of their own.
    private func complete(_ index: Int, at position: AnimatingPosition, finished: Bool) {
        settleModel(index, at: position)
        detachAnimations(index, finished: finished)
        interactive.animators[index].state = .inactive
        interactive.animators[index].running = false
        updateStatus(index)
        let record = interactive.animators[index]
        timeline.events.append(Event(time: now, kind: .animatorCompleted(animator: record.spec.id, position: position)))
        for completion in record.completions where !completion.actions.isEmpty {
            schedule(
                deferred: DeferredTurn(
                    actions: completion.actions, finished: nil, path: completion.path, position: position),
                at: now)
        }
        noteChange(now)
    }

    /// The model values of a position: the blocks' new values (end: already the model's), their
    /// old ones (start), or what is on screen (current).
    private func settleModel(_ index: Int, at position: AnimatingPosition) {
        let captured = interactive.animators[index].captured
        switch position {
        case .end:
            // The blocks set the end values when they ran; later changes (another animator) stay.
            break
        case .start:
            for item in captured.reversed() { setModel(item.property, item.from, on: item.layer) }
        case .current:
            let shown = captured.map { presentation($0.layer, KeyPath($0.property), at: now) }
            for (item, value) in zip(captured, shown) { setModel(item.property, value, on: item.layer) }
        }
    }

    private func detachAnimations(_ index: Int, finished: Bool) {
        for animation in interactive.animators[index].animations
        where timeline.animations[animation].removedAt == .infinity {
            detach(animation, finished: finished)
        }
        interactive.animators[index].animations = []
    }

    /// Records the state, running and reversed flags when they change, with an event when the
    /// state or running changed.
    func updateStatus(_ index: Int) {
        let record = interactive.animators[index]
        let status = Timeline.AnimatorStatus(
            state: record.state.rawValue, running: record.running, isReversed: record.reversed)
        let previous = timeline.animators[index].status.last
        guard previous != status else { return }
        timeline.animators[index].status.set(status, at: now)
        if previous.state != status.state || previous.running != status.running {
            timeline.events.append(
                Event(
                    time: now,
                    kind: .animatorStateChanged(animator: record.spec.id, state: status.state, running: status.running))
            )
        }
    }

    /// A clock's running segment ended: its owner decides what that means.
    func clockEnded(_ clock: Int, generation: Int) throws(RuntimeError) {
        switch interactive.clockOwners[clock] {
        case .animator(let index):
            guard interactive.animators[index].generation == generation, interactive.animators[index].running else {
                return
            }
            animatorReachedEnd(index)
        case .transition(let index):
            guard interactive.transitions[index].generation == generation else { return }
            transitionClockEnded(index)
        }
    }

    /// What an `if` tests, from the turn's context.
    func holds(_ condition: ScriptCondition, path: String) throws(RuntimeError) -> Bool {
        switch condition {
        case .finished(let expected):
            guard let finished = loop.currentFinished else {
                throw RuntimeError(
                    path: path,
                    message: "\"finished\" is only known in a completion or onStop (and in `after` blocks inside them)")
            }
            return finished == expected
        case .position(let expected):
            guard let position = interactive.currentPosition else {
                throw RuntimeError(
                    path: path, message: "\"position\" is only known in a property animator's completion")
            }
            return position == expected
        case .transitionWasCancelled(let expected):
            guard let index = currentTransition() else {
                throw RuntimeError(path: path, message: "\"transitionWasCancelled\" needs a transition")
            }
            return interactive.transitions[index].wasCancelled == expected
        }
    }
}
