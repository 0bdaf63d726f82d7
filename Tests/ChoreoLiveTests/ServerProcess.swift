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

/// Runs the `choreo` binary to completion.
func runChoreo(_ arguments: [String]) throws -> (Int32, String, String) {
    try runProgram(ServerProcess.binary, arguments)
}
