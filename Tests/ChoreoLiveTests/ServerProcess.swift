import ChoreoTestSupport
import Foundation
import Synchronization

/// A real `choreo serve` process on a loopback port chosen by the kernel, for live tests.
final class ServerProcess {
    let process = Process()
    let data: String
    private(set) var port: UInt16 = 0
    private let stderrPipe = Pipe()
    private var logBuffer = Data()
    /// What the server logs after it reported its port (the pipe's reader thread appends).
    private let laterLog = LaterLog()

    static var binary: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/choreo").path
    }

    /// The data directory this process made for itself, removed with it.
    private var scratch: Scratch?

    convenience init(data: String? = nil, arguments: [String] = [], environment: [String: String] = [:]) throws {
        let scratch = data == nil ? Scratch("choreo-live") : nil
        let directory = data ?? scratch!.file("data")
        try self.init(
            commandLine: ["serve", "--port", "0", "--data", directory] + arguments, data: directory,
            environment: environment)
        self.scratch = scratch
    }

    /// `choreo target --port 0 …`: a health endpoint to probe.
    static func target(_ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(commandLine: ["target", "--port", "0"] + arguments, data: "")
    }

    init(commandLine: [String], data: String, environment: [String: String] = [:]) throws {
        self.data = data
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = commandLine
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CHOREO_API_TOKEN")
        env.merge(environment) { $1 }
        process.environment = env
        process.standardError = stderrPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        port = try waitForPort()
    }

    private func waitForPort() throws -> UInt16 {
        let deadline = Date().addingTimeInterval(20)
        let handle = stderrPipe.fileHandleForReading
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            logBuffer.append(chunk)
            let text = String(decoding: logBuffer, as: UTF8.self)
            if let range = text.range(of: "\"port\":") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = UInt16(digits) {
                    // Keep reading the log, or a busy process blocks on a full pipe.
                    handle.readabilityHandler = { [laterLog] handle in
                        let chunk = handle.availableData
                        laterLog.data.withLock { $0.append(chunk) }
                    }
                    return port
                }
            }
        }
        throw LiveError("server did not report its port: \(String(decoding: logBuffer, as: UTF8.self))")
    }

    /// Whatever the server has logged so far.
    func drainLog() -> String {
        String(decoding: logBuffer + laterLog.data.withLock { $0 }, as: UTF8.self)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for exit (bounded) and returns the status.
    func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            // Bounded, as in `waitForExit`: `waitUntilExit` could wait for ever.
            _ = waitForExit(timeout: 10)
        }
    }
}

/// The log a server writes after its port, shared with the pipe's reader thread.
final class LaterLog: Sendable {
    let data = Mutex(Data())
}

struct LiveError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program to completion: exit status, standard output, standard error.
///
/// The output goes to files, not pipes: suites run in parallel, and a process another test
/// starts meanwhile inherits a pipe's write end, so reading a pipe to its end could wait for
/// that other process to exit. The child is started with `posix_spawn` and reaped here with
/// `waitpid`: Foundation's `Process.waitUntilExit` sometimes never returned for a child that
/// had exited while other tests started processes. The wait is bounded (`timeout` seconds, then
/// SIGKILL). A child killed by a signal reports 128 + the signal's number.
func runProgram(_ path: String, _ arguments: [String], timeout: Double = 300) throws -> (Int32, String, String) {
    let scratch = Scratch("choreo-run")
    let outPath = scratch.file("stdout")
    let errPath = scratch.file("stderr")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw LiveError("cannot start \(path): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        if reaped == -1 && errno != EINTR { throw LiveError("waitpid \(path): \(String(cString: strerror(errno)))") }
        if Date() > deadline {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            throw LiveError("\(path) \(arguments) ran for more than \(timeout) s")
        }
        usleep(5_000)
    }
    let signal = status & 0x7f
    let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    return (
        exitStatus, try String(contentsOfFile: outPath, encoding: .utf8),
        try String(contentsOfFile: errPath, encoding: .utf8)
    )
}

/// Runs the `choreo` binary to completion.
func runChoreo(_ arguments: [String]) throws -> (Int32, String, String) {
    try runProgram(ServerProcess.binary, arguments)
}
