/// A storage failure: the database could not be opened, migrated, read or written.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
