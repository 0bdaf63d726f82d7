import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoService

/// The arena's routes: status, configuration, rounds and events.
extension Application {
    func arenaRoute(_ request: HTTPRequest, pattern: String, parameters: [String: String] = [:]) throws(Problem)
        -> HTTPResponse
    {
        guard let arena else {
            throw Problem.unavailable("The arena is not running on this server (choreo serve starts it).")
        }
        // HEAD is GET without the body (libmicrohttpd sends none).
        switch (request.method == "HEAD" ? "GET" : request.method, pattern) {
        case ("GET", "/v1/arena"):
            var format = "json"
            for (name, value) in request.query {
                guard name == "format", value == "json" || value == "text" else {
                    throw Problem.invalidScene(
                        ValidationFailure([
                            FieldError(path: "query.\(name)", message: "only format=json or format=text")
                        ]))
                }
                format = value
            }
            if format == "text" {
                return HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")],
                    body: .bytes(Array(arena.statusText().utf8)))
            }
            return .json(200, arena.status())
        case ("GET", "/v1/arena/config"):
            var writer = JSONWriter()
            writer.value(ArenaConfigurationCodec.encode(arena.configuration))
            return .json(200, writer.bytes)
        case ("PUT", "/v1/arena/config"):
            try requireJSON(request)
            let configuration = try arena.replaceConfiguration(request.body)
            var writer = JSONWriter()
            writer.value(ArenaConfigurationCodec.encode(configuration))
            return .json(200, writer.bytes)
        case ("POST", "/v1/arena/rounds"):
            let round: ArenaRuntime.Round
            switch arena.startRound() {
            case .success(let started): round = started
            case .failure(.running): throw Problem.conflict("A round is already running; try again when it ends.")
            case .failure(.noNodes): throw Problem.conflict("The arena has no nodes; PUT /v1/arena/config first.")
            case .failure(.invalid(let reason)):
                throw Problem.invalidConfiguration(
                    ValidationFailure([FieldError(path: "$.round", message: reason)]))
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
        case ("GET", "/v1/arena/rounds/current/scene"):
            guard let round = arena.currentRound else { throw Problem.notFound("No round has run yet.") }
            return .json(200, round.scene)
        case ("GET", "/v1/arena/rounds/current/frames"):
            guard let round = arena.currentRound else { throw Problem.notFound("No round has run yet.") }
            let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
            return renderRound(round, query, request.cancellation)
        case ("GET", "/v1/arena/nodes/{name}/history"):
            let name = parameters["name"] ?? ""
            guard arena.configuration.nodes.contains(where: { $0.name == name }) else {
                throw Problem.notFound("No node named \(name) in the arena.")
            }
            return .json(200, try arena.history(of: name))
        case ("GET", "/v1/arena/nodes/{name}"):
            try rejectQuery(request)
            let name = parameters["name"] ?? ""
            guard let (status, body) = arena.nodeStatus(name) else {
                throw Problem.notFound("No node named \(name) in the arena.")
            }
            return .json(status, body)
        case ("GET", "/v1/arena/badge.svg"):
            try rejectQuery(request)
            return Badge.response(Badge.arena(arena.nodes))
        case ("GET", "/v1/arena/nodes/{name}/badge.svg"):
            try rejectQuery(request)
            let name = parameters["name"] ?? ""
            guard let node = arena.nodes.first(where: { $0.name == name }) else {
                throw Problem.notFound("No node named \(name) in the arena.")
            }
            return Badge.response(Badge.node(node))
        case ("GET", "/v1/arena/events"):
            guard let stream = arena.subscribe() else {
                throw Problem.unavailable("Too many event subscribers (at most \(ArenaRuntime.maxSubscribers)).")
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
                body: .stream(stream))
        default:
            throw Problem.notFound("No resource at \(request.path).")
        }
    }

    private func renderRound(
        _ round: ArenaRuntime.Round, _ query: SamplingQuery, _ cancellation: Cancellation?
    ) -> HTTPResponse {
        do throws(ServiceError) {
            let plan = try RenderService.plan(round.parsed, query)
            metrics.produced(frames: plan.times.count, samples: plan.sampleCount)
            return HTTPResponse(
                try RenderService.response(
                    plan, format: query.format, threads: configuration.renderThreads, cancellation: cancellation,
                    byteBudget: configuration.maxJSONResponseBytes, memory: renderMemory, query: query))
        } catch {
            return Problem(error).response
        }
    }
}
