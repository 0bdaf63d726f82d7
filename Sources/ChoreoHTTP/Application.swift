import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoService
import ChoreoStorage
import Foundation
import Synchronization

/// The choreo HTTP API, with no sockets: a request in, a response out.
///
/// The libmicrohttpd adapter (`ChoreoServer`) feeds it real requests; tests call it directly.
public final class Application: Sendable {
    public struct Configuration: Sendable {
        /// Bearer token required for state-changing requests; nil disables authentication.
        public var apiToken: String?
        /// Largest accepted request body, in bytes.
        public var maxBodyBytes = 8 * 1024 * 1024
        /// Threads a render may use.
        public var renderThreads = ResponseEncoder.defaultThreads
        /// Live sessions' limits.
        public var sessionLimits = SessionRegistry.Limits()
        /// Bytes of one JSON render response (docs/limits.md).
        public var maxJSONResponseBytes = FormatLimits.maxJSONResponseBytes
        /// Origins whose pages may read the answers (CORS; `*` for any); empty: CORS off.
        public var corsOrigins: [String] = []
        /// Bytes the JSON render responses in flight may hold together (docs/limits.md).
        public var maxRenderMemory = 1 << 30

        public init(apiToken: String? = nil) { self.apiToken = apiToken }
    }

    public let configuration: Configuration
    public let store: any Storage
    public let metrics: Metrics
    /// The live arena, when the server runs one.
    public let arena: ArenaRuntime?
    /// Live sessions (docs/sessions.md).
    public let sessions: SessionRegistry
    let router: Router
    /// The render responses in flight, against `Configuration.maxRenderMemory`.
    public let renderMemory: RenderMemory

    public init(store: any Storage, configuration: Configuration, arena: ArenaRuntime? = nil) {
        self.store = store
        self.configuration = configuration
        self.arena = arena
        renderMemory = RenderMemory(limit: configuration.maxRenderMemory)
        sessions = SessionRegistry(store: store, limits: configuration.sessionLimits)
        var router = Router()
        router.add("POST", "/v1/render", lane: .render)
        router.add("POST", "/v1/validate", lane: .render)
        router.add("POST", "/v1/scenes", lane: .render)
        router.add("GET", "/v1/scenes")
        router.add("GET", "/v1/scenes/{id}")
        router.add("DELETE", "/v1/scenes/{id}")
        router.add("GET", "/v1/scenes/{id}/frames", lane: .render)
        router.add("POST", "/v1/sessions")
        router.add("GET", "/v1/sessions/{id}")
        router.add("DELETE", "/v1/sessions/{id}")
        router.add("POST", "/v1/sessions/{id}/inputs")
        router.add("GET", "/v1/sessions/{id}/frames", lane: .render)
        router.add("POST", "/v1/arena/preview", lane: .render)
        router.add("GET", "/v1/arena")
        router.add("GET", "/v1/arena/config")
        router.add("PUT", "/v1/arena/config")
        router.add("POST", "/v1/arena/rounds")
        router.add("GET", "/v1/arena/rounds/current/scene")
        router.add("GET", "/v1/arena/rounds/current/frames", lane: .render)
        router.add("GET", "/v1/arena/events")
        router.add("GET", "/v1/arena/nodes/{name}")
        router.add("GET", "/v1/arena/nodes/{name}/history")
        router.add("GET", "/healthz", lane: .health)
        router.add("GET", "/metrics", lane: .inline)
        router.add("GET", "/problems/{name}")
        router.add("GET", "/")
        router.add("GET", "/arena")
        router.add("GET", "/pages/{file}")
        router.add("GET", "/v1/arena/badge.svg")
        router.add("GET", "/v1/arena/nodes/{name}/badge.svg")
        self.router = router
        metrics = Metrics(routes: router.routes.map(\.name) + ["preflight"])
    }

