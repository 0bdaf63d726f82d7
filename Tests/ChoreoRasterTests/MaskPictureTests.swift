import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoRaster

/// `CALayer.mask`: the layer and its sublayers show through the mask's alpha, the mask drawn
/// in the layer's space and animated like any layer; it is never drawn as a layer of its own.
@Suite struct MaskPictureTests {
    /// A red layer with a blue sublayer, masked by a shape whose path grows from 30 to 100
    /// points wide over 1 s (linear: 65 at 0.5 s).
    static let scene = ##"""
        {\##(RasterTests.canvas), "layers": [{"id": "bar", "frame": [0, 0, 100, 100], "backgroundColor": "#FF0000",
          "sublayers": [{"id": "inner", "frame": [0, 50, 100, 50], "backgroundColor": "#0000FF"}],
          "mask": {"id": "reveal", "type": "shape", "frame": [0, 0, 100, 100], "actions": "implicit",
            "path": "M 0 0 L 30 0 L 30 100 L 0 100 Z"}}],
         "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "path", "timingFunction": "linear",
           "toValue": "M 0 0 L 100 0 L 100 100 L 0 100 Z", "duration": 1}, "layer": "reveal"}]}]}
        """##

    @Test func theLayerAndItsSublayersShowThroughTheMask() throws {
        let renderer = try RasterTests.renderer(Self.scene)
        let start = renderer.draw(at: 0)
        #expect(RasterTests.rgba(start, 10, 10) == [255, 0, 0, 255])
        #expect(RasterTests.rgba(start, 10, 80) == [0, 0, 255, 255])
        #expect(RasterTests.rgba(start, 40, 10)[3] == 0)
        #expect(RasterTests.rgba(start, 40, 80)[3] == 0)
        // The mask's animation: 65 points wide at 0.5 s.
        let half = renderer.draw(at: 0.5)
        #expect(RasterTests.rgba(half, 60, 10) == [255, 0, 0, 255])
        #expect(RasterTests.rgba(half, 60, 80) == [0, 0, 255, 255])
        #expect(RasterTests.rgba(half, 70, 10)[3] == 0)
        // Removed at its end: the model's 30 points again; the mask's own fill (black) is
        // drawn nowhere.
        let after = renderer.draw(at: 2)
        #expect(RasterTests.rgba(after, 10, 40) == [255, 0, 0, 255])
        #expect(RasterTests.rgba(after, 50, 40)[3] == 0)
    }

    /// The mask is out of the tree: not among the frames' layers, its animation not said to be
    /// unseen.
    @Test func theMaskIsOutOfTheTree() throws {
        let (scene, _) = try SceneDecoder.decode(bytes: Array(Self.scene.utf8))
        let timeline = try SceneRunner.run(scene)
        let bar = try #require(timeline.layerIndex["bar"])
        let reveal = try #require(timeline.layerIndex["reveal"])
        #expect(timeline.layers[bar].mask == reveal && timeline.layers[reveal].maskOf == bar)
        #expect(!timeline.shape(at: 0.5).order.contains(reveal))
        #expect(!timeline.diagnostics.contains { $0.code == .animatesOffscreenLayer })
        // A mask is not a root layer that waits to be added.
        let detached = Self.scene.replacingOccurrences(of: #""actions": "implicit","#, with: #""detached": true,"#)
        #expect(throws: (any Error).self) { try SceneDecoder.decode(bytes: Array(detached.utf8)) }
    }

    /// A still layer under an animated mask: no two frames are taken for alike (the mask's
    /// values are not in a frame's tables).
    @Test func anAnimatedMaskDrawsEveryFrame() throws {
        let renderer = try RasterTests.renderer(Self.scene)
        #expect(renderer.runsDrawingAlike([0, 0.25, 0.5, 0.75]) == [0, 1, 2, 3])
    }
}
