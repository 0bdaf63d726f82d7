import Synchronization

/// Produces a response body piece by piece, so large NDJSON renders never sit whole in memory,
/// and event streams wait without holding a thread.
///
/// A pull stream (``init(pulling:)``) always has its next piece at hand. A push stream
/// (``init(pushing:onClose:)``) may answer ``Piece/later``: nothing now. Its producer then calls
/// ``ready()`` when there is, and the server asks again; no thread waits in between.
///
/// `@unchecked Sendable`: the server calls ``next()`` from one thread at a time (the worker that
/// refills the connection's buffer), which is the only access to the producer's own state;
/// the waker and the close hook are guarded by a mutex.
public final class BodyStream: @unchecked Sendable {
    public enum Piece: Sendable {
        case bytes([UInt8])
        /// Nothing now: ``ready()`` says when to ask again.
        case later
        case end
    }

    private let hooks = Mutex<Hooks>(Hooks())

    private struct Hooks {
        /// The producer, and what it holds (a render's plan): dropped on ``close()``.
        var produce: Producer?
        var wake: (@Sendable () -> Void)?
        var onClose: (@Sendable () -> Void)?
    }

    /// The producer's closure. `@unchecked Sendable`: it is called from one thread at a time
    /// (see the type's comment); the mutex only hands it out and lets it go.
    private struct Producer: @unchecked Sendable {
        let call: () -> Piece
    }

    /// A pull stream: `produce` returns the next piece (bytes, or the end; never ``Piece/later``).
    public init(pulling produce: @escaping () -> Piece) {
        let producer = Producer(call: produce)
        hooks.withLock { $0.produce = producer }
    }

    /// A push stream; `onClose` runs once when the connection ends, however it ends.
    public init(pushing produce: @escaping () -> Piece, onClose: @escaping @Sendable () -> Void) {
        let producer = Producer(call: produce)
        hooks.withLock {
            $0.produce = producer
            $0.onClose = onClose
        }
    }

    /// The next piece; the end once the stream is closed.
    public func next() -> Piece {
        guard let producer = hooks.withLock({ $0.produce }) else { return .end }
        return producer.call()
    }

    /// The server's way to be told that a push stream has more (set once, before the first read).
    public func whenReady(_ wake: @escaping @Sendable () -> Void) {
        hooks.withLock { $0.wake = wake }
    }

    /// The producer has more: the server asks ``next()`` again.
    public func ready() {
        hooks.withLock { $0.wake }?()
    }

    /// The connection has ended (the server calls this once). The producer is let go here,
    /// with what it holds, not when the last reference to the stream goes.
    public func close() {
        let (onClose, producer) = hooks.withLock { hooks -> ((@Sendable () -> Void)?, Producer?) in
            defer {
                hooks.onClose = nil
                hooks.wake = nil
                hooks.produce = nil
            }
            return (hooks.onClose, hooks.produce)
        }
        // Released here, outside the lock (a render plan takes a while to free).
        _ = consume producer
        onClose?()
    }
}
