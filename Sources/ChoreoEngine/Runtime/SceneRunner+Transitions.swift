import Glibc

/// View-controller transitions (`UIViewControllerAnimatedTransitioning` with its context), the
/// percent-driven interaction that scrubs, finishes and cancels them, and the pan gesture that
/// drives it (seed 004).
extension RunnerState {
    func transition(_ id: String, path: String) throws(RuntimeError) -> Int {
        guard let index = interactive.transitionIndex[id] else {
            throw RuntimeError(path: path, message: "no transition has the id \"\(id)\" at this time")
        }
        return index
    }

    /// The transition `completeTransition` and `transitionWasCancelled` refer to: the latest
    /// begun and not completed, else the latest begun.
    func currentTransition() -> Int? {
        interactive.transitions.indices.last { !interactive.transitions[$0].completed }
            ?? (interactive.transitions.isEmpty ? nil : interactive.transitions.count - 1)
    }

    /// The transition begins: the appearance callbacks, then `animateTransition(using:)`.
    func beginTransition(_ spec: TransitionSpec, path: String) throws(RuntimeError) {
        guard interactive.transitionIndex[spec.id] == nil else {
            throw RuntimeError(path: path + ".id", message: "a transition with the id \"\(spec.id)\" already exists")
        }
        let from = try layer(spec.from, path: path + ".from")
        let to = try layer(spec.to, path: path + ".to")
        _ = try layer(spec.container, path: path + ".container")
        let index = interactive.transitions.count
        let clock = spec.interactive != nil ? newClock(.transition(index)) : -1
        timeline.transitions.append(
            Timeline.TransitionTrack(
                id: spec.id, clock: clock, duration: spec.duration, begunAt: now,
                phase: History(
                    initial: Timeline.TransitionPhase(
                        name: spec.interactive != nil ? "interactive" : "animating", completedPercent: nil))))
        var record = InteractiveState.TransitionRecord(spec: spec, clock: clock, track: timeline.transitions.count - 1)
        record.phase = spec.interactive != nil ? "interactive" : "animating"
        record.toWasPresent = tree.present[to]
        interactive.transitions.append(record)
        interactive.transitionIndex[spec.id] = index
        appearance(.viewWillDisappear, from, index)
        appearance(.viewWillAppear, to, index)
        // animateTransition(using:): its animations run on the interaction's clock, held at 0.
        let savedContext = interactive.clockContext
        let savedBeginning = interactive.beginning
        if clock >= 0 { interactive.clockContext = (clock, 0) }
        interactive.beginning = index
        defer {
            interactive.clockContext = savedContext
            interactive.beginning = savedBeginning
        }
        try performAll(spec.animateTransition, path: path + ".animateTransition")
        interactive.clockContext = savedContext
        interactive.beginning = savedBeginning
        if spec.interactive != nil {
            // The interaction owns its animators: they wait, paused at 0.
            for animator in interactive.transitions[index].animators
            where interactive.animators[animator].state != .stopped {
                try callAnimator(animator, .pause, path: path + ".animateTransition")
                try callAnimator(animator, .fractionComplete(0), path: path + ".animateTransition")
            }
        }
        checkToViewAdded(index)
    }

    private func appearance(_ kind: Event.Appearance, _ layer: Int, _ transition: Int) {
        timeline.events.append(
            Event(
                time: now,
                kind: .appearance(
                    kind, layer: timeline.layers[layer].id, transition: interactive.transitions[transition].spec.id)))
    }

