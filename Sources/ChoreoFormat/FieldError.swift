/// One reason a document is not a valid scene or query: where (a JSON path such as
/// `$.layers[2].animations[0].duration`) and why.
public struct FieldError: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    /// The valid name closest to a misspelt one (`didYouMean` in problem documents).
    public let suggestion: String?

    public init(path: String, message: String, suggestion: String? = nil) {
        self.path = path
        self.message = message
        self.suggestion = suggestion
    }

    public var description: String { "\(path): \(message)" }

    /// An error that names the valid name meant, when one is near: the message ends with
    /// `did you mean "…"?`.
    static func suggesting(_ path: String, _ message: String, _ suggestion: String?) -> FieldError {
        FieldError(
            path: path, message: suggestion.map { "\(message); did you mean \"\($0)\"?" } ?? message,
            suggestion: suggestion)
    }

    /// An unknown `name`, with the closest of `candidates` when one is near.
    static func unknown(_ path: String, _ message: String, _ name: String, among candidates: some Sequence<String>)
        -> FieldError
    {
        suggesting(path, message, Vocabulary.suggestion(for: name, among: candidates))
    }
}

/// A document that parsed as JSON but is not a valid scene (HTTP 422).
public struct ValidationFailure: Error, Sendable, Equatable {
    /// The first 100 errors (``JSONReader/maximumErrors``): every decoder's list is bounded here.
    public let errors: [FieldError]

    public init(_ errors: [FieldError]) { self.errors = Array(errors.prefix(JSONReader.maximumErrors)) }
}
