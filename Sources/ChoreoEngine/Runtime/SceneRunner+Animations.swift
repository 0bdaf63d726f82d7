import Glibc

/// Animations: `add(_:forKey:)`, groups flattened into leaves, the start and stop callbacks,
/// removal.
extension RunnerState {
    /// `layer.add(animation, forKey:)`. `byUIKit` marks the animations UIView blocks create:
    /// their fill (UIKit's own `fillMode = both`) is not the script's pitfall to report.
    func attach(_ animation: Animation, to index: Int, path: String, byUIKit: Bool = false) throws(RuntimeError) {
        let layerID = timeline.layers[index].id
        let map = timeline.timeMap(of: index, at: now)
        let layerNow = map.local(now)
        var timing = animation.timing
        let frame = loop.transactions[loop.transactions.count - 1]
        if timing.duration == 0 { timing.duration = frame.duration }
        // Inside an animator's block or an interactive transition, the animation runs on its
        // clock, from the local time the block begins at.
        let clock = interactive.clockContext?.clock ?? -1
        if let context = interactive.clockContext {
            timing.beginTime = context.begin + animation.delay
        } else {
            timing.beginTime = (timing.beginTime == 0 ? layerNow : timing.beginTime) + animation.delay
        }
        let timingFunction = animation.timingFunction ?? frame.timingFunction ?? .linear

        // Adding under a key in use replaces that animation (it stops with finished = false).
        if let key = animation.key {
            for other in live.animations[index] where timeline.animations[other].key == key {
                // One that reached its end at this very instant completed: it is not cut short.
                let completed = hasEnded(other)
                if timeline.animations[other].stoppedAt == nil && !completed {
                    diagnose(
                        .keyReplaced(
                            time: now, layer: layerID, keyPath: timeline.animations[other].keyPath?.description,
                            key: key))
                }
                detach(other, finished: completed)
            }
        }

        let owner = timeline.animations.count
        let firstLeaf = timeline.leaves.count
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
            diagnose(
                .fillWithoutRetain(
                    time: now, layer: layerID, keyPath: keyPath?.description, fillMode: animation.timing.fillMode))
        }
        checkOverride(leafIndices, layer: index)
        // A mask is out of the tree, and seen while the layer it masks is in it.
        let masked = timeline.layers[index].maskOf
        if !tree.present[index] && !(masked >= 0 && tree.present[masked]) {
            diagnose(
                .animatesOffscreenLayer(time: now, layer: layerID, keyPath: keyPath?.description))
        }

