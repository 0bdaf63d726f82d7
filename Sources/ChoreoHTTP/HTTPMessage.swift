/// An HTTP request as the application sees it, independent of the server library.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// Query parameters in the order given, decoded.
    public var query: [(String, String)]
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// Produces a response body piece by piece, so large NDJSON renders never sit whole in memory.
///
/// `@unchecked Sendable`: the server calls ``next()`` from one thread at a time (the worker that
/// refills the connection's buffer), which is the only access to the mutable position.
public final class BodyStream: @unchecked Sendable {
    private let produce: () -> [UInt8]?

    public init(_ produce: @escaping () -> [UInt8]?) { self.produce = produce }

    /// The next piece, or nil at the end.
    public func next() -> [UInt8]? { produce() }
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
