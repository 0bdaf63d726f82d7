import ChoreoEngine

/// The UIKit and Core Animation spellings the scene format accepts beside its own names, and
/// the "did you mean" for every other unknown name.
///
/// An alias is accepted only where it maps to exactly one thing (docs/scene-format.md lists
/// each next to its canonical name): an iOS engineer transcribing Swift keeps the names of
/// their code, and the scene keeps one meaning.
package enum Vocabulary {
    /// UIView's property names beside CALayer's.
    static let propertyAliases: [String: String] = [
        "alpha": "opacity", "center": "position", "isHidden": "hidden", "clipsToBounds": "masksToBounds",
    ]

    /// Swift and Objective-C property names of `CAAnimation` and its subclasses.
    static let animationFieldAliases: [String: String] = [
        "isRemovedOnCompletion": "removedOnCompletion", "isAdditive": "additive", "isCumulative": "cumulative",
    ]

    /// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:animations:completion:)`.
    static let animateFieldAliases: [String: String] = ["withDuration": "duration", "animations": "changes"]

    /// `UIView.animateKeyframes(withDuration:delay:options:animations:completion:)`.
    static let keyframesFieldAliases: [String: String] = ["withDuration": "duration", "animations": "keyframes"]

    /// `UIView.addKeyframe(withRelativeStartTime:relativeDuration:animations:)`.
    static let keyframeFieldAliases: [String: String] = [
        "withRelativeStartTime": "relativeStartTime", "animations": "changes",
    ]

    /// `UIView.transition(with:duration:options:animations:completion:)`.
    static let transitionFieldAliases: [String: String] = ["with": "layer", "animations": "changes"]

    /// UIKit method names whose action choreo spells otherwise: the "did you mean" for them.
    static let actionHints: [String: String] = [
        "update": "updateInteractiveTransition", "finish": "finishInteractiveTransition",
        "cancel": "cancelInteractiveTransition", "pause": "pauseInteractiveTransition",
        "startAnimationAfterDelay": "startAnimation", "continueAnimationWithTimingParameters": "continueAnimation",
        "animateTransition": "beginTransition", "runningPropertyAnimator": "propertyAnimator",
        "UIViewPropertyAnimator": "propertyAnimator", "reversed": "isReversed", "isRunning": "startAnimation",
    ]

    /// A set of names an enumerated field accepts, with the prefixes and aliases its Core
    /// Animation and Swift spellings use.
    struct Names: Sendable {
        let canonical: [String]
        /// Constant prefixes: `kCAFillMode` in `kCAFillModeForwards`.
        var prefixes: [String] = []
        var aliases: [String: String] = [:]

        /// The canonical name for a spelling; nil when none matches.
        func resolve(_ name: String) -> String? {
            if canonical.contains(name) { return name }
            if let alias = aliases[name] { return alias }
            // `.forwards`, `CAMediaTimingFillMode.forwards`: the case name after the last dot.
            var candidate = Substring(name)
            if let dot = candidate.lastIndex(of: ".") { candidate = candidate[candidate.index(after: dot)...] }
            for prefix in prefixes where candidate.hasPrefix(prefix) && candidate.count > prefix.count {
                let rest = candidate.dropFirst(prefix.count)
                candidate = Substring(rest.prefix(1).lowercased() + rest.dropFirst())
                break
            }
            let text = String(candidate)
            if canonical.contains(text) { return text }
            return aliases[text]
        }

        /// The canonical name closest to a misspelling of it or of one of its aliases.
        func suggestion(for name: String) -> String? {
            guard let best = Vocabulary.suggestion(for: name, among: canonical + aliases.keys.sorted()) else {
                return nil
            }
            return aliases[best] ?? best
        }
    }

    static let fillModes = Names(
        canonical: ["removed", "forwards", "backwards", "both"], prefixes: ["kCAFillMode"])
    static let timingFunctionNames = Names(
        canonical: ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"], prefixes: ["kCAMediaTimingFunction"],
        aliases: ["easeInOut": "easeInEaseOut"])
    static let calculationModes = Names(
        canonical: ["linear", "discrete", "paced", "cubic", "cubicPaced"], prefixes: ["kCAAnimation"])
    static let rotationModes = Names(
        canonical: ["auto", "autoReverse"], prefixes: ["kCAAnimationRotate", "rotate"])
    static let transitionTypes = Names(
        canonical: ["fade", "moveIn", "push", "reveal", "flip", "curlUp", "curlDown"], prefixes: ["kCATransition"])
    static let transitionSubtypes = Names(
        canonical: ["fromLeft", "fromRight", "fromTop", "fromBottom"], prefixes: ["kCATransition"])

    /// The closest of `candidates` to a misspelt `name`, when one is close enough to be meant:
    /// the same letters in another case, a prefix of it, or a small edit distance
    /// (at most a third of the name, and at least 2).
    package static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let other = candidate.lowercased()
            var distance = editDistance(Array(lowered.utf8), Array(other.utf8))
            if distance > 0 && lowered.count >= 3 && other.hasPrefix(lowered) {
                distance = min(distance, 1)
            }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        guard let best else { return nil }
        return best.distance <= max(2, name.count / 3) ? best.name : nil
    }

    /// Damerau–Levenshtein distance (adjacent transpositions count once), bounded inputs.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        guard a.count <= 256 && b.count <= 256 else { return max(a.count, b.count) }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }

    /// Every key path the format animates: each property, and each sub-path its kind has.
    package static let keyPaths: [String] = LayerProperty.allCases.flatMap { property in
        [property.rawValue]
            + KeyPath.Component.allCases.filter { KeyPath(property, $0).isValid }.map {
                "\(property.rawValue).\($0.rawValue)"
            }
    }
}

extension KeyPath {
    /// Whether the component belongs to the property's kind (`position.x`, not `opacity.x`).
    fileprivate var isValid: Bool { KeyPath(description) != nil }
}
