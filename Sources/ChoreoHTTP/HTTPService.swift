/// What the HTTP server hosts: choreo's API (``Application``) or a health target
/// (``TargetService``). The server asks it for the route name (logs and metrics), whether a
/// request is cheap enough to answer on the I/O thread, and the response.
public protocol HTTPService: Sendable {
    var metrics: Metrics { get }
    func routeName(method: String, path: String) -> String
    func isLightweight(method: String, path: String) -> Bool
    func handle(_ request: HTTPRequest) -> HTTPResponse
}

extension Application: HTTPService {}
