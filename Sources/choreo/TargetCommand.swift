import ChoreoHTTP
import ChoreoServer
import ChoreoService
import ChoreoTransport
import Foundation

/// `choreo target`: a tiny health endpoint to probe, adjustable at run time (`POST /control`).
enum TargetCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(
            arguments, valued: ["host", "port", "latency", "status", "fail-every", "load"], flags: ["help"])
        if parsed.flags.contains("help") {
            print(Help.target)
            return
        }
        guard parsed.positional.isEmpty else { throw CLIError(message: "target takes options only (see --help)") }
        var options = MicroHTTPDServer.Options()
        options.host = parsed.options["host"] ?? "127.0.0.1"
        guard let text = parsed.options["port"], let port = UInt16(text) else {
            throw CLIError(message: "--port is required: 0…65535 (0 picks a free port)")
        }
        options.port = port
        options.threads = 1
        var settings = TargetService.Settings()
        if let text = parsed.options["latency"] {
            guard let ms = Self.milliseconds(text) else {
                throw CLIError(message: "--latency must be a duration such as 20ms or 0.5s")
            }
            settings.latencyMs = ms
        }
        if let status = try parsed.integer("status", in: 100...599, "an HTTP status") { settings.status = status }
        if let k = try parsed.integer("fail-every", in: 0...1_000_000, "a whole number") { settings.failEvery = k }
        if let text = parsed.options["load"] {
            guard let load = Double(text), load.isFinite else { throw CLIError(message: "--load must be a number") }
            settings.load = load
        }
        let signals = TerminationSignals.block()
        let server = MicroHTTPDServer(application: TargetService(settings: settings), options: options) { line in
            line.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        do {
            try server.start()
        } catch {
            throw CLIError(message: error.description, status: 1)
        }
        Output.logLine(
            RequestLog.event("listening", ["host": .string(options.host), "port": .number(Double(server.boundPort))]))
        _ = TerminationSignals.wait(signals)
        // A target may be hanging requests on purpose: do not wait for them.
        server.stop(timeout: 1)
        Output.logLine(RequestLog.event("stopped"))
    }

    /// "20ms", "0.5s" or a bare number of milliseconds.
    static func milliseconds(_ text: String) -> Double? {
        let value: Double?
        if text.hasSuffix("ms") {
            value = Double(text.dropLast(2))
        } else if text.hasSuffix("s") {
            value = Double(text.dropLast()).map { $0 * 1000 }
        } else {
            value = Double(text)
        }
        guard let value, value >= 0, value <= 600_000 else { return nil }
        return value
    }
}
