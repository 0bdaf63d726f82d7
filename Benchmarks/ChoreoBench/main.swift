import ChoreoEngine
import ChoreoFormat
import ChoreoLibraries
import ChoreoTestSupport
import Dispatch
import Foundation

// choreo-bench: the engine's figures (docs/benchmarks.md), printed as one JSON object.
// Scene: 1,000 layers, each with an eased basic position animation, a cubic keyframe opacity
// animation and a spring on transform.scale; 600 frames at 60 fps.

// The allocator as `choreo` sets it, so that the memory figures measured in process match.
Allocator.configure()

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The best of `runs` timings.
func best(_ runs: Int, _ body: () -> Void) -> Double {
    (0..<runs).map { _ in seconds(body) }.min()!
}

/// This process's resident memory now (VmRSS), in MiB.
func residentMiB() -> Double {
    processStatusKiB(getpid(), "VmRSS").map { Double($0) / 1024 } ?? -1
}

/// `--distinct-curves`: every layer gets a Bézier curve and a spring of its own (control points
/// and damping a little apart), so no two layers' curves give the same value at a frame.
let distinctCurves = CommandLine.arguments.contains("--distinct-curves")

func benchmarkScene(layers: Int) -> Scene {
    var nodes: [LayerNode] = []
    var actions: [ScriptAction] = []
    for index in 0..<layers {
        let id = "layer-\(index)"
        var node = LayerNode(id: id)
        node.values = [
            .position: .point(Point(Double(index), 0)), .bounds: .rect(Rect(x: 0, y: 0, width: 20, height: 20)),
        ]
        nodes.append(node)
        var move = Animation(
            content: .basic(
                PropertyAnimation(keyPath: KeyPath("position")!),
                BasicValues(from: .point(Point(Double(index), 0)), to: .point(Point(Double(index), 300))), spring: nil))
        move.timing.duration = 10
        move.timingFunction =
            distinctCurves ? .bezier(UnitBezier(0.42 + Double(index) * 1e-6, 0, 0.58, 1)) : .easeInEaseOut
        move.key = "move"
        var keyframes = Keyframes()
        keyframes.values = [.number(0), .number(1), .number(0.3), .number(1)]
        keyframes.calculationMode = .cubic
        var fade = Animation(content: .keyframe(PropertyAnimation(keyPath: KeyPath("opacity")!), keyframes))
        fade.timing.duration = 10
        fade.key = "fade"
        var pop = Animation(
            content: .basic(
                PropertyAnimation(keyPath: KeyPath("transform.scale")!),
                BasicValues(from: .number(0.5), to: .number(1)),
                spring: Spring(damping: distinctCurves ? 5 + Double(index) * 1e-6 : 5)))
        pop.timing.duration = 10
        pop.key = "pop"
        actions += [.add(move, layer: id), .add(fade, layer: id), .add(pop, layer: id)]
    }
    return Scene(layers: nodes, script: [ScriptEntry(at: 0, actions: actions)])
}

// NDJSON of 100,000 frames (the same scene with 10 layers) through the real CLI, in its own
// process: `choreo render --format ndjson` streamed to /dev/null; its peak resident memory is
// the child's ru_maxrss. It runs first, while this process is still small: Linux carries the
// parent's resident size at fork into the child's ru_maxrss.
/// The benchmark's scene as a document. `distinctKeyframes`: layer i's opacity keyframes are
/// `[0, 1, 0.3 + i × 0.00001, 1]` (distinct for up to 10,000 layers), so no two share a track.
func benchmarkSceneJSON(layers: Int, distinctKeyframes: Bool = false) -> String {
    var layerItems: [String] = []
    var actions: [String] = []
    for index in 0..<layers {
        let id = "layer-\(index)"
        layerItems.append("{\"id\": \"\(id)\", \"position\": [\(index), 0], \"bounds\": [0, 0, 20, 20]}")
        actions += [
            "{\"layer\": \"\(id)\", \"add\": {\"type\": \"basic\", \"keyPath\": \"position\", \"fromValue\": [\(index), 0], "
                + "\"toValue\": [\(index), 300], \"duration\": 10, \"timingFunction\": \"easeInEaseOut\", \"key\": \"move\"}}",
            "{\"layer\": \"\(id)\", \"add\": {\"type\": \"keyframe\", \"keyPath\": \"opacity\", \"values\": [0, 1, "
                + (distinctKeyframes ? "0.3" + String(format: "%04d", index % 10000) : "0.3") + ", 1], "
                + "\"calculationMode\": \"cubic\", \"duration\": 10, \"key\": \"fade\"}}",
            "{\"layer\": \"\(id)\", \"add\": {\"type\": \"spring\", \"keyPath\": \"transform.scale\", \"fromValue\": 0.5, "
                + "\"toValue\": 1, \"damping\": 5, \"duration\": 10, \"key\": \"pop\"}}",
        ]
    }
    return
        "{\"layers\": [\(layerItems.joined(separator: ", "))], \"script\": [{\"at\": 0, \"do\": [\(actions.joined(separator: ", "))]}]}"
}

