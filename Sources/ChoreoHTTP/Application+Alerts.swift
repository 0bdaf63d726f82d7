import ChoreoArena
import ChoreoFormat
import ChoreoJSON
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
        var limit = 100
        for (name, value) in request.query {
            guard name == "limit", let number = Int(value), (1...1000).contains(number) else {
                throw Problem.invalidScene(
                    ValidationFailure([
                        FieldError(
                            path: "query.\(name)",
                            message: name == "limit" ? "must be a whole number, 1…1000" : "unknown parameter (limit)")
                    ]))
            }
            limit = number
        }
        let arena = try runningArena()
        let (firing, deliveries) = try service { () throws(ServiceError) in try arena.alertState(deliveries: limit) }
        let document: JSONValue = [
            "firing": .array(
                firing.map {
                    .object(
                        JSONObject([
                            ("rule", .string($0.rule)), ("node", .string($0.node)),
                            ("since", .string(GatusDocuments.timestamp($0.sinceMs))),
                            ("sequence", .number(Double($0.sequence))), ("description", .string($0.description)),
                        ]))
                }),
            "deliveries": .array(
                deliveries.map {
                    .object(
                        JSONObject([
                            ("idempotencyKey", .string($0.key)), ("channel", .string($0.channel)),
                            ("outcome", .string($0.status)), ("attempts", .number(Double($0.attempts))),
                            ("lastError", $0.lastError.map { .string($0) } ?? .null),
                            ("created", .string(GatusDocuments.timestamp($0.createdMs))),
                            ("next", $0.status == "retrying" ? .string(GatusDocuments.timestamp($0.nextMs)) : .null),
                        ]))
                }),
        ]
        return .json(200, value: document)
    }
}
