import ChoreoEngine
import ChoreoJSON
import Foundation
import Testing

@testable import ChoreoFormat

/// Golden files: each scene in examples/ sampled at 0, ¼, ½, ¾ and 1 of its duration.
@Suite struct GoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static func names(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func render(_ name: String, threads: Int = 1) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent("examples/\(name).json")))
        let (scene, _) = try SceneDecoder.decode(bytes: bytes)
        var probe = SamplingQuery()
        probe.times = [0]
        let duration = try RenderPlan.make(scene: scene, query: probe).duration
        var query = SamplingQuery()
        query.times = [0, 0.25, 0.5, 0.75, 1].map { ($0 * duration * 1e9).rounded() / 1e9 }
        // As a render makes its plan (`RenderService.plan`): letting go of the leaves it can.
        let plan = try RenderPlan.make(scene: scene, query: query, releasingLeaves: true)
        return ResponseEncoder.json(plan, threads: threads)
    }

    @Test(arguments: names(in: goldens))
    func matchesGolden(name: String) throws {
        let expected = Array(try Data(contentsOf: Self.goldens.appendingPathComponent("\(name).json")))
        let actual = try Self.render(name)
        #expect(actual + [UInt8(ascii: "\n")] == expected || actual == expected, "\(name) differs from its golden")
    }

    /// Every golden still has its scene, and every example has a golden.
    @Test func everyGoldenHasItsScene() {
        let examples = Self.names(in: Self.root.appendingPathComponent("examples"))
        #expect(!examples.isEmpty)
        #expect(Self.names(in: Self.goldens) == examples)
    }

    /// Byte-identical output whatever the number of threads, across runs, and whether or not
    /// the plan let go of the timeline's leaves.
    @Test func deterministicAcrossThreads() throws {
        for name in Self.names(in: Self.goldens) {
            let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("examples/\(name).json")))
            let (scene, _) = try SceneDecoder.decode(bytes: bytes)
            var query = SamplingQuery()
            query.fps = 240
            let plan = try RenderPlan.make(scene: scene, query: query)
            let one = ResponseEncoder.json(plan, threads: 1)
            let many = ResponseEncoder.json(plan, threads: 8)
            let again = ResponseEncoder.json(
                try RenderPlan.make(scene: scene, query: query, releasingLeaves: true), threads: 2)
            #expect(one == many && one == again, "\(name)")
        }
    }

    @Test func battleGroupIsDiagnosedAsClipped() throws {
        let text = String(decoding: try Self.render("battle-group"), as: UTF8.self)
        #expect(text.components(separatedBy: "\"group-clipped\"").count == 3)
    }
}

/// The trailer streams in pieces whose joined bytes are the trailer's, whatever the piece size.
@Suite struct TrailerPiecesTests {
    @Test(arguments: [1, 64, 4096])
    func piecesJoinedAreTheTrailer(pieceBytes: Int) throws {
        for name in GoldenTests.names(in: GoldenTests.goldens) {
            let url = GoldenTests.root.appendingPathComponent("examples/\(name).json")
            let (scene, _) = try SceneDecoder.decode(bytes: Array(try Data(contentsOf: url)))
            var query = SamplingQuery()
            query.times = [0]
            let plan = try RenderPlan.make(scene: scene, query: query)
            for format in [SamplingQuery.Format.json, .ndjson] {
                var pieces = TrailerPieces(plan.timeline, format: format, pieceBytes: pieceBytes)
                var joined: [UInt8] = []
                var count = 0
                while let piece = pieces.next() {
                    #expect(!piece.isEmpty)
                    joined += piece
                    count += 1
                }
                let whole = format == .json ? ResponseEncoder.jsonTrailer(plan) : ResponseEncoder.ndjsonTrailer(plan)
                #expect(joined == whole, "\(name) \(format)")
                #expect(
                    TrailerPieces.size(plan.timeline, format: format, pieceBytes: pieceBytes) == whole.count)
                let elements =
                    plan.timeline.events.count + plan.timeline.diagnostics.count
                    + plan.timeline.animations.count
                // At most a piece per element and one per section's end (a piece ends once it
                // passes its size), and the whole trailer in one when pieces are large.
                #expect(count <= elements + 4, "\(name)")
                if pieceBytes == 1 { #expect(count >= elements, "a piece of one byte holds one element") }
                if pieceBytes >= whole.count { #expect(count == 1, "\(name)") }
            }
        }
    }
}
