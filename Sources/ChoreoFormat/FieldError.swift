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
}

/// A document that parsed as JSON but is not a valid scene (HTTP 422).
public struct ValidationFailure: Error, Sendable, Equatable {
    public let errors: [FieldError]

    public init(_ errors: [FieldError]) { self.errors = errors }
}
