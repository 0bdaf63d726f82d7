import CWebPDemux
import ChoreoEngine
import ChoreoFormat
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoRaster

/// Animated WebP and WebM, decoded by independent decoders: libwebp's own `WebPAnimDecoder`
/// for WebP (Debian's ffmpeg 5 cannot read animated WebP), ffmpeg with libvpx for WebM. Frame
/// count and timing exact; a lossless WebP identical to choreo's frames, a WebM at the default
/// quality at least 32 dB PSNR.
@Suite struct VideoTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    /// An example's renderer and its frames' times at 30 fps, and the picture's bytes.
    static func video(_ example: String, _ kind: PicturePieces.Kind) throws -> (
        bytes: [UInt8], renderer: FrameRenderer, times: [Double]
    ) {
        let document = try Array(Data(contentsOf: examples.appendingPathComponent(example)))
        var query = SamplingQuery()
        query.format = .apng
        query.fps = 30
        let plan = try RenderPlan.make(scene: try SceneDecoder.decode(bytes: document).scene, query: query)
        let renderer = FrameRenderer(frames: plan.frames)
        var pieces = PicturePieces(renderer: renderer, times: plan.times, kind: kind, frameDelay: 1.0 / 30)
        var bytes: [UInt8] = []
        while let piece = pieces.next() { bytes += piece }
        #expect(pieces.failure == nil)
        return (bytes, renderer, plan.times)
    }

    /// The PSNR of two pictures of the same size, in dB (infinity when identical).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0
        for (x, y) in zip(a, b) {
            let d = Double(x) - Double(y)
            sum += d * d
        }
        let mse = sum / Double(max(1, a.count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// A frame's milliseconds, as the encoders were given them.
    static func milliseconds(_ times: [Double], _ index: Int) -> Int {
        Int(((times[index] - times[0]) * 1000).rounded())
    }

    @Test(arguments: ["status-card.json", "watering-button.json"])
    func libwebpDecodesTheLosslessFramesExactly(example: String) throws {
        let (file, renderer, times) = try Self.video(example, .webp(quality: nil))
        #expect(Array(file.prefix(4)) == Array("RIFF".utf8) && Array(file[8..<12]) == Array("WEBP".utf8))
        var options = WebPAnimDecoderOptions()
        #expect(cwebpdemux_options_init(&options) != 0)
        options.color_mode = MODE_RGBA
        var decoded: [([UInt8], Int)] = []
        file.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = cwebpdemux_new(&data, &options) else { return }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            _ = WebPAnimDecoderGetInfo(decoder, &info)
            #expect(Int(info.canvas_width) == renderer.pixelWidth && Int(info.canvas_height) == renderer.pixelHeight)
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else { break }
                decoded.append(
                    (
                        Array(
                            UnsafeBufferPointer(start: pixels, count: renderer.pixelWidth * renderer.pixelHeight * 4)),
                        Int(timestamp)
                    ))
            }
        }
        // The encoder merges identical consecutive frames into one shown longer: at every
        // frame's time, the frame shown is choreo's, and the animation ends when choreo's does.
        let last = times.count - 1
        let end = Self.milliseconds(times, last) + Int(((times[last] - times[max(0, last - 1)]) * 1000).rounded())
        #expect(decoded.last?.1 == end, "the animation ends at \(decoded.last?.1 ?? -1) ms, not \(end)")
        #expect(decoded.count <= times.count && decoded.count > 1)
        for (index, time) in times.enumerated() {
            let start = Self.milliseconds(times, index)
            guard let shown = decoded.first(where: { $0.1 > start }) else {
                Issue.record("no frame shown at \(start) ms")
                continue
            }
            let drawn = try #require(CairoCanvas.decodePNG(renderer.draw(at: time).png()))
            // Lossless: the same straight RGBA (a transparent pixel's colour does not count).
            func visible(_ rgba: [UInt8]) -> [UInt8] {
                rgba.enumerated().map { $0.offset % 4 == 3 || rgba[$0.offset | 3] > 0 ? $0.element : 0 }
            }
            let differing = zip(visible(shown.0), visible(drawn.rgba)).filter { $0 != $1 }.count
            #expect(differing == 0, "frame \(index) at \(start) ms: \(differing) bytes differ")
        }
    }

    @Test(arguments: ["status-card.json", "watering-button.json"])
    func ffmpegDecodesTheWebMFrames(example: String) throws {
        let (file, renderer, times) = try Self.video(example, .webm(quality: nil))
        #expect(Array(file.prefix(4)) == [0x1A, 0x45, 0xDF, 0xA3])
        let scratch = Scratch("choreo-webm")
        let path = scratch.file("video.webm")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let transparent = (renderer.background?.alpha ?? 0) < 1
        // libvpx's decoder reads the alpha stream beside each frame.
        let raw = scratch.file("frames.rgba")
        let (status, _, errors) = try runProgram(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-c:v", "libvpx-vp9", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-vsync",
                "passthrough", raw,
            ])
        #expect(status == 0, "\(errors)")
        let (probed, timing, _) = try runProgram(
            "/usr/bin/ffprobe",
            ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts", "-of", "csv=p=0", path])
        #expect(probed == 0)
        let pts = timing.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(pts == times.indices.map { Self.milliseconds(times, $0) }, "frame times \(pts)")
        let frames = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data())
        let frameBytes = renderer.pixelWidth * renderer.pixelHeight * 4
        #expect(frames.count == frameBytes * times.count, "ffmpeg decoded \(frames.count / max(1, frameBytes)) frames")
        var worst = Double.infinity
        for (index, time) in times.enumerated() where (index + 1) * frameBytes <= frames.count {
            let drawn = try #require(CairoCanvas.decodePNG(renderer.draw(at: time).png()))
            let decoded = Array(frames[(index * frameBytes)..<((index + 1) * frameBytes)])
            // Compared as shown: premultiplied, so a transparent pixel's colour does not count.
            func shown(_ rgba: [UInt8]) -> [UInt8] {
                rgba.enumerated().map { offset, value in
                    offset % 4 == 3 ? value : UInt8((Int(value) * Int(rgba[offset | 3]) + 127) / 255)
                }
            }
            worst = min(worst, Self.psnr(shown(decoded), shown(drawn.rgba)))
        }
        print("webm of \(example)\(transparent ? " (with alpha)" : ""): \(file.count) bytes, lowest PSNR \(worst) dB")
        #expect(worst >= 32, "\(example): a frame at \(worst) dB")
    }
}
