import ChoreoEngine
import ChoreoFormat
import ChoreoHTTP
import ChoreoRaster
import ChoreoService
import Dispatch
import Foundation

/// `choreo-bench --pictures-only`: one 1280 × 720 PNG frame of a 100-layer scene (drawn and
/// encoded, against libpng's encoder through Cairo on the same frames in the same run), an
/// APNG of 600 such frames streamed: when its first bytes are ready, and the memory it holds;
/// and the 600-frame APNG of `examples/status-card.json` (run from the repository's root), as
/// `POST /v1/render?format=apng&fps=…` draws it, from the scene's run to its last byte.
enum PictureBenchmark {
    /// 20 s of scene: the APNG of 600 frames at 30 fps covers it.
    static func scene() throws -> Scene {
        var layers: [String] = []
        let colors = ["#FF3B30", "#34C759", "#007AFF", "#FF9500", "#AF52DE", "#5AC8FA", "#FFCC00"]
        var script: [String] = []
        for i in 0..<100 {
            let x = 20 + (i % 10) * 124
            let y = 20 + (i / 10) * 68
            layers.append(
                ##"{"id": "l\##(i)", "frame": [\##(x), \##(y), 100, 52], "backgroundColor": "\##(colors[i % 7])", "cornerRadius": \##(i % 4 * 6), "borderWidth": \##(i % 3 == 0 ? 2 : 0), "borderColor": "#1C1C1E", "opacity": \##(i % 5 == 0 ? 0.7 : 1)}"##
            )
            script.append(
                ##"{"add": {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": \##(Double(i % 7) * 0.3), "duration": 20, "timingFunction": "easeInEaseOut"}, "layer": "l\##(i)"}"##
            )
        }
        let json =
            ##"{"canvas": {"width": 1280, "height": 720, "background": "#F2F2F7"}, "layers": [\##(layers.joined(separator: ","))], "script": [{"at": 0, "do": [\##(script.joined(separator: ","))]}]}"##
        return try SceneDecoder.decode(bytes: Array(json.utf8)).scene
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    static func run() throws -> [(String, String)] {
        let scene = try scene()
        let timeline = try SceneRunner.run(scene)
        let renderer = FrameRenderer(timeline: timeline)
        var draw: [Double] = []
        var encode: [Double] = []
        var libpng: [Double] = []
        var bytes = 0
        var libpngBytes = 0
        for index in 0..<31 {
            let time = Double(index) * 20 / 30
            var canvas: CairoCanvas?
            draw.append(milliseconds { canvas = renderer.draw(at: time) })
            encode.append(milliseconds { bytes = canvas!.png().count })
            libpng.append(milliseconds { libpngBytes = canvas!.cairoPNG().count })
        }
        let frame = median(zip(draw, encode).map { $0 + $1 })

        var query = RenderQuery()
        query.sampling.format = .apng
        query.sampling.fps = 30
        query.sampling.start = 0
        query.sampling.end = 599.0 / 30
        let plan = try RenderPlan.make(timeline: timeline, query: query.sampling)
        var pieces = try PictureService.pieces(plan, query)
        let rssBefore = residentMiB()
        var peak = rssBefore
        var first = 0.0
        var total = 0
        let whole = milliseconds {
            let start = DispatchTime.now().uptimeNanoseconds
            while let piece = pieces.next() {
                if total == 0 { first = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
                total += piece.count
                peak = max(peak, residentMiB())
            }
        }
        let card = try statusCardAPNG()
        let drawing = try statusCardDrawing()
        let webp = try statusCardAPNG(.webp)
        let webm = try statusCardAPNG(.webm)
        let peer = try ffmpegAPNG()
        return [
            ("scene", "\"100 layers (rounded, bordered, translucent, rotating) on a 1280 x 720 canvas\""),
            ("png_frame_ms_median", String(format: "%.2f", frame)),
            ("png_draw_ms_median", String(format: "%.2f", median(draw))),
            ("png_encode_ms_median", String(format: "%.2f", median(encode))),
            ("libpng_via_cairo_encode_ms_median", String(format: "%.2f", median(libpng))),
            ("encode_speedup_vs_libpng", String(format: "%.2f", median(libpng) / median(encode))),
            ("png_bytes", "\(bytes)"),
            ("libpng_bytes", "\(libpngBytes)"),
            ("apng_frames", "\(plan.times.count)"),
            ("apng_first_bytes_ms", String(format: "%.1f", first)),
            ("apng_all_bytes_ms", String(format: "%.1f", whole)),
            ("apng_bytes", "\(total)"),
            ("apng_rss_growth_mib", String(format: "%.1f", peak - rssBefore)),
            ("frame_pixels_mib", String(format: "%.1f", 1280.0 * 720 * 4 / 1_048_576)),
            ("status_card_apng_frames", "\(card.frames)"),
            ("status_card_apng_ms_median", String(format: "%.1f", card.milliseconds)),
            ("status_card_apng_bytes", "\(card.bytes)"),
            ("status_card_draw_ms_median", String(format: "%.1f", drawing)),
            // The APNG's own work, comparable with ffmpeg's encoding of frames handed to it drawn.
            ("status_card_apng_encode_ms", String(format: "%.1f", card.milliseconds - drawing)),
            ("status_card_webp_ms_median", String(format: "%.1f", webp.milliseconds)),
            ("status_card_webp_bytes", "\(webp.bytes)"),
            ("status_card_webm_ms_median", String(format: "%.1f", webm.milliseconds)),
            ("status_card_webm_bytes", "\(webm.bytes)"),
            ("ffmpeg_apng_encode_ms_median", peer.map { String(format: "%.1f", $0.milliseconds) } ?? "null"),
            ("ffmpeg_apng_bytes", peer.map { "\($0.bytes)" } ?? "null"),
        ]
    }

    /// `examples/status-card.json` as a 600-frame APNG (or WebP, WebM) over its natural length:
    /// run, planned, drawn and encoded, the median of 3.
    static func statusCardAPNG(_ format: SamplingQuery.Format = .apng) throws -> (
        frames: Int, milliseconds: Double, bytes: Int
    ) {
        var frames = 0
        var bytes = 0
        let time = try timedStatusCard(format) { plan, query in
            var pieces = try PictureService.pieces(plan, query)
            bytes = 0
            while let piece = pieces.next() { bytes += piece.count }
            frames = plan.times.count
        }
        return (frames, time, bytes)
    }

    /// The status card's 600 frames run, planned and drawn as for its APNG, not encoded: what
    /// the APNG's time spends before any of its own work (the median of 3).
    static func statusCardDrawing() throws -> Double {
        try timedStatusCard(.apng) { plan, _ in
            let renderer = FrameRenderer(frames: plan.frames)
            for time in plan.times { _ = renderer.draw(at: time).words() }
        }
    }

    /// The status card run and planned as 600 frames of `format`, then `work` done with the
    /// plan, three times: the median wall time in milliseconds.
    static func timedStatusCard(
        _ format: SamplingQuery.Format, _ work: (RenderPlan, RenderQuery) throws -> Void
    ) throws -> Double {
        let document = try Array(Data(contentsOf: URL(fileURLWithPath: "examples/status-card.json")))
        var times: [Double] = []
        for _ in 0..<3 {
            var failure: (any Error)?
            times.append(
                milliseconds {
                    do {
                        let scene = try SceneDecoder.decode(bytes: document).scene
                        let duration = try SceneRunner.run(scene).naturalEnd
                        var query = RenderQuery()
                        query.sampling.format = format
                        query.sampling.fps = 599 / duration
                        try work(try RenderPlan.make(scene: scene, query: query.sampling), query)
                    } catch {
                        failure = error
                    }
                })
            if let failure { throw failure }
        }
        return median(times)
    }

    /// The peer: Debian's ffmpeg encoding the same 600 frames of the status card, drawn by
    /// choreo and handed to it raw (straight RGBA), as an APNG (`-f apng`), the median of 3 of
    /// its wall time encoding only; nil without ffmpeg.
    static func ffmpegAPNG() throws -> (milliseconds: Double, bytes: Int)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { return nil }
        let document = try Array(Data(contentsOf: URL(fileURLWithPath: "examples/status-card.json")))
        let scene = try SceneDecoder.decode(bytes: document).scene
        let duration = try SceneRunner.run(scene).naturalEnd
        var query = SamplingQuery()
        query.format = .apng
        query.fps = 599 / duration
        let plan = try RenderPlan.make(scene: scene, query: query)
        let renderer = FrameRenderer(frames: plan.frames)
        let directory = NSTemporaryDirectory() + "choreo-bench-apng-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let raw = directory + "/frames.rgba"
        _ = FileManager.default.createFile(atPath: raw, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: raw))
        for time in plan.times {
            guard let picture = CairoCanvas.decodePNG(renderer.draw(at: time).png()) else { return nil }
            handle.write(Data(picture.rgba))
        }
        try handle.close()
        let output = directory + "/peer.apng"
        var times: [Double] = []
        for _ in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = [
                "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s",
                "\(renderer.pixelWidth)x\(renderer.pixelHeight)", "-r", "\(query.fps)", "-i", raw, "-plays", "0",
                "-f", "apng", output,
            ]
            let started = DispatchTime.now().uptimeNanoseconds
            try process.run()
            process.waitUntilExit()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        return (median(times), bytes)
    }
}
