/// A parameter a route's path declares: `{id}`, `{name}`, `{file}`, `{key}`, `{duration}`.
public enum PathParameter: String, Sendable, CaseIterable {
    /// A stored scene's or a session's id.
    case id
    /// An arena node's name, or a problem type's.
    case name
    /// A page asset's file name.
    case file
    /// A node's key in Gatus's API (its name with separators as `-`).
    case key
    /// A window in Gatus's API: `1h`, `24h`, `7d`, `30d`.
    case duration
}

/// The path parameters of a matched request, by name. A handler reads only the parameters its
/// route's pattern declares (the table checks every pattern when it is built), so a read
/// always finds its value.
public struct PathParameters: Sendable {
    private var values: [(PathParameter, String)] = []

    public init() {}

    mutating func append(_ parameter: PathParameter, _ value: Substring) {
        values.append((parameter, String(value)))
    }

    /// The value of `parameter` (empty when the route has none: a programming error the tests
    /// catch, not a client's).
    public subscript(_ parameter: PathParameter) -> String {
        values.first { $0.0 == parameter }?.1 ?? ""
    }
}

/// Who may call a route.
public enum RouteAccess: Sendable {
    /// Anyone: reads, and requests that compute without changing anything (render, validate).
    case open
    /// Changes state: needs `Authorization: Bearer <token>` when the server has a token.
    case token
}

/// One route: its method, path pattern, lane, access rule and handler, declared once.
public struct Route<Context: Sendable>: Sendable {
    /// A method of the context: `Application.render`, called as `render(request, path)`.
    public typealias Handler = @Sendable (Context) -> (HTTPRequest, PathParameters) throws(Problem) -> HTTPResponse

    public let method: String
    /// A path pattern such as `/v1/scenes/{id}/frames`; the route's name in metrics and logs.
    public let pattern: String
    /// Where the server runs it.
    public let lane: RequestLane
    public let access: RouteAccess
    let handler: Handler
    let segments: [Segment]

    enum Segment: Sendable, Equatable {
        case literal(Substring)
        case parameter(PathParameter)
    }

    public init(
        _ method: String, _ pattern: String, lane: RequestLane = .worker, access: RouteAccess = .open,
        _ handler: @escaping Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.lane = lane
        self.access = access
        self.handler = handler
        segments = pattern.split(separator: "/").map { part in
            guard part.first == "{" && part.last == "}" else { return .literal(part) }
            guard let parameter = PathParameter(rawValue: String(part.dropFirst().dropLast())) else {
                preconditionFailure("route \(pattern) declares an unknown parameter \(part)")
            }
            return .parameter(parameter)
        }
    }
}

/// A request matched to its route, once: what the server needs before it runs the request
/// (the name for logs and metrics, the lane) and what the handler needs (the route and its
/// parameters, or the 404/405 to answer).
public struct RouteMatch: Sendable {
    /// The route's pattern; `preflight` for `OPTIONS`, `unmatched` for 404 and 405.
    public let name: String
    public let lane: RequestLane
    /// The route's place in its table.
    let index: Int?
    let parameters: PathParameters
    /// The answer when no route takes the request.
    let failure: Problem?

    public init(name: String, lane: RequestLane, index: Int?, parameters: PathParameters = PathParameters()) {
        self.name = name
        self.lane = lane
        self.index = index
        self.parameters = parameters
        failure = nil
    }

    init(failure: Problem) {
        name = "unmatched"
        lane = .worker
        index = nil
        parameters = PathParameters()
        self.failure = failure
    }

    /// `OPTIONS`: answered without a route.
    static let preflight = RouteMatch(name: "preflight", lane: .worker, index: nil)
}

/// Matches a method and path to a route of one table, answering 404 and 405 (with `Allow`) itself.
/// `HEAD` takes the `GET` route.
public struct Router<Context: Sendable>: Sendable {
    public let routes: [Route<Context>]
    /// Routes without parameters by exact path: most requests match without splitting the path.
    private let exact: [String: [Int]]

    public init(_ routes: [Route<Context>]) {
        self.routes = routes
        var exact: [String: [Int]] = [:]
        for (index, route) in routes.enumerated() where !route.pattern.contains("{") {
            exact[route.pattern, default: []].append(index)
        }
        self.exact = exact
    }

    /// The route for a request, or the problem to answer with.
    public func match(method: String, path: String) -> RouteMatch {
        if method == "OPTIONS" { return .preflight }
        if let candidates = exact[path],
            let index = candidates.first(where: { Self.takes(routes[$0].method, method) })
        {
            return RouteMatch(name: routes[index].pattern, lane: routes[index].lane, index: index)
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var allowed: [String] = []
        for (index, route) in routes.enumerated() {
            guard let parameters = Self.parameters(route.segments, segments) else { continue }
            if Self.takes(route.method, method) {
                return RouteMatch(name: route.pattern, lane: route.lane, index: index, parameters: parameters)
            }
            allowed.append(route.method)
        }
        if allowed.isEmpty { return RouteMatch(failure: .notFound("No resource at \(path).")) }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return RouteMatch(failure: .methodNotAllowed(allowed))
    }

    /// Whether a route of `routeMethod` takes a request of `method` (HEAD is GET without a body).
    private static func takes(_ routeMethod: String, _ method: String) -> Bool {
        routeMethod == method || (method == "HEAD" && routeMethod == "GET")
    }

    /// The route a match names.
    public func route(_ match: RouteMatch) -> Route<Context>? {
        match.index.map { routes[$0] }
    }

    /// The methods a path takes (HEAD with GET), empty for no route: a CORS preflight's answer.
    public func methods(path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var allowed: [String] = []
        for route in routes where Self.parameters(route.segments, segments) != nil {
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return allowed
    }

    private static func parameters(_ pattern: [Route<Context>.Segment], _ path: [Substring]) -> PathParameters? {
        guard pattern.count == path.count else { return nil }
        var parameters = PathParameters()
        for (expected, actual) in zip(pattern, path) {
            switch expected {
            case .parameter(let name): parameters.append(name, actual)
            case .literal(let literal): if literal != actual { return nil }
            }
        }
        return parameters
    }
}
