import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoTransport
import Synchronization
import Testing

@testable import ChoreoService

/// An export reserves its working memory before it starts, from its layers and frames
/// (docs/limits.md), gives it back when it is done, and stops when its client goes.
@Suite struct ExportMemoryTests {
    /// 200 layers, 1 s (31 frames at 30 fps).
    static func timeline() throws -> Timeline {
        let layers = (0..<200).map { #"{"id": "l\#($0)", "position": [\#($0), 10], "bounds": [0, 0, 4, 4]}"# }
        let scene = #"""
            {"layers": [\#(layers.joined(separator: ", "))],
             "script": [{"at": 1, "do": [{"set": {"l0": {"opacity": 0.5}}}]}]}
            """#
        return try SceneRunner.run(try SceneDecoder.decode(bytes: Array(scene.utf8)).scene)
    }

    @Test func anExportReservesItsLayersAndFramesBeforeItStarts() throws {
        let timeline = try Self.timeline()
        let query = try ExportService.query([("format", "lottie"), ("fps", "30")])
        let needed = 31 * 200 * ExportService.bytesPerLayerFrame + 200 * ExportService.bytesPerLayer
        // A byte short: busy before any work, nothing held.
        let short = RenderMemory(limit: needed - 1)
        var refused = false
        do {
            _ = try ExportService.export(timeline, name: nil, query, memory: short)
        } catch {
            if case .busy = error.kind { refused = true }
        }
        #expect(refused)
        #expect(short.inUse == 0)
        // Enough: made, and the memory given back.
        let enough = RenderMemory(limit: needed)
        let artifact = try ExportService.export(timeline, name: nil, query, memory: enough)
        #expect(artifact.report.frames == 31)
        #expect(enough.inUse == 0)
    }

    @Test func anExportStopsWhenItsClientGoes() throws {
        let timeline = try Self.timeline()
        let query = try ExportService.query([("format", "lottie"), ("fps", "30")])
        // Cancelled before: nothing is sampled.
        let gone = Cancellation()
        gone.cancel()
        var stopped = false
        do {
            _ = try ExportService.export(timeline, name: nil, query, cancellation: gone)
        } catch {
            stopped = error.kind == .cancelled
        }
        #expect(stopped)
        // Cancelled while it samples, measures: it stops at the next question, whichever part
        // of the work asks it (frames, steps, eased stretches, the measurement).
        let uninterrupted = Atomic<Int>(0)
        _ = try Exporter.export(timeline, options: query.options) {
            uninterrupted.add(1, ordering: .relaxed).newValue < 0
        }
        let total = uninterrupted.load(ordering: .relaxed)
        #expect(total > 31)
        for stopAt in [1, 20, 40, total / 2, total - 1] {
            let asked = Atomic<Int>(0)
            var result: ExportError?
            do {
                _ = try Exporter.export(timeline, options: query.options) {
                    asked.add(1, ordering: .relaxed).newValue >= stopAt
                }
            } catch {
                result = error
            }
            #expect(result == .cancelled, "asked to stop at question \(stopAt) of \(total)")
            #expect(asked.load(ordering: .relaxed) == stopAt, "it went on after question \(stopAt)")
        }
    }
}
