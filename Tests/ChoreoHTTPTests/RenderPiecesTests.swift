import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoHTTP

@Suite struct RenderPiecesTests {
    /// The response written at once.
    static func whole(_ plan: RenderPlan, _ format: SamplingQuery.Format) -> [UInt8] {
        format == .json
            ? ResponseEncoder.json(plan, threads: 1)
            : ResponseEncoder.ndjsonHeader(plan) + ResponseEncoder.ndjsonFrames(plan, range: 0..<plan.times.count)
                + ResponseEncoder.ndjsonTrailer(plan)
    }

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
            #expect(joined == Self.whole(plan, format), "\(format)")
            #expect(count > 3, "a header, several pieces of frames and a trailer")
        }
    }

    /// Frames larger than a piece's megabyte go out as the blocks the threads wrote, one
    /// piece each, instead of being copied into one piece per pair of frames; each block's
    /// buffer is sized from the frames before it. Joined, the pieces are still the response.
    @Test func largeFramesGoOutAsTheyWereWritten() throws {
        let layers = (0..<10_000).map { #"{"id": "a-layer-with-a-longer-name-\#($0)", "position": [\#($0), 1]}"# }
        let text = #"{"layers": [\#(layers.joined(separator: ","))]}"#
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        var query = SamplingQuery()
        query.fps = 4
        query.end = 1
        let plan = try RenderPlan.make(scene: scene, query: query)
        for format in [SamplingQuery.Format.json, .ndjson] {
            let frame = ResponseEncoder.jsonFrames(plan, range: 1..<2, threads: 1).count
            #expect(frame > RenderService.pieceBytes, "\(frame) bytes a frame")
            var pieces = RenderPieces(plan, format: format, threads: 2)
            var joined: [UInt8] = []
            var sizes: [Int] = []
            var capacities: [Int] = []
            while let piece = pieces.next() {
                joined += piece
                sizes.append(piece.count)
                capacities.append(piece.capacity)
            }
            #expect(joined == Self.whole(plan, format), "\(format)")
            // The header, five frames of a piece each, the trailer.
            #expect(sizes.count == 7, "\(format): pieces of \(sizes) bytes")
            #expect(sizes.dropFirst().dropLast().allSatisfy { $0 > frame - 16 && $0 < frame + 16 }, "\(sizes)")
            // After the first frame, blocks are written into buffers sized for them.
            #expect(zip(sizes, capacities).dropFirst(2).dropLast().allSatisfy { $1 < $0 + $0 / 4 }, "\(capacities)")
        }
    }
}
