import ChoreoEngine
import ChoreoFormat
import ChoreoHTTP
import ChoreoService
import Dispatch
import Foundation

/// choreo against rlottie, the C++ Lottie engine, on the work both do (`choreo-bench
/// --rlottie`): 1,000 layers × 600 frames × 3 animated properties (a position eased
/// 0.42/0/0.58/1, an opacity through 4 keyframes eased the same, a scale eased the same), the
/// same animation written as a Lottie file for rlottie and as a scene for choreo.
///
/// rlottie runs in a small C driver (Benchmarks/rlottie/driver.c) that this benchmark builds
/// with `cc` against Debian's librlottie-dev; without the library the comparison is skipped
/// with a message. Reported: the engine (rlottie's `render_tree` over every frame against
/// choreo's `SamplingProgram` over every sample, best of three, one core) and the pipeline
/// (from the file to the answer, in samples per CPU-second), like for like: both write the same
/// numbers for every layer and frame, its position, opacity and scale, at the same digits —
/// rlottie loading, building every frame's tree and writing those numbers with `%.9g` (or
/// `%.17g`), choreo decoding, running, sampling and writing `--properties
/// position,opacity,transform.scale` with `precision=9` (or its shortest round-trip digits) as
/// JSON, NDJSON and over HTTP.
enum RlottieBenchmark {
    static let layers = 1_000
    static let frames = 600
    static var samples: Int { layers * frames * 3 }

    /// The Lottie file: shape layers with an animated transform, 60 fps, 600 frames.
    static var lottie: String {
        let ease = #""i":{"x":[0.58],"y":[1]},"o":{"x":[0.42],"y":[0]}"#
        let layerItems = (0..<layers).map { index in
            let x = index % 400
            return
                #"{"ddd":0,"ind":\#(index + 1),"ty":4,"nm":"l\#(index)","sr":1,"ao":0,"ip":0,"op":600,"st":0,"bm":0,"ks":{"#
                + #""o":{"a":1,"k":[{"t":0,"s":[0],\#(ease)},{"t":200,"s":[100],\#(ease)},{"t":400,"s":[30],\#(ease)},{"t":600,"s":[100]}]},"#
                + #""r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"#
                + #""p":{"a":1,"k":[{"t":0,"s":[\#(x),0,0],\#(ease)},{"t":600,"s":[\#(x),300,0]}]},"#
                + #""s":{"a":1,"k":[{"t":0,"s":[50,50,100],\#(ease)},{"t":600,"s":[100,100,100]}]}},"#
                + #""shapes":[{"ty":"rc","d":1,"s":{"a":0,"k":[20,20]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},"#
                + #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
        }
        return #"{"v":"5.7.0","fr":60,"ip":0,"op":600,"w":400,"h":400,"layers":["#
            + layerItems.joined(separator: ",") + "]}"
    }

