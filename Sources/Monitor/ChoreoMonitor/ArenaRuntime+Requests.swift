import ChoreoArena
import ChoreoFormat
import ChoreoService
import ChoreoStorage
import ChoreoTransport
import Foundation

/// The arena's requests as the API takes them: their parameters checked here, their errors one
/// ``ServiceError``, their results typed.
extension ArenaRuntime {
    /// `GET /v1/arena/nodes/{name}/history`: the node's recorded probes, oldest first. `since`
    /// (RFC 3339) keeps those at or after it, and `limit` the first N of those; without `since`,
    /// `limit` keeps the newest N. Not found for a node the configuration does not name.
    public func history(of node: String, parameters: [(String, String)]) throws(ServiceError) -> [ProbeRow] {
        guard configuration.nodes.contains(where: { $0.name == node }) else {
            throw ServiceError.notFound("No node named \(node) in the arena.")
        }
        var since: Double?
        var limit: Int?
        var errors: [FieldError] = []
        for (key, value) in parameters {
            switch key {
            case "since": since = Self.timeParameter(key, value, into: &errors)
            case "limit":
                if let count = Int(value), (1...100_000).contains(count) {
                    limit = count
                } else {
                    errors.append(FieldError(path: "query.limit", message: "must be a whole number from 1 to 100000"))
                }
            default:
                errors.append(FieldError(path: "query.\(key)", message: "unknown query parameter (since, limit)"))
            }
        }
        if !errors.isEmpty { throw ServiceError.invalidRequest(ValidationFailure(errors)) }
        var rows = try history(of: node)
        if let since {
            rows.removeAll { Double($0.timeMs) / 1000 < since }
            if let limit { rows = Array(rows.prefix(limit)) }
        } else if let limit {
            rows = Array(rows.suffix(limit))
        }
        return rows
    }

    /// A time query parameter (`since`, `from`, `to`) as Unix seconds: RFC 3339, read by
    /// ``CivilTime/parse(rfc3339:)`` as every time the arena takes; or an error naming it.
    static func timeParameter(_ key: String, _ value: String, into errors: inout [FieldError]) -> Double? {
        switch CivilTime.parse(rfc3339: value) {
        case .success(let ms): return Double(ms) / 1000
        case .failure(let refusal):
            errors.append(FieldError(path: "query.\(key)", message: refusal.message))
            return nil
        }
    }

    /// `POST /v1/arena/rounds`: a round from the standings now. Its body is empty or `{}`.
    /// Conflict while one runs or without nodes.
    public func startRound(body: [UInt8]) throws(ServiceError) -> Round {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.isEmpty || text == "{}" else {
            throw ServiceError.invalidRequest(
                ValidationFailure([FieldError(path: "$", message: "must be empty or {}")]))
        }
        switch startRound() {
        case .success(let round): return round
        case .failure(.running): throw ServiceError.conflict("A round is already running; try again when it ends.")
        case .failure(.noNodes): throw ServiceError.conflict("The arena has no nodes; PUT /v1/arena/config first.")
        case .failure(.invalid(let reason)):
            throw ServiceError.invalidConfiguration(ValidationFailure([FieldError(path: "$.round", message: reason)]))
        case .failure(.unavailable(let reason)): throw ServiceError.unavailable("Storage failed: \(reason)")
        }
    }

    /// `GET /v1/arena/events`'s parameters: `max=N` ends the stream after N events (the snapshot
    /// counts); nil without it.
    public static func eventLimit(_ parameters: [(String, String)]) throws(ServiceError) -> Int? {
        var limit: Int?
        for (name, value) in parameters where name == "max" {
            guard let count = Int(value), (1...1_000_000).contains(count) else {
                throw ServiceError.invalidQuery("query.max", "must be a whole number from 1 to 1000000")
            }
            limit = count
        }
        return limit
    }

    /// `GET /v1/arena/events`: ``subscribe(resumingAfter:limit:encoding:)``, unavailable beyond
    /// ``maxSubscribers``.
    public func events(
        limit: Int?, lastEventID: String?, encoding: any ArenaEventEncoding
    ) throws(ServiceError) -> BodyStream {
        guard let stream = subscribe(resumingAfter: lastEventID, limit: limit, encoding: encoding) else {
            throw ServiceError.unavailable("Too many event subscribers (at most \(Self.maxSubscribers)).")
        }
        return stream
    }
}
