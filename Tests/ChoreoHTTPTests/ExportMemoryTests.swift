import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import Testing

@testable import ChoreoService

/// An export reserves its working memory before it starts, from its layers and frames
/// (docs/limits.md), and gives it back when it is done.
@Suite struct ExportMemoryTests {
    @Test func anExportReservesItsLayersAndFramesBeforeItStarts() throws {
        // 200 layers, 1 s at 30 fps: 31 frames.
        let layers = (0..<200).map { #"{"id": "l\#($0)", "position": [\#($0), 10], "bounds": [0, 0, 4, 4]}"# }
        let scene = #"""
            {"layers": [\#(layers.joined(separator: ", "))],
             "script": [{"at": 1, "do": [{"set": {"l0": {"opacity": 0.5}}}]}]}
            """#
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(scene.utf8)).scene)
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
}
