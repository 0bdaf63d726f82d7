/// `CATransaction.begin()` … `commit()` with its settings and completion block.
///
/// Animations added inside without a duration or timing function of their own take the
/// transaction's (`setAnimationDuration`, `setAnimationTimingFunction`); implicit actions take
/// them too, or do not run under `disableActions`. The completion runs once every animation
/// added inside (nested transactions and UIView blocks included) has completed or been
/// removed, at once if none was.
public struct TransactionBlock: Sendable, Equatable {
    public var duration: Double?
    public var timingFunction: TimingFunction?
    public var disableActions = false
    /// An optional label, reported with the `transactionCompleted` event.
    public var name: String?
    public var actions: [ScriptAction] = []
    public var completion: [ScriptAction] = []

    public init() {}
}
