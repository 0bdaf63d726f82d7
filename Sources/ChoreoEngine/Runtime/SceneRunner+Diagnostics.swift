import Glibc

/// The pitfalls found while running: each check decides when, the catalogue says what
/// (DiagnosticCatalogue.swift).
extension RunnerState {
    /// Records a diagnostic; equal texts share one string. A scene of 10,000 layers can raise
    /// one warning 10,000 times, and each message and fix held apart cost about 300 bytes.
    func diagnose(_ diagnostic: Diagnostic) {
        diagnose(diagnostic, at: timeline.diagnostics.count)
    }

    /// Records a diagnostic at `position` among those so far (one judged after the others of
    /// its instant, in the place it had when its cause happened).
    func diagnose(_ diagnostic: Diagnostic, at position: Int) {
        var diagnostic = diagnostic
        diagnostic.message = sharedText(diagnostic.message)
        diagnostic.fix = sharedText(diagnostic.fix)
        timeline.diagnostics.insert(diagnostic, at: min(position, timeline.diagnostics.count))
    }

    private func sharedText(_ text: String) -> String {
        if let existing = diagnosticTexts[text] { return existing }
        diagnosticTexts[text] = text
        return text
    }

    /// `emitter-not-removed`: an emitter layer still in the tree and still emitting at the end.
    func checkEmitters() {
        let end = timeline.naturalEnd
        for index in timeline.layers.indices where tree.present[index] {
            guard let emitter = timeline.layers[index].emitter else { continue }
            let start = timeline.layers[index].joinedAt
            let emitting = emitter.cells.contains { cell in
                cell.birthRate > 0 && (cell.duration == 0 || start + cell.beginTime + cell.duration > end)
            }
            let rate = presentation(index, KeyPath(.birthRate), at: end)
            guard emitting, case .number(let n) = rate, n > 0 else { continue }
            diagnose(
                .emitterNotRemoved(time: end, layer: timeline.layers[index].id))
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

    /// A removal whose jump is judged at the end of its instant: what was shown just before it,
    /// and where its diagnostic goes among the instant's others.
    struct PendingSnapBack {
        let layer: Int
        let animation: Int
        let keyPath: KeyPath
        let before: Value
        /// The number of diagnostics when the animation was removed.
        let position: Int
        /// Whether the layer was on screen then (in the tree, not hidden).
        let shown: Bool
    }

    /// Whether a layer is on screen now: in the tree and not hidden.
    func shown(_ layer: Int) -> Bool {
        tree.present[layer] && presentation(layer, KeyPath(.hidden), at: now) != .bool(true)
    }

    /// `snap-back`, judged later: the removal's values just before it, kept until the instant's
    /// work is done (``settleSnapBacks()``).
    func reportSnapBacks(_ shownBefore: [(KeyPath, Value)], layer: Int, animation: Int) {
        guard !shownBefore.isEmpty else { return }
        let position = timeline.diagnostics.count
        let onScreen = shown(layer)
        for (keyPath, before) in shownBefore {
            live.pendingSnapBacks.append(
                PendingSnapBack(
                    layer: layer, animation: animation, keyPath: keyPath, before: before, position: position,
                    shown: onScreen))
        }
    }

    /// `snap-back`: once every callback, completion and entry of the instant has run, the
    /// presentation shows a visibly different value from the one just before the removal. So a
    /// loop that adds its animation again at its end (`addAgain` from `animationDidStop`, a
    /// completion that starts it again) is judged with the new animation in effect, and jumps
    /// only when the new one starts elsewhere; a layer on screen at the removal that the instant
    /// takes off screen (removed from the tree, hidden, as a SwiftUI view that leaves) shows no
    /// jump either. Called before the run moves to a later instant and when it ends; each
    /// diagnostic takes the place it had among the instant's others.
    func settleSnapBacks() {
        guard !live.pendingSnapBacks.isEmpty else { return }
        let pending = live.pendingSnapBacks
        live.pendingSnapBacks = []
        var inserted = 0
        for removal in pending
        where !(removal.shown && !shown(removal.layer))
            && Self.differs(removal.before, presentation(removal.layer, removal.keyPath, at: now))
        {
            diagnose(
                .snapBack(
                    time: now, layer: timeline.layers[removal.layer].id, keyPath: removal.keyPath.description,
                    springCut: springCut(removal.animation, keyPath: removal.keyPath)),
                at: removal.position + inserted)
            inserted += 1
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
                diagnose(
                    .retainedDivergence(
                        time: now, layer: timeline.layers[animation.layer].id, keyPath: keyPath.description))
            }
        }
    }

    /// The live-particle bound checked on what the script sets, not only on the initial values:
    /// an emitter's `birthRate` or `lifetime` multiplier that would keep more than
    /// ``Limits/maxParticlesPerCell`` particles of a cell alive is an error naming it.
    func checkEmitterLimit(_ changes: [ModelChange], layer: Int, path: String) throws(RuntimeError) {
        guard let emitter = timeline.layers[layer].emitter else { return }
        var rate = number(layer, .birthRate)
        var lifetime = number(layer, .lifetime)
        var field = ""
        for case .property(let property, .number(let value)) in changes {
            if property == .birthRate {
                rate = value
                field = "birthRate"
            } else if property == .lifetime {
                lifetime = value
                field = "lifetime"
            }
        }
        guard !field.isEmpty else { return }
        for cell in emitter.cells {
            let alive = cell.birthRate * max(rate, 0) * (cell.lifetime + abs(cell.lifetimeRange) / 2) * max(lifetime, 0)
            guard alive.isFinite && alive <= Double(Limits.maxParticlesPerCell) else {
                throw RuntimeError(
                    path: "\(path).\(field)",
                    message:
                        "would keep \(Diagnostic.seconds(alive)) particles of a cell alive at once; at most \(Limits.maxParticlesPerCell) per cell"
                )
            }
        }
    }

    private func number(_ layer: Int, _ property: LayerProperty) -> Double {
        if case .number(let value) = timeline.layers[layer].modelValue(property, at: now) { return value }
        return 1
    }
}
