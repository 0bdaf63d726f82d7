import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoService
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
        var writer = JSONWriter()
        writer.value(scene)
        return .json(200, writer.bytes)
    }

    /// `GET /v1/arena`: the standings, as JSON or (`format=text`) a table.
    func arenaStatus(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        var format = "json"
        for (name, value) in request.query {
            guard name == "format", value == "json" || value == "text" else {
                throw Problem.invalidScene(
                    ValidationFailure([FieldError(path: "query.\(name)", message: "only format=json or format=text")]))
            }
            format = value
        }
        if format == "text" {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: .bytes(Array(arena.statusText().utf8)))
        }
        return .json(200, ArenaJSON.status(arena.status()))
    }

    /// `GET /v1/arena/config`.
    func arenaConfiguration(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        var writer = JSONWriter()
        writer.value(ArenaConfigurationCodec.encode(arena.configuration))
        return .json(200, writer.bytes)
    }

    /// `PUT /v1/arena/config`: validated, stored, applied.
    func replaceArenaConfiguration(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        try requireJSON(request)
        let configuration = try service { () throws(ServiceError) in try arena.replaceConfiguration(request.body) }
        var writer = JSONWriter()
        writer.value(ArenaConfigurationCodec.encode(configuration))
        return .json(200, writer.bytes)
    }

    /// `POST /v1/arena/rounds`: a round from the standings now.
    func startRound(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        let round: ArenaRuntime.Round
        switch arena.startRound() {
        case .success(let started): round = started
        case .failure(.running): throw Problem.conflict("A round is already running; try again when it ends.")
        case .failure(.noNodes): throw Problem.conflict("The arena has no nodes; PUT /v1/arena/config first.")
        case .failure(.invalid(let reason)):
            throw Problem.invalidConfiguration(ValidationFailure([FieldError(path: "$.round", message: reason)]))
        case .failure(.unavailable(let reason)): throw Problem.unavailable("Storage failed: \(reason)")
        }
        var writer = JSONWriter()
        writer.value([
            "id": .number(Double(round.id)), "started": .number(round.started), "duration": .number(round.duration),
            "order": .array(round.order.map { .string($0) }),
            "champion": round.champion.map { .string($0) } ?? .null,
        ])
        var response = HTTPResponse.json(201, writer.bytes)
        response.headers.append(("Location", "/v1/arena/rounds/current/scene"))
        return response
    }

    /// The round now, or 404 before the first.
    private func currentRound() throws(Problem) -> ArenaRuntime.Round {
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
        do throws(ServiceError) {
            let plan = try RenderService.plan(round.parsed, query)
            metrics.produced(frames: plan.times.count, samples: plan.sampleCount)
            return HTTPResponse(
                try RenderService.response(
                    plan, format: query.format, threads: configuration.renderThreads,
                    cancellation: request.cancellation, byteBudget: configuration.maxJSONResponseBytes,
                    memory: renderMemory, query: query))
        } catch {
            return Problem(error).response
        }
    }

    /// A node of the arena by name, or 404.
    private func knownNode(_ arena: ArenaRuntime, _ name: String) throws(Problem) {
        guard arena.configuration.nodes.contains(where: { $0.name == name }) else {
            throw Problem.notFound("No node named \(name) in the arena.")
        }
    }

    /// `GET /v1/arena/nodes/{name}/history`: its recorded probes.
    func nodeHistory(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        let arena = try runningArena()
        try knownNode(arena, name)
        let rows = try service { () throws(ServiceError) in try arena.history(of: name) }
        return .json(200, ArenaJSON.history(node: name, rows))
    }

    /// `GET /v1/arena/nodes/{name}`: 200 while up, 503 while down.
    func node(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        let arena = try runningArena()
        try rejectQuery(request)
        guard let node = arena.node(name) else { throw Problem.notFound("No node named \(name) in the arena.") }
        var writer = JSONWriter()
        writer.value(ArenaJSON.node(node: node, visual: nil, now: Date().timeIntervalSince1970))
        return .json(node.status == .up ? 200 : 503, writer.bytes)
    }

    /// `GET /v1/arena/badge.svg`.
    func arenaBadge(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        try rejectQuery(request)
        return Badge.response(Badge.arena(arena.nodes))
    }

    /// `GET /v1/arena/nodes/{name}/badge.svg`.
    func nodeBadge(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        let arena = try runningArena()
        try rejectQuery(request)
        guard let node = arena.nodes.first(where: { $0.name == name }) else {
            throw Problem.notFound("No node named \(name) in the arena.")
        }
        return Badge.response(Badge.node(node))
    }

    /// `GET /v1/arena/events`: server-sent events; `max=N` ends the stream after N events (the
    /// snapshot counts), `Last-Event-ID` resumes after an event (EventSource sends it when it
    /// reconnects).
    func arenaEvents(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        var limit: Int?
        for (name, value) in request.query where name == "max" {
            guard let count = Int(value), (1...1_000_000).contains(count) else {
                throw Problem.invalidScene(
                    ValidationFailure([
                        FieldError(path: "query.max", message: "must be a whole number from 1 to 1000000")
                    ]))
            }
            limit = count
        }
        let arena = try runningArena()
        guard
            let stream = arena.subscribe(
                resumingAfter: request.headers["last-event-id"], limit: limit, encode: ArenaJSON.sse)
        else {
            throw Problem.unavailable("Too many event subscribers (at most \(ArenaRuntime.maxSubscribers)).")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
            body: .stream(stream))
    }
}
