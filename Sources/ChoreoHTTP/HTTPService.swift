/// What the HTTP server hosts: choreo's API (``Application``) or a health target
/// (``TargetService``). The server asks it for the route name (logs and metrics), where a
/// request runs (``RequestLane``), and the response.
public protocol HTTPService: Sendable {
    var metrics: Metrics { get }
    func routeName(method: String, path: String) -> String
    func lane(method: String, path: String) -> RequestLane
    func handle(_ request: HTTPRequest) -> HTTPResponse
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
    /// On a worker: everything else (storage reads and writes, the arena, sessions' inputs).
    case worker
}

extension Application: HTTPService {}
