import ChoreoFuzz
import ChoreoJSON
import Foundation

/// `choreo-bench --fuzz SECONDS [--seed N]`: the scene fuzzer for a while, from the repository
/// root (its corpus is `examples/*.json`). Prints executions, executions per second and the
/// verdicts as JSON. On a crash (a trap, a fault) the mutant that caused it is written to
/// `.build/fuzz-crash.json` by the signal handler: add it to
/// `Tests/ChoreoFormatTests/FuzzRegressions/`. The slowest mutant is left in
/// `.build/fuzz-slowest.json`.
enum FuzzRun {
    static func run(seconds: Double, seed: UInt64) throws -> [(String, String)] {
        let directory = "examples"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
            .sorted()
        let corpus = try files.map {
            try JSONParser.parse(Array(FileManager.default.contents(atPath: "\(directory)/\($0)")!))
        }
        CrashCapture.install(path: ".build/fuzz-crash.json")
        var fuzzer = SceneFuzzer(corpus: corpus, seed: seed)
        var executions = 0
        var rendered = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        var slowest = 0.0
        var slowestBytes: [UInt8] = []
        while elapsed < seconds {
            let bytes = SceneFuzzer.bytes(fuzzer.mutant())
            CrashCapture.remember(bytes)
            let before = DispatchTime.now().uptimeNanoseconds
            if SceneFuzzer.execute(bytes) == .rendered { rendered += 1 }
            let took = Double(DispatchTime.now().uptimeNanoseconds - before) / 1e6
            if took > slowest {
                slowest = took
                slowestBytes = bytes
            }
            executions += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        // The slowest mutant, for the cost model: what one request can make the server do.
        _ = FileManager.default.createFile(atPath: ".build/fuzz-slowest.json", contents: Data(slowestBytes))
        return [
            ("seed", "\(seed)"), ("seconds", String(format: "%.1f", elapsed)), ("executions", "\(executions)"),
            ("executions_per_second", String(format: "%.0f", Double(executions) / elapsed)),
            ("rendered", "\(rendered)"), ("rejected", "\(executions - rendered)"), ("crashes", "0"),
            ("slowest_ms", String(format: "%.1f", slowest)),
        ]
    }
}

/// The mutant being run, kept where a signal handler can write it out (open, write and close
/// are async-signal-safe; nothing is allocated in the handler).
enum CrashCapture {
    nonisolated(unsafe) static var buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 22, alignment: 8)
    nonisolated(unsafe) static var length = 0
    nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar>?

    static func install(path: String) {
        self.path = strdup(path)
        // Its own stack, so that the handler runs after a stack overflow too.
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        stack.ss_size = 1 << 16
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        for number in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            var action = sigaction()
            action.sa_flags = SA_ONSTACK
            action.__sigaction_handler.sa_handler = { number in
                if let path = CrashCapture.path {
                    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    if fd >= 0 {
                        _ = write(fd, CrashCapture.buffer, CrashCapture.length)
                        close(fd)
                    }
                }
                signal(number, SIG_DFL)
                raise(number)
            }
            sigaction(number, &action, nil)
        }
    }

    static func remember(_ bytes: [UInt8]) {
        length = min(bytes.count, 1 << 22)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: length) }
    }
}
