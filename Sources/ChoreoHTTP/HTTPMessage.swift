import Synchronization

/// An HTTP request as the application sees it, independent of the server library.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// Query parameters in the order given, decoded.
    public var query: [(String, String)]
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The body. Copies of a request share it until one of them sets it (``takeBody()`` empties
    /// it in every copy).
    public var body: [UInt8] {
        get { bodyStorage.bytes }
        set { bodyStorage = BodyStorage(newValue) }
    }
    private var bodyStorage: BodyStorage
    /// Set by the server when the client disconnects while the request runs.
    public var cancellation: Cancellation?

    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.bodyStorage = BodyStorage(body)
    }

    /// Hands the body over, leaving it empty in this request and every copy of it. The server
    /// holds a request until its response is made; a render takes its document this way, so a
    /// large one is freed once decoded, not when the run, the compile and the first frames are
    /// done too.
    public func takeBody() -> [UInt8] { bodyStorage.take() }
}

/// A request body shared by the copies of its request, until taken.
private final class BodyStorage: Sendable {
    private let storage: Mutex<[UInt8]>

    init(_ bytes: [UInt8]) { storage = Mutex(bytes) }

    var bytes: [UInt8] { storage.withLock { $0 } }

    func take() -> [UInt8] {
        storage.withLock { bytes in
            let taken = bytes
            bytes = []
            return taken
        }
    }
}

/// Produces a response body piece by piece, so large NDJSON renders never sit whole in memory,
/// and event streams wait without holding a thread.
///
/// A pull stream (``init(_:)``) always has its next piece at hand. A push stream
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

    /// A pull stream: `produce` returns the next piece, or nil at the end.
    public init(_ produce: @escaping () -> [UInt8]?) {
        let producer = Producer { produce().map(Piece.bytes) ?? .end }
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

/// An HTTP response.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case stream(BodyStream)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body
    /// Render memory the body holds (``RenderMemory``): the server keeps it until the response
    /// has been sent, then it returns to the budget.
    public var reservation: RenderMemory.Reservation?

    public init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: .bytes(bytes))
    }

    /// Shared, so a JSON response allocates no header list of its own.
    private static let jsonHeaders = [("Content-Type", "application/json")]

    /// The size of a byte body (0 for streams, which are counted as they go).
    public var byteCount: Int {
        if case .bytes(let bytes) = body { return bytes.count }
        return 0
    }
}