// `--scene-json N [--distinct-keyframes]`: prints the scene with N layers as a document and
// stops (the large-scene memory measurements in docs/benchmarks.md render it).
if let flag = CommandLine.arguments.firstIndex(of: "--scene-json") {
    guard flag + 1 < CommandLine.arguments.count, let count = Int(CommandLine.arguments[flag + 1]), count > 0 else {
        FileHandle.standardError.write(Data("usage: choreo-bench --scene-json N [--distinct-keyframes]\n".utf8))
        exit(2)
    }
    print(benchmarkSceneJSON(layers: count, distinctKeyframes: CommandLine.arguments.contains("--distinct-keyframes")))
    exit(0)
}

// `--memory`: peak resident memory of `choreo render` and `choreo serve` on the 10,000-layer
// document (MemoryBenchmark). It runs before anything else grows this process.
if CommandLine.arguments.contains("--memory") {
    let figures = try MemoryBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}

// `--import`: the importer on a 2,000-line Swift source, through its helper process.
if CommandLine.arguments.contains("--import-source") {
    print(ImportBenchmark.source(views: ImportBenchmark.views), terminator: "")
    exit(0)
}
if CommandLine.arguments.contains("--import") {
    ImportBenchmark.run()
    exit(0)
}

let sceneFile = FileManager.default.temporaryDirectory.appendingPathComponent("choreo-bench-ndjson.json")
try benchmarkSceneJSON(layers: 10).write(to: sceneFile, atomically: false, encoding: .utf8)
let choreoPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "choreo"
).path
let child = Process()
child.executableURL = URL(fileURLWithPath: choreoPath)
child.arguments = ["render", sceneFile.path, "--format", "ndjson", "--fps", "100", "--end", "999.99"]
// The output is thrown away by redirecting standard output, not by naming a device.
child.standardOutput = FileHandle.nullDevice
let parentResidentAtForkMiB = residentMiB()
// The profiling modes (`--engine-only`, `--floor-only`, `--render-only`) skip the child: they
// run under profilers, which need not follow it.
let profiling = ["--engine-only", "--floor-only", "--render-only"].contains { CommandLine.arguments.contains($0) }
let ndjsonTime = try seconds {
    guard !profiling else { return }
    try child.run()
    child.waitUntilExit()
}
var usage = rusage()
getrusage(RUSAGE_CHILDREN.rawValue, &usage)
let ndjsonPeakMiB = Double(usage.ru_maxrss) / 1024
try? FileManager.default.removeItem(at: sceneFile)

// `--layers N` changes the layer count of `--engine-only` (10,000 is the large size docs/benchmarks.md reports);
// the full run's JSON render is sized for 1,000.
let layerCount =
    CommandLine.arguments.firstIndex(of: "--layers").flatMap {
        $0 + 1 < CommandLine.arguments.count ? Int(CommandLine.arguments[$0 + 1]) : nil
    } ?? 1000
if layerCount != 1000 && !CommandLine.arguments.contains("--engine-only") {
    FileHandle.standardError.write(Data("--layers N is for --engine-only\n".utf8))
    exit(2)
}
let frameCount = 600
let scene = benchmarkScene(layers: layerCount)
let timeline = try SceneRunner.run(scene)
let keyPaths = [KeyPath("position")!, KeyPath("opacity")!, KeyPath("transform")!]
let times = (0..<frameCount).map { Double($0) / 60 }
let samples = layerCount * keyPaths.count * frameCount
let shape = timeline.shape(at: 0)
let maps = timeline.timeMaps(at: 0, shape: shape)

let program = SamplingProgram(
    timeline: timeline,
    requests: (0..<layerCount).flatMap { layer in keyPaths.map { (layer: layer, property: $0.property) } })

