import ChoreoImport
import ChoreoJSON
import Glibc
import Synchronization

/// What to import: source code, its language, and the import's options.
package struct ImportRequest: Sendable {
    package var source: [UInt8]
    package var language: SourceLanguage
    package var entry: String?
    package var name: String?
    package var reduceMotion = false
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
/// at once (more waiting would hold the server's threads: they are refused with 503).
package final class ImportHelpers: Sendable {
    package let path: String
    /// Wall-clock seconds a parse may take.
    package let deadline: Double
    /// Address space and CPU seconds of each helper.
    package let memoryBytes: UInt64
    package let cpuSeconds: Int
    package let capacity: Int
    private let running = Mutex(0)

    package init(
        path: String, deadline: Double = 10, memoryBytes: UInt64 = 2 << 30, cpuSeconds: Int = 10, capacity: Int = 2
    ) {
        self.path = path
        self.deadline = deadline
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.capacity = capacity
    }

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

    fileprivate func acquire() -> Bool {
        running.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
    }

    fileprivate func release() { running.withLock { $0 -= 1 } }
}

/// Source code → scene: the Swift or Objective-C front end and the evaluator, run in a helper
/// process under limits (docs/import.md). A parse that crashes, runs past its deadline or its
/// memory answers with an error diagnostic naming what happened; the caller keeps running.
package enum ImportService {
    /// The largest source accepted, in bytes.
    package static let sourceLimit = ImportLimits().sourceBytes

    package static func run(_ request: ImportRequest, helpers: ImportHelpers) throws(ServiceError) -> ImportResult {
        guard request.totalBytes <= sourceLimit else {
            throw ServiceError(
                .tooLarge(limit: sourceLimit, estimate: request.totalBytes),
                detail:
                    "The source is \(request.totalBytes) bytes with the files read with it; an import takes at most \(sourceLimit)."
            )
        }
        guard helpers.acquire() else {
            throw ServiceError(.busy(retryAfter: 1), detail: "Every import helper is busy; try again shortly.")
        }
        defer { helpers.release() }
        var arguments = [
            "--language", request.language.rawValue, "--memory", String(helpers.memoryBytes), "--cpu",
            String(helpers.cpuSeconds),
        ]
        if let entry = request.entry { arguments += ["--entry", entry] }
        if let name = request.name { arguments += ["--name", name] }
        if request.reduceMotion { arguments.append("--reduce-motion") }
        for tap in request.taps { arguments += ["--tap", "\(tap.title)@\(tap.time)"] }
        var input = request.source
        for companion in request.companions {
            arguments += ["--file", companion.name, String(companion.source.count)]
            input += companion.source
        }
        let outcome = HelperProcess.run(
            helpers.path, arguments, input: input, deadline: helpers.deadline, outputLimit: 64 << 20)
        // The helper says where it is ("stage: evaluating"); a failure names the last stage.
        let report = String(decoding: outcome.errorOutput, as: UTF8.self)
        let stage =
            report.split(separator: "\n").last { $0.hasPrefix("stage: ") }.map { " while " + $0.dropFirst(7) } ?? ""
        let failure: String
        switch outcome.ending {
        case .exited(0):
            if let document = try? JSONParser.parse(outcome.output), let result = ImportResult(json: document) {
                return result
            }
            failure = "the import helper answered with something that is not a result"
        case .exited(let status):
            let message = report.split(separator: "\n").filter { !$0.hasPrefix("stage: ") && !$0.hasPrefix("timing: ") }
                .joined(separator: "; ")
            failure = "the import helper stopped with status \(status)\(stage)\(message.isEmpty ? "" : ": \(message)")"
        case .signalled(SIGXCPU), .signalled(SIGKILL):
            failure = "the import used more than its \(helpers.cpuSeconds) s of CPU time and was stopped\(stage)"
        case .signalled(let signal):
            failure = "the import crashed (signal \(signal))\(stage)"
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

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
