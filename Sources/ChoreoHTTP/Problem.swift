import ChoreoFormat
import ChoreoJSON

/// An RFC 9457 problem document (`application/problem+json`): every error choreo returns.
public struct Problem: Error, Sendable {
    public let status: Int
    /// A URI reference naming the kind of problem; documented in docs/api.md.
    public let type: String
    public let title: String
    public let detail: String
    public let errors: [FieldError]
    public var headers: [(String, String)] = []

    public init(status: Int, type: String, title: String, detail: String, errors: [FieldError] = []) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.errors = errors
    }

    public var response: HTTPResponse {
        var writer = JSONWriter()
        writer.raw("{\"type\":")
        writer.string(type)
        writer.raw(",\"title\":")
        writer.string(title)
        writer.raw(",\"status\":")
        writer.integer(Int64(status))
        writer.raw(",\"detail\":")
        writer.string(detail)
        writer.raw(",\"errors\":")
        ResponseEncoder.writeFieldErrors(errors, into: &writer)
        writer.raw("}")
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/problem+json")] + headers,
            body: .bytes(writer.bytes))
    }

    // MARK: The problems choreo returns

    public static func malformedJSON(_ error: JSONParseError) -> Problem {
        Problem(
            status: 400, type: "/problems/malformed-json", title: "Malformed JSON",
            detail: "The body is not valid JSON: \(error.description).",
            errors: [FieldError(path: "$", message: "line \(error.line), column \(error.column): \(error.reason)")])
    }

    public static func invalidScene(_ failure: ValidationFailure) -> Problem {
        invalid(failure, type: "invalid-scene", title: "Invalid scene", what: "a valid scene or request")
    }

    public static func invalidStandings(_ failure: ValidationFailure) -> Problem {
        invalid(failure, type: "invalid-standings", title: "Invalid standings", what: "a valid list of arena standings")
    }

    public static func invalidConfiguration(_ failure: ValidationFailure) -> Problem {
        invalid(
            failure, type: "invalid-arena-configuration", title: "Invalid arena configuration",
            what: "a valid arena configuration")
    }

    /// A 422: JSON, but not the document expected, with every field at fault.
    private static func invalid(_ failure: ValidationFailure, type: String, title: String, what: String) -> Problem {
        Problem(
            status: 422, type: "/problems/\(type)", title: title,
            detail: "The document is JSON but not \(what): \(failure.errors.count) error(s).", errors: failure.errors)
    }

    public static func conflict(_ detail: String) -> Problem {
        Problem(status: 409, type: "/problems/conflict", title: "Conflict", detail: detail, errors: [])
    }

    public static func notFound(_ what: String) -> Problem {
        Problem(status: 404, type: "/problems/not-found", title: "Not found", detail: what)
    }

    public static func methodNotAllowed(_ allowed: [String]) -> Problem {
        var problem = Problem(
            status: 405, type: "/problems/method-not-allowed", title: "Method not allowed",
            detail: "This resource accepts \(allowed.joined(separator: ", ")).")
        problem.headers = [("Allow", allowed.joined(separator: ", "))]
        return problem
    }

    public static func tooLarge(limit: Int) -> Problem {
        Problem(
            status: 413, type: "/problems/body-too-large", title: "Body too large",
            detail: "Request bodies are limited to \(limit) bytes.")
    }

    public static func unsupportedMediaType(_ given: String?) -> Problem {
        Problem(
            status: 415, type: "/problems/unsupported-media-type", title: "Unsupported media type",
            detail: "Send the body as application/json\(given.map { ", not \($0)" } ?? "").",
            errors: [FieldError(path: "header.Content-Type", message: "must be application/json")])
    }

    public static func unauthorized() -> Problem {
        var problem = Problem(
            status: 401, type: "/problems/unauthorized", title: "Unauthorized",
            detail: "This request changes state and needs the header Authorization: Bearer <token>.")
        problem.headers = [("WWW-Authenticate", "Bearer")]
        return problem
    }

    public static func unavailable(_ detail: String) -> Problem {
        Problem(status: 503, type: "/problems/unavailable", title: "Service unavailable", detail: detail)
    }

    public static func internalError(_ detail: String) -> Problem {
        Problem(status: 500, type: "/problems/internal", title: "Internal error", detail: detail)
    }
}
