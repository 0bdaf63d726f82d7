import ChoreoFormat
import ChoreoMonitor
import ChoreoService

/// Health, metrics, the problem pages and the player and wallboard pages.
extension Application {
    private static let healthyBody = Array(#"{"status":"ok"}"#.utf8)

    /// `GET /healthz`: 200 while storage is healthy, 503 saying why otherwise.
    func health(_ request: HTTPRequest, _ path: PathParameters) -> HTTPResponse {
        switch healthCheck.run() {
        case .healthy: return .json(200, Self.healthyBody)
        case .unhealthy(let reason), .noAnswer(let reason):
            return Problem.unavailable("Storage is not healthy: \(reason).").response
        }
    }

    /// `GET /health`, as Gatus answers it: `{"status":"UP"}` while storage is healthy, 503 with
    /// `{"status":"DOWN"}` otherwise.
    func gatusHealth(_ request: HTTPRequest, _ path: PathParameters) -> HTTPResponse {
        switch healthCheck.run() {
        case .healthy: return .json(200, Self.upBody)
        case .unhealthy, .noAnswer: return .json(503, Self.downBody)
        }
    }
    private static let upBody = Array(#"{"status":"UP"}"#.utf8)
    private static let downBody = Array(#"{"status":"DOWN"}"#.utf8)

    /// `GET /metrics`: Prometheus' text format.
    func metricsPage(_ request: HTTPRequest, _ path: PathParameters) -> HTTPResponse {
        let text = metrics.exposition(renderMemoryInUse: renderMemory.inUse, appending: arena?.metricsText() ?? "")
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: .bytes(Array(text.utf8)))
    }

    /// `GET /problems/{name}`: what a problem type means and what to do.
    func problemPage(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        guard let kind = ProblemType(rawValue: name) else {
            throw Problem.notFound("No problem type is called \(name).")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(kind.page))
    }

    /// `GET /`: the player. It takes `?scene=scn_…` and `?session=ses_…`, read by its script.
    func player(_ request: HTTPRequest, _ path: PathParameters) -> HTTPResponse {
        Pages.response("text/html; charset=utf-8", Pages.player)
    }

    /// `GET /arena`: the wallboard, with its kiosk options (read by its script, checked here so
    /// that a mistyped kiosk URL says so instead of showing defaults): `window` (1h, 24h, 7d,
    /// 30d), `theme` (dark, light), `nodes` (names, comma-separated), `kiosk` (1).
    func wallboard(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try service { () throws(ServiceError) in try ArenaRuntime.checkWallboardOptions(request.query) }
        return Pages.response("text/html; charset=utf-8", Pages.wallboard)
    }

    /// `GET /pages/{file}`: the pages' scripts and styles.
    func pageFile(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.file]
        try rejectQuery(request)
        guard let asset = Pages.asset(name) else { throw Problem.notFound("No page file is called \(name).") }
        return Pages.response(asset.type, asset.bytes)
    }
}
