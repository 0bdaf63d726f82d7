import Foundation

/// Values that concurrent threads of a test append to, read once they are done.
public final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Element] = []

    public init() {}

    public func append(_ value: Element) {
        lock.lock()
        list.append(value)
        lock.unlock()
    }

    public var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}
