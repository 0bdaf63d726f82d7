import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoService

extension Application {
    /// `POST /v1/import`: Swift or Objective-C source (`text/x-swift`, `text/x-objective-c`, or
    /// `?language=`), or several files as JSON (`{"files": [{"name", "source"}]}`) →
    /// `{"scene", "diagnostics", "sourceMap"}`; 422 with the diagnostics when no scene could be
    /// made (docs/import.md). Runs on a worker: it waits for the helper process, which is
    /// stopped if the client hangs up; each client address has a share of the helpers.
    func importSource(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        let type = request.headers["content-type"]
        let limit = ImportRequest.bodyLimit(mediaType: type)
        if request.body.count > limit { throw Problem.tooLarge(limit: limit) }
        let result = try service { () throws(ServiceError) -> ImportResult? in
            let decoded = try ImportRequest.decode(body: request.body, query: request.query, mediaType: type)
            return try decoded.map { (decoded) throws(ServiceError) in
                try ImportService.run(
                    decoded, helpers: importHelpers, client: request.client, cancellation: request.cancellation)
            }
        }
        guard let result else { throw Problem.unsupportedSource(type) }
        guard result.scene != nil else { throw Problem.importFailed(result.diagnostics) }
        return .json(200, value: result.json)
    }
}

extension Problem {
    /// Source that made no scene: the first error as the detail, every diagnostic as a member.
    package static func importFailed(_ diagnostics: [ImportDiagnostic]) -> Problem {
        let first = diagnostics.first { $0.severity == .error }
        var problem = Problem(.importFailed, detail: first?.located ?? "No scene could be made.")
        problem.extensions = [("diagnostics", .array(diagnostics.map(\.json)))]
        return problem
    }

    /// A source body whose language is not named.
    static func unsupportedSource(_ given: String?) -> Problem {
        Problem(
            .unsupportedMediaType,
            detail:
                "Send the source as text/x-swift or text/x-objective-c, name its language with ?language=swift|objc, or send its files as application/json"
                + (given.map { " (Content-Type was \($0))" } ?? "") + ".")
    }
}
