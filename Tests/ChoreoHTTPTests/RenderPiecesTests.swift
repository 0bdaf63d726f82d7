import Foundation
import Testing

@testable import ChoreoFormat
@testable import ChoreoHTTP
@testable import ChoreoService

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
            var addresses: [UnsafeRawPointer?] = []
            while let piece = pieces.next() {
                joined += piece
                count += 1
                if pieces.framesDone > 1 && pieces.framesDone < plan.times.count {
                    addresses.append(piece.withUnsafeBytes { $0.baseAddress })
                }
            }
            #expect(joined == Self.whole(plan, format), "\(format)")
            #expect(count > 3, "a header, several pieces of frames and a trailer")
            // Pieces of frames are written into the storage of the one before (a new one only
            // when they outgrow it), and the threads' cursors are kept from piece to piece.
            #expect(
                addresses.count >= 6 && Set(addresses).count * 2 < addresses.count,
                "\(addresses.count) pieces in \(Set(addresses).count) buffers")
            #expect(pieces.cursors.count >= 1 && pieces.cursors.count <= 2, "\(pieces.cursors.count) cursors kept")
        }
    }

    /// Frames larger than a piece's megabyte go one at a time, each in as many parts as
    /// threads (a slice of its layers each), and out as the parts the threads wrote, one piece
    /// each, not copied into one; once the pieces are let go, their buffers are written again.
    /// Joined, the pieces are still the response.
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
            var addresses: [UnsafeRawPointer?] = []
            while let piece = pieces.next() {
                joined += piece
                sizes.append(piece.count)
                capacities.append(piece.capacity)
                addresses.append(piece.withUnsafeBytes { $0.baseAddress })
            }
            #expect(joined == Self.whole(plan, format), "\(format)")
            // The header, five frames of two parts each, the trailer.
            #expect(sizes.count == 12, "\(format): pieces of \(sizes) bytes")
            let frames = stride(from: 1, to: 11, by: 2).map { sizes[$0] + sizes[$0 + 1] }
            #expect(frames.allSatisfy { $0 > frame - 16 && $0 < frame + 16 }, "\(sizes)")
            #expect(sizes[1..<11].allSatisfy { $0 > frame / 3 }, "parts of about half a frame: \(sizes)")
            // After the first frame, parts are written into the buffers of the frame before
            // (each large enough for the frames written since: none was grown).
            #expect(Set(addresses[3..<11]).isSubset(of: Set(addresses[1..<3])), "\(addresses)")
            #expect(capacities[3..<11].allSatisfy { Set(capacities[1..<3]).contains($0) }, "\(capacities)")
            #expect(zip(sizes, capacities).dropFirst().dropLast().allSatisfy { $1 < 2 * $0 }, "\(capacities)")
        }
    }

    /// A frame written in parts, a slice of its drawing order each, is the frame written
    /// whole: with layers in a tree, layers left out by `layers=` (the first among them), a
    /// transition's and animators' members, and more parts than layers.
    @Test func aFrameInPartsIsTheFrame() throws {
        for example in ["pan-dismiss.json", "animator-cancel.json", "push-transition.json", "fade.json"] {
            let url = Self.examples.appendingPathComponent(example)
            let (scene, _) = try SceneDecoder.decode(bytes: Array(try Data(contentsOf: url)))
            let all = try RenderPlan.make(scene: scene, query: SamplingQuery())
            let ids = all.timeline.layers.map(\.id)
            var query = SamplingQuery()
            query.fps = 10
            query.layers = ids.count > 1 ? Array(ids.dropFirst()) : ids
            for plan in [
                try RenderPlan.make(scene: scene, query: SamplingQuery()),
                try RenderPlan.make(scene: scene, query: query),
            ] {
                for format in [SamplingQuery.Format.json, .ndjson] {
                    for index in [0, plan.times.count / 2, plan.times.count - 1] {
                        let whole = ResponseEncoder.frameBlocks(
                            plan, range: index..<(index + 1), format: format, threads: 1)
                        for threads in [2, 3, ids.count + 2] {
                            let parts = ResponseEncoder.frameBlocks(
                                plan, range: index..<(index + 1), format: format, threads: threads, partedFrom: 0)
                            #expect(parts.count == threads, "\(example): written in parts")
                            #expect(
                                Array(parts.joined()) == Array(whole.joined()),
                                "\(example) \(format) frame \(index), \(threads) parts")
                        }
                    }
                }
            }
        }
    }
}
