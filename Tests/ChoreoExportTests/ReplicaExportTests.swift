import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import Foundation
import Testing

/// A replicator's copies and a layer's mask in the exports: the copies are layers of their own
/// (they are layers of the frames); a mask is not exported, and the report says so.
@Suite struct ReplicaExportTests {
    @Test func copiesAreExportedAndAMaskIsNamedAsDropped() throws {
        let scene = """
            {"canvas": {"width": 100, "height": 100},
             "layers": [{"id": "row", "type": "replicator", "frame": [0, 0, 100, 100], "instanceCount": 3,
               "instanceTransform": {"translate": [30, 0, 0]}, "instanceDelay": 0.25,
               "sublayers": [{"id": "square", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000"}]},
              {"id": "bar", "frame": [0, 50, 100, 20], "backgroundColor": "#0000FF",
               "mask": {"id": "reveal", "frame": [0, 0, 50, 20], "backgroundColor": "#000000"}}],
             "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
               "duration": 1}, "layer": "square"}]}]}
            """
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(scene.utf8)).scene)
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .lottie, fps: 30), name: "row")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(artifact.bytes)) as? [String: Any])
        let names = (document["layers"] as? [[String: Any]])?.compactMap { $0["nm"] as? String } ?? []
        #expect(names.contains("square#1") && names.contains("square#2") && !names.contains("reveal"))
        #expect(artifact.report.dropped.contains { $0.layer == "bar" && $0.properties == ["mask"] })
    }
}
