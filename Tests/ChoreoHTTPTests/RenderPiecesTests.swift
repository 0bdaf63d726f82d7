import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoHTTP

@Suite struct RenderPiecesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    /// A response written piece by piece, as `choreo render` and the server stream it, is the
    /// response written at once, in both formats.
    @Test func aResponseInPiecesIsTheResponse() throws {
        let url = Self.examples.appendingPathComponent("three-ball-loader.json")
        let (scene, _) = try SceneDecoder.decode(bytes: Array(try Data(contentsOf: url)))
        var query = SamplingQuery()
        query.fps = 30
        let plan = try RenderPlan.make(scene: scene, query: query)
        for format in [SamplingQuery.Format.json, .ndjson] {
            var pieces = RenderPieces(plan, format: format, threads: 2, framesPerPiece: 3)
            var joined: [UInt8] = []
            var count = 0
            while let piece = pieces.next() {
                joined += piece
                count += 1
            }
            let whole =
                format == .json
                ? ResponseEncoder.json(plan, threads: 1)
                : ResponseEncoder.ndjsonHeader(plan) + ResponseEncoder.ndjsonFrames(plan, range: 0..<plan.times.count)
                    + ResponseEncoder.ndjsonTrailer(plan)
            #expect(joined == whole, "\(format)")
            #expect(count > 3, "a header, several pieces of frames and a trailer")
        }
    }
}
