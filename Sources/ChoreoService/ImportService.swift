import ChoreoImport
import ChoreoJSON
import ChoreoTransport
import Glibc
import Synchronization

/// What to import: source code, its language, and the import's options.
package struct ImportRequest: Sendable {
    package var source: [UInt8]
    package var language: SourceLanguage
    package var entry: String?
    package var name: String?
    package var reduceMotion = false
    /// The screen a view controller's view fills, in points (``ImportOptions/screen``).
    package var screen: (width: Double, height: Double)?
    /// A SwiftUI view's taps (``ImportOptions/taps``).
    package var taps: [(title: String, time: Double)] = []
    /// The files read with the source, as a compiler reads them together: the rest of a Swift
    /// module, the Objective-C headers it includes and the implementations of the classes they
    /// declare. Their names are as the caller gives them (diagnostics name them so).
    package var companions: [(name: String, source: [UInt8])] = []

    /// The bytes of the source and its companions together.
    package var totalBytes: Int { companions.reduce(source.count) { $0 + $1.source.count } }

    package init(source: [UInt8], language: SourceLanguage, entry: String? = nil, name: String? = nil) {
        self.source = source
        self.language = language
        self.entry = entry
        self.name = name
    }
}

/// The helper processes imports run in: where the helper is, its limits, and how many may run
/// at once (more waiting would hold the server's threads: they are refused with 503), shared
/// among clients so that none holds them all.
package final class ImportHelpers: Sendable {
    package let path: String
    /// Wall-clock seconds a parse may take.
    package let deadline: Double
    /// Each helper's memory budget (resident bytes that no file backs; the helper stops itself
    /// past it) and CPU seconds.
    package let memoryBytes: UInt64
    package let cpuSeconds: Int
    package let capacity: Int
    /// The server's render memory, which each running helper holds its budget of: imports and
    /// renders are admitted against one figure (`--max-render-memory`). Nil for the CLI.
    package let memory: RenderMemory?
    /// Helpers running, in all and by client.
    private let running = Mutex<(total: Int, byClient: [String: Int])>((0, [:]))

    package static let defaultMemoryBytes: UInt64 = 256 << 20

    package init(
        path: String, deadline: Double = 10, memoryBytes: UInt64 = ImportHelpers.defaultMemoryBytes,
        cpuSeconds: Int = 10, capacity: Int = 2, memory: RenderMemory? = nil
    ) {
        self.path = path
        self.deadline = deadline
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.capacity = capacity
        self.memory = memory
    }

    /// The helpers one client (a token, else an address) may run at once: all but one when
    /// there are two or more, so that another client always finds one free.
    package var perClient: Int { capacity > 1 ? capacity - 1 : 1 }

    /// `choreo-import` beside the running executable, or `$CHOREO_IMPORT_HELPER`.
    package static func besideExecutable() -> String {
        if let configured = getenv("CHOREO_IMPORT_HELPER") { return String(cString: configured) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "choreo-import" }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        return directory + "/choreo-import"
    }

    /// A helper's slot for `client`, or the error to answer with: every helper busy, or this
    /// client's share taken.
    fileprivate func acquire(client: String?) -> ServiceError? {
        running.withLock { state in
            guard state.total < capacity else {
                return ServiceError(.busy(retryAfter: 1), detail: "Every import helper is busy; try again shortly.")
            }
            if let client {
                let held = state.byClient[client, default: 0]
                guard held < perClient else {
                    return ServiceError(
                        .busy(retryAfter: 1),
                        detail:
                            "This client already runs \(held) of the \(capacity) import helpers, its share; try again when one has finished."
                    )
                }
                state.byClient[client] = held + 1
            }
            state.total += 1
            return nil
        }
    }

    fileprivate func release(client: String?) {
        running.withLock { state in
            state.total -= 1
            if let client, let held = state.byClient[client] {
                state.byClient[client] = held > 1 ? held - 1 : nil
            }
        }
    }
}

