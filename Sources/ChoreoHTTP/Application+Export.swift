import ChoreoEngine
import ChoreoExport
import ChoreoService

/// The export routes (docs/export.md): a scene in the body, a stored scene, a session or the
/// arena's current round, as Lottie, CSS, Web Animations or an HTML page; `report=1` answers
/// the fidelity report alone.
extension Application {
    /// `POST /v1/export?format=…`: the scene in the body.
    func exportBody(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        let query = try service { () throws(ServiceError) in try ExportService.query(request.query) }
        let artifact = try service { () throws(ServiceError) in
            try ExportService.export(
                document: request.takeBody(), name: nil, query, cancellation: request.cancellation, memory: renderMemory
            )
        }
        return Self.exportResponse(artifact, query)
    }

    /// `GET /v1/scenes/{id}/export?format=…`.
    func exportStoredScene(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        let query = try service { () throws(ServiceError) in try ExportService.query(request.query) }
        let record = try service { () throws(ServiceError) in try scenes.scene(id) }
        let artifact = try service { () throws(ServiceError) in
            try ExportService.export(
                document: record.document, name: id, query, cancellation: request.cancellation, memory: renderMemory)
        }
        return Self.exportResponse(artifact, query)
    }

    /// `GET /v1/sessions/{id}/export?format=…`: the session's run so far.
    func exportSession(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        let query = try service { () throws(ServiceError) in try ExportService.query(request.query) }
        let artifact = try service { () throws(ServiceError) in
            let timeline = try sessions.timeline(id, horizon: nil)
            return try ExportService.export(
                timeline, name: id, query, cancellation: request.cancellation, memory: renderMemory)
        }
        return Self.exportResponse(artifact, query)
    }

    /// `GET /v1/arena/rounds/current/export?format=…`.
    func exportRound(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let round = try currentRound()
        let query = try service { () throws(ServiceError) in try ExportService.query(request.query) }
        let artifact = try service { () throws(ServiceError) in
            try ExportService.export(
                round.parsed, name: "arena round", query, cancellation: request.cancellation, memory: renderMemory)
        }
        return Self.exportResponse(artifact, query)
    }

    /// The artefact with its media type, or with `report=1` its report as JSON.
    static func exportResponse(_ artifact: ExportArtifact, _ query: ExportService.Query) -> HTTPResponse {
        if query.reportOnly { return .json(200, artifact.report.document) }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", artifact.contentType)], body: .bytes(artifact.bytes))
    }
}
