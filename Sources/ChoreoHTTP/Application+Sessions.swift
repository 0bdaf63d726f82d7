import ChoreoFormat
import ChoreoService

/// Live sessions: `/v1/sessions…` (docs/sessions.md).
extension Application {
    /// `POST /v1/sessions`: stores the scene and starts the session.
    func createSession(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        try requireJSON(request)
        try rejectQuery(request)
        let summary = try service { () throws(ServiceError) in try sessions.create(request.body) }
        var response = HTTPResponse.json(201, ResponseEncoder.session(summary))
        response.headers.append(("Location", Self.path(Self.liveSession, id: summary.id)))
        return response
    }

    /// `POST /v1/sessions/{id}/inputs`: one script entry, run as it arrives.
    func input(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        try requireJSON(request)
        try rejectQuery(request)
        let outcome = try service { () throws(ServiceError) in
            try sessions.append(id, body: request.body, ifMatch: SessionRegistry.ifMatch(request.headers["if-match"]))
        }
        return .json(200, ResponseEncoder.input(outcome))
    }

    /// `GET /v1/sessions/{id}`: the scene and the inputs as sent.
    func session(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        try rejectQuery(request)
        let snapshot = try service { () throws(ServiceError) in try sessions.describe(id) }
        return .json(200, ResponseEncoder.session(snapshot))
    }

    /// `DELETE /v1/sessions/{id}`.
    func deleteSession(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        try rejectQuery(request)
        try service { () throws(ServiceError) in try sessions.delete(id) }
        return HTTPResponse(status: 204)
    }

    /// `GET /v1/sessions/{id}/frames`: the session run on to the end the query samples.
    func sessionFrames(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let id = path[.id]
        let query = try service { () throws(ServiceError) in try RenderService.query(request.query) }
        if request.method == "HEAD" {
            _ = try service { () throws(ServiceError) in try sessions.describe(id) }
            return Self.head(query)
        }
        let output = try service { () throws(ServiceError) in
            try sessions.frames(
                id, query: query, cancellation: request.cancellation, memory: renderMemory,
                threads: configuration.renderThreads, byteBudget: configuration.maxJSONResponseBytes,
                planned: { plan in metrics.produced(frames: plan.times.count, samples: plan.sampleCount) })
        }
        return HTTPResponse(output)
    }
}
