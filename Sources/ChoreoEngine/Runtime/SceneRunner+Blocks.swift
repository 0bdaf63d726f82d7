/// The script vocabulary above single animations: `CATransaction` blocks with their completions,
/// UIView animation blocks, named states, `after` and `if`.
extension RunnerState {
    /// The settings of one open `CATransaction`.
    struct TransactionFrame {
        /// `animationDuration`: what animations without a duration of their own get.
        var duration: Double
        /// `animationTimingFunction`, when one was set.
        var timingFunction: TimingFunction?
        var disableActions: Bool

        /// The implicit transaction of every run-loop turn: 0.25 s, no function, actions on.
        static let implicit = TransactionFrame(duration: 0.25, timingFunction: nil, disableActions: false)
    }

    /// A completion block waiting for the animations added while it was open.
    struct CompletionGroup {
        enum Kind {
            case transaction
            case viewBlock
            /// SwiftUI's `withAnimation` completion.
            case swiftUI
        }

        let kind: Kind
        let name: String?
        let actions: [ScriptAction]
        /// The JSON path of the completion list.
        let path: String
        var pending: Set<Int> = []
        var added = 0
        var closed = false
        var finished = true
        var fired = false
    }

    /// Actions waiting in the queue for a turn of their own.
    struct DeferredTurn {
        let actions: [ScriptAction]
        let finished: Bool?
        let path: String
        /// The position an animator's completion reports (`if position == …`).
        var position: AnimatingPosition? = nil
    }

    func onStartPath(_ animation: Int) -> String { live.scripts[animation].path + ".onStart" }
    func onStopPath(_ animation: Int) -> String { live.scripts[animation].path + ".onStop" }

    // MARK: Completion groups

    func openGroup(_ kind: CompletionGroup.Kind, name: String?, actions: [ScriptAction], path: String) -> Int {
        loop.completionGroups.append(CompletionGroup(kind: kind, name: name, actions: actions, path: path))
        let group = loop.completionGroups.count - 1
        loop.openGroups.append(group)
        return group
    }

    func register(_ animation: Int, in group: Int) {
        loop.completionGroups[group].pending.insert(animation)
        loop.completionGroups[group].added += 1
        loop.groupsOfAnimation[animation, default: []].append(group)
    }

    /// An animation stopped (it ended, or was removed): the groups waiting for it may complete,
    /// the innermost first.
    func noteStopped(_ animation: Int, finished: Bool) {
        for group in (loop.groupsOfAnimation[animation] ?? []).reversed() {
            loop.completionGroups[group].pending.remove(animation)
            if !finished { loop.completionGroups[group].finished = false }
            fireIfDone(group)
        }
    }

    /// The block is committed: no more animations join it.
    func closeGroup(_ group: Int) {
        loop.openGroups.removeAll { $0 == group }
        loop.completionGroups[group].closed = true
        let entry = loop.completionGroups[group]
        // Inside `performWithoutAnimation` a block's completion running at once is what was asked.
        if entry.added == 0 && !entry.actions.isEmpty && !(entry.kind == .viewBlock && loop.viewAnimationsDisabled > 0)
        {
            let what = entry.kind == .transaction ? "transaction" : "UIView animation block"
            diagnose(
                .completionImmediate(time: now, what: what))
        }
        fireIfDone(group)
    }

    func fireIfDone(_ group: Int) {
        let entry = loop.completionGroups[group]
        guard entry.closed && entry.pending.isEmpty && !entry.fired else { return }
        loop.completionGroups[group].fired = true
        loop.nextSequence += 1
        loop.queue.push(.init(time: now, subject: group, kind: .completion, generation: 0, sequence: loop.nextSequence))
    }

    /// The completion's run-loop turn: its event, then its actions.
    func runCompletion(_ group: Int) throws(RuntimeError) {
        let entry = loop.completionGroups[group]
        switch entry.kind {
        case .transaction:
            timeline.events.append(
                Event(time: now, kind: .transactionCompleted(name: entry.name, finished: entry.finished)))
        case .viewBlock:
            timeline.events.append(
                Event(time: now, kind: .animateCompleted(name: entry.name, finished: entry.finished)))
        case .swiftUI:
            timeline.events.append(Event(time: now, kind: .withAnimationCompleted(name: entry.name)))
        }
        noteChange(now)
        if !entry.actions.isEmpty { try runTurn(entry.actions, path: entry.path, finished: entry.finished) }
    }