/// Tile frames within the tile memory the JSON encoder gives each thread (1: no tiles).
let tileFrames = program.tileFrames(within: ResponseEncoder.tileBytes)

/// Engine only: presentation values for every (frame, layer, property) through the compiled
/// sampling program as the encoders sample them (generic pieces fall back to the timeline), no
/// encoding: a tile of frames track by track, then read frame by frame, or frame after frame
/// when a tile would not hold two frames.
func sampleFrames(_ range: Range<Int>, cursor: SamplingCursor? = nil) -> Double {
    tileFrames > 1
        ? sampleFramesInTiles(range, cursor: cursor) : sampleFramesInFrameOrder(range, cursor: cursor)
}

/// Tiles of frames, sampled track by track and read frame by frame.
func sampleFramesInTiles(_ range: Range<Int>, cursor: SamplingCursor? = nil) -> Double {
    var checksum = 0.0
    let cursor = cursor ?? SamplingCursor(for: program, tileFrames: tileFrames)
    maps.withUnsafeBufferPointer { mapBuffer in
        for tileStart in stride(from: range.lowerBound, to: range.upperBound, by: tileFrames) {
            let tileEnd = min(tileStart + tileFrames, range.upperBound)
            program.sampleTile(times[tileStart..<tileEnd], maps: mapBuffer.baseAddress!, mapStride: 0, cursor: cursor)
            for frame in 0..<(tileEnd - tileStart) {
                var track = 0
                for layer in 0..<layerCount {
                    for (column, keyPath) in keyPaths.enumerated() {
                        if let lanes = program.tileValues(track, frame: frame, cursor: cursor) {
                            // The same sum as frame order's (lanes[0] + lanes[1], where opacity has
                            // no second lane), so the two orders' checksums agree.
                            checksum += lanes[0] + (column == 1 ? 0 : lanes[1])
                        } else if case .number(let n) = timeline.presentationValue(
                            layer: layer, keyPath: keyPath, at: times[tileStart + frame], map: maps[layer])
                        {
                            checksum += n
                        }
                        track += 1
                    }
                }
            }
        }
    }
    return checksum
}

/// The same samples one at a time, frame after frame.
func sampleFramesInFrameOrder(_ range: Range<Int>, cursor: SamplingCursor? = nil) -> Double {
    var checksum = 0.0
    var lanes = Lanes()
    let cursor = cursor ?? SamplingCursor(for: program)
    for frame in range {
        let t = times[frame]
        var track = 0
        for layer in 0..<layerCount {
            let map = maps[layer]
            for keyPath in keyPaths {
                if program.sample(track, at: t, map: map, cursor: cursor, into: &lanes) {
                    checksum += lanes[0] + lanes[1]
                } else if case .number(let n) = timeline.presentationValue(
                    layer: layer, keyPath: keyPath, at: t, map: map)
                {
                    checksum += n
                }
                track += 1
            }
        }
    }
    return checksum
}

/// The same samples through the generic path (`Timeline.presentationValue`), for comparison.
func sampleFramesGeneric(_ range: Range<Int>) -> Double {
    var checksum = 0.0
    for frame in range {
        let t = times[frame]
        for layer in 0..<layerCount {
            for keyPath in keyPaths {
                switch timeline.presentationValue(layer: layer, keyPath: keyPath, at: t, map: maps[layer]) {
                case .number(let n): checksum += n
                case .point(let p): checksum += p.y
                case .transform(let m): checksum += m.m11
                default: break
                }
            }
        }
    }
    return checksum
}

final class Sink: @unchecked Sendable {
    var values = [Double](repeating: 0, count: 64)
}

