import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

@testable import ChoreoRaster

/// Pictures read the compiled sampling: a picture's plan has every layer's drawn columns, and
/// the values a frame reads through it are the timeline's, to the bit.
@Suite struct FramePlanDrawingTests {
    /// The examples' directory, found from this file.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    static func plan(_ name: String, times: [Double]) throws -> RenderPlan {
        let bytes = try Array(Data(contentsOf: examples.appendingPathComponent(name)))
        var query = SamplingQuery()
        query.format = .apng
        query.times = times
        return try RenderPlan.make(scene: try SceneDecoder.decode(bytes: bytes).scene, query: query)
    }

    @Test(arguments: ["status-card.json", "push-transition.json", "watering-button.json", "swift-orbit-path.json"])
    func aPictureFrameIsTheTimelinesPresentation(example: String) throws {
        let times = [0, 0.1, 0.35, 0.5, 0.8, 1.2, 3]
        let plan = try Self.plan(example, times: times)
        let renderer = FrameRenderer(frames: plan.frames)
        // Every drawn property of every layer is a column of the plan: nothing is read twice.
        for (layer, track) in plan.timeline.layers.enumerated() {
            for property in track.type.drawnProperties {
                #expect(renderer.slots[layer * FrameRenderer.slotCount + property.ordinal] >= 0)
            }
        }
        let cursor = plan.frames.makeCursor()
        var compared = 0
        for time in times {
            let frame = Frame(renderer, time: time, cursor: cursor)
            for layer in frame.shape.order {
                for property in plan.timeline.layers[layer].type.drawnProperties {
                    let expected = plan.timeline.presentationValue(
                        layer: layer, keyPath: KeyPath(property), at: time, map: frame.maps[layer])
                    #expect(
                        frame.value(layer, property) == expected, "\(example) \(property) of layer \(layer) at \(time)")
                    compared += 1
                }
                let transition = plan.timeline.transitionState(layer: layer, at: time, map: frame.maps[layer])
                #expect((frame.transitions[layer] == nil) == (transition == nil))
            }
        }
        #expect(compared > 0)
    }

    /// A renderer of a plan and one of the timeline alone draw the same pixels.
    @Test func thePlansPicturesAreTheTimelines() throws {
        let plan = try Self.plan("push-transition.json", times: [0.2, 0.4])
        for time in plan.times {
            let planned = FrameRenderer(frames: plan.frames).draw(at: time).png()
            let alone = FrameRenderer(timeline: plan.timeline).draw(at: time).png()
            #expect(planned == alone)
        }
    }
}
