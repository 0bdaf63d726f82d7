/// `UIView.transition(with:duration:options:animations:completion:)`: the view's content
/// changes at once and a transition animates from the old content to the new.
public struct ViewTransition: Sendable, Equatable {
    /// `transitionCrossDissolve`, the four `transitionFlipFrom…`, `transitionCurlUp/Down`.
    public enum Style: String, Sendable, Equatable, CaseIterable {
        case crossDissolve = "transitionCrossDissolve"
        case flipFromLeft = "transitionFlipFromLeft"
        case flipFromRight = "transitionFlipFromRight"
        case flipFromTop = "transitionFlipFromTop"
        case flipFromBottom = "transitionFlipFromBottom"
        case curlUp = "transitionCurlUp"
        case curlDown = "transitionCurlDown"

        /// The `CATransition` UIKit installs for the style.
        public var transition: Transition {
            var transition = Transition()
            switch self {
            case .crossDissolve: transition.kind = .fade
            case .flipFromLeft: (transition.kind, transition.subtype) = (.flip, .fromLeft)
            case .flipFromRight: (transition.kind, transition.subtype) = (.flip, .fromRight)
            case .flipFromTop: (transition.kind, transition.subtype) = (.flip, .fromTop)
            case .flipFromBottom: (transition.kind, transition.subtype) = (.flip, .fromBottom)
            case .curlUp: (transition.kind, transition.subtype) = (.curlUp, .fromBottom)
            case .curlDown: (transition.kind, transition.subtype) = (.curlDown, .fromTop)
            }
            return transition
        }
    }

    /// `UIView.transition(from:to:duration:options:completion:)`: `from` gives way to `to` in
    /// its superview, whose layer the transition animates; with `showHideTransitionViews`
    /// `from` is hidden and `to` shown instead of removed and added.
    public struct Replacement: Sendable, Equatable {
        public var from: String
        public var to: String
        public var showHide: Bool

        public init(from: String, to: String, showHide: Bool) {
            self.from = from
            self.to = to
            self.showHide = showHide
        }
    }

    /// The view whose content the transition animates (`with:`); for a replacement, `from`
    /// (its superview, found when the block runs, is what animates).
    public var layer: String
    public var replacement: Replacement?
    public var duration: Double
    /// nil: `transitionNone`, the content changes without a transition.
    public var style: Style?
    public var options = ViewAnimationOptions()
    public var changes: [LayerChanges] = []
    public var name: String?
    public var completion: [ScriptAction] = []

    public init(layer: String, duration: Double) {
        self.layer = layer
        self.duration = duration
    }
}
