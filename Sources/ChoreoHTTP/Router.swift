/// Matches a method and path to a route, answering 404 and 405 (with `Allow`) itself.
public struct Router: Sendable {
    /// A path pattern such as `/v1/scenes/{id}/frames`.
    public struct Route: Sendable {
        public let method: String
        public let pattern: String
        /// The name used in metrics and logs (the pattern).
        public var name: String { pattern }
        /// Where the server runs it.
        public let lane: RequestLane
        let segments: [Substring]
    }

    /// A successful match: the route and its path parameters.
    public struct Match: Sendable {
        public let route: Route
        public let parameters: [String: String]
    }

    public private(set) var routes: [Route] = []
    /// Routes without parameters by exact path: most requests match without splitting the path.
    private var exact: [String: [Route]] = [:]

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, lane: RequestLane = .worker) {
        let route = Route(method: method, pattern: pattern, lane: lane, segments: pattern.split(separator: "/"))
        routes.append(route)
        if !pattern.contains("{") { exact[pattern, default: []].append(route) }
    }

    /// The route for a request, or the problem to answer with.
    public func match(method: String, path: String) -> Result<Match, Problem> {
        if let candidates = exact[path] {
            if let route = candidates.first(where: { $0.method == method || (method == "HEAD" && $0.method == "GET") })
            {
                return .success(Match(route: route, parameters: [:]))
            }
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var allowed: [String] = []
        var matched: Match?
        for route in routes {
            guard let parameters = Self.parameters(route.segments, segments) else { continue }
            allowed.append(route.method)
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                matched = matched ?? Match(route: route, parameters: parameters)
            }
        }
        if let matched { return .success(matched) }
        if allowed.isEmpty { return .failure(.notFound("No resource at \(path).")) }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return .failure(.methodNotAllowed(allowed))
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

    private static func parameters(_ pattern: [Substring], _ path: [Substring]) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, path) {
            if expected.first == "{" && expected.last == "}" {
                parameters[String(expected.dropFirst().dropLast())] = String(actual)
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }
}