    func schedule(deferred turn: DeferredTurn, at time: Double) {
        loop.deferredTurns.append(turn)
        loop.nextSequence += 1
        loop.queue.push(
            .init(
                time: time, subject: loop.deferredTurns.count - 1, kind: .deferred, generation: 0,
                sequence: loop.nextSequence))
    }

    // MARK: CATransaction

    func performTransaction(_ block: TransactionBlock, path: String) throws(RuntimeError) {
        let outer = loop.transactions[loop.transactions.count - 1]
        loop.transactions.append(
            TransactionFrame(
                duration: block.duration ?? outer.duration,
                timingFunction: block.timingFunction ?? outer.timingFunction,
                disableActions: block.disableActions || outer.disableActions))
        let group = openGroup(.transaction, name: block.name, actions: block.completion, path: path + ".completion")
        try performAll(block.actions, path: path + ".do")
        loop.transactions.removeLast()
        closeGroup(group)
    }

    // MARK: UIView blocks

    /// A key not in use on the layer: `base`, then `base-2`, `base-3`, …
    func freeKey(_ base: String, layer: Int) -> String {
        var inUse = Set<String>()
        for index in live.animations[layer] where timeline.animations[index].stoppedAt == nil {
            if let key = timeline.animations[index].key { inUse.insert(key) }
        }
        if !inUse.contains(base) { return base }
        var suffix = 2
        while inUse.contains("\(base)-\(suffix)") { suffix += 1 }
        return "\(base)-\(suffix)"
    }

    /// Removes the animations earlier blocks put on a property (keys `opacity`, `opacity-2`, …).
    func replaceBlockAnimations(of property: LayerProperty, layer: Int) {
        let base = property.rawValue
        for index in live.animations[layer] {
            guard let key = timeline.animations[index].key else { continue }
            let suffix = key.dropFirst(base.count + 1)
            if key == base || (key.hasPrefix(base + "-") && !suffix.isEmpty && suffix.allSatisfy(\.isNumber)) {
                detach(index, finished: hasEnded(index))
            }
        }
    }

    /// The timing UIKit gives the animations of a block (semantics reference: fillMode both).
    func blockTiming(duration: Double, options: ViewAnimationOptions) -> MediaTiming {
        var timing = MediaTiming()
        timing.duration = duration
        timing.fillMode = .both
        timing.autoreverses = options.autoreverses
        if options.repeats { timing.repeatCount = .infinity }
        return timing
    }

    func performViewAnimation(_ block: ViewAnimation, path: String) throws(RuntimeError) {
        let group: Int? =
            block.reportsCompletion
            ? openGroup(.viewBlock, name: block.name, actions: block.completion, path: path + ".completion") : nil
        let spring =
            block.physics
            ?? block.spring.map {
                Spring(
                    uiKitDuration: block.duration, dampingRatio: $0.dampingRatio, initialVelocity: $0.initialVelocity)
            }
        for (position, change) in block.changes.enumerated() {
            let index = try layer(change.layer, path: "\(path).changes.\(change.layer)")
            for item in expandingFrames(change.changes, layer: index) {
                guard case .property(let property, let new) = item, property.isAnimatable, block.duration > 0,
                    loop.viewAnimationsDisabled == 0
                else {
                    applyWithoutAnimation(item, to: index)
                    continue
                }
                let keyPath = KeyPath(property)
                let old = timeline.layers[index].modelValue(property, at: now)
                guard old != new else { continue }
                let values: BasicValues
                var animated = PropertyAnimation(keyPath: keyPath)
                if block.options.beginFromCurrentState {
                    // From what is on screen now, replacing what is in flight.
                    values = BasicValues(from: presentation(index, keyPath, at: now), to: new)
                } else {
                    // iOS 8: an additive offset from (old − new) to zero on top of the new model value,
                    // stacking on animations already in flight.
                    animated.additive = true
                    values = BasicValues(from: Value.offset(showing: old, over: new), to: new.kind.zero)
                }
                setModel(property, new, on: index)
                if block.options.beginFromCurrentState {
                    // It takes over from the blocks in flight on the property: they stop unfinished.
                    replaceBlockAnimations(of: property, layer: index)
                }
                var animation = Animation(content: .basic(animated, values, spring: spring))
                animation.timing = blockTiming(duration: block.duration, options: block.options)
                animation.delay = block.delay
                animation.timingFunction = block.options.curve
                animation.key = freeKey(property.rawValue, layer: index)
                try attach(animation, to: index, path: "\(path).changes[\(position)]", byUIKit: true)
            }
        }
        if let group { closeGroup(group) }
    }

