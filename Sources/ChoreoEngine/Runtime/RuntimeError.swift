/// Why a scene could not be run to the end.
public struct RuntimeError: Error, Sendable, Equatable {
    /// A JSON path into the scene naming what caused the failure, when known.
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
