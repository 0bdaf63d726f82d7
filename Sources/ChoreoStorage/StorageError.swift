/// A storage failure, of a kind the HTTP layer maps to a status: the database could not be
/// reached (503), a record is missing (404), a write lost a race or broke a uniqueness rule
/// (409), or what is stored cannot be read back as written (500).
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The database cannot be reached, opened, migrated or written now; retrying may work.
        case unavailable
        case notFound
        /// Another writer came first (a uniqueness rule).
        case conflict
        /// Stored data or the schema is not what this choreo can read.
        case corrupt
    }

    public let kind: Kind
    public let message: String

    public init(_ message: String, kind: Kind = .unavailable) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
