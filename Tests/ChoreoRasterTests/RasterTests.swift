import ChoreoEngine
import ChoreoFormat
import Foundation
import Synchronization
import Testing

@testable import ChoreoRaster

/// Frames drawn by Cairo, checked pixel by pixel on scenes whose picture is known.
@Suite struct RasterTests {
    static func renderer(_ json: String, scale: Double = 1) throws -> FrameRenderer {
        let (scene, _) = try SceneDecoder.decode(bytes: Array(json.utf8))
        return FrameRenderer(timeline: try SceneRunner.run(scene), scale: scale)
    }

    /// Straight RGBA at pixel (x, y) of a canvas (Cairo keeps premultiplied BGRA).
    static func rgba(_ canvas: CairoCanvas, _ x: Int, _ y: Int) -> [Int] {
        let pixels = canvas.pixels()
        let i = (y * canvas.width + x) * 4
        let a = Int(pixels[i + 3])
        guard a > 0 else { return [0, 0, 0, 0] }
        func straight(_ v: UInt8) -> Int { (Int(v) * 255 + a / 2) / a }
        return [straight(pixels[i + 2]), straight(pixels[i + 1]), straight(pixels[i]), a]
    }

    static let canvas = #""canvas": {"width": 100, "height": 100}"#

    @Test func geometryAndBackground() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [10, 20, 30, 40], "backgroundColor": "#FF0000"}]}"##
        ).draw(at: 0)
        #expect(frame.width == 100 && frame.height == 100)
        #expect(Self.rgba(frame, 25, 40) == [255, 0, 0, 255])
        #expect(Self.rgba(frame, 9, 40)[3] == 0)
        #expect(Self.rgba(frame, 25, 61)[3] == 0)
        // Twice the pixels at scale 2.
        let double = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [10, 20, 30, 40], "backgroundColor": "#FF0000"}]}"##,
            scale: 2
        ).draw(at: 0)
        #expect(double.width == 200)
        #expect(Self.rgba(double, 78, 118) == [255, 0, 0, 255])
        #expect(Self.rgba(double, 82, 118)[3] == 0)
    }

    /// A renderer told to stop draws no more layers: a client gone mid-frame costs at most
    /// the layer being drawn.
    @Test func drawingStopsBetweenLayersWhenAsked() throws {
        let json =
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [0, 0, 50, 50], "backgroundColor": "#FF0000"}, {"id": "b", "frame": [50, 50, 50, 50], "backgroundColor": "#00FF00"}]}"##
        var renderer = try Self.renderer(json)
        #expect(Self.rgba(renderer.draw(at: 0), 75, 75) == [0, 255, 0, 255])
        let asked = Atomic<Int>(0)
        renderer.shouldStop = { asked.add(1, ordering: .relaxed).newValue > 1 }
        let frame = renderer.draw(at: 0)
        #expect(Self.rgba(frame, 25, 25) == [255, 0, 0, 255])
        #expect(Self.rgba(frame, 75, 75)[3] == 0)
    }

    /// Without a canvas, the root layers' frames at time 0 make it.
    @Test func canvasFromTheRootFrames() throws {
        let renderer = try Self.renderer(
            ##"{"layers": [{"id": "a", "frame": [10, 20, 30, 40]}, {"id": "b", "frame": [50, 0, 10, 10]}]}"##)
        #expect(renderer.origin == Point(10, 0))
        #expect(renderer.pixelWidth == 50 && renderer.pixelHeight == 60)
    }

    /// Opacity applies to a layer and its sublayers as one group: an overlap is no darker.
    @Test func opacityIsAGroup() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "p", "frame": [0, 0, 50, 50], "opacity": 0.5, "backgroundColor": "#0000FF", "sublayers": [{"id": "c", "frame": [0, 0, 20, 20], "backgroundColor": "#0000FF"}]}]}"##
        ).draw(at: 0)
        let overlap = Self.rgba(frame, 5, 5)
        let single = Self.rgba(frame, 40, 40)
        #expect(abs(overlap[3] - 128) <= 1 && overlap == single)
    }

    /// Rounded corners, masksToBounds, the border over the sublayers and zPosition.
    @Test func cornersClipsBordersAndOrder() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "p", "frame": [0, 0, 60, 60], "cornerRadius": 20, "masksToBounds": true, "borderWidth": 4, "borderColor": "#00FF00", "backgroundColor": "#FFFFFF", "sublayers": [{"id": "over", "frame": [0, 0, 60, 60], "backgroundColor": "#FF0000", "zPosition": 1}, {"id": "under", "frame": [0, 0, 60, 60], "backgroundColor": "#0000FF"}]}]}"##
        ).draw(at: 0)
        #expect(Self.rgba(frame, 1, 1)[3] == 0, "the corner is clipped")
        #expect(Self.rgba(frame, 30, 30) == [255, 0, 0, 255], "zPosition 1 is drawn over the later sibling")
        #expect(Self.rgba(frame, 30, 1) == [0, 255, 0, 255], "the border is over the sublayers")
    }

    @Test func hiddenLayersAndShapeStrokes() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "h", "frame": [0, 0, 100, 100], "backgroundColor": "#FF0000", "hidden": true}, {"id": "s", "type": "shape", "frame": [0, 0, 100, 100], "path": "M0 50 L100 50", "strokeColor": "#000000", "fillColor": "#00000000", "lineWidth": 10, "strokeEnd": 0.5}]}"##
        ).draw(at: 0)
        #expect(Self.rgba(frame, 25, 50) == [0, 0, 0, 255])
        #expect(Self.rgba(frame, 75, 50)[3] == 0, "past strokeEnd")
        #expect(Self.rgba(frame, 25, 20)[3] == 0, "hidden")
    }

    /// A 3-D turn with perspective draws a trapezoid: the near edge longer than the far one.
    @Test func perspectiveIsProjected() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "f", "frame": [20, 20, 60, 60], "backgroundColor": "#000000", "transform": [0.7071, 0, -0.7071, -0.00707, 0, 1, 0, 0, 0.7071, 0, 0.7071, 0.00707, 0, 0, 0, 1]}]}"##
        ).draw(at: 0)
        func column(_ x: Int) -> Int { (0..<100).filter { Self.rgba(frame, x, $0)[3] > 128 }.count }
        let left = column(40)
        let right = column(70)
        #expect(left > 0 && right > 0)
        #expect(left != right, "left \(left), right \(right)")
    }

    /// The same frame twice gives the same bytes, and the PNG decodes to the canvas's pixels.
    @Test func pngIsDeterministicAndLossless() throws {
        let json =
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [10, 10, 50, 50], "cornerRadius": 10, "backgroundColor": "#3366CC80", "shadowOpacity": 0.5, "shadowRadius": 4}]}"##
        let first = try Self.renderer(json).draw(at: 0)
        let bytes = first.png()
        #expect(bytes == (try Self.renderer(json).draw(at: 0).png()))
        let decoded = try #require(CairoCanvas.decodePNG(bytes))
        #expect(decoded.width == 100 && decoded.height == 100)
        // Straight colours from libpng's reading of choreo's PNG, against the canvas's own.
        var worst = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let expected = Self.rgba(first, x, y)
                for c in 0..<4 {
                    worst = max(worst, abs(expected[c] - Int(decoded.rgba[(y * 100 + x) * 4 + c])))
                }
            }
        }
        #expect(worst <= 1)
    }

    /// An animated PNG: valid chunks and CRCs, one fcTL a frame with rising sequence numbers,
    /// and the frame count in acTL.
    @Test func animatedPNGStructure() throws {
        let renderer = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "position.x", "toValue": 90, "duration": 1}, "layer": "a"}]}]}"##
        )
        var writer = APNGWriter(frameCount: 3)
        var file: [UInt8] = []
        for time in [0.0, 0.5, 1.0] { file += writer.frame(renderer.draw(at: time).png(), delay: 0.5) }
        file += writer.end()
        let chunks = try #require(PNGChunks.read(file))
        #expect(chunks.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])
        let actl = Array(chunks[1].data)
        #expect(actl[0..<4] == [0, 0, 0, 3])
        let sequences = chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { Array($0.data.prefix(4)) }
        #expect(sequences.map { Int($0[3]) } == [0, 1, 2, 3, 4])
        let delay = Array(chunks[2].data)[20..<24]
        #expect(Array(delay) == [0x01, 0xF4, 0x03, 0xE8])  // 500/1000 s
        // Every chunk's CRC checks.
        var offset = 8
        while offset < file.count {
            let length = Int(PNGChunks.be32(file, offset))
            let crc = PNGChunks.be32(file, offset + 8 + length)
            #expect(Zlib.crc(file[(offset + 4)..<(offset + 8 + length)]) == crc)
            offset += 12 + length
        }
    }

    @Test func filmstripGrid() throws {
        let renderer = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}]}"##)
        let sheet = Filmstrip(renderer: renderer, times: [0, 0.25, 0.5, 0.75, 1], columns: 2)
        #expect(sheet.pixelWidth == 208)
        #expect(sheet.pixelHeight == 3 * 122)
        let canvas = sheet.draw()
        #expect(Self.rgba(canvas, 104 + 5, 122 + 5) == [255, 0, 0, 255])
        #expect(Filmstrip.format(0.25) == "0.25" && Filmstrip.format(2) == "2")
    }

    /// A fade dissolves the layer as it was into the layer as it is; a push slides the old
    /// face out as the new one comes in.
    @Test func transitionsDrawBothFaces() throws {
        func scene(_ type: String) -> String {
            ##"{"canvas": {"width": 100, "height": 100}, "layers": [{"id": "a", "frame": [0, 0, 100, 100], "backgroundColor": "#FF0000"}], "script": [{"at": 0, "do": [{"add": {"type": "transition", "transitionType": "\##(type)", "subtype": "fromRight", "duration": 1, "timingFunction": "linear"}, "layer": "a"}, {"set": {"a": {"backgroundColor": "#0000FF"}}}]}]}"##
        }
        let fade = try Self.renderer(scene("fade")).draw(at: 0.5)
        let mixed = Self.rgba(fade, 50, 50)
        #expect(mixed[3] == 255)
        #expect(abs(mixed[0] - 128) <= 2 && abs(mixed[2] - 128) <= 2 && mixed[1] == 0, "\(mixed)")
        let push = try Self.renderer(scene("push")).draw(at: 0.5)
        #expect(Self.rgba(push, 25, 50) == [255, 0, 0, 255], "the old face on the left")
        #expect(Self.rgba(push, 75, 50) == [0, 0, 255, 255], "the new face coming in from the right")
        let done = try Self.renderer(scene("push")).draw(at: 1)
        #expect(Self.rgba(done, 25, 50) == [0, 0, 255, 255])
    }

    /// Text is drawn inside its layer's bounds, in its foreground colour, and clipped there.
    @Test func textIsDrawnAndClipped() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "t", "type": "text", "frame": [10, 10, 80, 20], "string": "HHHHHHHHHHHHHHHHHHHH", "fontSize": 16, "foregroundColor": "#000000"}]}"##
        ).draw(at: 0)
        var inside = 0
        var outside = 0
        for y in 0..<100 {
            for x in 0..<100 where Self.rgba(frame, x, y)[3] > 128 {
                if x >= 10 && x < 90 && y >= 10 && y < 30 { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 100, "\(inside) dark pixels")
        #expect(outside == 0, "the text is clipped to the bounds")
    }

    /// Emoji and Chinese text are drawn with real glyphs, not boxes: the arena's crown in
    /// colour, the articles' strings in a CJK face.
    @Test func emojiAndChineseAreDrawn() throws {
        let probe = CairoCanvas(width: 8, height: 8)
        #expect(probe.unknownGlyphs("👑") == 0, "no face draws the crown")
        #expect(probe.unknownGlyphs("服务器竞技场") == 0, "no face draws Chinese")
        #expect(probe.unknownGlyphs("Fighting… 👑 冠军") == 0)
        // The crown in colour though the text colour is black.
        let crown = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "t", "type": "text", "frame": [0, 0, 100, 100], "string": "👑", "fontSize": 60, "foregroundColor": "#000000"}]}"##
        ).draw(at: 0)
        var coloured = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let p = Self.rgba(crown, x, y)
                if p[3] > 200 && (abs(p[0] - p[1]) > 60 || abs(p[1] - p[2]) > 60) { coloured += 1 }
            }
        }
        #expect(coloured > 200, "\(coloured) coloured pixels in the crown")
        // Two different Chinese strings draw different ink (boxes would differ only in digits).
        func ink(_ text: String) throws -> [Bool] {
            let frame = try Self.renderer(
                ##"{\##(Self.canvas), "layers": [{"id": "t", "type": "text", "frame": [0, 0, 100, 100], "string": "\##(text)", "fontSize": 40, "foregroundColor": "#000000"}]}"##
            ).draw(at: 0)
            return (0..<10_000).map { Self.rgba(frame, $0 % 100, $0 / 100)[3] > 128 }
        }
        let first = try ink("冠")
        #expect(first.filter { $0 }.count > 100)
        #expect(try first != ink("军"))
    }

    /// A filmstrip below scale 1 keeps its labels legible and a gutter between cells: the
    /// label and the gap keep their size in pixels.
    @Test func filmstripLabelsStayLegibleBelowScaleOne() throws {
        let json =
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [0, 0, 100, 100], "backgroundColor": "#0000FF"}]}"##
        let renderer = try Self.renderer(json, scale: 0.25)
        let sheet = Filmstrip(renderer: renderer, times: [0, 1], columns: 2)
        // Two 25-pixel frames, a 4-pixel gutter each; 18 pixels of label under them.
        #expect(sheet.pixelWidth == 58 && sheet.pixelHeight == 47)
        let drawn = sheet.draw()
        // The gutter between the two frames is white, not the frames' blue.
        #expect(Self.rgba(drawn, 27, 10) == [255, 255, 255, 255])
        #expect(Self.rgba(drawn, 10, 10)[2] > 200 && Self.rgba(drawn, 35, 10)[2] > 200)
        // The label's ink is there, in pixels of its own size (dark pixels under the frame).
        var ink = 0
        for y in 25..<47 { for x in 0..<29 where Self.rgba(drawn, x, y)[0] < 128 { ink += 1 } }
        #expect(ink > 10, "\(ink) dark pixels in the label")
    }

    /// A `CATransition` on a layer whose transform animates draws both faces with the
    /// layer's transform now: the outgoing face scales with the layer, not at the size it had
    /// when the transition began.
    @Test func transitionFacesTakeTheLayersTransform() throws {
        let json =
            ##"{\##(Self.canvas), "layers": [{"id": "L", "frame": [0, 0, 100, 100], "backgroundColor": "#FF0000"}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1, "duration": 1}, "layer": "L"}, {"add": {"type": "transition", "transitionType": "fade", "duration": 1}, "layer": "L"}, {"set": {"L": {"backgroundColor": "#0000FF"}}}]}]}"##
        let frame = try Self.renderer(json).draw(at: 0.5)
        // At scale 0.75 the layer covers 12.5…87.5: outside it nothing, inside both faces.
        #expect(Self.rgba(frame, 5, 50)[3] == 0, "\(Self.rgba(frame, 5, 50))")
        let inside = Self.rgba(frame, 50, 50)
        #expect(inside[0] > 60 && inside[2] > 60, "\(inside)")
    }

    /// A shadow is the layer's shape, offset and blurred, under the layer.
    @Test func shadowsAreOffsetAndBlurred() throws {
        func frame(_ radius: Int) throws -> CairoCanvas {
            try Self.renderer(
                ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [20, 20, 40, 40], "backgroundColor": "#FFFFFF", "shadowOpacity": 1, "shadowColor": "#000000", "shadowOffset": [10, 10], "shadowRadius": \##(radius)}]}"##
            ).draw(at: 0)
        }
        let sharp = try frame(0)
        #expect(Self.rgba(sharp, 65, 65) == [0, 0, 0, 255], "the offset shadow")
        #expect(Self.rgba(sharp, 40, 40) == [255, 255, 255, 255], "the layer over its shadow")
        #expect(Self.rgba(sharp, 72, 72)[3] == 0)
        let soft = try frame(8)
        let edge = Self.rgba(soft, 70, 50)[3]
        #expect(edge > 20 && edge < 235, "a blurred edge, alpha \(edge)")
        #expect(Self.rgba(soft, 74, 50)[3] > 0, "the blur reaches past the sharp edge")
    }

    /// `blurRadius` (SwiftUI's `blur(radius:)`) blurs the layer and its sublayers together:
    /// colour spreads past the edges, the middle keeps its colour, and 0 draws it sharp.
    @Test func blurredLayersSpreadWithTheirSublayers() throws {
        func frame(_ radius: Int) throws -> CairoCanvas {
            try Self.renderer(
                ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [30, 30, 40, 40], "backgroundColor": "#0000FF", "blurRadius": \##(radius), "sublayers": [{"id": "c", "frame": [30, 0, 10, 10], "backgroundColor": "#FF0000"}]}]}"##
            ).draw(at: 0)
        }
        let sharp = try frame(0)
        #expect(Self.rgba(sharp, 26, 50)[3] == 0)
        #expect(Self.rgba(sharp, 50, 50) == [0, 0, 255, 255])
        #expect(Self.rgba(sharp, 65, 35) == [255, 0, 0, 255])
        let soft = try frame(8)
        let edge = Self.rgba(soft, 30, 50)
        #expect(edge[3] > 40 && edge[3] < 215, "a soft edge, \(edge)")
        #expect(Self.rgba(soft, 26, 50)[3] > 0, "past the sharp edge")
        #expect(Self.rgba(soft, 50, 50) == [0, 0, 255, 255], "the middle")
        // The sublayer is blurred with it: red bleeds into the blue around it.
        let bled = Self.rgba(soft, 65, 45)
        #expect(bled[0] > 0 && bled[2] > 0, "\(bled)")
    }

    /// Particles are discs of their colour at their positions in the emitter layer.
    @Test func particlesAreDiscs() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "e", "type": "emitter", "frame": [0, 0, 100, 100], "emitterPosition": [50, 50], "emitterCells": [{"birthRate": 20, "lifetime": 5, "velocity": 10, "emissionRange": 6.28, "color": [1, 0, 0, 1]}]}]}"##
        ).draw(at: 2)
        var red = 0
        for y in 20..<80 {
            for x in 20..<80 {
                let p = Self.rgba(frame, x, y)
                if p[3] > 200 && p[0] > 200 && p[1] < 50 { red += 1 }
            }
        }
        #expect(red > 50, "\(red) red pixels")
        #expect(Self.rgba(frame, 2, 2)[3] == 0)
    }

    /// A parent's sublayerTransform applies to its sublayers about its anchor point.
    @Test func sublayerTransformScalesTheSublayers() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "p", "frame": [0, 0, 100, 100], "sublayerTransform": {"scale": 2}, "sublayers": [{"id": "c", "frame": [40, 40, 10, 10], "backgroundColor": "#00FF00"}]}]}"##
        ).draw(at: 0)
        // About the parent's centre (50, 50): the child's 40…50 becomes 30…50.
        #expect(Self.rgba(frame, 32, 32) == [0, 255, 0, 255])
        #expect(Self.rgba(frame, 48, 48) == [0, 255, 0, 255])
        #expect(Self.rgba(frame, 52, 52)[3] == 0)
    }

    /// A layer scaled by 10^15 covers the canvas: drawn as a filled canvas in a few hundred
    /// segments, not the billions of its corners' arcs at full precision (found by the fuzzer:
    /// 8 s for one frame).
    @Test func hugeScalesStayCheap() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [40, 40, 20, 20], "cornerRadius": 5, "borderWidth": 1, "borderColor": "#000000", "backgroundColor": "#FF0000", "transform": {"scale": 1e15}}]}"##
        ).draw(at: 0)
        #expect(Self.rgba(frame, 0, 0) == [255, 0, 0, 255])
        #expect(Self.rgba(frame, 99, 99) == [255, 0, 0, 255])
    }

    /// Shadows with radii or offsets beyond any canvas draw nothing rather than overflow an
    /// integer (1e300 would trap the process).
    @Test func extremeShadowsAreSkipped() throws {
        for (radius, offset) in [("1e300", "[0, 0]"), ("5", "[1e300, 0]"), ("1e6", "[0, 0]")] {
            let frame = try Self.renderer(
                ##"{\##(Self.canvas), "layers": [{"id": "a", "frame": [20, 20, 40, 40], "backgroundColor": "#FFFFFF", "shadowOpacity": 1, "shadowRadius": \##(radius), "shadowOffset": \##(offset)}]}"##
            ).draw(at: 0)
            #expect(Self.rgba(frame, 40, 40) == [255, 255, 255, 255])
        }
    }

    /// A whole curved path (cubic arcs) is stroked on its circle: the ring's pixels on it, its
    /// centre empty.
    @Test func curvedPathsAreStrokedWhole() throws {
        let frame = try Self.renderer(
            ##"{\##(Self.canvas), "layers": [{"id": "s", "type": "shape", "frame": [0, 0, 100, 100], "path": [{"arc": {"center": [50, 50], "radius": 30, "startAngle": 0, "endAngle": 6.283185307179586, "clockwise": true}}], "fillColor": "#00000000", "strokeColor": "#0000FF", "lineWidth": 6}]}"##
        ).draw(at: 0)
        for (x, y) in [(80, 50), (20, 50), (50, 80), (50, 20), (71, 71), (29, 29)] {
            #expect(Self.rgba(frame, x, y) == [0, 0, 255, 255], "(\(x), \(y))")
        }
        #expect(Self.rgba(frame, 50, 50)[3] == 0)
        #expect(Self.rgba(frame, 90, 90)[3] == 0)
    }
}
