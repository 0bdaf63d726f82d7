import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoRaster

/// An animated PNG stores after its first frame only the rectangle each frame changed, drawn
/// over the frame before, and frames that draw alike once, shown for their time together:
/// decoded, the frame shown at every time is the frame drawn, pixel for pixel, by this file's
/// own compositing decoder and by ffmpeg's.
@Suite struct APNGDeltaTests {
    static let scene =
        ##"{"canvas": {"width": 120, "height": 80, "background": "#FFFFFF"}, "layers": [{"id": "a", "frame": [10, 10, 20, 20], "backgroundColor": "#FF3B30", "cornerRadius": 4}, {"id": "b", "frame": [70, 40, 30, 30], "backgroundColor": "#007AFF", "opacity": 0.5}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "position.x", "toValue": 60, "duration": 0.5}, "layer": "a"}]}, {"at": 0.8, "do": [{"add": {"type": "basic", "keyPath": "opacity", "toValue": 1, "duration": 0.3}, "layer": "b"}]}]}"##

    static let times = (0...12).map { Double($0) / 10 }

    static func animation() throws -> (file: [UInt8], renderer: FrameRenderer) {
        let (scene, _) = try SceneDecoder.decode(bytes: Array(Self.scene.utf8))
        let renderer = FrameRenderer(timeline: try SceneRunner.run(scene), scale: 1)
        var pieces = PicturePieces(renderer: renderer, times: Self.times, kind: .apng, frameDelay: 0.1)
        var file: [UInt8] = []
        while let piece = pieces.next() { file += piece }
        return (file, renderer)
    }

