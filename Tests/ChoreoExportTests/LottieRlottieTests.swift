import CRlottie
import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoJSON
import Foundation
import Testing

@testable import ChoreoRaster

/// Every example's Lottie export, played by rlottie (Debian's librlottie-dev, through its C
/// API): its frames drawn by rlottie and by choreo at the same times differ by a mean of at most
/// 2 levels per channel, and each layer's centre in rlottie's render tree lies within 0.5 pt of
/// the engine's.
@Suite(.serialized) struct LottieRlottieTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    static var exampleNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    static func timeline(_ name: String) throws -> Timeline {
        let bytes = try Array(Data(contentsOf: examples.appendingPathComponent(name)))
        return try SceneRunner.run(try SceneDecoder.decode(bytes: bytes).scene)
    }

    /// A Lottie document played by rlottie.
    final class Player {
        let animation: OpaquePointer
        let width: Int
        let height: Int

        init?(_ bytes: [UInt8]) {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let animation = lottie_animation_from_data(text, "choreo-export-\(text.hashValue)", "") else {
                return nil
            }
            self.animation = animation
            var w = 0
            var h = 0
            lottie_animation_get_size(animation, &w, &h)
            width = w
            height = h
        }

        deinit { lottie_animation_destroy(animation) }

        var frames: Int { lottie_animation_get_totalframe(animation) }

        /// Frame `frame` as premultiplied ARGB words, as Cairo's.
        func render(_ frame: Int) -> [UInt32] {
            var buffer = [UInt32](repeating: 0, count: width * height)
            buffer.withUnsafeMutableBufferPointer {
                lottie_animation_render(animation, frame, $0.baseAddress, width, height, width * 4)
            }
            return buffer
        }

        /// The centre of each layer's background rectangle in the render tree, by layer name: of
        /// the layers that draw only their background (rlottie's nodes carry no names; a
        /// transparent shape draws no node).
        func centres(_ frame: Int) -> [String: Point] {
            var found: [String: Point] = [:]
            guard let tree = lottie_animation_render_tree(animation, frame, width, height) else { return found }
            func walk(_ node: UnsafePointer<LOTLayerNode>) {
                let layer = node.pointee
                let name = layer.keypath.map { String(cString: $0) } ?? ""
                if layer.mNodeList.size == 1 {
                    guard let shape = layer.mNodeList.ptr[0], shape.pointee.mPath.ptCount > 0 else { return }
                    let path = shape.pointee.mPath
                    var low = Point(Double.infinity, Double.infinity)
                    var high = Point(-Double.infinity, -Double.infinity)
                    // ptCount counts the floats: two per point.
                    for p in 0..<(path.ptCount / 2) {
                        let x = Double(path.ptPtr[2 * p])
                        let y = Double(path.ptPtr[2 * p + 1])
                        low = Point(min(low.x, x), min(low.y, y))
                        high = Point(max(high.x, x), max(high.y, y))
                    }
                    found[name.split(separator: ".").last.map(String.init) ?? name] = Point(
                        (low.x + high.x) / 2, (low.y + high.y) / 2)
                }
                for index in 0..<layer.mLayerList.size {
                    if let child = layer.mLayerList.ptr[index] { walk(child) }
                }
            }
            walk(tree)
            return found
        }
    }

    /// 3 × 3 row-vector maps composed: `a`, then `b`.
    static func then(_ a: [Double], _ b: [Double]) -> [Double] {
        var m = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 { m[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j] }
        }
        return m
    }

    /// The mean absolute difference per channel of two premultiplied ARGB pictures, in levels.
    static func meanDifference(_ a: [UInt32], _ b: [UInt32]) -> Double {
        var total = 0
        for (x, y) in zip(a, b) {
            for shift in stride(from: 0, to: 32, by: 8) {
                total += abs(Int((x >> UInt32(shift)) & 0xFF) - Int((y >> UInt32(shift)) & 0xFF))
            }
        }
        return Double(total) / Double(max(1, a.count * 4))
    }

    @Test(arguments: exampleNames)
    func rlottiePlaysTheExportAsChoreoDrawsIt(example: String) throws {
        let timeline = try Self.timeline(example)
        let fps = 30.0
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: fps), name: example)
        let player = try #require(Player(artifact.bytes), "rlottie refused the export of \(example)")
        let renderer = FrameRenderer(timeline: timeline)
        #expect(player.width == renderer.pixelWidth && player.height == renderer.pixelHeight)
        // A repeating scene's last sampled frame is its first again: the file shows one fewer.
        #expect(player.frames == artifact.report.frames - (artifact.report.loop?.period != nil ? 1 : 0))
        let last = player.frames - 1
        let sampled = Array(Set((0...8).map { $0 * last / 8 })).sorted()
        var worstMean = 0.0
        var worstCentre = 0.0
        var compared = 0
        let cursor = renderer.frames.makeCursor()
        let groupApproximated = Set(
            artifact.report.approximated.filter { $0.properties == ["opacity"] }.map(\.layer))
        var reported = 0
        // Centres are compared where the report keeps the geometry.
        let geometry: Set<String> = ["transform", "superlayer", "zPosition", "transition"]
        let lost = Set(
            (artifact.report.dropped + artifact.report.approximated).filter {
                !geometry.isDisjoint(with: $0.properties)
            }
            .map(\.layer))
        for frame in sampled {
            let time = SceneTime.quantize(Double(frame) / fps)
            // The render tree first: a render after it leaves the tree's nodes as drawn.
            let centres = player.centres(frame)
            let expected = renderer.draw(at: time).words()
            let played = player.render(frame)
            // Lottie has no group opacity: where the report says so, a translucent layer's
            // overlapping parts differ, and the frame is counted apart.
            let translucent = renderer.snapshot(at: time, cursor: cursor).layers.contains { layer in
                groupApproximated.contains(timeline.layers[layer.index].id) && layer.opacity > 0 && layer.opacity < 1
            }
            if translucent {
                reported += 1
            } else {
                worstMean = max(worstMean, Self.meanDifference(expected, played))
            }
            // Each layer's centre: rlottie's render tree against the engine's presentation.
            let snapshot = renderer.snapshot(at: time, cursor: cursor)
            var maps: [[Double]] = []
            var visible: [Bool] = []
            let stage = [1, 0, 0, 0, 1, 0, -renderer.origin.x, -renderer.origin.y, 1]
            for layer in snapshot.layers {
                let parent = layer.parent >= 0 ? snapshot.slot[layer.parent] : -1
                let m = Self.then(layer.toParent, parent >= 0 ? maps[parent] : stage)
                maps.append(m)
                visible.append(!layer.hidden && layer.opacity > 0 && (parent < 0 || visible[parent]))
                let id = timeline.layers[layer.index].id
                guard visible.last!, !lost.contains(id), timeline.layers[layer.index].type == .layer,
                    let played = centres[id], abs(m[2]) < 1e-9, abs(m[5]) < 1e-9
                else { continue }
                compared += 1
                let b = layer.bounds
                let c = Point(b.origin.x + b.size.x / 2, b.origin.y + b.size.y / 2)
                let x = (c.x * m[0] + c.y * m[3] + m[6]) / m[8]
                let y = (c.x * m[1] + c.y * m[4] + m[7]) / m[8]
                worstCentre = max(
                    worstCentre, ((x - played.x) * (x - played.x) + (y - played.y) * (y - played.y)).squareRoot())
            }
        }
        #expect(reported < sampled.count, "\(example): every frame was left out")
        print(
            "lottie export of \(example): mean difference \(worstMean) levels, largest centre difference \(worstCentre) pt over \(sampled.count - reported) frames (\(compared) centres; \(reported) frames with a translucent group left out, as reported)"
        )
        #expect(worstMean <= 2, "\(example): rlottie's frames differ from choreo's by a mean of \(worstMean) levels")
        #expect(worstCentre <= 0.5, "\(example): a layer's centre is \(worstCentre) pt from choreo's")
    }
}
