/// Why a byte sequence is not a JSON document, with the line and column where reading stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One-based line of the offending byte.
    public let line: Int
    /// One-based column (in bytes) of the offending byte.
    public let column: Int
    /// What was wrong there.
    public let reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column): \(reason)" }
}
