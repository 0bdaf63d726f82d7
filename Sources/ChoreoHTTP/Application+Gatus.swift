import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoMonitor
import ChoreoService
import Foundation

/// Uptime, and Gatus's read API over the arena's nodes (docs/arena.md): dashboards and README
/// badges made for Gatus read choreo unchanged.
extension Application {
    /// `GET /v1/arena/nodes/{name}/uptime?window=` (or `from`/`to`): JSON, or the ratio alone
    /// as `text/plain` when the client accepts only that.
    func nodeUptime(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        let arena = try runningArena()
        let report = try service { () throws(ServiceError) in try arena.uptime(of: name, parameters: request.query) }
        return Self.wantsText(request) ? Self.text(report.text) : .json(200, value: report.document)
    }

    /// `GET /v1/arena/nodes/{name}/response-times?resolution=&from=&to=`: the node's buckets,
    /// each with its probes, uptime and response-time percentiles.
    func nodeResponseTimes(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        let arena = try runningArena()
        let report = try service { () throws(ServiceError) in
            try arena.responseTimes(of: name, parameters: request.query)
        }
        return .json(200, value: report.document)
    }

    /// `GET /v1/arena/nodes/{name}/sla?month=2026-11[&format=csv]`: the month's uptime and
    /// each day's, as JSON or CSV.
    func nodeSLA(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let name = path[.name]
        let arena = try runningArena()
        let report = try service { () throws(ServiceError) in try arena.sla(of: name, parameters: request.query) }
        if request.query.contains(where: { $0 == ("format", "csv") }) {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/csv; charset=utf-8")],
                body: .bytes(report.csv))
        }
        return .json(200, value: report.document)
    }

    /// `GET /api/v1/endpoints/statuses`: every node as a Gatus endpoint.
    func gatusStatuses(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return .json(
            200, value: try service { () throws(ServiceError) in try arena.gatusStatuses(parameters: request.query) })
    }

    /// `GET /api/v1/endpoints/{key}/statuses`.
    func gatusEndpoint(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return .json(
            200,
            value: try service { () throws(ServiceError) in
                try arena.gatusEndpoint(key: path[.key], parameters: request.query)
            })
    }

    /// `GET /api/v1/endpoints/{key}/uptimes/{duration}`: the ratio as text, as Gatus's raw route.
    func gatusUptime(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try gatusArena(path)
        let report = try service { () throws(ServiceError) in
            try arena.gatusUptime(key: path[.key], duration: path[.duration])
        }
        return Self.text(report.uptime.ratio.map { String($0) } ?? "0")
    }

    /// `GET /api/v1/endpoints/{key}/uptimes/{duration}/badge.svg`.
    func gatusUptimeBadge(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try gatusBadge(.uptime, request, path)
    }

    /// `GET /api/v1/endpoints/{key}/response-times/{duration}/badge.svg`.
    func gatusResponseTimeBadge(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try gatusBadge(.responseTime, request, path)
    }

    private func gatusBadge(_ badge: ArenaRuntime.GatusBadge, _ request: HTTPRequest, _ path: PathParameters)
        throws(Problem) -> HTTPResponse
    {
        let arena = try gatusArena(path)
        return Self.badge(
            try service { () throws(ServiceError) in
                try arena.gatusBadge(badge, key: path[.key], duration: path[.duration], parameters: request.query)
            })
    }

    /// The arena, once the path's duration is one of Gatus's (checked first, as Gatus does).
    private func gatusArena(_ path: PathParameters) throws(Problem) -> ArenaRuntime {
        try service { () throws(ServiceError) in try ArenaRuntime.checkGatusDuration(path[.duration]) }
        return try runningArena()
    }

    /// `GET /api/v1/endpoints/{key}/response-times/{duration}/chart.svg`.
    func gatusResponseTimeChart(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try gatusArena(path)
        return Self.badge(
            try service { () throws(ServiceError) in try arena.gatusChart(key: path[.key], duration: path[.duration]) })
    }

    /// `GET /api/v1/endpoints/{key}/health/badge.shields`: shields.io's endpoint JSON.
    func gatusShields(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        return .json(
            200,
            value: try service { () throws(ServiceError) in
                try arena.gatusShields(key: path[.key], parameters: request.query)
            })
    }

    /// Whether the client asks for `text/plain` and not JSON.
    static func wantsText(_ request: HTTPRequest) -> Bool {
        let accept = request.headers["accept"] ?? ""
        return accept.contains("text/plain") && !accept.contains("json")
    }

    /// A `text/plain` answer, by default `no-cache` (a ratio changes).
    static func text(_ body: String, noCache: Bool = true) -> HTTPResponse {
        var headers = [("Content-Type", "text/plain; charset=utf-8")]
        if noCache { headers.append(("Cache-Control", "no-cache")) }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(body.utf8)))
    }
}

/// Maintenance windows through the API (docs/arena.md).
extension Application {
    /// `POST /v1/arena/maintenance`: 201 with the window and whether it holds now.
    func addMaintenance(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        let arena = try runningArena()
        let added = try service { () throws(ServiceError) in try arena.addMaintenance(body: request.body) }
        var response = HTTPResponse.json(201, value: added.document)
        response.headers.append(("Location", Self.path(Self.maintenanceWindow, id: added.window.id)))
        return response
    }

    /// `GET /v1/arena/maintenance`: `{"windows": [...]}`.
    func listMaintenance(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try rejectQuery(request)
        let arena = try runningArena()
        return .json(200, value: arena.maintenanceDocument())
    }

    /// `DELETE /v1/arena/maintenance/{id}`: the window ends; 204.
    func endMaintenance(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let arena = try runningArena()
        try service { () throws(ServiceError) in try arena.endMaintenance(path[.id]) }
        return HTTPResponse(status: 204)
    }
}