    /// `update(_:)`, `finish()`, `cancel()`, `pause()` of `UIPercentDrivenInteractiveTransition`.
    func interact(_ index: Int, _ call: InteractionCall, path: String) throws(RuntimeError) {
        let record = interactive.transitions[index]
        guard let settings = record.spec.interactive, record.clock >= 0 else {
            throw RuntimeError(path: path, message: "the transition \"\(record.spec.id)\" is not interactive")
        }
        guard !record.completed else {
            throw RuntimeError(path: path, message: "the transition \"\(record.spec.id)\" has completed")
        }
        let clock = record.clock
        let duration = record.spec.duration
        let segment = timeline.clocks[clock].last
        let percent = duration > 0 ? min(max(segment.local(at: now) / duration, 0), 1) : 1
        switch call {
        case .update(let given):
            guard record.phase == "interactive" else {
                throw RuntimeError(
                    path: path, message: "update(_:) while the transition is \(record.phase): call pause() first")
            }
            let value = min(max(given, 0), 1)
            timeline.clocks[clock].set(.paused(at: value * duration, fraction: value, since: now), at: now)
            for animator in record.animators where interactive.animators[animator].state != .stopped {
                if interactive.animators[animator].running { try callAnimator(animator, .pause, path: path) }
                try callAnimator(animator, .fractionComplete(value), path: path)
            }
        case .finish, .cancel:
            let finishing = call == .finish
            let speed = settings.completionSpeed
            let target = finishing ? duration : 0
            let seconds = (finishing ? 1 - percent : percent) * duration / speed
            let next = ClockSegment(
                start: now, from: segment.local(at: now), to: target, duration: seconds,
                curve: settings.completionCurve,
                window: (0, 1), fractions: (percent, finishing ? 1 : 0))
            timeline.clocks[clock].set(next, at: now)
            interactive.transitions[index].generation += 1
            interactive.transitions[index].wasCancelled = !finishing
            setPhase(index, finishing ? "finishing" : "cancelling")
            scheduleClockEnd(clock, at: next.end, generation: interactive.transitions[index].generation)
            // Its animators play on, or back, paced by the completion curve.
            for animator in record.animators where interactive.animators[animator].state == .active {
                if interactive.animators[animator].running { try callAnimator(animator, .pause, path: path) }
                try callAnimator(animator, .reversed(!finishing), path: path)
                try callAnimator(
                    animator, .continueAnimation(timing: .cubic(settings.completionCurve), durationFactor: 1 / speed),
                    path: path)
            }
        case .pause:
            guard record.phase == "finishing" || record.phase == "cancelling" else { return }
            timeline.clocks[clock].set(
                .paused(at: segment.local(at: now), fraction: segment.fraction(at: now), since: now), at: now)
            interactive.transitions[index].generation += 1
            interactive.transitions[index].wasCancelled = false
            setPhase(index, "interactive")
            for animator in record.animators where interactive.animators[animator].running {
                try callAnimator(animator, .pause, path: path)
                try callAnimator(animator, .reversed(false), path: path)
            }
        }
    }

    private func setPhase(_ index: Int, _ name: String, completedPercent: Double? = nil) {
        interactive.transitions[index].phase = name
        let track = interactive.transitions[index].track
        timeline.transitions[track].phase.set(
            Timeline.TransitionPhase(name: name, completedPercent: completedPercent), at: now)
    }

    /// The interaction's clock reached 1 (finished) or 0 (cancelled): the animations on it
    /// end, and their completions run (they call `completeTransition`).
    func transitionClockEnded(_ index: Int) {
        let clock = interactive.transitions[index].clock
        for animation in timeline.animations.indices
        where timeline.animations[animation].clock == clock && timeline.animations[animation].removedAt == .infinity {
            detach(animation, finished: true)
        }
        noteChange(now)
    }

    /// `transitionContext.completeTransition(_:)`: the appearance callbacks finish (or are
    /// undone after a cancel), UIKit removes the view that left, and the transition is over.
    func completeTransition(_ argument: CompletionArgument, id: String?, path: String) throws(RuntimeError) {
        let index: Int
        if let id {
            index = try transition(id, path: path + ".transition")
        } else if let current = currentTransition() {
            index = current
        } else {
            throw RuntimeError(path: path + ".completeTransition", message: "no transition is in progress")
        }
        let record = interactive.transitions[index]
        guard !record.completed else {
            throw RuntimeError(
                path: path + ".completeTransition",
                message: "the transition \"\(record.spec.id)\" was already completed")
        }
        let didComplete: Bool
        switch argument {
        case .value(let value): didComplete = value
        case .notCancelled: didComplete = !record.wasCancelled
        }
        let from = try layer(record.spec.from, path: path)
        let to = try layer(record.spec.to, path: path)
        if didComplete && record.wasCancelled {
            diagnose(.completionIgnoresCancel(time: now, transition: record.spec.id))
        }
        if didComplete {
            checkToViewAdded(index)
            appearance(.viewDidDisappear, from, index)
            appearance(.viewDidAppear, to, index)
            // UIKit takes the view that left out of the hierarchy (a presentation keeps it).
            if record.spec.operation != .present && tree.present[from] {
                try perform(.removeLayer(record.spec.from), path: path)
            }
        } else {
            appearance(.viewWillDisappear, to, index)
            appearance(.viewDidDisappear, to, index)
            appearance(.viewWillAppear, from, index)
            appearance(.viewDidAppear, from, index)
            // The incoming view the animator added leaves again.
            if tree.present[to] && !record.toWasPresent { try perform(.removeLayer(record.spec.to), path: path) }
            checkCancelRestored(index, leaving: to)
        }
        let percent: Double
        if record.clock >= 0 {
            percent = record.spec.duration > 0 ? timeline.clocks[record.clock].local(at: now) / record.spec.duration : 1
            timeline.clocks[record.clock].set(
                .paused(at: timeline.clocks[record.clock].local(at: now), fraction: percent, since: now), at: now)
        } else {
            percent = min(
                max(
                    record.spec.duration > 0
                        ? (now - timeline.transitions[record.track].begunAt) / record.spec.duration : 1, 0), 1)
        }
        interactive.transitions[index].completed = true
        interactive.transitions[index].generation += 1
        setPhase(index, "completed", completedPercent: min(max(percent, 0), 1))
        timeline.events.append(
            Event(
                time: now,
                kind: .transitionCompleted(
                    transition: record.spec.id, didComplete: didComplete, wasCancelled: record.wasCancelled)))
    }