/// Source code → scene: the Swift or Objective-C front end and the evaluator, run in a helper
/// process under limits (docs/import.md). A parse that crashes, runs past its deadline or its
/// memory answers with an error diagnostic naming what happened; the caller keeps running.
package enum ImportService {
    /// The largest source accepted, in bytes.
    package static let sourceLimit = ImportLimits().sourceBytes

    /// Runs the import in a helper. `client` names who asks (a token or an address: each has a
    /// share of the helpers, ``ImportHelpers/perClient``); `cancellation` set (its client hung
    /// up) kills the helper and throws ``ServiceError/Kind/cancelled``.
    package static func run(
        _ request: ImportRequest, helpers: ImportHelpers, client: String? = nil, cancellation: Cancellation? = nil
    ) throws(ServiceError) -> ImportResult {
        guard request.totalBytes <= sourceLimit else {
            throw ServiceError(
                .tooLarge(limit: sourceLimit, estimate: request.totalBytes),
                detail:
                    "The source is \(request.totalBytes) bytes with the files read with it; an import takes at most \(sourceLimit)."
            )
        }
        if let refusal = helpers.acquire(client: client) { throw refusal }
        defer { helpers.release(client: client) }
        // The helper's memory budget is held from the server's render memory while it runs.
        var reservation: RenderMemory.Reservation?
        if let memory = helpers.memory {
            let bytes = Int(clamping: helpers.memoryBytes)
            guard let taken = memory.reserve(bytes) else {
                throw ServiceError(
                    .busy(retryAfter: 1),
                    detail:
                        "The server's render memory is in use (an import holds \(bytes >> 20) MiB of the \(memory.limit >> 20) MiB of --max-render-memory); try again shortly."
                )
            }
            reservation = taken
        }
        defer { withExtendedLifetime(reservation) {} }
        var arguments = [
            "--language", request.language.rawValue, "--memory", String(helpers.memoryBytes), "--cpu",
            String(helpers.cpuSeconds),
        ]
        if let entry = request.entry { arguments += ["--entry", entry] }
        if let name = request.name { arguments += ["--name", name] }
        if request.reduceMotion { arguments.append("--reduce-motion") }
        if let screen = request.screen { arguments += ["--screen", "\(screen.width)x\(screen.height)"] }
        for tap in request.taps { arguments += ["--tap", "\(tap.title)@\(tap.time)"] }
        var input = request.source
        for companion in request.companions {
            arguments += ["--file", companion.name, String(companion.source.count)]
            input += companion.source
        }
        let outcome = HelperProcess.run(
            helpers.path, arguments, input: input, deadline: helpers.deadline, outputLimit: 64 << 20,
            cancellation: cancellation)
        // The helper says where it is ("stage: evaluating"); a failure names the last stage.
        let report = String(decoding: outcome.errorOutput, as: UTF8.self).split(separator: "\n")
        let stage = report.last { $0.hasPrefix("stage: ") }.map { " while " + $0.dropFirst(7) } ?? ""
        let failure: String
        switch outcome.ending {
        case .exited(0):
            if let document = try? JSONParser.parse(outcome.output), let result = ImportResult(json: document) {
                return result
            }
            failure = "the import helper answered with something that is not a result"
        case .exited(HelperExit.overMemory):
            // The helper's memory watch names the budget and the stage.
            failure =
                report.last { $0.hasPrefix("memory: ") }.map { String($0.dropFirst(8)) }
                ?? "the import used more than its \(helpers.memoryBytes >> 20) MiB of memory\(stage) and was stopped"
        case .exited(HelperExit.unwalled):
            let reason = report.last { $0.hasPrefix("choreo-import: ") }.map { String($0.dropFirst(15)) } ?? ""
            throw ServiceError(.unavailable, detail: "The import helper cannot run here: \(reason).")
        case .exited(let status):
            let message = report.filter { line in
                !["stage: ", "timing: ", "walls: "].contains { line.hasPrefix($0) }
            }.joined(separator: "; ")
            failure = "the import helper stopped with status \(status)\(stage)\(message.isEmpty ? "" : ": \(message)")"
        case .cancelled:
            throw ServiceError(.cancelled, detail: "The client went away; the import helper was stopped\(stage).")
        case .signalled(SIGXCPU), .signalled(SIGKILL):
            failure = "the import used more than its \(helpers.cpuSeconds) s of CPU time and was stopped\(stage)"
        case .signalled(let signal):
            let known: [Int32: String] = [
                SIGSEGV: "SIGSEGV",
                SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGFPE: "SIGFPE",
            ]
            failure =
                "the import crashed (signal \(signal)\(known[signal].map { ", " + $0 } ?? ""))\(stage); the crash was contained in its helper process"
        case .timedOut:
            failure = "the import took longer than \(format(helpers.deadline)) s and was stopped\(stage)"
        case .outputTooLarge:
            failure = "the import made a scene larger than 64 MiB"
        case .notStarted(let error):
            throw ServiceError(
                .unavailable, detail: "The import helper \(helpers.path) cannot be started (errno \(error)).")
        }
        return ImportResult(
            scene: nil,
            diagnostics: [ImportDiagnostic(.error, SourcePosition(line: 1, column: 1), failure)], sourceMap: [])
    }

    /// The helper's own exit statuses (Sources/choreo-import).
    package enum HelperExit {
        /// Its memory watch stopped it.
        package static let overMemory: Int32 = 5
        /// It could not put up its walls, and read nothing.
        package static let unwalled: Int32 = 6
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
