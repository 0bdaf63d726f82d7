import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoMonitor
import ChoreoService
import ChoreoStorage
import Foundation

/// The arena's routes: status, configuration, rounds, nodes, badges and events.
extension Application {
    /// The running arena, or 503: `choreo serve` starts it.
    func runningArena() throws(Problem) -> ArenaRuntime {
        guard let arena else {
            throw Problem.unavailable("The arena is not running on this server (choreo serve starts it).")
        }
        return arena
    }

    /// `POST /v1/arena/preview`: standings in, the round's scene out (no arena needed).
    func arenaPreview(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        try rejectQuery(request)
        let scene = try service { () throws(ServiceError) in try ArenaService.preview(request.body) }
        return .json(200, value: scene)
    }

    /// `GET /v1/arena`: the standings, as JSON or (`format=text`) a table.
    func arenaStatus(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        switch try service({ () throws(ServiceError) in try ArenaRuntime.statusFormat(request.query) }) {
        case .text: return Self.text(arena.statusText(), noCache: false)
        case .json: return .json(200, ArenaDocuments.status(arena.status()))
        }
    }

    /// `GET /v1/arena/config`.
    /// Node URLs are shown as configured only to a caller that may change them (with the
    /// token, or on a server without one); others see them redacted.
    func arenaConfiguration(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return .json(200, value: arena.configurationDocument(mayChange: (try? authorize(request, .token)) != nil))
    }

    /// `PUT /v1/arena/config`: validated, stored, applied.
    func replaceArenaConfiguration(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        try requireJSON(request)
        let configuration = try service { () throws(ServiceError) in try arena.replaceConfiguration(request.body) }
        return .json(200, value: ArenaConfigurationCodec.encode(configuration))
    }

    /// `POST /v1/arena/rounds`: a round from the standings now. Its body is empty or `{}`, sent
    /// as JSON: a page of another origin cannot start rounds with a plain `fetch` (a JSON body
    /// needs a CORS preflight).
    func startRound(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        try requireJSON(request)
        try rejectQuery(request)
        let round = try service { () throws(ServiceError) in try arena.startRound(body: request.body) }
        var response = HTTPResponse.json(201, value: round.document)
        response.headers.append(("Location", Self.currentRoundScene))
        return response
    }

    /// The round now, or 404 before the first.
    func currentRound() throws(Problem) -> ArenaRuntime.Round {
        guard let round = try runningArena().currentRound else { throw Problem.notFound("No round has run yet.") }
        return round
    }

    /// `GET /v1/arena/rounds/current/scene`.
    func roundScene(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        .json(200, try currentRound().scene)
    }

    /// `GET /v1/arena/rounds/current/frames`: the round rendered as any scene is.
    func roundFrames(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let round = try currentRound()
        let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
        if request.method == "HEAD" { return Self.head(query) }
        return renderScene(request.cancellation) { () throws(ServiceError) in (round.parsed, query, nil) }
    }

    /// `GET /v1/arena/nodes/{name}/history`: its recorded probes, oldest first.
    func nodeHistory(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return .json(
            200,
            try service { () throws(ServiceError) in
                MonitorDocuments.history(try arena.nodeHistory(of: path[.name], parameters: request.query))
            })
    }

    /// `GET /v1/arena/nodes/{name}`: 200 while up, 503 while down.
    func node(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        try rejectQuery(request)
        let node = try service { () throws(ServiceError) in try arena.nodeDocument(path[.name]) }
        return .json(node.up ? 200 : 503, value: node.document)
    }

    /// `GET /v1/arena/badge.svg`.
    /// Query parameters are ignored: README badges carry shields' (`style`, `label`…).
    func arenaBadge(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return Self.badge(ArenaBadge.arena(arena.nodes))
    }

    /// `GET /v1/arena/nodes/{name}/badge.svg`.
    func nodeBadge(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return Self.badge(try service { () throws(ServiceError) in try arena.nodeBadge(path[.name]) })
    }

    /// `GET /v1/arena/events`: server-sent events; `max=N` ends the stream after N events (the
    /// snapshot counts), `Last-Event-ID` resumes after an event (EventSource sends it when it
    /// reconnects).
    func arenaEvents(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let limit = try service { () throws(ServiceError) in try ArenaRuntime.eventLimit(request.query) }
        let arena = try runningArena()
        let stream = try service { () throws(ServiceError) in
            try arena.events(
                limit: limit, lastEventID: request.headers["last-event-id"], encoding: ArenaDocuments.ServerSentEvents()
            )
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
            body: .stream(stream))
    }

    /// The response for badge bytes: never cached, as a status changes.
    static func badge(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "image/svg+xml"), ("Cache-Control", "no-cache, max-age=0"),
                // An SVG opened on its own is a document: it may run nothing and load nothing.
                ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
            ],
            body: .bytes(bytes))
    }
}
