import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoService

extension Application {
    /// `POST /v1/import`: Swift or Objective-C source (`text/x-swift`, `text/x-objective-c`, or
    /// `?language=`) → `{"scene", "diagnostics", "sourceMap"}`; 422 with the diagnostics when no
    /// scene could be made (docs/import.md). Runs on a worker: it waits for the helper process.
    func importSource(_ request: HTTPRequest, _ path: PathParameters) throws(Problem) -> HTTPResponse {
        if request.body.count > ImportService.sourceLimit { throw Problem.tooLarge(limit: ImportService.sourceLimit) }
        var language: SourceLanguage?
        var entry: String?
        var reduceMotion = false
        var errors: [FieldError] = []
        for (name, value) in request.query {
            switch name {
            case "language":
                language = SourceLanguage(rawValue: value)
                if language == nil {
                    errors.append(FieldError(path: "query.language", message: "must be swift or objc"))
                }
            case "entry":
                entry = value
            case "reduceMotion":
                guard value == "true" || value == "false" else {
                    errors.append(FieldError(path: "query.reduceMotion", message: "must be true or false"))
                    continue
                }
                reduceMotion = value == "true"
            default:
                let suggestion = Vocabulary.suggestion(for: name, among: ["language", "entry", "reduceMotion"])
                errors.append(
                    FieldError(path: "query.\(name)", message: "unknown query parameter", suggestion: suggestion))
            }
        }
        if !errors.isEmpty { throw Problem.invalidScene(ValidationFailure(errors)) }
        if language == nil {
            let type = request.headers["content-type"]
            language = type.flatMap(SourceLanguage.init(mediaType:))
            if language == nil { throw Problem.unsupportedSource(type) }
        }
        guard let text = String(validating: request.body, as: UTF8.self) else {
            throw Problem.invalidScene(
                ValidationFailure([FieldError(path: "body", message: "the source is not UTF-8 text")]))
        }
        var importRequest = ImportRequest(source: Array(text.utf8), language: language!, entry: entry)
        importRequest.reduceMotion = reduceMotion
        let result = try service { () throws(ServiceError) in
            try ImportService.run(importRequest, helpers: importHelpers)
        }
        guard result.scene != nil else { throw Problem.importFailed(result.diagnostics) }
        return .json(200, value: result.json)
    }
}

extension Problem {
    /// Source that made no scene: the first error as the detail, every diagnostic as a member.
    package static func importFailed(_ diagnostics: [ImportDiagnostic]) -> Problem {
        let first = diagnostics.first { $0.severity == .error }
        var problem = Problem(
            .importFailed,
            detail: first.map { "line \($0.position.line), column \($0.position.column): \($0.message)" }
                ?? "No scene could be made.")
        problem.extensions = [("diagnostics", .array(diagnostics.map(\.json)))]
        return problem
    }

    /// A source body whose language is not named.
    static func unsupportedSource(_ given: String?) -> Problem {
        Problem(
            .unsupportedMediaType,
            detail:
                "Send the source as text/x-swift or text/x-objective-c, or name its language with ?language=swift|objc"
                + (given.map { " (Content-Type was \($0))" } ?? "") + ".")
    }
}