if CommandLine.arguments.contains("--urlsession-only") {
    let figures = try URLSessionProbeBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if let index = CommandLine.arguments.firstIndex(of: "--fuzz") {
    let arguments = CommandLine.arguments
    guard index + 1 < arguments.count, let seconds = Double(arguments[index + 1]), seconds > 0 else {
        FileHandle.standardError.write(Data("usage: choreo-bench --fuzz SECONDS [--seed N]\n".utf8))
        exit(2)
    }
    var seed: UInt64 = 1
    if let at = arguments.firstIndex(of: "--seed"), at + 1 < arguments.count, let given = UInt64(arguments[at + 1]) {
        seed = given
    }
    let figures = try FuzzRun.run(seconds: seconds, seed: seed)
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--numbers") {
    let figures = try NumberBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--rlottie") {
    let figures = try RlottieBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
/// The `--database URL` a benchmark needs, or its usage and exit status 2.
func databaseArgument(for mode: String) -> String {
    let arguments = CommandLine.arguments
    guard let at = arguments.firstIndex(of: "--database"), at + 1 < arguments.count else {
        FileHandle.standardError.write(
            Data("usage: choreo-bench \(mode) --database postgres://… (a throwaway database)\n".utf8))
        exit(2)
    }
    return arguments[at + 1]
}
if CommandLine.arguments.contains("--scale-out") {
    let figures = try ScaleOutBenchmark.run(database: databaseArgument(for: "--scale-out"))
    print(
        "{" + figures.map { "\"\($0.0)\": \($0.1.contains("/") ? "\"\($0.1)\"" : $0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--session-throughput") {
    let figures = try SessionThroughputBenchmark.run(database: databaseArgument(for: "--session-throughput"))
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--sessions-only") {
    let figures = try SessionBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--pictures-only") {
    let figures = try PictureBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--arena-only") {
    let figures = try ArenaBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}
if CommandLine.arguments.contains("--probe-only") {
    let figures = try ProbeBenchmark.run()
    print("{" + figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    exit(0)
}

// Profiling modes: `--engine-only` runs the one-core engine loop, `--render-only` the JSON render.
if CommandLine.arguments.contains("--render-only") {
    var query = SamplingQuery()
    query.fps = 60
    query.end = Double(frameCount - 1) / 60
    let time = best(3) { _ = ResponseEncoder.json(try! RenderPlan.make(scene: scene, query: query)).count }
    print("{\"render_json_samples_per_second\": \(String(format: "%.0f", Double(4 * layerCount * frameCount) / time))}")
    exit(0)
}
// The floor: only the cubic Bézier evaluations, one per sample, in a tight loop.
let curve = UnitBezier(0.42, 0, 0.58, 1)
var floorChecksum = 0.0

/// One pass of the floor (a function of its own, so a profiler can collect it alone).
@inline(never)
func floorLoop(_ count: Int) -> Double {
    var total = 0.0
    for index in 0..<count {
        total += curve.solve(Double(index % 10_000) / 10_000)
    }
    return total
}

if CommandLine.arguments.contains("--floor-only") {
    let floorTime = best(3) { floorChecksum = floorLoop(samples) }
    print("{\"bezier_floor_ns_per_sample\": \(String(format: "%.1f", floorTime * 1e9 / Double(samples)))}")
    exit(0)
}

// Cursors made before the timings, as the all-cores figure's below.
let oneCoreCursor = SamplingCursor(for: program, tileFrames: tileFrames > 1 ? tileFrames : 0)
let frameOrderCursor = SamplingCursor(for: program)
var engineOneCore = best(3) { _ = sampleFrames(0..<frameCount, cursor: oneCoreCursor) }
let frameOrderOneCore =
    tileFrames > 1 ? best(3) { _ = sampleFramesInFrameOrder(0..<frameCount, cursor: frameOrderCursor) } : engineOneCore
if CommandLine.arguments.contains("--engine-only") {
    print(
        "{\"engine_ns_per_sample_one_core\": \(String(format: "%.1f", engineOneCore * 1e9 / Double(samples))), "
            + "\"frame_order_ns_per_sample_one_core\": \(String(format: "%.1f", frameOrderOneCore * 1e9 / Double(samples))), "
            + "\"tile_frames\": \(tileFrames)}")
    exit(0)
}
let genericOneCore = best(1) { _ = sampleFramesGeneric(0..<frameCount) }
let cores = ProcessInfo.processInfo.activeProcessorCount
let sink = Sink()
// As a render's threads sample: a block of consecutive frames per core, each with a cursor of
// its own, made before the timing (a tile is a mapping of its own, which the product keeps
// from piece to piece in `CursorPool` rather than fault in for every block). Four blocks a core,
// each with its own cursor, measured 1.85–1.92 where this gave 1.90–1.96 in the same runs: every
// block started with a cold cursor and a tile of its own.
let chunks = cores
/// The chunks' cursors, each used by the one thread that samples its chunk.
final class ChunkCursors: @unchecked Sendable {
    let cursors: [SamplingCursor]
    init(_ count: Int) {
        cursors = (0..<count).map { _ in SamplingCursor(for: program, tileFrames: tileFrames > 1 ? tileFrames : 0) }
    }
}
let chunkCursors = ChunkCursors(chunks)
/// The best one-core and all-cores times of seven rounds that alternate them: on a shared
/// machine, the all-cores run needs every core free at once, and a round that had them is
/// compared with one-core rounds of the same stretch.
func alternating(oneCore: () -> Void, allCores: () -> Void) -> (oneCore: Double, allCores: Double) {
    var best = (oneCore: Double.infinity, allCores: Double.infinity)
    for _ in 0..<7 {
        best.oneCore = min(best.oneCore, seconds(oneCore))
        best.allCores = min(best.allCores, seconds(allCores))
    }
    return best
}
let engineRounds = alternating(
    oneCore: { _ = sampleFrames(0..<frameCount, cursor: oneCoreCursor) },
    allCores: {
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let lower = chunk * frameCount / chunks
            let upper = (chunk + 1) * frameCount / chunks
            let value = sampleFrames(lower..<upper, cursor: chunkCursors.cursors[chunk])
            sink.values.withUnsafeMutableBufferPointer { $0[chunk % 64] = value }
        }
    })
engineOneCore = min(engineOneCore, engineRounds.oneCore)
let engineAllCores = engineRounds.allCores

let floorTime = best(3) { floorChecksum = floorLoop(samples) }
// The floor on every core, in the same alternation: how far this machine's cores scale on
// arithmetic alone (no memory), the reference for `engine_scaling`.
let floorSink = Sink()
let floorRounds = alternating(
    oneCore: { floorSink.values[0] = floorLoop(samples) },
    allCores: {
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let value = floorLoop(samples / chunks)
            floorSink.values.withUnsafeMutableBufferPointer { $0[chunk % 64] = value }
        }
    })

// Whole render to JSON: plan + encode, as `choreo render` does.
var query = SamplingQuery()
query.fps = 60
query.end = Double(frameCount - 1) / 60
var jsonBytes = 0
let renderTime = best(2) {
    let plan = try! RenderPlan.make(scene: scene, query: query)
    jsonBytes = ResponseEncoder.json(plan).count
}
let renderPlanOnly = try RenderPlan.make(scene: scene, query: query)
let renderSamples = renderPlanOnly.sampleCount

let result: [(String, String)] = [
    (
        "scene",
        "\"\(layerCount) layers x (eased basic position, cubic keyframe opacity, spring transform.scale), 600 frames\""
    ),
    ("samples", "\(samples)"),
    ("cores", "\(cores)"),
    ("engine_ns_per_sample_one_core", String(format: "%.1f", engineOneCore * 1e9 / Double(samples))),
    ("frame_order_ns_per_sample_one_core", String(format: "%.1f", frameOrderOneCore * 1e9 / Double(samples))),
    ("tile_frames", "\(tileFrames)"),
    ("generic_path_ns_per_sample_one_core", String(format: "%.1f", genericOneCore * 1e9 / Double(samples))),
    ("engine_samples_per_second_one_core", String(format: "%.0f", Double(samples) / engineOneCore)),
    ("engine_samples_per_second_all_cores", String(format: "%.0f", Double(samples) / engineAllCores)),
    ("engine_scaling", String(format: "%.2f", engineOneCore / engineAllCores)),
    ("bezier_floor_ns_per_sample", String(format: "%.1f", floorTime * 1e9 / Double(samples))),
    ("engine_to_floor_ratio", String(format: "%.1f", engineOneCore / floorTime)),
    ("bezier_floor_scaling", String(format: "%.2f", floorRounds.oneCore / floorRounds.allCores)),
    ("render_json_samples", "\(renderSamples)"),
    ("render_json_bytes", "\(jsonBytes)"),
    ("render_json_samples_per_second", String(format: "%.0f", Double(renderSamples) / renderTime)),
    ("ndjson_frames", "100000"),
    ("ndjson_exit_status", "\(child.terminationStatus)"),
    ("ndjson_cli_seconds", String(format: "%.2f", ndjsonTime)),
    ("ndjson_cli_peak_resident_mib", String(format: "%.1f", ndjsonPeakMiB)),
    ("bench_resident_mib_at_fork", String(format: "%.1f", parentResidentAtForkMiB)),
    ("checksum", String(format: "%.3f", floorChecksum + sink.values.reduce(0, +))),
]
print("{" + result.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
