/// The catalogue of diagnostics, keyed by code: one factory per pitfall, holding its sentences
/// (what happens, and the fix), so every text lives here and docs/scripts.md describes them in
/// the same order.
extension Diagnostic {
    /// Seconds as a message prints them: three decimals at most, "for ever" when infinite.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "infinity" : "-infinity" }
        guard abs(value) < 1e15 else { return String(value) }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

    /// `completion-never-runs`: `withAnimation`'s completion waits for an animation that
    /// repeats for ever.
    static func completionNeverRuns(time: Double, name: String?) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .completionNeverRuns, time: time, layer: nil, keyPath: nil,
            message:
                "The withAnimation\(name.map { " \"\($0)\"" } ?? "") completion never runs: one of its animations repeats for ever, so it never completes.",
            fix:
                "Start the repeating animation in a withAnimation of its own, without a completion, or give it a repeatCount."
        )
    }

    /// `animation-without-value`: the deprecated `.animation(_:)` animates every change of the
    /// view, whatever caused it.
    static func animationWithoutValue(view: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .animationWithoutValue, time: 0, layer: view, keyPath: nil,
            message:
                "\(view) has .animation(_:) without value: (deprecated since iOS 15): every change of the view animates with it, including ones no one meant to animate.",
            fix: "Use .animation(_:value:) with the state whose changes should animate.")
    }

    /// `snap-back`: an animation removed while it shows a value other than the model's. When a
    /// spring was cut by its duration, the fix names its settling duration.
    static func snapBack(
        time: Double, layer: String, keyPath: String,
        springCut: (duration: Double, settling: Double, modelIsEnd: Bool)?
    ) -> Diagnostic {
        let model =
            "Set the model value to the final value before adding the animation, or keep the fill with removedOnCompletion false (and fillMode forwards)."
        var fix = model
        if let cut = springCut {
            // A CASpringAnimation stops at its duration (0.25 s unless given), settled or not.
            let settle =
                "Set its duration to the spring's settlingDuration, \(seconds(cut.settling)) s: it is cut at \(seconds(cut.duration)) s, before it settles."
            fix = cut.modelIsEnd ? settle : "\(settle) \(model)"
        }
        return Diagnostic(
            severity: .warning, code: .snapBack, time: time, layer: layer, keyPath: keyPath,
            message:
                "The animation on \(keyPath) is removed while its presentation value differs from the model value: the layer visibly jumps back.",
            fix: fix)
    }

    /// `fill-without-retain`.
    static func fillWithoutRetain(time: Double, layer: String, keyPath: String?, fillMode: FillMode) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .fillWithoutRetain, time: time, layer: layer, keyPath: keyPath,
            message:
                "fillMode \(fillMode.rawValue) with removedOnCompletion true: the animation is removed when it ends, so the fill is never seen.",
            fix:
                "Set the model value to the final value before adding the animation, or set removedOnCompletion to false if the fill must stay."
        )
    }

    /// `retained-divergence`.
    static func retainedDivergence(time: Double, layer: String, keyPath: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .retainedDivergence, time: time, layer: layer, keyPath: keyPath,
            message:
                "removedOnCompletion false keeps the presentation of \(keyPath) different from the model after the end: hit-testing and later animations see the model value.",
            fix: "Set the model value to the final value and let the animation be removed.")
    }

    /// `group-clipped`.
    static func groupClipped(
        time: Double, layer: String, keyPath: String?, child: Int, childEnd: Double, groupDuration: Double
    ) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .groupClipped, time: time, layer: layer, keyPath: keyPath,
            message:
                "Child \(child) of the group runs \(childEnd.isFinite ? "\(seconds(childEnd)) s" : "for ever") but the group lasts \(seconds(groupDuration)) s: the child is cut off, not scaled.",
            fix: "Make the group's duration at least as long as its longest child, or shorten the child.")
    }

    /// `key-replaced`.
    static func keyReplaced(time: Double, layer: String, keyPath: String?, key: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .keyReplaced, time: time, layer: layer, keyPath: keyPath,
            message:
                "An animation was added under the key \"\(key)\" while the previous one was still running; the previous one stops with finished = false.",
            fix:
                "Use a different key for animations that should run together, or wait for animationDidStop before adding."
        )
    }

    /// `overridden`.
    static func overridden(time: Double, layer: String, keyPath: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .overridden, time: time, layer: layer, keyPath: keyPath,
            message:
                "Two non-additive animations overlap on \(keyPath): only the one added later shows while both run.",
            fix: "Remove the earlier animation first, make one of them additive, or animate different key paths.")
    }

    /// `completion-immediate`; `what` names the block (a transaction, a UIView animation block).
    static func completionImmediate(time: Double, what: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .completionImmediate, time: time, layer: nil, keyPath: nil,
            message:
                "The \(what)'s completion ran at once because no animation was added inside it (nothing changed, or nothing animatable did).",
            fix:
                "Add the animations inside the \(what), or change an animatable property to a new value; otherwise call the follow-up code directly."
        )
    }

    /// `emitter-not-removed`.
    static func emitterNotRemoved(time: Double, layer: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .emitterNotRemoved, time: time, layer: layer, keyPath: nil,
            message:
                "The emitter is still emitting when the scene ends: it keeps spawning particles (and costing frames) for ever.",
            fix:
                "Remove the emitter layer (or set its birthRate to 0) once the effect is over, e.g. with an `after` block."
        )
    }

    /// `replicas-capped`: a replicator's copies would pass ``Limits/maxReplicaLayers``.
    static func replicasCapped(layer: String, made: Int, wanted: Int) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .replicasCapped, time: 0, layer: layer, keyPath: "instanceCount",
            message:
                "The replicator's instanceCount asks for \(wanted) copies of its sublayers, more than a scene's \(Limits.maxReplicaLayers): only the first \(made) are drawn.",
            fix: "Draw fewer instances (or fewer sublayers in the replicator)."
        )
    }

    /// `never-settles` for a loop that keeps scheduling work past the horizon.
    static func neverSettles(horizon: Double, stillRunning: String) -> Diagnostic {
        Diagnostic(
            severity: .info, code: .neverSettles, time: horizon, layer: nil, keyPath: nil,
            message:
                "The scene is still running at \(seconds(horizon)) s: \(stillRunning) keeps scheduling work, so it never settles; sampling stops at `end`.",
            fix:
                "Pass a later `end` to follow the loop further, or guard the restart (for example with {\"if\": \"finished\"}) so it can stop."
        )
    }

    /// `never-settles` for an animation that repeats for ever, or ends only past the longest
    /// scene (`forEver` false).
    static func neverSettles(time: Double, layer: String?, keyPath: String?, forEver: Bool = true) -> Diagnostic {
        guard !forEver else {
            return Diagnostic(
                severity: .info, code: .neverSettles, time: time, layer: layer, keyPath: keyPath,
                message: "An animation repeats for ever, so the scene never settles; sampling stops at `end`.",
                fix: "Give repeatCount a finite value, or pass `end` to choose how much of the loop to sample.")
        }
        return Diagnostic(
            severity: .info, code: .neverSettles, time: time, layer: layer, keyPath: keyPath,
            message:
                "An animation ends only after the longest scene (\(seconds(Limits.maxSceneTime)) s), so the scene does not settle within it; sampling stops at `end`.",
            fix:
                "Give repeatCount, repeatDuration or duration values that end within \(seconds(Limits.maxSceneTime)) s, or pass `end` to choose how much to sample."
        )
    }

    /// `suspicious-unit`: a value valid but probably in the wrong unit, found while reading.
    public static func suspiciousUnit(time: Double, path: String, message: String, fix: String) -> Diagnostic {
        var diagnostic = Diagnostic(
            severity: .warning, code: .suspiciousUnit, time: time, layer: nil, keyPath: nil, message: message, fix: fix)
        diagnostic.path = path
        return diagnostic
    }

    /// `to-view-not-added`: since iOS 8 the animator adds `to` to the container itself.
    static func toViewNotAdded(time: Double, layer: String, container: String, transition: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .toViewNotAdded, time: time, layer: layer, keyPath: nil,
            message:
                "The transition \"\(transition)\" runs with its incoming view \"\(layer)\" outside the container \"\(container)\": the screen shows blank where it should be.",
            fix:
                "Add the incoming view to the container first in animateTransition ({\"addLayer\": …, \"parent\": \"\(container)\"}): UIKit no longer does it for you."
        )
    }

    /// `transition-never-completed`.
    static func transitionNeverCompleted(time: Double, transition: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .transitionNeverCompleted, time: time, layer: nil, keyPath: nil,
            message:
                "The transition \"\(transition)\" never called completeTransition: UIKit keeps waiting and ignores touches.",
            fix:
                "Call completeTransition(!transitionContext.transitionWasCancelled) when the animations end ({\"completeTransition\": \"notCancelled\"} in their completion)."
        )
    }

    /// `completion-ignores-cancel`.
    static func completionIgnoresCancel(time: Double, transition: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .completionIgnoresCancel, time: time, layer: nil, keyPath: nil,
            message:
                "The transition \"\(transition)\" was cancelled but completed with completeTransition(true): UIKit's state no longer matches the screen.",
            fix: "Pass !transitionContext.transitionWasCancelled ({\"completeTransition\": \"notCancelled\"}).")
    }

    /// `cancel-not-restored`.
    static func cancelNotRestored(time: Double, layer: String, keyPath: String, transition: String) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .cancelNotRestored, time: time, layer: layer, keyPath: keyPath,
            message:
                "After the cancelled transition \"\(transition)\", \(keyPath) of \"\(layer)\" keeps the value the transition set: the view jumps to its finished state.",
            fix:
                "Animate with a property animator and reverse it on cancel, or restore the value in the completion when transitionWasCancelled."
        )
    }

    /// `animates-offscreen-layer`.
    static func animatesOffscreenLayer(time: Double, layer: String, keyPath: String?) -> Diagnostic {
        Diagnostic(
            severity: .warning, code: .animatesOffscreenLayer, time: time, layer: layer, keyPath: keyPath,
            message:
                "An animation is added to \"\(layer)\", which is not in the layer tree at this time: nothing of it is seen.",
            fix:
                "Animate a layer in the tree (in a transition, a snapshot in the container rather than the view UIKit removed), or add the layer first."
        )
    }
}
