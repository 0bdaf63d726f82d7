/// A value that changes at discrete scene times: a step function with an initial value.
///
/// The runtime appends as the script runs; a change at the same instant as the last one
/// replaces it, so a sample at time t sees the state after every run-loop turn at t.
public struct History<Element: Sendable>: Sendable {
    public private(set) var times: [Double] = []
    public private(set) var values: [Element]

    public init(initial: Element) { values = [initial] }

    /// Whether the value ever changes.
    public var isConstant: Bool { times.isEmpty }

    /// The latest value.
    public var last: Element { values[values.count - 1] }

    /// Records a new value from scene time `time` on (times must not decrease).
    public mutating func set(_ value: Element, at time: Double) {
        if let lastTime = times.last, lastTime == time {
            values[values.count - 1] = value
        } else {
            times.append(time)
            values.append(value)
        }
    }

    /// The value in force at scene time `time`.
    @inline(__always)
    public func value(at time: Double) -> Element {
        if times.isEmpty { return values[0] }
        if time >= times[times.count - 1] { return values[values.count - 1] }
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return values[low]
    }
}
