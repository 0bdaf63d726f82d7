import Foundation

/// A `choreo` child process that reports its port on standard error.
final class ChoreoChild {
    let process = Process()
    let port: UInt16

    /// `core`: run it on that core alone (`taskset -c`).
    init(_ arguments: [String], core: Int? = nil) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("choreo").path
        if let core {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", "\(core)", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "\"port\":"),
                let port = UInt16(text[range.upperBound...].prefix { $0.isNumber })
            {
                handle.readabilityHandler = { _ = $0.availableData }
                self.port = port
                return
            }
        }
        process.terminate()
        throw BenchError("choreo \(arguments.first ?? "") did not start: \(text)")
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
