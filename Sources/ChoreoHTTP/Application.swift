import ChoreoEngine
import ChoreoFormat
import ChoreoMonitor
import ChoreoService
import ChoreoStorage
import ChoreoTransport
import Foundation

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
        public var renderThreads = RenderService.defaultThreads
        /// Live sessions' limits.
        public var sessionLimits = SessionRegistry.Limits()
        /// Bytes of one JSON render response (docs/limits.md).
        public var maxJSONResponseBytes = FormatLimits.maxJSONResponseBytes
        /// Origins whose pages may read the answers (CORS; `*` for any); empty: CORS off.
        public var corsOrigins: [String] = []
        /// Bytes the JSON render responses in flight may hold together (docs/limits.md).
        public var maxRenderMemory = 1 << 30
        /// On a server listening on loopback without a token: the `Host` names its requests
        /// that change state may carry (`localhost`, `127.0.0.1`, `::1`); nil: any.
        public var loopbackHosts: Set<String>?
        /// The import helper (`choreo-import`); nil: beside the running executable.
        public var importHelper: String?
        /// Imports that may run at once; more are answered 503.
        public var importCapacity = 2

        public init(apiToken: String? = nil) { self.apiToken = apiToken }
    }

    public let configuration: Configuration
    public let store: any Storage
    public let metrics: Metrics
    /// The live arena, when the server runs one.
    public let arena: ArenaRuntime?
    /// Live sessions (docs/sessions.md).
    public let sessions: SessionRegistry
    /// Stored scenes.
    let scenes: SceneCatalog
    let router = Router(Application.routes)
    /// The render responses in flight, against `Configuration.maxRenderMemory`.
    public let renderMemory: RenderMemory
    /// `/healthz`'s check, with its deadline.
    let healthCheck: HealthCheck
    /// The helper processes `POST /v1/import` runs in.
    let importHelpers: ImportHelpers

    public init(store: any Storage, configuration: Configuration, arena: ArenaRuntime? = nil) {
        ProcessMetrics.markStart()
        self.store = store
        self.configuration = configuration
        self.arena = arena
        renderMemory = RenderMemory(limit: configuration.maxRenderMemory)
        healthCheck = HealthCheck(store: store)
        sessions = SessionRegistry(store: store, limits: configuration.sessionLimits, memory: renderMemory)
        scenes = SceneCatalog(store: store)
        importHelpers = ImportHelpers(
            path: configuration.importHelper ?? ImportHelpers.besideExecutable(),
            capacity: configuration.importCapacity,
            memory: renderMemory)
        metrics = Metrics(routes: Application.routes.map(\.pattern) + ["preflight"])
    }

    /// The request's route, matched once: the server reads its name and lane, then hands it
    /// back to ``handle(_:_:)``.
    public func match(method: String, path: String) -> RouteMatch {
        router.match(method: method, path: path)
    }

    /// Handles one request. Never throws: every failure becomes a problem document.
    ///
    /// With `Configuration.corsOrigins`, a page of one of those origins (or of any, with `*`)
    /// may read the answers (CORS: `Access-Control-Allow-Origin`, event streams included) and
    /// its preflights are answered; without, no CORS header is sent. `OPTIONS` on a path is
    /// always 204 with `Allow`.
    public func handle(_ request: HTTPRequest, _ match: RouteMatch) -> HTTPResponse {
        var response = route(request, match)
        decorate(&response, origin: request.headers["origin"], method: request.method)
        return response
    }

    /// What every response carries, the server's own (413, 503) included: `nosniff`, and the
    /// CORS headers for a page of an allowed origin. With named origins, `Vary: Origin` on
    /// every answer, since each depends on the origin asking.
    public func decorate(_ response: inout HTTPResponse, origin: String?, method: String) {
        if !response.headers.contains(where: { $0.0 == "X-Content-Type-Options" }) {
            response.headers.append(("X-Content-Type-Options", "nosniff"))
        }
        let origins = configuration.corsOrigins
        if !origins.isEmpty && !origins.contains("*") { response.headers.append(("Vary", "Origin")) }
        if let origin = allowedOrigin(origin) {
            response.headers.append(("Access-Control-Allow-Origin", origin))
            if method == "OPTIONS" && response.status == 204 {
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
    }

    /// The `Access-Control-Allow-Origin` value for a request from a page, if its origin may
    /// read the answer.
    func allowedOrigin(_ origin: String?) -> String? {
        let origins = configuration.corsOrigins
        guard !origins.isEmpty, let origin else { return nil }
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    private func route(_ request: HTTPRequest, _ match: RouteMatch) -> HTTPResponse {
        if let field = Self.fieldWithNUL(request) { return Problem.badRequestTarget(field).response }
        if request.method == "OPTIONS" {
            let methods = router.methods(path: request.path)
            guard !methods.isEmpty else { return Problem.notFound("No resource at \(request.path).").response }
            let list = (methods + ["OPTIONS"]).joined(separator: ", ")
            return HTTPResponse(status: 204, headers: [("Allow", list)])
        }
        guard let route = router.route(match) else {
            return (match.failure ?? Problem.notFound("No resource at \(request.path).")).response
        }
        do {
            try authorize(request, route.access)
            return try route.handler(self)(request, match.parameters)
        } catch {
            return error.response
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

    /// The token check of a route that changes state: `Authorization: Bearer <token>`, the
    /// scheme in any case (RFC 9110 §11.1); without a token, a server on loopback takes such
    /// requests only for a loopback `Host` (a page of another site that resolves its own name
    /// to 127.0.0.1 cannot reach it: DNS rebinding).
    func authorize(_ request: HTTPRequest, _ access: RouteAccess) throws(Problem) {
        guard access == .token else { return }
        guard let token = configuration.apiToken else {
            if let hosts = configuration.loopbackHosts, let host = request.headers["host"],
                !hosts.contains(Self.hostName(host))
            {
                throw Problem.misdirected(host)
            }
            return
        }
        let header = (request.headers["authorization"] ?? "").trimmingCharacters(in: .whitespaces)
        let space = header.firstIndex(of: " ") ?? header.endIndex
        let given = header[space...].drop { $0 == " " }
        guard header[..<space].lowercased() == "bearer",
            Self.constantTimeEqual(Array(given.utf8), Array(token.utf8))
        else { throw Problem.unauthorized() }
    }

    /// A state change the token (or the loopback host check) refuses, answered from the
    /// request's head: the body is never read, and no `100 Continue` asks for it.
    public func refuseEarly(_ match: RouteMatch, header: (String) -> String?) -> HTTPResponse? {
        guard let route = router.route(match), route.access == .token else { return nil }
        var headers: [String: String] = [:]
        for name in ["Authorization", "Host"] { headers[name.lowercased()] = header(name) }
        do {
            try authorize(HTTPRequest(method: route.method, path: route.pattern, headers: headers), .token)
            return nil
        } catch {
            return error.response
        }
    }

    /// A `Host` header's name, lower case, without its port (`[::1]:8080` → `::1`).
    static func hostName(_ host: String) -> String {
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            name = name.dropFirst().prefix { $0 != "]" }
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        return String(name)
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

    func rejectQuery(_ request: HTTPRequest) throws(Problem) {
        guard !request.query.isEmpty else { return }
        throw Problem(
            ServiceError.invalidRequest(
                ValidationFailure(
                    request.query.map { FieldError(path: "query.\($0.0)", message: "unknown query parameter") })))
    }

    /// Renders the scene `prepare` reads and reserves memory for (an arena round's, already
    /// parsed, reserves none): the response holds the run's memory until it is sent. Frames
    /// and samples are counted once planned.
    func renderScene(
        _ cancellation: Cancellation?,
        _ prepare: () throws(ServiceError) -> (Scene, RenderQuery, RenderMemory.Reservation?)
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
}
