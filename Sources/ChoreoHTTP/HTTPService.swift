import ChoreoService
import ChoreoTransport

/// What the HTTP server hosts: choreo's API (``Application``) or a health target. The server
/// matches a request to its route once, when its head arrives (the route's name for logs and
/// metrics, where it runs: ``RequestLane``), and hands the match back with the request.
public protocol HTTPService: Sendable {
    var metrics: Metrics { get }
    func match(method: String, path: String) -> RouteMatch
    func handle(_ request: HTTPRequest, _ match: RouteMatch) -> HTTPResponse
    /// Adds what every answer carries to one the server made itself (413, 503).
    func decorate(_ response: inout HTTPResponse, origin: String?, method: String)
    /// The answer to a request its head already refuses (a missing or wrong token), before
    /// its body is read; nil to read it.
    func refuseEarly(_ match: RouteMatch, header: (String) -> String?) -> HTTPResponse?
}

extension HTTPService {
    public func decorate(_ response: inout HTTPResponse, origin: String?, method: String) {}
    public func refuseEarly(_ match: RouteMatch, header: (String) -> String?) -> HTTPResponse? { nil }

    /// Matches and handles a request: for callers without a server (tests, the CLI).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        handle(request, match(method: request.method, path: request.path))
    }
}

/// Where the server runs a request.
public enum RequestLane: Sendable {
    /// On libmicrohttpd's I/O thread: cheap, touches no lock another request holds for long
    /// (`/metrics`). Reads neither headers, query nor body.
    case inline
    /// On the server's own health queue: may wait a bounded time (storage's health check), so
    /// it neither holds an I/O thread nor queues behind renders. Reads neither headers, query
    /// nor body.
    case health
    /// On the server's bounded render executor, behind admission control: requests that run a
    /// scene (render, validate, store, frames, preview). Over its queue, 503 with Retry-After.
    case render
    /// On the server's export executor, apart from renders: exports (Lottie, CSS, Web
    /// Animations, HTML), which sample a scene many times over, so that however many run, the
    /// render threads stay free for renders. Over its queue, 503 with Retry-After.
    case export
    /// On a worker: everything else (storage reads and writes, the arena, sessions' inputs).
    case worker
}

extension Application: HTTPService {}