    private static let healthyBody = Array(#"{"status":"ok"}"#.utf8)

    /// The route name for metrics and logs (`unmatched` for 404/405).
    public func routeName(method: String, path: String) -> String {
        if method == "OPTIONS" { return "preflight" }
        if case .success(let match) = router.match(method: method, path: path) { return match.route.name }
        return "unmatched"
    }

    /// Where a request runs, as its route declares (unmatched requests: a worker, which answers
    /// 404 or 405).
    public func lane(method: String, path: String) -> RequestLane {
        if case .success(let match) = router.match(method: method, path: path) { return match.route.lane }
        return .worker
    }

    /// Handles one request. Never throws: every failure becomes a problem document.
    ///
    ///
    /// With `Configuration.corsOrigins`, a page of one of those origins (or of any, with `*`)
    /// may read the answers (CORS: `Access-Control-Allow-Origin`, event streams included) and
    /// its preflights are answered; without, no CORS header is sent. `OPTIONS` on a path is
    /// always 204 with `Allow`.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response = route(request)
        if let origin = allowedOrigin(request) {
            response.headers.append(("Access-Control-Allow-Origin", origin))
            if origin != "*" { response.headers.append(("Vary", "Origin")) }
            if request.method == "OPTIONS" && response.status == 204 {
                let methods = response.headers.first { $0.0 == "Allow" }?.1 ?? ""
                response.headers += [
                    ("Access-Control-Allow-Methods", methods),
                    ("Access-Control-Allow-Headers", "Authorization, Content-Type, If-Match"),
                    ("Access-Control-Max-Age", "600"),
                ]
            } else {
                response.headers.append(("Access-Control-Expose-Headers", "Location, Retry-After, X-Request-Id, Allow"))
            }
        }
        return response
    }

    /// The `Access-Control-Allow-Origin` value for a request from a page, if its origin may
    /// read the answer.
    func allowedOrigin(_ request: HTTPRequest) -> String? {
        let origins = configuration.corsOrigins
        guard !origins.isEmpty, let origin = request.headers["origin"] else { return nil }
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if let field = Self.fieldWithNUL(request) { return Problem.badRequestTarget(field).response }
        if request.method == "OPTIONS" {
            let methods = router.methods(path: request.path)
            guard !methods.isEmpty else { return Problem.notFound("No resource at \(request.path).").response }
            let list = (methods + ["OPTIONS"]).joined(separator: ", ")
            return HTTPResponse(status: 204, headers: [("Allow", list)])
        }
        switch router.match(method: request.method, path: request.path) {
        case .failure(let problem):
            return problem.response
        case .success(let match):
            do {
                try authorize(request, route: match.route)
                return try dispatch(request, match)
            } catch {
                return error.response
            }
        }
    }

    /// The first part of the request target holding a NUL: decoded (in-process callers), or left
    /// encoded as `%00` by the server, which does not decode a string that has one.
    static func fieldWithNUL(_ request: HTTPRequest) -> String? {
        func hasNUL(_ text: String) -> Bool { text.contains("%00") || text.utf8.contains(0) }
        if hasNUL(request.path) { return "path" }
        for (name, value) in request.query where hasNUL(name) || hasNUL(value) { return "query.\(name)" }
        return nil
    }

