/// Every route of choreo's API, each declared once: method, path, lane, who may call it, and
/// its handler. A new route is one line here; the server, the metrics, the CORS preflight and
/// the token check all read this table.
extension Application {
    /// Paths a response's `Location` names, declared once here with their routes.
    /// The current round's scene: where a started round is.
    static let currentRoundScene = "/v1/arena/rounds/current/scene"
    /// A stored scene, a session and a maintenance window: where each is once made.
    static let storedScene = "/v1/scenes/{id}"
    static let liveSession = "/v1/sessions/{id}"
    static let maintenanceWindow = "/v1/arena/maintenance/{id}"

    /// A route's path with its `{id}` filled in.
    static func path(_ route: String, id: String) -> String {
        route.replacingOccurrences(of: "{id}", with: id)
    }

    static let routes: [Route<Application>] = [
        Route("POST", "/v1/render", lane: .render, Application.render),
        Route("POST", "/v1/validate", lane: .render, Application.validate),
        Route("POST", "/v1/import", Application.importSource),
        Route("POST", "/v1/export", lane: .export, Application.exportBody),
        Route("POST", "/v1/scenes", lane: .render, access: .token, Application.storeScene),
        Route("GET", "/v1/scenes", Application.listScenes),
        Route("GET", storedScene, Application.scene),
        Route("DELETE", "/v1/scenes/{id}", access: .token, Application.deleteScene),
        Route("GET", "/v1/scenes/{id}/frames", lane: .render, Application.sceneFrames),
        Route("GET", "/v1/scenes/{id}/export", lane: .export, Application.exportStoredScene),
        Route("POST", "/v1/sessions", access: .token, Application.createSession),
        Route("GET", liveSession, Application.session),
        Route("DELETE", "/v1/sessions/{id}", access: .token, Application.deleteSession),
        Route("POST", "/v1/sessions/{id}/inputs", access: .token, Application.input),
        Route("GET", "/v1/sessions/{id}/frames", lane: .render, Application.sessionFrames),
        Route("GET", "/v1/sessions/{id}/export", lane: .export, Application.exportSession),
        Route("POST", "/v1/arena/preview", lane: .render, Application.arenaPreview),
        Route("GET", "/v1/arena", Application.arenaStatus),
        Route("GET", "/v1/arena/config", Application.arenaConfiguration),
        Route("PUT", "/v1/arena/config", access: .token, Application.replaceArenaConfiguration),
        Route("POST", "/v1/arena/rounds", access: .token, Application.startRound),
        Route("GET", currentRoundScene, Application.roundScene),
        Route("GET", "/v1/arena/rounds/current/frames", lane: .render, Application.roundFrames),
        Route("GET", "/v1/arena/rounds/current/export", lane: .export, Application.exportRound),
        Route("GET", "/v1/arena/events", Application.arenaEvents),
        Route("GET", "/v1/arena/nodes/{name}", Application.node),
        Route("GET", "/v1/arena/nodes/{name}/history", Application.nodeHistory),
        Route("GET", "/v1/arena/nodes/{name}/uptime", Application.nodeUptime),
        Route("GET", "/v1/arena/nodes/{name}/sla", Application.nodeSLA),
        Route("GET", "/v1/arena/nodes/{name}/response-times", Application.nodeResponseTimes),
        Route("GET", "/v1/arena/alerts", access: .token, Application.arenaAlerts),
        Route("PUT", "/v1/arena/alerts", access: .token, Application.replaceArenaAlerts),
        Route("GET", "/v1/arena/alerts/state", Application.arenaAlertState),
        Route("POST", "/v1/arena/maintenance", access: .token, Application.addMaintenance),
        Route("GET", "/v1/arena/maintenance", Application.listMaintenance),
        Route("DELETE", maintenanceWindow, access: .token, Application.endMaintenance),
        Route("GET", "/api/v1/endpoints/statuses", Application.gatusStatuses),
        Route("GET", "/api/v1/endpoints/{key}/statuses", Application.gatusEndpoint),
        Route("GET", "/api/v1/endpoints/{key}/uptimes/{duration}", Application.gatusUptime),
        Route("GET", "/api/v1/endpoints/{key}/uptimes/{duration}/badge.svg", Application.gatusUptimeBadge),
        Route("GET", "/api/v1/endpoints/{key}/response-times/{duration}/badge.svg", Application.gatusResponseTimeBadge),
        Route("GET", "/api/v1/endpoints/{key}/response-times/{duration}/chart.svg", Application.gatusResponseTimeChart),
        Route("GET", "/api/v1/endpoints/{key}/health/badge.shields", Application.gatusShields),
        Route("GET", "/healthz", lane: .health, Application.health),
        Route("GET", "/health", lane: .health, Application.gatusHealth),
        Route("GET", "/metrics", lane: .inline, Application.metricsPage),
        Route("GET", "/problems/{name}", Application.problemPage),
        Route("GET", "/", Application.player),
        Route("GET", "/arena", Application.wallboard),
        Route("GET", "/pages/{file}", Application.pageFile),
        Route("GET", "/v1/arena/badge.svg", Application.arenaBadge),
        Route("GET", "/v1/arena/nodes/{name}/badge.svg", Application.nodeBadge),
    ]
}
