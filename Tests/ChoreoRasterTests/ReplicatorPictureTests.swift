import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoRaster

/// `CAReplicatorLayer`'s copies in the pictures: where the instance transform puts them, and
/// the colour offsets on each.
@Suite struct ReplicatorPictureTests {
    /// Four 10-point squares, each copy 20 points right of the one before and a quarter less
    /// red: red 255, 191, 128, 64 at x 5, 25, 45, 65; nothing at 85.
    @Test func copiesAreDrawnWhereTheInstanceTransformPutsThem() throws {
        let frame = try RasterTests.renderer(
            ##"""
            {\##(RasterTests.canvas), "layers": [{"id": "row", "type": "replicator", "frame": [0, 0, 100, 100],
              "instanceCount": 4, "instanceTransform": {"translate": [20, 0, 0]}, "instanceRedOffset": -0.25,
              "sublayers": [{"id": "square", "frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}]}]}
            """##
        ).draw(at: 0)
        #expect(RasterTests.rgba(frame, 5, 5) == [255, 0, 0, 255])
        #expect(RasterTests.rgba(frame, 25, 5) == [191, 0, 0, 255])
        #expect(RasterTests.rgba(frame, 45, 5) == [128, 0, 0, 255])
        #expect(RasterTests.rgba(frame, 65, 5) == [64, 0, 0, 255])
        #expect(RasterTests.rgba(frame, 85, 5)[3] == 0)
        #expect(RasterTests.rgba(frame, 15, 5)[3] == 0)
    }

    /// Fifteen dots turned 2π/15 apart about the replicator's centre (50, 50), the first 40
    /// points above it: dot k is at (50 + 40 sin kθ, 50 − 40 cos kθ), and halfway between two
    /// dots there is nothing.
    @Test func aSpinnersDotsGoRoundTheCentre() throws {
        let frame = try RasterTests.renderer(
            ##"""
            {\##(RasterTests.canvas), "layers": [{"id": "spinner", "type": "replicator", "frame": [0, 0, 100, 100],
              "instanceCount": 15, "instanceTransform": {"rotate": 0.41887902047863906},
              "sublayers": [{"id": "dot", "position": [50, 10], "bounds": [0, 0, 8, 8], "cornerRadius": 4,
                "backgroundColor": "#0000FF"}]}]}
            """##
        ).draw(at: 0)
        let step = 2 * Double.pi / 15
        for k in 0..<15 {
            let x = 50 + 40 * sin(Double(k) * step)
            let y = 50 - 40 * cos(Double(k) * step)
            #expect(RasterTests.rgba(frame, Int(x), Int(y)) == [0, 0, 255, 255], "dot \(k)")
            let between = (Double(k) + 0.5) * step
            #expect(RasterTests.rgba(frame, Int(50 + 40 * sin(between)), Int(50 - 40 * cos(between)))[3] == 0)
        }
        // The centre is empty: the dots are not drawn there once.
        #expect(RasterTests.rgba(frame, 50, 50)[3] == 0)
    }
}
