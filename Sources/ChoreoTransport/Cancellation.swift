import Synchronization

/// A request's cancellation: the server sets it when the client has gone, and long work asks
/// it between frames and stops. What `URLSessionTask.cancel()` is to a client, seen from the
/// server's side.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
