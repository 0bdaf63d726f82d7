import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoService
import ChoreoStorage

/// Rendering and stored scenes: `POST /v1/render`, `POST /v1/validate`, `/v1/scenes…`.
extension Application {
    /// `POST /v1/render`: a scene in, its frames out.
    func render(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
        return renderScene(request.cancellation) { () throws(ServiceError) in
            // The document is taken from the request (which the server holds until the
            // response is made), so it is freed once parsed.
            let (scene, _, run) = try RenderService.prepare(request.takeBody(), memory: renderMemory)
            return (consume scene, query, run)
        }
    }

    /// `POST /v1/validate`: errors and diagnostics, no frames.
    func validate(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        try rejectQuery(request)
        let report = try service { () throws(ServiceError) in
            try RenderService.validation(request.body, cancellation: request.cancellation, memory: renderMemory)
        }
        return .json(200, ResponseEncoder.validation(report))
    }

    /// `POST /v1/scenes`: stores a scene that runs.
    func storeScene(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        try rejectQuery(request)
        let summary = try service { () throws(ServiceError) in
            try scenes.store(request.body, cancellation: request.cancellation, memory: renderMemory)
        }
        var response = HTTPResponse.json(201, summaryJSON(summary))
        response.headers.append(("Location", Self.path(Self.storedScene, id: summary.id)))
        return response
    }

    /// `GET /v1/scenes/{id}`: the document as stored.
    func scene(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        try rejectQuery(request)
        return .json(200, try fetch(id).document)
    }

    /// `DELETE /v1/scenes/{id}`.
    func deleteScene(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        try rejectQuery(request)
        try service { () throws(ServiceError) in try scenes.delete(id) }
        return HTTPResponse(status: 204)
    }

    /// `GET /v1/scenes/{id}/frames`: a stored scene rendered as `POST /v1/render` renders it.
    func sceneFrames(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
        let record = try fetch(id)
        if request.method == "HEAD" { return Self.head(query) }
        return renderScene(request.cancellation) { () throws(ServiceError) in
            let (scene, _, run) = try RenderService.prepare(record.document, memory: renderMemory)
            return (consume scene, query, run)
        }
    }

    /// `HEAD` on a frames route: the answer's status and media type, the query checked and the
    /// resource found, but nothing run or drawn (a HEAD of 1,000 layers' frames rendered them
    /// all to send no body).
    static func head(_ query: RenderQuery) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", RenderService.contentType(query))])
    }

    private func fetch(_ id: String) throws(Problem) -> SceneRecord {
        try service { () throws(ServiceError) in try scenes.scene(id) }
    }

    /// `GET /v1/scenes`: a page of stored scenes, newest first.
    func listScenes(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let page = try service { () throws(ServiceError) in try scenes.list(request.query) }
        return .json(200, ResponseEncoder.scenePage(page.items.map(summaryJSON), next: page.next))
    }

    private func summaryJSON(_ summary: SceneSummary) -> [UInt8] {
        ResponseEncoder.sceneSummary(id: summary.id, name: summary.name, created: summary.created)
    }
}