    /// The same animation as a choreo scene: 10 s, sampled at 60 fps gives the 600 frames.
    static var scene: String {
        var layerItems: [String] = []
        var actions: [String] = []
        for index in 0..<layers {
            let x = index % 400
            layerItems.append(#"{"id":"l\#(index)","position":[\#(x),0],"bounds":[0,0,20,20]}"#)
            actions.append(
                #"{"layer":"l\#(index)","add":{"type":"basic","keyPath":"position","fromValue":[\#(x),0],"toValue":[\#(x),300],"duration":10,"timingFunction":"easeInEaseOut"}}"#
            )
            actions.append(
                #"{"layer":"l\#(index)","add":{"type":"keyframe","keyPath":"opacity","values":[0,1,0.3,1],"duration":10,"timingFunctions":["easeInEaseOut","easeInEaseOut","easeInEaseOut"]}}"#
            )
            actions.append(
                #"{"layer":"l\#(index)","add":{"type":"basic","keyPath":"transform.scale","fromValue":0.5,"toValue":1,"duration":10,"timingFunction":"easeInEaseOut"}}"#
            )
        }
        return #"{"layers":["# + layerItems.joined(separator: ",") + #"],"script":[{"at":0,"do":["#
            + actions.joined(separator: ",") + "]}]}"
    }

    /// choreo's query: the three numbers' properties; `&precision=9` for nine digits.
    static let query = "fps=60&end=9.99&properties=position,opacity,transform.scale"

    static func run() throws -> [(String, String)] {
        guard let flags = try? shell("/usr/bin/pkg-config", ["--cflags", "--libs", "rlottie"]), flags.status == 0 else {
            return [("rlottie", "\"skipped: librlottie-dev is not installed (apt-get install librlottie-dev)\"")]
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-rlottie-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let driver = try buildDriver(
            "rlottie/driver.c", into: directory,
            flags: flags.output.split(whereSeparator: \.isWhitespace).map(String.init))
        let lottieFile = directory.appendingPathComponent("peer.json").path
        try lottie.write(toFile: lottieFile, atomically: false, encoding: .utf8)
        let sceneBytes = Array(scene.utf8)

        // rlottie, at 9 and at 17 significant digits: one run of the driver.
        let peerFrames = directory.appendingPathComponent("peer-frames.json").path
        typealias PeerRun = (renderTree: Double, pipeline: Double, load: Double, bytes: Int)
        func peerRun(_ digits: Int) throws -> PeerRun {
            let peer = try shell(driver, [lottieFile, "3", peerFrames, "\(digits)"])
            guard peer.status == 0, let renderTree = number(peer.output, "render_tree_seconds"),
                let pipeline = number(peer.output, "pipeline_cpu_seconds"),
                let load = number(peer.output, "load_cpu_seconds"), number(peer.output, "frames") == 600
            else { throw BenchError("the rlottie driver failed: \(peer.output)") }
            let bytes = (try FileManager.default.attributesOfItem(atPath: peerFrames)[.size] as? Int) ?? 0
            return (renderTree, pipeline, load, bytes)
        }
        func faster(_ best: PeerRun?, _ run: PeerRun) -> PeerRun {
            guard let best, best.pipeline <= run.pipeline else { return run }
            return best
        }

        // choreo's engine, one core, every sample, best of three.
        let (decoded, _) = try SceneDecoder.decode(bytes: sceneBytes)
        let timeline = try SceneRunner.run(decoded)
        let keyPaths = [KeyPath("position")!, KeyPath("opacity")!, KeyPath("transform")!]
        let program = SamplingProgram(
            timeline: timeline,
            requests: (0..<layers).flatMap { layer in keyPaths.map { (layer: layer, property: $0.property) } })
        let maps = timeline.timeMaps(at: 0, shape: timeline.shape(at: 0))
        var checksum = 0.0
        let engine = best(3) {
            var lanes = Lanes()
            let cursor = SamplingCursor(for: program)
            for frame in 0..<frames {
                let t = Double(frame) / 60
                for track in 0..<(layers * 3)
                where program.sample(
                    track, at: t, map: maps[track / 3], cursor: cursor, into: &lanes)
                {
                    checksum += lanes[0]
                }
            }
        }

        // choreo's pipeline: file bytes to the answer, CPU time of this process (every thread).
        var choreoBytes: [String: Int] = [:]
        func pipeline(_ format: SamplingQuery.Format, _ extra: String) throws -> Double {
            var parameters = (query + extra).split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts[1]))
            }
            parameters.append(("format", format.rawValue))
            var written = 0
            let seconds = try cpuSeconds {
                let (scene, _) = try SceneDecoder.decode(bytes: sceneBytes)
                let plan = try RenderPlan.make(scene: scene, query: try SamplingQuery.parse(parameters))
                var pieces = RenderPieces(plan, format: format, threads: ResponseEncoder.defaultThreads)
                var bytes = 0
                while let piece = pieces.next() { bytes += piece.count }
                written = bytes
                guard plan.sampleCount >= samples else { throw BenchError("\(plan.sampleCount) samples") }
            }
            choreoBytes["\(format.rawValue)\(extra)"] = written
            return seconds
        }
        let nine = "&precision=9"
        // Interleaved, three rounds, the best of each: both sides meet the machine as it is at
        // the time (it is shared, and its speed drifts by a third between minutes).
        var best9: PeerRun?
        var best17: PeerRun?
        var json9 = Double.infinity
        var json = Double.infinity
        var ndjson9 = Double.infinity
        var ndjson = Double.infinity
        for _ in 0..<3 {
            best9 = faster(best9, try peerRun(9))
            json9 = min(json9, try pipeline(.json, nine))
            ndjson9 = min(ndjson9, try pipeline(.ndjson, nine))
            best17 = faster(best17, try peerRun(17))
            json = min(json, try pipeline(.json, ""))
            ndjson = min(ndjson, try pipeline(.ndjson, ""))
        }
        guard let peer9 = best9, let peer17 = best17 else { throw BenchError("no rlottie run") }
        let renderTree = min(peer9.renderTree, peer17.renderTree)
        let peerLoad = min(peer9.load, peer17.load)
        let (http9, http) = try httpPipeline(sceneBytes, nine, "")

