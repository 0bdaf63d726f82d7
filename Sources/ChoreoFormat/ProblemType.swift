/// Every kind of problem document choreo answers with: its `type` URI is
/// `/problems/{rawValue}`, and `GET` on that path serves this page (RFC 9457 §3.1.1: the type
/// URI should resolve to documentation of the problem).
public enum ProblemType: String, CaseIterable, Sendable {
    case malformedJSON = "malformed-json"
    case badRequestTarget = "bad-request-target"
    case badRequestHead = "bad-request-head"
    case unauthorized
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case conflict
    case preconditionFailed = "precondition-failed"
    case bodyTooLarge = "body-too-large"
    case unsupportedMediaType = "unsupported-media-type"
    case misdirected = "misdirected-request"
    case invalidScene = "invalid-scene"
    case invalidStandings = "invalid-standings"
    case invalidArenaConfiguration = "invalid-arena-configuration"
    case invalidRequest = "invalid-request"
    case invalidMaintenanceWindow = "invalid-maintenance-window"
    case unsupportedDuration = "unsupported-duration"
    case importFailed = "import-failed"
    case internalError = "internal"
    case unavailable

    /// The `type` member of the problem document.
    public var uri: String { "/problems/\(rawValue)" }

    public var status: Int {
        switch self {
        case .malformedJSON, .badRequestTarget, .badRequestHead, .unsupportedDuration: 400
        case .unauthorized: 401
        case .notFound: 404
        case .methodNotAllowed: 405
        case .conflict: 409
        case .preconditionFailed: 412
        case .bodyTooLarge: 413
        case .unsupportedMediaType: 415
        case .misdirected: 421
        case .invalidScene, .invalidStandings, .invalidArenaConfiguration, .invalidRequest, .invalidMaintenanceWindow,
            .importFailed:
            422
        case .internalError: 500
        case .unavailable: 503
        }
    }

    public var title: String {
        switch self {
        case .malformedJSON: "Malformed JSON"
        case .badRequestTarget: "Bad request target"
        case .badRequestHead: "Bad request head"
        case .unauthorized: "Unauthorized"
        case .notFound: "Not found"
        case .methodNotAllowed: "Method not allowed"
        case .conflict: "Conflict"
        case .preconditionFailed: "Precondition failed"
        case .bodyTooLarge: "Body too large"
        case .unsupportedMediaType: "Unsupported media type"
        case .misdirected: "Misdirected request"
        case .invalidScene: "Invalid scene"
        case .invalidStandings: "Invalid standings"
        case .invalidArenaConfiguration: "Invalid arena configuration"
        case .invalidRequest: "Invalid request"
        case .invalidMaintenanceWindow: "Invalid maintenance window"
        case .unsupportedDuration: "Unsupported duration"
        case .importFailed: "Nothing could be imported"
        case .internalError: "Internal error"
        case .unavailable: "Service unavailable"
        }
    }

    /// What went wrong and what to do, for the page at ``uri``.
    public var explanation: String {
        switch self {
        case .malformedJSON:
            "The request body is not JSON. The problem's errors name the line and column where parsing stopped."
        case .badRequestHead:
            "The request's head contradicts itself: two Content-Length headers with different values. A proxy in front may have read the other one (request smuggling), so neither is trusted. Send one length."
        case .badRequestTarget:
            "The path or a query parameter contains an encoded NUL (%00). No id, key path or value of choreo contains one; a server that decoded it would cut the text short there, so the request is refused instead."
        case .unauthorized:
            "The server runs with an API token, and this request changes state: send the header Authorization: Bearer followed by the token."
        case .notFound: "No route matches the path, or no stored scene or arena node has the id in it."
        case .methodNotAllowed:
            "The resource exists but not with this method; the Allow header lists the ones it takes."
        case .conflict:
            "The request conflicts with the resource's state: a round while another round of the arena runs, or a session input earlier than the session's time."
        case .preconditionFailed:
            "The request's If-Match names a state the resource is no longer in: another session input came first. Read the session (GET) and send the input again with its count."
        case .bodyTooLarge:
            "The body is larger than the server accepts (8 MiB unless choreo serve --max-body-bytes says otherwise)."
        case .unsupportedMediaType: "Send the body as application/json."
        case .misdirected:
            "The request changes state and named a host this server does not answer for. A server that listens on loopback without a token takes such requests only for localhost, 127.0.0.1 or [::1], so that a page of another site whose name resolves to 127.0.0.1 cannot reach it (DNS rebinding). Use one of those names, or set a token (CHOREO_API_TOKEN)."
        case .invalidScene:
            "The body is JSON but not a valid scene, or the query is not a valid sampling. Each entry of errors names the JSON path at fault (query.NAME for the query), says why, and, for a misspelt name, gives didYouMean. docs/scene-format.md is the format."
        case .invalidStandings:
            "The body is JSON but not a list of arena standings; each entry of errors names the field at fault."
        case .invalidArenaConfiguration:
            "The body is JSON but not a valid arena configuration (docs/arena.md); each entry of errors names the field at fault."
        case .invalidRequest:
            "The query (or body) of an arena or monitor route is not a valid request: an unknown parameter, a value out of range, a time that is not RFC 3339 or not in 1970-01-01T00:00:00Z…9999-12-31T23:59:59Z, a date the calendar does not have (2026-02-30). Each entry of errors names the parameter (query.NAME) and says why."
        case .invalidMaintenanceWindow:
            "The body of POST /v1/arena/maintenance is JSON but not a valid maintenance window (docs/arena.md); each entry of errors names the field at fault."
        case .unsupportedDuration:
            "A Gatus route's duration (…/uptimes/{duration}, …/response-times/{duration}) is one of 1h, 24h, 7d and 30d; another is refused with 400, as Gatus refuses it. errors names path.duration."
        case .importFailed:
            "The source code (POST /v1/import) made no scene: a syntax error, a limit gone over, no entry point, or a parse that crashed or ran out of time. The problem's diagnostics list each one with its line and column (docs/import.md)."
        case .internalError:
            "choreo failed where it should not have; the request id in X-Request-Id finds it in the log."
        case .unavailable: "A dependency does not answer, such as the database; try again later."
        }
    }

    /// `&` and `<` as HTML writes them in text.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The page served at ``uri``: a short HTML document.
    public var page: [UInt8] {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title) — choreo</title></head>
            <body><h1>\(title)</h1><p>HTTP status \(status). Problem type <code>\(uri)</code>.</p>
            <p>\(Self.escaped(explanation))</p></body></html>

            """
        return Array(html.utf8)
    }
}