    /// A model change while transitions are in progress: remembered for `cancel-not-restored`.
    func noteTransitionChange(_ property: LayerProperty, on layer: Int) {
        guard !interactive.transitions.isEmpty else { return }
        let key = InteractiveState.ModelKey(layer: layer, property: property)
        for index in interactive.transitions.indices where !interactive.transitions[index].completed {
            if interactive.transitions[index].changedModel[key] == nil {
                interactive.transitions[index].changedModel[key] = timeline.layers[layer].modelValue(property, at: now)
            }
        }
    }

    /// `cancel-not-restored`: after a cancel, a view that stays keeps a value the transition set.
    private func checkCancelRestored(_ index: Int, leaving to: Int) {
        let leaving = interactive.transitions[index].toWasPresent ? Set<Int>() : Set(subtree(to))
        let changes = interactive.transitions[index].changedModel.sorted {
            ($0.key.layer, $0.key.property.ordinal) < ($1.key.layer, $1.key.property.ordinal)
        }
        for (key, before) in changes where !leaving.contains(key.layer) && key.property.isAnimatable {
            let now = timeline.layers[key.layer].modelValue(key.property, at: self.now)
            if Self.differs(before, now) {
                diagnose(
                    .cancelNotRestored(
                        time: self.now, layer: timeline.layers[key.layer].id, keyPath: key.property.rawValue,
                        transition: interactive.transitions[index].spec.id))
            }
        }
    }

    /// `to-view-not-added`: the incoming view is not inside the container.
    private func checkToViewAdded(_ index: Int) {
        let record = interactive.transitions[index]
        guard !record.reportedToViewMissing,
            let to = timeline.layerIndex[record.spec.to], let container = timeline.layerIndex[record.spec.container]
        else { return }
        var current = tree.present[to] ? to : -1
        while current >= 0 && current != container { current = tree.parent[current] }
        guard current != container else { return }
        interactive.transitions[index].reportedToViewMissing = true
        diagnose(
            .toViewNotAdded(
                time: now, layer: record.spec.to, container: record.spec.container, transition: record.spec.id))
    }

    /// `transition-never-completed`, at the end of the run: a transition that ran (or was
    /// finished or cancelled) and was never told `completeTransition`. One whose gesture still
    /// drives it is not reported: the finger may still be down (a live session's next input
    /// may end it), and completing is the gesture's to decide.
    func checkTransitionsCompleted() {
        for record in interactive.transitions where !record.completed {
            if record.phase == "interactive" { continue }
            diagnose(
                .transitionNeverCompleted(time: timeline.naturalEnd, transition: record.spec.id))
        }
    }

    /// The pan's samples, each a run-loop turn of its own at its time.
    func schedulePan(_ gesture: PanGesture, path: String) throws(RuntimeError) {
        // What this pan leaves out is its transition's earlier pans': a gesture streamed as
        // one input a sample keeps its axis, distance and thresholds.
        let settings = gesture.settings(over: interactive.panSettings[gesture.transition] ?? PanGesture.Settings())
        interactive.panSettings[gesture.transition] = settings
        for (offset, sample) in gesture.samples.enumerated() {
            let samplePath = "\(path).samples[\(offset)]"
            guard sample.at >= now else {
                throw RuntimeError(path: samplePath + ".at", message: "is earlier than the time the pan is added")
            }
            let along = settings.axis == .x ? sample.translation.x : sample.translation.y
            let speed = settings.axis == .x ? sample.velocity.x : sample.velocity.y
            let progress = settings.distance > 0 ? min(max(along / settings.distance, 0), 1) : 0
            let actions: [ScriptAction]
            switch sample.state {
            case .began: actions = gesture.onBegan
            case .changed: actions = [.interaction(gesture.transition, .update(progress))]
            case .ended:
                let finishes = progress > settings.progressOver || speed > settings.velocityOver
                actions = [.interaction(gesture.transition, finishes ? .finish : .cancel)]
            case .cancelled: actions = [.interaction(gesture.transition, .cancel)]
            }
            schedule(
                deferred: DeferredTurn(
                    actions: actions, finished: nil, path: sample.state == .began ? path + ".onBegan" : samplePath),
                at: SceneTime.quantize(sample.at))
        }
    }
}