    private func authorize(_ request: HTTPRequest, route: Router.Route) throws(Problem) {
        guard let token = configuration.apiToken else { return }
        let changesState =
            ["POST", "PUT", "DELETE", "PATCH"].contains(route.method)
            && route.pattern != "/v1/render" && route.pattern != "/v1/validate" && route.pattern != "/v1/arena/preview"
        guard changesState else { return }
        let header = request.headers["authorization"] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix),
            Self.constantTimeEqual(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(token.utf8))
        else { throw Problem.unauthorized() }
    }

    /// Compares two byte strings in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        let count = max(a.count, b.count)
        for index in 0..<count {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }

    func requireJSON(_ request: HTTPRequest) throws(Problem) {
        if request.body.count > configuration.maxBodyBytes { throw Problem.tooLarge(limit: configuration.maxBodyBytes) }
        let type = request.headers["content-type"]
        let mediaType = type?.split(separator: ";").first.map {
            String($0).trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let mediaType, mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw Problem.unsupportedMediaType(type)
        }
    }

    private func dispatch(_ request: HTTPRequest, _ match: Router.Match) throws(Problem) -> HTTPResponse {
        switch (match.route.method, match.route.pattern) {
        case ("POST", "/v1/render"):
            try requireJSON(request)
            let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
            return render(request.cancellation) { () throws(ServiceError) in
                let run = try RenderService.reserveRun(request.body, memory: renderMemory)
                // The document is taken from the request (which the server holds until the
                // response is made), so it is freed once parsed.
                let (scene, _) = try RenderService.scene(from: request.takeBody())
                return (consume scene, query, run)
            }
        case ("POST", "/v1/arena/preview"):
            try requireJSON(request)
            try rejectQuery(request)
            let scene = try service { () throws(ServiceError) in try ArenaService.preview(request.body) }
            var writer = JSONWriter()
            writer.value(scene)
            return .json(200, writer.bytes)
        case ("POST", "/v1/validate"):
            try requireJSON(request)
            try rejectQuery(request)
            let report = try service { () throws(ServiceError) in
                try RenderService.validation(request.body, cancellation: request.cancellation, memory: renderMemory)
            }
            return .json(200, ResponseEncoder.validation(report))
        case ("POST", "/v1/scenes"):
            try requireJSON(request)
            try rejectQuery(request)
            let (name, document) = try service { () throws(ServiceError) in
                try RenderService.checkedForStorage(
                    request.body, cancellation: request.cancellation, memory: renderMemory)
            }
            let summary = try storage { () throws(StorageError) in
                try store.insert(name: name, document: document)
            }
            var response = HTTPResponse.json(201, summaryJSON(summary))
            response.headers.append(("Location", "/v1/scenes/\(summary.id)"))
            return response
        case ("GET", "/v1/scenes"):
            return try list(request)
        case ("GET", "/v1/scenes/{id}"):
            try rejectQuery(request)
            let record = try fetch(match.parameters["id"]!)
            return .json(200, record.document)
        case ("DELETE", "/v1/scenes/{id}"):
            try rejectQuery(request)
            let id = match.parameters["id"]!
            let deleted = try storage { () throws(StorageError) in try store.delete(id) }
            guard deleted else { throw Problem.notFound("No stored scene has the id \(id).") }
            return HTTPResponse(status: 204)
        case ("GET", "/v1/scenes/{id}/frames"):
            let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
            let record = try fetch(match.parameters["id"]!)
            return render(request.cancellation) { () throws(ServiceError) in
                let run = try RenderService.reserveRun(record.document, memory: renderMemory)
                let (scene, _) = try RenderService.scene(from: record.document)
                return (consume scene, query, run)
            }
        case ("POST", "/v1/sessions"):
            try requireJSON(request)
            try rejectQuery(request)
            let summary = try service { () throws(ServiceError) in try sessions.create(request.body) }
            var response = HTTPResponse.json(201, ResponseEncoder.session(summary))
            response.headers.append(("Location", "/v1/sessions/\(summary.id)"))
            return response
        case ("POST", "/v1/sessions/{id}/inputs"):
            try requireJSON(request)
            try rejectQuery(request)
            let ifMatch = try Self.ifMatch(request)
            let outcome = try service { () throws(ServiceError) in
                try sessions.append(match.parameters["id"]!, body: request.body, ifMatch: ifMatch)
            }
            return .json(200, ResponseEncoder.input(outcome))
        case ("GET", "/v1/sessions/{id}"):
            try rejectQuery(request)
            let snapshot = try service { () throws(ServiceError) in try sessions.describe(match.parameters["id"]!) }
            return .json(200, ResponseEncoder.session(snapshot))
        case ("DELETE", "/v1/sessions/{id}"):
            try rejectQuery(request)
            try service { () throws(ServiceError) in try sessions.delete(match.parameters["id"]!) }
            return HTTPResponse(status: 204)
        case ("GET", "/v1/sessions/{id}/frames"):
            let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
            let output = try service { () throws(ServiceError) in
                try sessions.frames(
                    match.parameters["id"]!, query: query, cancellation: request.cancellation, memory: renderMemory,
                    threads: configuration.renderThreads, byteBudget: configuration.maxJSONResponseBytes,
                    planned: { plan in metrics.produced(frames: plan.times.count, samples: plan.sampleCount) })
            }
            return HTTPResponse(output)
        case ("GET", "/healthz"):
            guard let problem = store.healthProblem() else { return .json(200, Self.healthyBody) }
            return Problem.unavailable("Storage is not healthy: \(problem).").response
        case ("GET", "/metrics"):
            let memory = """
                # HELP choreo_render_memory_bytes Bytes the JSON render responses in flight hold (limit: --max-render-memory).
                # TYPE choreo_render_memory_bytes gauge
                choreo_render_memory_bytes \(renderMemory.inUse)

                """
            let text = metrics.render() + memory + (arena?.metricsText() ?? "")
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: .bytes(Array(text.utf8)))
        case ("GET", "/problems/{name}"):
            let name = match.parameters["name"]!
            guard let kind = ProblemType(rawValue: name) else {
                throw Problem.notFound("No problem type is called \(name).")
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(kind.page))
        case ("GET", "/"):
            // The player takes `?scene=scn_…` and `?session=ses_…`, read by its script.
            return Pages.response("text/html; charset=utf-8", Pages.player)
        case ("GET", "/arena"):
            try rejectQuery(request)
            return Pages.response("text/html; charset=utf-8", Pages.wallboard)
        case ("GET", "/pages/{file}"):
            try rejectQuery(request)
            let name = match.parameters["file"]!
            guard let asset = Pages.asset(name) else { throw Problem.notFound("No page file is called \(name).") }
            return Pages.response(asset.type, asset.bytes)
        case (_, let pattern) where pattern.hasPrefix("/v1/arena"):
            return try arenaRoute(request, pattern: pattern, parameters: match.parameters)
        default:
            throw Problem.notFound("No resource at \(request.path).")
        }
    }

    /// `If-Match: "n"`: the number of inputs the client has seen (quotes optional).
    static func ifMatch(_ request: HTTPRequest) throws(Problem) -> Int? {
        guard let value = request.headers["if-match"] else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces).trimmingCharacters(
            in: CharacterSet(charactersIn: "\""))
        guard let count = Int(trimmed), count >= 0 else {
            throw Problem.invalidScene(
                ValidationFailure([
                    FieldError(path: "header.If-Match", message: "must be the number of inputs seen, as \"3\"")
                ]))
        }
        return count
    }

    func rejectQuery(_ request: HTTPRequest) throws(Problem) {
        guard !request.query.isEmpty else { return }
        throw Problem.invalidScene(
            ValidationFailure(
                request.query.map { FieldError(path: "query.\($0.0)", message: "unknown query parameter") }))
    }

    /// Renders the scene `prepare` reads and reserves memory for: the response holds the run's
    /// memory until it is sent. Frames and samples are counted once planned.
    func render(
        _ cancellation: Cancellation?,
        _ prepare: () throws(ServiceError) -> (Scene, SamplingQuery, RenderMemory.Reservation)
    ) -> HTTPResponse {
        do throws(ServiceError) {
            let (scene, query, run) = try prepare()
            let output = try RenderService.render(
                consume scene, query, cancellation: cancellation, run: run, memory: renderMemory,
                threads: configuration.renderThreads, byteBudget: configuration.maxJSONResponseBytes,
                planned: { plan in metrics.produced(frames: plan.times.count, samples: plan.sampleCount) })
            return HTTPResponse(output)
        } catch {
            return Problem(error).response
        }
    }

    /// Runs a service call, its error as a problem document.
    func service<T>(_ body: () throws(ServiceError) -> T) throws(Problem) -> T {
        do {
            return try body()
        } catch {
            throw Problem(error)
        }
    }

    private func storage<T>(_ body: () throws(StorageError) -> T) throws(Problem) -> T {
        do {
            return try body()
        } catch {
            throw Problem.storage(error)
        }
    }

    private func fetch(_ id: String) throws(Problem) -> SceneRecord {
        let record = try storage { () throws(StorageError) in try store.get(id) }
        guard let record else { throw Problem.notFound("No stored scene has the id \(id).") }
        return record
    }

    private func list(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        var limit = 50
        var cursor: Int64?
        var errors: [FieldError] = []
        for (name, value) in request.query {
            switch name {
            case "limit":
                if let n = Int(value), (1...500).contains(n) {
                    limit = n
                } else {
                    errors.append(FieldError(path: "query.limit", message: "must be a whole number from 1 to 500"))
                }
            case "cursor":
                if let n = Int64(value), n > 0 {
                    cursor = n
                } else {
                    errors.append(FieldError(path: "query.cursor", message: "must be a cursor from a previous page"))
                }
            default:
                errors.append(FieldError(path: "query.\(name)", message: "unknown query parameter"))
            }
        }
        if !errors.isEmpty { throw Problem.invalidScene(ValidationFailure(errors)) }
        let page = try storage { () throws(StorageError) in try store.list(limit: limit, after: cursor) }
        var writer = JSONWriter()
        writer.raw("{\"items\":")
        writer.array(page.items) { $0.bytes.append(contentsOf: summaryJSON($1)) }
        writer.raw(",\"next\":")
        if let next = page.next { writer.string(String(next)) } else { writer.raw("null") }
        writer.raw("}")
        return .json(200, writer.bytes)
    }

    private func summaryJSON(_ summary: SceneSummary) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"id\":")
        writer.string(summary.id)
        writer.raw(",\"name\":")
        if let name = summary.name { writer.string(name) } else { writer.raw("null") }
        writer.raw(",\"created\":")
        writer.string(summary.created)
        writer.raw("}")
        return writer.bytes
    }
}
