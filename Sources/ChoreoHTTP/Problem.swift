import ChoreoFormat
import ChoreoJSON
import ChoreoService

/// An RFC 9457 problem document (`application/problem+json`): every error choreo returns.
public struct Problem: Error, Sendable {
    public let status: Int
    /// A URI reference naming the kind of problem; documented in docs/api.md.
    public let type: String
    public let title: String
    public let detail: String
    public let errors: [FieldError]
    public var headers: [(String, String)] = []
    /// Members the problem type adds to the document (RFC 9457 §3.2): an import's `diagnostics`.
    public var extensions: [(String, JSONValue)] = []

    public init(status: Int, type: String, title: String, detail: String, errors: [FieldError] = []) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.errors = errors
    }

    /// A problem of a documented kind: its status, type URI and title come from the catalogue.
    public init(_ kind: ProblemType, detail: String, errors: [FieldError] = []) {
        self.init(status: kind.status, type: kind.uri, title: kind.title, detail: detail, errors: errors)
    }

    /// A service's error as the client sees it: its kind decides the status and type, its
    /// detail and fields are the document's; busy adds `Retry-After`. A client that went away
    /// gets ``cancelledStatus``, logged but never sent.
    public init(_ error: ServiceError) {
        let kind: ProblemType
        switch error.kind {
        case .malformed: kind = .malformedJSON
        case .invalid(.scene), .tooLarge: kind = .invalidScene
        case .invalid(.standings): kind = .invalidStandings
        case .invalid(.configuration): kind = .invalidArenaConfiguration
        case .invalid(.request): kind = .invalidRequest
        case .invalid(.maintenanceWindow): kind = .invalidMaintenanceWindow
        case .invalid(.duration): kind = .unsupportedDuration
        case .notFound: kind = .notFound
        case .conflict: kind = .conflict
        case .preconditionFailed: kind = .preconditionFailed
        case .busy, .unavailable: kind = .unavailable
        case .internalFailure: kind = .internalError
        case .cancelled:
            self.init(status: Self.cancelledStatus, type: "", title: "", detail: error.detail)
            return
        }
        self.init(kind, detail: error.detail, errors: error.errors)
        if case .busy(let seconds) = error.kind { headers.append(("Retry-After", String(seconds))) }
    }

    /// The status logged for a request whose client went away before it was answered (nginx's
    /// 499, "client closed request"; never sent).
    public static let cancelledStatus = 499

    public var response: HTTPResponse {
        // Nobody is there to read it: only the log sees the status.
        if status == Self.cancelledStatus { return HTTPResponse(status: status) }
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/problem+json")] + headers,
            body: .bytes(
                ResponseEncoder.problem(
                    type: type, title: title, status: status, detail: detail, errors: errors, extensions: extensions)))
    }

    // MARK: The problems choreo returns

    public static func invalidScene(_ failure: ValidationFailure) -> Problem {
        Problem(ServiceError.invalidScene(failure))
    }

    /// A 400: the path or a query parameter holds a NUL (`%00`), which would truncate it.
    public static func badRequestTarget(_ field: String) -> Problem {
        Problem(
            .badRequestTarget, detail: "The request target contains an encoded NUL (%00).",
            errors: [FieldError(path: field, message: "must not contain %00")])
    }

    /// A 400: two `Content-Length` headers that disagree.
    /// A request target with more query parameters than the server parses.
    public static func overlongQuery(maxParameters: Int) -> Problem {
        Problem(
            .badRequestTarget, detail: "The request target has more than \(maxParameters) query parameters.",
            errors: [FieldError(path: "query", message: "at most \(maxParameters) parameters")])
    }

    public static func conflictingLengths() -> Problem {
        Problem(
            .badRequestHead, detail: "The request has two different Content-Length headers.",
            errors: [FieldError(path: "header.Content-Length", message: "must be given once")])
    }

    public static func notFound(_ what: String) -> Problem {
        Problem(.notFound, detail: what)
    }

    public static func methodNotAllowed(_ allowed: [String]) -> Problem {
        var problem = Problem(.methodNotAllowed, detail: "This resource accepts \(allowed.joined(separator: ", ")).")
        problem.headers = [("Allow", allowed.joined(separator: ", "))]
        return problem
    }

    public static func tooLarge(limit: Int) -> Problem {
        Problem(.bodyTooLarge, detail: "Request bodies are limited to \(limit) bytes.")
    }

    public static func unsupportedMediaType(_ given: String?) -> Problem {
        Problem(
            .unsupportedMediaType, detail: "Send the body as application/json\(given.map { ", not \($0)" } ?? "").",
            errors: [FieldError(path: "header.Content-Type", message: "must be application/json")])
    }

    public static func unauthorized() -> Problem {
        var problem = Problem(
            .unauthorized, detail: "This request changes state and needs the header Authorization: Bearer <token>.")
        problem.headers = [("WWW-Authenticate", "Bearer")]
        return problem
    }

    /// 421: a request that changes state named a host this server does not answer for.
    public static func misdirected(_ host: String) -> Problem {
        Problem(
            .misdirected,
            detail:
                "This server listens on loopback without a token and takes requests that change state only for localhost, 127.0.0.1 or ::1, not \(host).",
            errors: [FieldError(path: "header.Host", message: "must name this server (localhost, 127.0.0.1 or [::1])")])
    }

    public static func unavailable(_ detail: String) -> Problem {
        Problem(.unavailable, detail: detail)
    }
}
