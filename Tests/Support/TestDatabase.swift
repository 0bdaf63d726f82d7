import Foundation

/// A PostgreSQL database of its own for one test, on the throwaway cluster `make test` starts
/// (Tests/postgres/cluster.sh), dropped when the test lets go of it.
public final class TestDatabase: Sendable {
    /// The cluster's URL from `CHOREO_TEST_DATABASE_URL`; nil when no cluster runs.
    public static var clusterURL: String? {
        ProcessInfo.processInfo.environment["CHOREO_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the PostgreSQL tests must run (`make test` sets `CHOREO_REQUIRE_POSTGRES=1`): then
    /// a missing cluster is a failure, not a reason to skip them.
    public static var required: Bool { ProcessInfo.processInfo.environment["CHOREO_REQUIRE_POSTGRES"] == "1" }

    public let name: String
    public let url: String
    private let cluster: String

    /// Creates an empty database on the cluster.
    public init() throws {
        guard let cluster = Self.clusterURL else { throw TestDatabaseError("CHOREO_TEST_DATABASE_URL is not set") }
        self.cluster = cluster
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        url = Self.replacingDatabase(in: cluster, with: name)
        try Self.psql(cluster, "CREATE DATABASE \(name)")
    }

    deinit {
        _ = try? Self.psql(cluster, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one SQL command with psql; returns its unaligned output.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestDatabaseError("psql \(sql): \(String(decoding: problem, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs SQL on this test's database.
    @discardableResult
    public func psql(_ sql: String) throws -> String { try Self.psql(url, sql) }

    static func replacingDatabase(in url: String, with name: String) -> String {
        guard let slash = url.range(of: "/", options: .backwards), url[..<slash.lowerBound].contains("@") else {
            return url + "/" + name
        }
        let query = url[slash.upperBound...].firstIndex(of: "?").map { String(url[$0...]) } ?? ""
        return String(url[..<slash.upperBound]) + name + query
    }
}

public struct TestDatabaseError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
