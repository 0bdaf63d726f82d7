import ChoreoFuzz
import ChoreoJSON
import Foundation
import Testing

/// The scene fuzzer, bounded and seeded, in every test run (longer runs: `choreo-bench --fuzz
/// SECONDS --seed N`), and every crash it or anyone found kept as a regression scene.
@Suite struct FuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func corpus() throws -> [JSONValue] {
        let directory = root.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        return try files.sorted().map {
            try JSONParser.parse(Array(try Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    /// The same seed gives the same mutants.
    @Test func mutantsFollowTheSeed() throws {
        let corpus = try Self.corpus()
        var a = SceneFuzzer(corpus: corpus, seed: 7)
        var b = SceneFuzzer(corpus: corpus, seed: 7)
        var c = SceneFuzzer(corpus: corpus, seed: 8)
        var differ = false
        for _ in 0..<50 {
            let (x, y, z) = (a.mutant(), b.mutant(), c.mutant())
            #expect(x == y)
            if x != z { differ = true }
        }
        #expect(differ)
    }

    /// A seeded run of mutants through decoder, runner and sampler: none crashes (a crash ends
    /// the test process), and the mutants reach both verdicts, so they exercise the runner and
    /// not only the decoder. Bounded by a count and by 20 s, whichever comes first.
    @Test func seededRunFindsNoCrash() throws {
        var fuzzer = SceneFuzzer(corpus: try Self.corpus(), seed: 1)
        var verdicts: [SceneFuzzer.Verdict: Int] = [:]
        let deadline = Date().addingTimeInterval(20)
        var executions = 0
        while executions < 3_000 && Date() < deadline {
            verdicts[SceneFuzzer.execute(SceneFuzzer.bytes(fuzzer.mutant())), default: 0] += 1
            executions += 1
        }
        #expect(executions >= 100)
        #expect(verdicts[.rendered, default: 0] > 0 && verdicts[.rejected, default: 0] > 0, "\(verdicts)")
    }

    /// A layer added with itself as its parent (found by `choreo-bench --fuzz 600 --seed 3`: the
    /// tree had a cycle and the runner overflowed its stack): an unknown parent now.
    @Test func aLayerAddedIntoItselfIsAnUnknownParent() throws {
        let text =
            #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"addLayer": {"id": "b", "sublayers": [{"id": "c"}]}, "parent": "c"}, {"addLayer": {"id": "d"}, "parent": "d"}]}]}"#
        #expect(SceneFuzzer.execute(Array(text.utf8)) == .rejected)
        #expect(
            SceneFuzzer.execute(
                Array(
                    #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"addLayer": {"id": "d"}, "parent": "a"}]}]}"#
                        .utf8)) == .rendered)
    }

    /// Every scene that ever crashed choreo is answered now: rendered, or refused with errors.
    @Test func regressionScenesRun() throws {
        let directory = Self.root.appendingPathComponent("Tests/ChoreoFormatTests/FuzzRegressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 8)
        for file in files.sorted() {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
            let verdict = SceneFuzzer.execute(bytes)
            #expect(verdict == .rendered || verdict == .rejected, "\(file)")
        }
    }
}
