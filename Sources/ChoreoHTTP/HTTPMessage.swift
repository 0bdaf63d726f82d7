import ChoreoJSON
import ChoreoService
import ChoreoTransport
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
    /// The client's address (`127.0.0.1`, `::1`), set by the server: who asks, where a
    /// resource is shared among clients (the import helpers).
    public var client: String?

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

    /// A service's output: its media type, its body, the render memory it holds.
    public init(status: Int = 200, _ output: RenderOutput) {
        let body: Body =
            switch output.body {
            case .bytes(let bytes): .bytes(bytes)
            case .stream(let stream): .stream(stream)
            }
        self.init(status: status, headers: [("Content-Type", output.contentType)], body: body)
        reservation = output.reservation
    }

    /// A JSON response.
    public static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: .bytes(bytes))
    }

    /// A JSON response of a parsed-value tree, written in its members' order.
    public static func json(_ status: Int, value: JSONValue) -> HTTPResponse {
        var writer = JSONWriter()
        writer.value(value)
        return json(status, writer.bytes)
    }

    /// Shared, so a JSON response allocates no header list of its own.
    private static let jsonHeaders = [("Content-Type", "application/json")]

    /// The size of a byte body (0 for streams, which are counted as they go).
    public var byteCount: Int {
        if case .bytes(let bytes) = body { return bytes.count }
        return 0
    }
}
