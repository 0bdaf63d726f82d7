/// Why a scene could not be run to the end.
public struct RuntimeError: Error, Sendable, Equatable {
    /// A JSON path into the scene naming what caused the failure, when known.
    public let path: String
    public let message: String

    /// Whether the run stopped because its caller asked it to (the client went away), not
    /// because of the scene.
    public let cancelled: Bool

    public init(path: String, message: String, cancelled: Bool = false) {
        self.path = path
        self.message = message
        self.cancelled = cancelled
    }

    /// The run was stopped by its `shouldStop` check.
    public static let stopped = RuntimeError(path: "$", message: "the run was cancelled", cancelled: true)
}