    /// A model change made without a UIView animation (not animatable, or duration 0).
    func applyWithoutAnimation(_ change: ModelChange, to index: Int) {
        switch change {
        case .property(let property, let value): setModel(property, value, on: index)
        default: apply(change, to: index)
        }
    }

    func performViewKeyframes(_ block: ViewKeyframes, path: String) throws(RuntimeError) {
        let group = openGroup(.viewBlock, name: block.name, actions: block.completion, path: path + ".completion")
        // Keyframes in start order (ties keep the order written), and every (layer, property)
        // they change, in order of first appearance.
        var ordered = block.keyframes.enumerated().sorted {
            ($0.element.relativeStartTime, $0.offset) < ($1.element.relativeStartTime, $1.offset)
        }.map(\.element)
        for position in ordered.indices {
            for (offset, change) in ordered[position].changes.enumerated() {
                let index = try layer(change.layer, path: "\(path).keyframes")
                ordered[position].changes[offset].changes = expandingFrames(change.changes, layer: index)
            }
        }
        var targets: [(layer: String, property: LayerProperty)] = []
        for keyframe in ordered {
            for change in keyframe.changes {
                for case .property(let property, _) in change.changes
                where !targets.contains(where: { $0.layer == change.layer && $0.property == property }) {
                    targets.append((change.layer, property))
                }
            }
        }
        for target in targets {
            let index = try layer(target.layer, path: "\(path).keyframes")
            let keyPath = KeyPath(target.property)
            let start =
                block.options.beginFromCurrentState
                ? presentation(index, keyPath, at: now) : timeline.layers[index].modelValue(target.property, at: now)
            var values = [start]
            var times = [0.0]
            for keyframe in ordered {
                for change in keyframe.changes where change.layer == target.layer {
                    for case .property(let property, let value) in change.changes where property == target.property {
                        let begin = min(max(keyframe.relativeStartTime, 0), 1)
                        let end = min(max(keyframe.relativeStartTime + keyframe.relativeDuration, begin), 1)
                        if block.options.calculationMode == .discrete {
                            values.append(value)
                            times.append(begin)
                        } else {
                            // Hold the value reached so far until the keyframe starts.
                            if begin > times[times.count - 1] {
                                values.append(values[values.count - 1])
                                times.append(begin)
                            }
                            values.append(value)
                            times.append(end)
                        }
                    }
                }
            }
            let final = values[values.count - 1]
            guard target.property.isAnimatable, block.duration > 0, loop.viewAnimationsDisabled == 0 else {
                setModel(target.property, final, on: index)
                continue
            }
            var keyframes = Keyframes()
            keyframes.values = values
            keyframes.calculationMode = block.options.calculationMode
            if block.options.calculationMode == .discrete {
                keyframes.keyTimes = times + [1]
            } else {
                if times[times.count - 1] < 1 {
                    values.append(final)
                    times.append(1)
                    keyframes.values = values
                }
                keyframes.keyTimes = times
            }
            setModel(target.property, final, on: index)
            var animation = Animation(content: .keyframe(PropertyAnimation(keyPath: keyPath), keyframes))
            animation.timing = blockTiming(duration: block.duration, options: block.options)
            animation.delay = block.delay
            animation.timingFunction = block.options.curve
            animation.key = freeKey(target.property.rawValue, layer: index)
            try attach(animation, to: index, path: "\(path).keyframes", byUIKit: true)
        }
        // Timing changes in keyframes apply at once.
        for keyframe in ordered {
            for change in keyframe.changes {
                let index = try layer(change.layer, path: "\(path).keyframes")
                for item in change.changes {
                    if case .property = item { continue }
                    apply(item, to: index)
                }
            }
        }
        closeGroup(group)
    }

