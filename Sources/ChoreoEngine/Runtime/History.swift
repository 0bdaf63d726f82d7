/// A value that changes at discrete scene times: a step function with an initial value.
///
/// The runtime appends as the script runs; a change at the same instant as the last one
/// replaces it, so a sample at time t sees the state after every run-loop turn at t.
///
/// The initial value is held inline and the changes in arrays made at the first change: a
/// value that never changes, as most of a large tree's are, allocates nothing. (Each of a
/// 10,000-layer scene's constant histories was an array of one element, 30,000 small blocks
/// that outlived the run, scattered among the freed ones and keeping their pages resident.)
public struct History<Element: Sendable>: Sendable {
    /// The value before the first change.
    public private(set) var initial: Element
    /// When the value changed, in order; `changes[i]` is in force from `times[i]` on.
    public private(set) var times: [Double] = []
    private var changes: [Element] = []

    public init(initial: Element) { self.initial = initial }

    /// Every value in order, the initial one first.
    public var values: [Element] { [initial] + changes }

    /// Whether the value ever changes.
    public var isConstant: Bool { times.isEmpty }

    /// The latest value.
    public var last: Element { changes.last ?? initial }

    /// Records a new value from scene time `time` on (times must not decrease).
    public mutating func set(_ value: Element, at time: Double) {
        if let lastTime = times.last, lastTime == time {
            changes[changes.count - 1] = value
        } else {
            times.append(time)
            changes.append(value)
        }
    }

    /// The value in force at scene time `time`.
    @inline(__always)
    public func value(at time: Double) -> Element {
        if times.isEmpty { return initial }
        if time >= times[times.count - 1] { return changes[changes.count - 1] }
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? initial : changes[low - 1]
    }
}