    /// Each stored frame's delay in milliseconds (its `fcTL`'s, in thousandths).
    static func delays(_ file: [UInt8]) throws -> [Int] {
        try #require(PNGChunks.read(file)).filter { $0.type == "fcTL" }.map { chunk in
            let bytes = Array(chunk.data)
            #expect(Int(bytes[22]) << 8 | Int(bytes[23]) == 1000)
            return Int(bytes[20]) << 8 | Int(bytes[21])
        }
    }

    /// The frame shown at each of `times` (every 0.1 s from 0), from the stored frames and
    /// their delays.
    static func shown(_ frames: [[UInt8]], delays: [Int]) -> [[UInt8]] {
        var shown: [[UInt8]] = []
        for (frame, delay) in zip(frames, delays) {
            shown += Array(repeating: frame, count: Int((Double(delay) / 100).rounded()))
        }
        return shown
    }

    /// The frames of an animated PNG as straight RGBA, each composed over the one before.
    static func decode(_ file: [UInt8]) throws -> [[UInt8]] {
        let chunks = try #require(PNGChunks.read(file))
        let header = try #require(chunks.first { $0.type == "IHDR" })
        let width = Int(PNGChunks.be32(Array(header.data), 0))
        let height = Int(PNGChunks.be32(Array(header.data), 4))
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [[UInt8]] = []
        var region: (x: Int, y: Int, width: Int, height: Int)?
        var over = false
        var data: [UInt8] = []
        func finish() throws {
            guard let r = region else { return }
            var png = PNGChunks.signature
            var ihdr: [UInt8] = []
            PNGChunks.append32(UInt32(r.width), to: &ihdr)
            PNGChunks.append32(UInt32(r.height), to: &ihdr)
            ihdr += [8, 6, 0, 0, 0]
            PNGChunks.write("IHDR", ihdr, to: &png)
            PNGChunks.write("IDAT", data, to: &png)
            PNGChunks.write("IEND", [], to: &png)
            let decoded = try #require(CairoCanvas.decodePNG(png))
            for y in 0..<r.height {
                for x in 0..<r.width {
                    let target = ((r.y + y) * width + r.x + x) * 4
                    let source = (y * r.width + x) * 4
                    let a = Double(decoded.rgba[source + 3]) / 255
                    let b = Double(canvas[target + 3]) / 255
                    // APNG's blend "over" (straight alpha); "source" replaces.
                    guard over, a < 1 else {
                        for c in 0..<4 { canvas[target + c] = decoded.rgba[source + c] }
                        continue
                    }
                    let alpha = a + b * (1 - a)
                    for c in 0..<3 {
                        let value =
                            alpha == 0
                            ? 0
                            : (Double(decoded.rgba[source + c]) * a + Double(canvas[target + c]) * b * (1 - a)) / alpha
                        canvas[target + c] = UInt8(value.rounded())
                    }
                    canvas[target + 3] = UInt8((alpha * 255).rounded())
                }
            }
            frames.append(canvas)
            data = []
        }
        for chunk in chunks {
            let bytes = Array(chunk.data)
            switch chunk.type {
            case "fcTL":
                try finish()
                region = (
                    Int(PNGChunks.be32(bytes, 12)), Int(PNGChunks.be32(bytes, 16)), Int(PNGChunks.be32(bytes, 4)),
                    Int(PNGChunks.be32(bytes, 8))
                )
                #expect(bytes[24] == 0, "dispose none")
                over = bytes[25] == 1
            case "IDAT": data += bytes
            case "fdAT": data += bytes.dropFirst(4)
            default: break
            }
        }
        try finish()
        return frames
    }

    @Test func framesAreTheDrawnFramesAndOnlyChangesAreStored() throws {
        let (file, renderer) = try Self.animation()
        let stored = try Self.decode(file)
        // 0.5–0.8 s draw alike (the move has ended, the fade is at its start), and 1.1–1.2 s:
        // 13 frames stored as 9, the two runs shown for 400 and 200 ms.
        let delays = try Self.delays(file)
        #expect(stored.count == 9)
        #expect(delays == [100, 100, 100, 100, 100, 400, 100, 100, 200])
        let frames = Self.shown(stored, delays: delays)
        #expect(frames.count == Self.times.count)
        for (index, time) in Self.times.enumerated() where index < frames.count {
            let drawn = try #require(CairoCanvas.decodePNG(renderer.draw(at: time).png()))
            #expect(frames[index] == drawn.rgba, "frame \(index) at \(time) s")
        }
        // Later frames are rectangles smaller than the canvas: the first is whole.
        let chunks = try #require(PNGChunks.read(file))
        let sizes = chunks.filter { $0.type == "fcTL" }.map {
            (Int(PNGChunks.be32(Array($0.data), 4)), Int(PNGChunks.be32(Array($0.data), 8)))
        }
        #expect(sizes[0] == (120, 80))
        #expect(sizes.dropFirst().allSatisfy { $0.0 * $0.1 < 120 * 80 / 2 }, "\(sizes)")
    }

    /// An independent decoder (Debian's ffmpeg, installed by make test) reads the same frames.
    @Test func ffmpegDecodesTheSameFrames() throws {
        let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let path = try #require(ffmpeg, "ffmpeg is not installed (make test installs it)")
        let (file, renderer) = try Self.animation()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apng-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("a.apng")
        try Data(file).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "-v", "error", "-i", input.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-vsync", "passthrough", "-",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let raw = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let frameBytes = 120 * 80 * 4
        let delays = try Self.delays(file)
        #expect(raw.count == frameBytes * delays.count, "ffmpeg decoded \(raw.count / frameBytes) frames")
        let stored = stride(from: 0, to: raw.count - frameBytes + 1, by: frameBytes).map {
            Array(raw[$0..<($0 + frameBytes)])
        }
        let frames = Self.shown(stored, delays: delays)
        #expect(frames.count == Self.times.count)
        for (index, time) in Self.times.enumerated() where index < frames.count {
            let drawn = try #require(CairoCanvas.decodePNG(renderer.draw(at: time).png()))
            #expect(frames[index] == drawn.rgba, "frame \(index)")
        }
    }
}
