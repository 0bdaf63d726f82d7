/// Something that happened on the scene's timeline, with its exact scene time: the delegate
/// callbacks and completions an iOS app would observe.
public struct Event: Sendable, Equatable {
    public var time: Double
    public var kind: Kind

    public enum Kind: Sendable, Equatable {
        /// `animationDidStart(_:)`.
        case animationDidStart(layer: String, key: String?)
        /// `animationDidStop(_:finished:)`.
        case animationDidStop(layer: String, key: String?, finished: Bool)
        /// A `CATransaction` completion block ran; `finished` is false when an animation added
        /// inside was removed before it ended. `name` is the transaction's optional label.
        case transactionCompleted(name: String?, finished: Bool)
        /// A UIView block's completion ran (`animate`, `animateKeyframes`, `transition`, an
        /// animated `setState`), with UIKit's `finished` flag.
        case animateCompleted(name: String?, finished: Bool)
        /// SwiftUI's `withAnimation(_:completionCriteria:_:completion:)` completion.
        case withAnimationCompleted(name: String?)
        case layerAdded(layer: String)
        case layerRemoved(layer: String)
        case stateChanged(layer: String, state: String)
        case marker(name: String)
        /// A property animator's `state` (`UIViewAnimatingState`) or `isRunning` changed.
        case animatorStateChanged(animator: String, state: String, running: Bool)
        /// A property animator's completions ran, at that position.
        case animatorCompleted(animator: String, position: AnimatingPosition)
        /// `viewWillAppear`, `viewDidAppear`, `viewWillDisappear`, `viewDidDisappear` of the view
        /// controller whose root view is `layer`, during a transition.
        case appearance(Appearance, layer: String, transition: String)
        /// `completeTransition(_:)` ran.
        case transitionCompleted(transition: String, didComplete: Bool, wasCancelled: Bool)
    }

    /// The view-controller appearance callbacks, by their UIKit names.
    public enum Appearance: String, Sendable, Equatable {
        case viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
    }

    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The scene-format `type` of the event.
    public var typeName: String {
        switch kind {
        case .animationDidStart: "animationDidStart"
        case .animationDidStop: "animationDidStop"
        case .transactionCompleted: "transactionCompleted"
        case .animateCompleted: "animateCompleted"
        case .withAnimationCompleted: "withAnimationCompleted"
        case .layerAdded: "layerAdded"
        case .layerRemoved: "layerRemoved"
        case .stateChanged: "stateChanged"
        case .marker: "marker"
        case .animatorStateChanged: "animatorStateChanged"
        case .animatorCompleted: "animatorCompleted"
        case .appearance(let appearance, _, _): appearance.rawValue
        case .transitionCompleted: "transitionCompleted"
        }
    }
}