        func perCPUSecond(_ seconds: Double) -> String { String(format: "%.0f", Double(samples) / seconds) }
        func ratio(_ peer: Double, _ choreo: Double) -> String { String(format: "%.2f", peer / choreo) }
        return [
            ("rlottie_workload", "\"1000 layers x 600 frames x (eased position, 4-keyframe opacity, eased scale)\""),
            ("samples", "\(samples)"),
            ("rlottie_render_tree_ns_per_sample", String(format: "%.1f", renderTree * 1e9 / Double(samples))),
            ("choreo_engine_ns_per_sample_one_core", String(format: "%.1f", engine * 1e9 / Double(samples))),
            ("choreo_engine_speed_over_rlottie", String(format: "%.2f", renderTree / engine)),
            // rlottie's tree for every frame, without writing it out: the least a pipeline does.
            ("rlottie_tree_only_samples_per_cpu_second", perCPUSecond(peerLoad + renderTree)),
            ("rlottie_9_digits_samples_per_cpu_second", perCPUSecond(peer9.pipeline)),
            ("rlottie_17_digits_samples_per_cpu_second", perCPUSecond(peer17.pipeline)),
            ("rlottie_9_digits_bytes", "\(peer9.bytes)"),
            ("rlottie_17_digits_bytes", "\(peer17.bytes)"),
            ("choreo_json_precision_9_samples_per_cpu_second", perCPUSecond(json9)),
            ("choreo_json_samples_per_cpu_second", perCPUSecond(json)),
            ("choreo_ndjson_precision_9_samples_per_cpu_second", perCPUSecond(ndjson9)),
            ("choreo_ndjson_samples_per_cpu_second", perCPUSecond(ndjson)),
            ("choreo_http_precision_9_samples_per_cpu_second", perCPUSecond(http9)),
            ("choreo_http_samples_per_cpu_second", perCPUSecond(http)),
            ("choreo_json_precision_9_bytes", "\(choreoBytes["json" + nine] ?? 0)"),
            ("choreo_json_bytes", "\(choreoBytes["json"] ?? 0)"),
            ("choreo_json_over_rlottie_tree_only", ratio(peerLoad + renderTree, json)),
            ("choreo_json_9_over_rlottie_9", ratio(peer9.pipeline, json9)),
            ("choreo_ndjson_9_over_rlottie_9", ratio(peer9.pipeline, ndjson9)),
            ("choreo_http_9_over_rlottie_9", ratio(peer9.pipeline, http9)),
            ("choreo_json_shortest_over_rlottie_17", ratio(peer17.pipeline, json)),
            ("choreo_ndjson_shortest_over_rlottie_17", ratio(peer17.pipeline, ndjson)),
            ("choreo_http_shortest_over_rlottie_17", ratio(peer17.pipeline, http)),
            ("choreo_json_precision_9_over_full", ratio(json, json9)),
            ("checksum", String(format: "%.3f", checksum)),
        ]
    }

    /// The server's CPU seconds for one `POST /v1/render` of the scene with each of two
    /// query suffixes (best of three each, alternating in one server so that neither gets a
    /// warmer process), read from /proc before and after: the client's work is not counted.
    static func httpPipeline(_ body: [UInt8], _ first: String, _ second: String) throws -> (Double, Double) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-rl-http-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ChoreoChild(["serve", "--port", "0", "--data", directory.path])
        defer { server.stop() }
        var best = (Double.infinity, Double.infinity)
        for round in 0..<6 {
            let extra = round % 2 == 0 ? first : second
            let before = try processCPUSeconds(server.process.processIdentifier)
            let (status, _) = try ScaleOutBenchmark.request(
                server.port, "POST", "/v1/render?\(query)\(extra)", body: body)
            guard status == 200 else { throw BenchError("the render answered \(status)") }
            let seconds = try processCPUSeconds(server.process.processIdentifier) - before
            if round % 2 == 0 { best.0 = min(best.0, seconds) } else { best.1 = min(best.1, seconds) }
        }
        return best
    }

    /// A C driver of Benchmarks/ (`path` under it) built with `cc -O2` into `directory`; its path.
    static func buildDriver(_ path: String, into directory: URL, flags: [String] = []) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(path).path
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let driver = directory.appendingPathComponent(name).path
        let build = try shell("/usr/bin/cc", ["-O2", "-o", driver, source] + flags)
        guard build.status == 0 else { throw BenchError("cannot build \(path): \(build.output)") }
        return driver
    }

    /// utime + stime of a process, from /proc/PID/stat.
    static func processCPUSeconds(_ pid: Int32) throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
        guard let close = text.lastIndex(of: ")") else { throw BenchError("cannot read /proc/\(pid)/stat") }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("cannot read /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU seconds (user + system, every thread) that `body` takes.
    static func cpuSeconds(_ body: () throws -> Void) throws -> Double {
        func now() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let start = now()
        try body()
        return now() - start
    }

    static func best(_ runs: Int, _ body: () -> Void) -> Double {
        var fastest = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }

    /// A number field of the driver's one-line JSON.
    static func number(_ text: String, _ field: String) -> Double? {
        guard let range = text.range(of: "\"\(field)\": ") else { return nil }
        return Double(text[range.upperBound...].prefix { "0123456789.e-".contains($0) })
    }

    /// Runs a program to its end; its status and its standard output and error together.
    static func shell(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
