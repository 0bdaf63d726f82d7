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

    /// A problem of a documented kind: its status, type URI and title come from the catalogue.
    public init(_ kind: ProblemType, detail: String, errors: [FieldError] = []) {
        self.init(status: kind.status, type: kind.uri, title: kind.title, detail: detail, errors: errors)
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
            .malformedJSON, detail: "The body is not valid JSON: \(error.description).",
            errors: [FieldError(path: "$", message: "line \(error.line), column \(error.column): \(error.reason)")])
    }

    public static func invalidScene(_ failure: ValidationFailure) -> Problem {
        invalid(failure, .invalidScene, what: "a valid scene or request")
    }

    public static func invalidStandings(_ failure: ValidationFailure) -> Problem {
        invalid(failure, .invalidStandings, what: "a valid list of arena standings")
    }

    public static func invalidConfiguration(_ failure: ValidationFailure) -> Problem {
        invalid(failure, .invalidArenaConfiguration, what: "a valid arena configuration")
    }

    /// A 422: JSON, but not the document expected, with every field at fault.
    private static func invalid(_ failure: ValidationFailure, _ kind: ProblemType, what: String) -> Problem {
        Problem(
            kind, detail: "The document is JSON but not \(what): \(failure.errors.count) error(s).",
            errors: failure.errors)
    }

    /// A 400: the path or a query parameter holds a NUL (`%00`), which would truncate it.
    public static func badRequestTarget(_ field: String) -> Problem {
        Problem(
            .badRequestTarget, detail: "The request target contains an encoded NUL (%00).",
            errors: [FieldError(path: field, message: "must not contain %00")])
    }

    /// A 422: the JSON document would pass the response byte limit.
    public static func responseTooLarge(limit: Int, estimate: Int? = nil) -> Problem {
        let detail =
            estimate.map {
                "The JSON response would take about \($0) bytes, \($0 - limit) over the limit; no frame was written."
            }
            ?? "The JSON response passed \(limit) bytes before it was complete."
        return Problem(
            .invalidScene,
            detail: detail,
            errors: [
                FieldError(
                    path: "query.format",
                    message:
                        "a JSON response is at most \(limit) bytes\(estimate.map { ", this one about \($0)" } ?? ""); use format=ndjson (streamed), fewer frames, layers or properties"
                )
            ])
    }

    public static func conflict(_ detail: String) -> Problem {
        Problem(.conflict, detail: detail)
    }

    public static func preconditionFailed(_ detail: String) -> Problem {
        Problem(.preconditionFailed, detail: detail)
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

    public static func unavailable(_ detail: String) -> Problem {
        Problem(.unavailable, detail: detail)
    }

    public static func internalError(_ detail: String) -> Problem {
        Problem(.internalError, detail: detail)
    }
}
