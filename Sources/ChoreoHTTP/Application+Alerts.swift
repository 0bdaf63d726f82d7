import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoMonitor
import ChoreoService
import ChoreoStorage

/// The arena's alert routes (docs/alerts.md): the rules and channels (with their secrets, so
/// behind the token both ways), and what fires and was delivered.
extension Application {
    /// `GET /v1/arena/alerts`: the rules and channels as configured.
    func arenaAlerts(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try rejectQuery(request)
        let arena = try runningArena()
        return .json(200, value: AlertConfigurationCodec.encode(arena.configuration.alerts))
    }

    /// `PUT /v1/arena/alerts`: validated, stored with the arena's configuration, applied.
    func replaceArenaAlerts(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        try rejectQuery(request)
        let arena = try runningArena()
        let alerts = try service { () throws(ServiceError) in try arena.replaceAlerts(request.body) }
        return .json(200, value: AlertConfigurationCodec.encode(alerts))
    }

    /// `GET /v1/arena/alerts/state`: `{"firing": [...], "deliveries": [...]}`, newest deliveries
    /// first (at most `limit`, 100 by default, 1…1000).
    func arenaAlertState(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let limit = try service { () throws(ServiceError) in try ArenaRuntime.alertStateLimit(request.query) }
        let arena = try runningArena()
        return .json(
            200, value: try service { () throws(ServiceError) in try arena.alertStateDocument(deliveries: limit) })
    }
}