    func performViewTransition(_ block: ViewTransition, path: String) throws(RuntimeError) {
        var index = try layer(block.layer, path: path + ".layer")
        let group = openGroup(.viewBlock, name: block.name, actions: block.completion, path: path + ".completion")
        if let replacement = block.replacement {
            index = try replace(replacement, path: path)
        }
        for change in block.changes {
            let target = try layer(change.layer, path: "\(path).changes.\(change.layer)")
            for item in change.changes { applyWithoutAnimation(item, to: target) }
        }
        if block.duration > 0, loop.viewAnimationsDisabled == 0, let style = block.style {
            var animation = Animation(content: .transition(style.transition))
            animation.timing = blockTiming(duration: block.duration, options: block.options)
            animation.timingFunction = block.options.curve
            animation.key = "transition"
            try attach(animation, to: index, path: path, byUIKit: true)
        }
        closeGroup(group)
    }

    /// `UIView.transition(from:to:…)`'s change: `to` takes `from`'s place in its superview
    /// (`from` removed, `to` added at its index), or with `showHideTransitionViews` `from` is
    /// hidden and `to` shown. The superview, whose layer the transition animates.
    private func replace(_ replacement: ViewTransition.Replacement, path: String) throws(RuntimeError) -> Int {
        let from = try layer(replacement.from, path: path + ".from")
        let to = try layer(replacement.to, path: path + ".to")
        let parent = tree.parent[from]
        guard parent >= 0 else {
            throw RuntimeError(
                path: path + ".from",
                message:
                    "\"\(replacement.from)\" has no superview: UIView.transition(from:to:) replaces a view in its superview"
            )
        }
        if replacement.showHide {
            applyWithoutAnimation(.property(.hidden, .bool(true)), to: from)
            applyWithoutAnimation(.property(.hidden, .bool(false)), to: to)
        } else {
            let position = tree.children[parent].firstIndex(of: from)
            try perform(.removeLayer(replacement.from), path: path + ".from")
            try perform(
                .insertLayer(replacement.to, parent: timeline.layers[parent].id, index: position), path: path + ".to")
        }
        return parent
    }

    /// `UIView.performWithoutAnimation { … }`: the UIView animation blocks inside (`animate`,
    /// `animateKeyframes`, `transition`, an animated `setState`) change their views at once, and
    /// their completions run at once with `finished` true. A standalone layer's implicit actions
    /// are not UIKit's to disable (a transaction's `disableActions` is), nor are property
    /// animators.
    func performWithoutAnimation(_ actions: [ScriptAction], path: String) throws(RuntimeError) {
        loop.viewAnimationsDisabled += 1
        defer { loop.viewAnimationsDisabled -= 1 }
        try performAll(actions, path: path)
    }

    // MARK: Named states

    func performSetState(_ pairs: [(layer: String, state: String)], animated: Bool, duration: Double, path: String)
        throws(RuntimeError)
    {
        var changes: [LayerChanges] = []
        for pair in pairs {
            let index = try layer(pair.layer, path: "\(path).setState.\(pair.layer)")
            guard let state = timeline.layers[index].states.first(where: { $0.name == pair.state }) else {
                throw RuntimeError(
                    path: "\(path).setState.\(pair.layer)",
                    message: "the layer \"\(pair.layer)\" has no state named \"\(pair.state)\"")
            }
            changes.append(LayerChanges(layer: pair.layer, changes: state.values.map { .property($0.0, $0.1) }))
        }
        if animated {
            var block = ViewAnimation(duration: duration)
            block.changes = changes
            try performViewAnimation(block, path: path + ".setState")
        } else {
            for change in changes {
                let index = try layer(change.layer, path: "\(path).setState.\(change.layer)")
                for item in change.changes { apply(item, to: index) }
            }
        }
        for pair in pairs {
            timeline.events.append(Event(time: now, kind: .stateChanged(layer: pair.layer, state: pair.state)))
        }
    }
}