        let leaves = firstLeaf..<timeline.leaves.count
        assert(leafIndices.elementsEqual(leaves), "an animation's leaves are made one after another")
        let attached = Timeline.AttachedAnimation(
            layer: index, key: animation.key, typeName: animation.typeName, addedAt: now, keyPath: keyPath,
            firstLeaf: leaves.lowerBound, settlingDuration: settling, leafCount: leaves.count,
            transition: transition.map {
                Timeline.TransitionTiming(transition: $0, timing: timing, timingFunction: timingFunction)
            })
        timeline.animations.append(attached)
        live.scripts.append(
            .init(
                path: path, onStart: animation.onStart, onStop: animation.onStop, timing: timing,
                removedOnCompletion: animation.removedOnCompletion))
        timeline.animations[owner].clock = clock
        live.animations[index].append(owner)
        if transition != nil { timeline.layers[index].transitions.append(owner) }
        for group in loop.openGroups { register(owner, in: group) }
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
            // A member without a duration (0, as CAAnimation's default) runs for its group's
            // duration, as Apple's CAAnimationGroup listing relies on (docs/semantics.md).
            if timing.duration == 0 { timing.duration = group.timing.duration }
            timing.beginTime += member.delay
            // A child running past its group's duration is cut (CAAnimationGroup clips).
            if timing.beginTime + timing.activeDuration / max(abs(timing.speed), 1e-12) > group.timing.duration + 1e-9 {
                let keyPath: String? =
                    switch member.content {
                    case .basic(let p, _, _), .keyframe(let p, _): p.keyPath.description
                    default: nil
                    }
                let childEnd = timing.beginTime + timing.activeDuration / max(abs(timing.speed), 1e-12)
                diagnose(
                    .groupClipped(
                        time: now, layer: timeline.layers[layer].id, keyPath: keyPath, child: offset,
                        childEnd: childEnd, groupDuration: group.timing.duration))
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
            curve = .keyframes(keyframeTracks.track(for: keyframes))
            if keyframes.rotationMode != nil && keyframes.path != nil { timeline.layers[layer].hasPathRotation = true }
        default:
            fatalError("only property animations become leaves")
        }
        let leaf = AnimationLeaf(
            keyPath: property.keyPath, groups: groups, timing: timing,
            timingFunction: timingFunction, curve: curve, additive: property.additive,
            cumulative: property.cumulative, captured: captured, owner: owner, addedAt: now,
            clock: interactive.clockContext?.clock ?? -1)
        let index = timeline.leaves.count
        timeline.leaves.append(leaf)
        timeline.layers[layer].leavesByProperty[property.keyPath.property.ordinal, default: []].append(index)
        live.leaves[layer][property.keyPath.property.ordinal, default: []].append(index)
        timeline.layers[layer].animatedProperties.insert(property.keyPath.property)
        return index
    }

    /// `overridden`: a non-additive animation overlapping another non-additive one on the same key path.
    func checkOverride(_ leafIndices: [Int], layer: Int) {
        for index in leafIndices {
            let leaf = timeline.leaves[index]
            guard !leaf.additive else { continue }
            for other in live.leaves[layer][leaf.keyPath.property.ordinal] ?? [] where other != index {
                let previous = timeline.leaves[other]
                guard previous.owner != leaf.owner, !previous.additive, previous.keyPath == leaf.keyPath,
                    timeline.animations[previous.owner].stoppedAt == nil
                else { continue }
                diagnose(
                    .overridden(time: now, layer: timeline.layers[layer].id, keyPath: leaf.keyPath.description))
                break
            }
        }
    }

    /// Pushes the pending start and stop callbacks of an animation under the current time maps.
    func schedule(_ index: Int) {
        let animation = timeline.animations[index]
        let generation = live.scripts[index].generation
        if animation.clock >= 0 {
            // On a clock: it starts as it is added; its owner ends it (the animator completes,
            // the transition finishes or cancels).
            if animation.startedAt == nil {
                loop.queue.push(.init(time: now, subject: index, kind: .start, generation: generation))
            }
            return
        }
        let map = timeline.timeMap(of: animation.layer, at: now)
        let timing = live.scripts[index].timing
        let speed = max(abs(timing.speed), 0)
        if animation.startedAt == nil {
            if let start = sceneTime(localElapsed: 0, timing: timing, map: map) {
                loop.queue.push(.init(time: start, subject: index, kind: .start, generation: generation))
            }
        }
        if animation.stoppedAt == nil && timing.activeDuration.isFinite && speed > 0 {
            if let stop = sceneTime(localElapsed: timing.activeDuration, timing: timing, map: map) {
                loop.queue.push(.init(time: stop, subject: index, kind: .stop, generation: generation))
            }
        }
    }

    /// Whether the animation's active duration is over at `now` (its stop callback may still
    /// be pending at this instant).
    func hasEnded(_ index: Int) -> Bool {
        let animation = timeline.animations[index]
        if animation.stoppedAt != nil { return true }
        if animation.clock >= 0 { return false }
        let timing = live.scripts[index].timing
        guard timing.activeDuration.isFinite, abs(timing.speed) > 0 else { return false }
        let map = timeline.timeMap(of: animation.layer, at: now)
        guard let end = sceneTime(localElapsed: timing.activeDuration, timing: timing, map: map) else { return false }
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
            try countEvent(path: loop.completionGroups[entry.subject].path)
            try runCompletion(entry.subject)
            return
        case .deferred:
            let turn = loop.deferredTurns[entry.subject]
            try countEvent(path: turn.path)
            try runTurn(turn.actions, path: turn.path, finished: turn.finished, position: turn.position)
            noteChange(now)
            return
        case .clockEnd:
            try clockEnded(entry.subject, generation: entry.generation)
            return
        case .start, .stop:
            break
        }
        let animation = timeline.animations[entry.animation]
        let script = live.scripts[entry.animation]
        guard entry.generation == script.generation, animation.removedAt == .infinity else { return }
        try countEvent(path: script.path)
        let layerID = timeline.layers[animation.layer].id
        switch entry.kind {
        case .start:
            guard animation.startedAt == nil else { return }
            timeline.animations[entry.animation].startedAt = now
            timeline.events.append(Event(time: now, kind: .animationDidStart(layer: layerID, key: animation.key)))
            noteChange(now)
            if !script.onStart.isEmpty { try runTurn(script.onStart, path: onStartPath(entry.animation)) }
        case .stop:
            guard animation.stoppedAt == nil else { return }
            if script.removedOnCompletion {
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
            if !script.onStop.isEmpty {
                try runTurn(script.onStop, path: onStopPath(entry.animation), finished: true)
            }
        case .completion, .deferred, .clockEnd:
            return
        }
    }

    /// Removes an animation from its layer at `now` (completion or explicit removal).
    /// `checkingSnapBack` false: a removal that is not a jump (another animation takes over
    /// from it at this instant, as a SwiftUI spring does).
    func detach(_ index: Int, finished: Bool, checkingSnapBack: Bool = true) {
        let animation = timeline.animations[index]
        guard animation.removedAt == .infinity else { return }
        let shownBefore = checkingSnapBack ? snapBackProbes(index, naturalEnd: finished) : []
        timeline.animations[index].removedAt = now
        live.animations[animation.layer].removeAll { $0 == index }
        if live.removedThisInstantTime != now {
            live.removedThisInstant = [:]
            live.removedThisInstantTime = now
        }
        for leaf in animation.leaves {
            timeline.leaves[leaf].removedAt = now
            let ordinal = timeline.leaves[leaf].keyPath.property.ordinal
            live.leaves[animation.layer][ordinal, default: []].removeAll { $0 == leaf }
            live.removedThisInstant[animation.layer * 1024 + ordinal, default: []].append(leaf)
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
            let onStop = live.scripts[index].onStop
            if !finished && !onStop.isEmpty {
                schedule(
                    deferred: DeferredTurn(actions: onStop, finished: false, path: onStopPath(index)), at: now
                )
            }
            noteStopped(index, finished: finished)
        }
    }
}
