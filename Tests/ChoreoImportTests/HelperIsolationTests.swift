import ChoreoImport
import ChoreoService
import Glibc
import Testing

/// The helper process: a crash, a runaway or a refusal is an answer, never the caller's end.
@Suite struct HelperIsolationTests {
    @Test func aCrashIsReported() {
        let outcome = HelperProcess.run("/bin/sh", ["-c", "kill -SEGV $$"], input: [], deadline: 5, outputLimit: 1024)
        #expect(outcome.ending == .signalled(SIGSEGV))
    }

    @Test func aRunawayIsKilledAtTheDeadline() {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let outcome = HelperProcess.run(
            "/bin/sh", ["-c", "while :; do :; done"], input: [], deadline: 0.3, outputLimit: 1024)
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        #expect(outcome.ending == .timedOut)
        #expect(Double(end.tv_sec - start.tv_sec) < 5)
    }

    /// A child that exits without reading its input: the write fails quietly (no SIGPIPE ends
    /// the caller), and the child's exit is the answer.
    @Test func aChildThatReadsNothingIsNoSignal() {
        let input = Array(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<5 {
            let outcome = HelperProcess.run("/bin/sh", ["-c", "exit 3"], input: input, deadline: 5, outputLimit: 1024)
            #expect(outcome.ending == .exited(3))
        }
    }

    @Test func inputAndOutputPassThrough() {
        let input = Array(repeating: UInt8(ascii: "x"), count: 300_000)
        let outcome = HelperProcess.run("/bin/cat", [], input: input, deadline: 10, outputLimit: 1 << 20)
        #expect(outcome.ending == .exited(0))
        #expect(outcome.output == input)
    }

    @Test func tooMuchOutputIsCut() {
        let outcome = HelperProcess.run("/bin/sh", ["-c", "yes"], input: [], deadline: 10, outputLimit: 100_000)
        #expect(outcome.ending == .outputTooLarge)
    }

    /// The service turns a crashed helper into an error diagnostic, and a missing one into 503.
    @Test func theServiceAnswersForAFailedHelper() throws {
        let crashing = "/bin/sh"
        // /bin/sh reads the source as a script: make it crash.
        let request = ImportRequest(source: Array("kill -SEGV $$\n".utf8), language: .swift)
        let result = try ImportService.run(request, helpers: ImportHelpers(path: crashing))
        #expect(result.scene == nil)
        #expect(
            result.diagnostics.first?.message.contains("stopped") == true
                || result.diagnostics.first?.message.contains("crashed") == true)
        #expect(throws: ServiceError.self) {
            try ImportService.run(request, helpers: ImportHelpers(path: "/nonexistent/choreo-import"))
        }
    }

    /// A helper that crashes mid-way is reported with the stage it had reached.
    @Test func aCrashedHelperNamesItsStage() throws {
        // A stand-in helper: it reports a stage as choreo-import does, then crashes.
        let directory = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        let path = "\(directory)/crashing-helper-\(getpid()).sh"
        let script = "#!/bin/sh\ncat > /dev/null\necho 'stage: evaluating' >&2\nkill -SEGV $$\n"
        guard let file = fopen(path, "w") else { throw CancellationError() }
        fputs(script, file)
        fclose(file)
        chmod(path, 0o755)
        defer { unlink(path) }
        let result = try ImportService.run(
            ImportRequest(source: Array("let x = 1".utf8), language: .swift), helpers: ImportHelpers(path: path))
        #expect(result.scene == nil)
        #expect(
            result.diagnostics.first?.message
                == "the import crashed (signal 11, SIGSEGV) while evaluating; the crash was contained in its helper process"
        )
    }

    /// The real helper under a small CPU budget: a source that loops for ever is stopped.
    @Test func theRealHelperIsBounded() throws {
        let source = """
            var x = 0
            func spin() { for _ in 0..<10000 { for _ in 0..<10000 { x += 1 } } }
            spin()
            """
        let result = try ImportService.run(
            ImportRequest(source: Array(source.utf8), language: .swift),
            helpers: ImportHelpers(path: ImportHelpers.besideExecutable(), deadline: 20, cpuSeconds: 20))
        #expect(result.scene == nil)
        #expect(result.diagnostics.contains { $0.severity == .error })
    }
}
