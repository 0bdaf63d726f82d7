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

    /// This database's URL with an `application_name` of its own: every session opened with
    /// it carries the name (libpq takes it from the URL), so a test can end exactly the
    /// sessions it opened, and no other test's.
    public func url(applicationName: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "application_name=" + applicationName
    }

    /// A name for ``url(applicationName:)`` that no other test uses.
    public static func uniqueApplicationName(_ role: String) -> String {
        "choreo_test_\(role)_" + UUID().uuidString.prefix(8).lowercased()
    }

    /// Ends the sessions on this database (never another's) that carry `applicationName`,
    /// waiting up to `timeout` seconds for each to be gone; `pg_terminate_backend`'s answer
    /// per session (`t` when it ended in time), one a line.
    @discardableResult
    public func terminate(applicationName: String, timeout: Double = 10) throws -> [String] {
        try terminate(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = '\(applicationName)'",
            timeout: timeout)
    }

    /// Ends the sessions whose pids `sessions` (SQL, run on this database) selects, waiting up
    /// to `timeout` seconds for each; only sessions on this database are ever ended, and
    /// never psql's own.
    @discardableResult
    public func terminate(_ sessions: String, timeout: Double = 10) throws -> [String] {
        let answer = try psql(
            """
            SELECT pg_terminate_backend(pid, \(Int(timeout * 1000))) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid IN (\(sessions))
            """)
        return answer.split(separator: "\n").map(String.init)
    }

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

/// A throwaway PostgreSQL cluster of one test's own (Tests/postgres/cluster.sh), stopped and
/// removed when the test lets go of it: for what no other test may feel. A backend stopped
/// with SIGSTOP, say, holds up every `DROP DATABASE` on its cluster (each waits for all
/// backends to acknowledge it), so on the shared cluster it would stall the other tests.
public final class TestCluster: Sendable {
    public let url: String
    private let script: String
    private let scratch = Scratch("choreo-cluster")

    public init() throws {
        script =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("postgres/cluster.sh").path
        let (status, output, problem) = try runProgram(script, ["start", scratch.file("state")])
        guard status == 0 else { throw TestDatabaseError("cluster.sh start: \(problem)") }
        url = output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        _ = try? runProgram(script, ["stop", scratch.file("state")])
    }
}
