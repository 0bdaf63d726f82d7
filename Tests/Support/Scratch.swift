import Foundation

/// A temporary directory for one test, removed with everything in it when the test lets go of
/// it: test runs leave nothing behind in the system's temporary directory.
public final class Scratch: Sendable {
    public let path: String

    public init(_ name: String = "choreo") {
        path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to a file inside the directory and returns its path.
    public func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try text.write(toFile: target, atomically: false, encoding: .utf8)
        return target
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
