import ChoreoFormat
import ChoreoJSON
import ChoreoStorage

/// The one error every service throws: what went wrong as a kind, a sentence, and the fields
/// at fault. The HTTP edge turns it into a problem document (its kind decides the status), the
/// CLI into a message and an exit status. What `NSError`'s domain and code are to Foundation,
/// with the field errors a form needs.
public struct ServiceError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The body is not JSON at all.
        case malformed
        /// JSON, but not the document expected; ``ServiceError/errors`` names each field.
        case invalid(Subject)
        case notFound
        /// Another writer came first, or the resource is in a state that refuses the request.
        case conflict
        /// The client's `If-Match` no longer holds.
        case preconditionFailed
        /// The server's capacity is held by other work now: try again after `retryAfter`
        /// seconds.
        case busy(retryAfter: Int)
        /// The work is larger than a limit allows, whenever it is tried: the limit and what
        /// it would take (HTTP answers 422 naming the field to change).
        case tooLarge(limit: Int, estimate: Int?)
        /// Something it depends on (storage, a library) cannot be reached.
        case unavailable
        /// The client went away; nobody reads the answer.
        case cancelled
        /// A fault of the server's own: what is stored cannot be read, a library refused.
        case internalFailure
    }

    /// What an invalid document was meant to be.
    public enum Subject: Sendable, Equatable {
        case scene
        case standings
        case configuration
        /// A monitor route's query or body (`uptime`, `sla`, `history`, the alerts' state, the
        /// event stream, Gatus's durations): not a scene, so not titled as one.
        case request
        /// The body of `POST /v1/arena/maintenance`.
        case maintenanceWindow
        /// A Gatus route's duration in its path (400, as Gatus answers).
        case duration
    }

    public let kind: Kind
    /// A sentence for a person.
    public let detail: String
    /// The fields at fault, each with its JSON path (`$.layers[0].opacity`, `query.fps`).
    public let errors: [FieldError]

    public init(_ kind: Kind, detail: String, errors: [FieldError] = []) {
        self.kind = kind
        self.detail = detail
        self.errors = errors
    }

    // MARK: The errors the services raise

    /// The body does not parse as JSON, with the line and column.
    public static func malformedJSON(_ error: JSONParseError) -> ServiceError {
        ServiceError(
            .malformed, detail: "The body is not valid JSON: \(error.description).",
            errors: [FieldError(path: "$", message: "line \(error.line), column \(error.column): \(error.reason)")])
    }

    /// A document (or query) that parsed but is not a valid scene or request.
    public static func invalidScene(_ failure: ValidationFailure) -> ServiceError {
        invalid(failure, .scene, what: "a valid scene or request")
    }

    public static func invalidStandings(_ failure: ValidationFailure) -> ServiceError {
        invalid(failure, .standings, what: "a valid list of arena standings")
    }

    public static func invalidConfiguration(_ failure: ValidationFailure) -> ServiceError {
        invalid(failure, .configuration, what: "a valid arena configuration")
    }

    /// A monitor route's query or body that is not a valid request (``Subject/request``).
    public static func invalidRequest(_ failure: ValidationFailure) -> ServiceError {
        invalid(failure, .request, what: "a valid request")
    }

    /// One field at fault in a monitor route's query or body.
    public static func invalidQuery(_ path: String, _ message: String) -> ServiceError {
        invalidRequest(ValidationFailure([FieldError(path: path, message: message)]))
    }

    /// A maintenance window (`POST /v1/arena/maintenance`) with the fields at fault.
    public static func invalidMaintenanceWindow(_ failure: ValidationFailure) -> ServiceError {
        invalid(failure, .maintenanceWindow, what: "a valid maintenance window")
    }

    /// A Gatus route's duration that Gatus does not have (`path.duration`).
    public static func unsupportedDuration(_ failure: ValidationFailure) -> ServiceError {
        invalid(failure, .duration, what: "a supported duration")
    }

    /// One field at fault in a scene or request.
    public static func invalidField(_ path: String, _ message: String) -> ServiceError {
        invalidScene(ValidationFailure([FieldError(path: path, message: message)]))
    }

    private static func invalid(_ failure: ValidationFailure, _ subject: Subject, what: String) -> ServiceError {
        ServiceError(
            .invalid(subject), detail: "The document is JSON but not \(what): \(failure.errors.count) error(s).",
            errors: failure.errors)
    }

    /// A JSON response that would pass its byte limit (before a frame is written, with the
    /// estimate; or while written).
    public static func responseTooLarge(limit: Int, estimate: Int? = nil) -> ServiceError {
        let detail =
            estimate.map {
                "The JSON response would take about \($0) bytes, \($0 - limit) over the limit; no frame was written."
            }
            ?? "The JSON response passed \(limit) bytes before it was complete."
        return ServiceError(
            .tooLarge(limit: limit, estimate: estimate), detail: detail,
            errors: [
                FieldError(
                    path: "query.format",
                    message:
                        "a JSON response is at most \(limit) bytes\(estimate.map { ", this one about \($0)" } ?? ""); use format=ndjson (streamed), fewer frames, layers or properties"
                )
            ])
    }

    /// Work that can never fit a limit, with the field to change.
    public static func overLimit(_ path: String, _ message: String, limit: Int, estimate: Int? = nil) -> ServiceError {
        let failure = ValidationFailure([FieldError(path: path, message: message)])
        return ServiceError(
            .tooLarge(limit: limit, estimate: estimate),
            detail: "The document is JSON but not a valid scene or request: \(failure.errors.count) error(s).",
            errors: failure.errors)
    }

    public static func notFound(_ detail: String) -> ServiceError { ServiceError(.notFound, detail: detail) }
    public static func conflict(_ detail: String) -> ServiceError { ServiceError(.conflict, detail: detail) }
    public static func preconditionFailed(_ detail: String) -> ServiceError {
        ServiceError(.preconditionFailed, detail: detail)
    }
    public static func unavailable(_ detail: String) -> ServiceError { ServiceError(.unavailable, detail: detail) }
    public static func internalFailure(_ detail: String) -> ServiceError {
        ServiceError(.internalFailure, detail: detail)
    }
    public static func busy(_ detail: String, retryAfter: Int = 1) -> ServiceError {
        ServiceError(.busy(retryAfter: retryAfter), detail: detail)
    }
    public static let cancelled = ServiceError(.cancelled, detail: "The client went away.")

    /// A storage failure as the client sees it: unavailable while the database cannot be
    /// reached, not found, a conflict when another writer came first, an internal failure when
    /// what is stored cannot be read.
    public static func storage(_ error: StorageError) -> ServiceError {
        switch error.kind {
        case .unavailable: .unavailable("Storage failed: \(error.message)")
        case .notFound: .notFound(error.message)
        case .conflict: .conflict(error.message)
        case .corrupt: .internalFailure("Stored data cannot be read: \(error.message)")
        }
    }

    /// Runs a storage call, its failure as a service error.
    package static func storing<T>(_ body: () throws(StorageError) -> T) throws(ServiceError) -> T {
        do {
            return try body()
        } catch {
            throw storage(error)
        }
    }
}
