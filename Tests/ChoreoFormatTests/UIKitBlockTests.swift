import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// UIKit's block calls a Swift user reaches for: `performWithoutAnimation`,
/// `transition(from:to:)` and iOS 17's `animate(springDuration:bounce:)`.
struct UIKitBlockTests {
    typealias T = ScriptTests

    /// Inside `performWithoutAnimation` a UIView block changes its view at once and completes at
    /// once, finished, without the completion-immediate warning; the same block outside animates.
    @Test func performWithoutAnimationChangesAtOnce() throws {
        func scene(_ block: String) -> String {
            #"{"layers": [{"id": "card", "frame": [0, 0, 100, 100]}], "script": [{"at": 0.1, "do": [\#(block)]}]}"#
        }
        let animate =
            #"{"animate": {"duration": 0.5, "changes": {"card": {"opacity": 0.2}}, "name": "fade", "completion": [{"mark": "done"}]}}"#
        let still = try T.timeline(scene(#"{"performWithoutAnimation": [\#(animate)]}"#))
        #expect(still.animations.isEmpty)
        #expect(T.number(still, "card", "opacity", 0.1) == 0.2)
        #expect(T.events(still) == ["0.1 animate fade true", "0.1 mark done"])
        #expect(T.codes(still).isEmpty)
        let moving = try T.timeline(scene(animate))
        #expect(moving.animations.count == 1)
        #expect(T.number(moving, "card", "opacity", 0.35) > 0.2 && T.number(moving, "card", "opacity", 0.35) < 1)
        #expect(T.events(moving).last == "0.6 mark done")
        // Keyframes and transitions too; a standalone layer's implicit action is not UIKit's.
        let others = try T.timeline(
            #"""
            {"layers": [{"id": "a", "frame": [0, 0, 10, 10]}, {"id": "b", "frame": [0, 0, 10, 10], "actions": "implicit"}],
             "script": [{"at": 0, "do": [{"performWithoutAnimation": [
               {"animateKeyframes": {"duration": 1, "keyframes": [{"relativeStartTime": 0, "relativeDuration": 1, "changes": {"a": {"opacity": 0.5}}}]}},
               {"transition": {"layer": "a", "duration": 0.3, "options": ["transitionCrossDissolve"], "changes": {"a": {"cornerRadius": 4}}}},
               {"set": {"b": {"opacity": 0}}}]}]}]}
            """#)
        #expect(others.animations.count == 1)
        #expect(T.number(others, "a", "opacity", 0.5) == 0.5)
        #expect(T.number(others, "b", "opacity", 0.1) > 0)
    }

    /// `transition(from:to:)` puts `to` in `from`'s place in their superview and animates the
    /// superview; with `showHideTransitionViews` it hides and shows them instead.
    @Test func transitionFromToReplacesAView() throws {
        func scene(_ options: String) -> String {
            #"""
            {"layers": [{"id": "box", "frame": [0, 0, 200, 200], "sublayers": [
                {"id": "first", "frame": [0, 0, 10, 10]}, {"id": "front", "frame": [20, 20, 160, 160]},
                {"id": "last", "frame": [0, 0, 10, 10]}]},
               {"id": "back", "frame": [20, 20, 160, 160], "detached": true}],
             "script": [{"at": 0.1, "do": [{"transition": {"from": "front", "to": "back", "duration": 0.5,
               "options": [\#(options)], "completion": [{"mark": "flipped"}]}}]}]}
            """#
        }
        let replaced = try T.timeline(scene(#""transitionFlipFromLeft""#))
        let shape = replaced.shape(at: 0.2)
        let ids = shape.order.map { replaced.layers[$0].id }
        #expect(ids == ["box", "first", "back", "last"])
        #expect(
            T.events(replaced) == [
                "0.1 removed front", "0.1 added back", "0.1 start box transition", "0.6 stop box transition true",
                "0.6 animate - true", "0.6 mark flipped",
            ])
        let shown = try T.timeline(scene(#""transitionCrossDissolve", "showHideTransitionViews""#))
        #expect(T.value(shown, "front", "hidden", 0.2) == .bool(true))
        #expect(T.value(shown, "back", "hidden", 0.2) == .bool(false))
        #expect(shown.shape(at: 0.2).order.map { shown.layers[$0].id }.contains("front"))
        // A view without a superview cannot be replaced: said with its path.
        #expect(throws: RuntimeError.self) {
            try T.timeline(
                #"{"layers": [{"id": "a"}, {"id": "b"}], "script": [{"at": 0, "do": [{"transition": {"from": "a", "to": "b", "duration": 0.3}}]}]}"#
            )
        }
    }

    /// `animate(springDuration:bounce:)` animates with `CASpringAnimation(perceptualDuration:bounce:)`
    /// until the spring settles: a bounce of 0.3 overshoots, one of 0 does not.
    @Test func springDurationAndBounce() throws {
        func positions(_ bounce: Double) throws -> (timeline: Timeline, xs: [Double]) {
            let timeline = try T.timeline(
                #"{"layers": [{"id": "card", "frame": [0, 0, 100, 100]}], "script": [{"at": 0, "do": [{"animate": {"springDuration": 0.5, "bounce": \#(bounce), "changes": {"card": {"position": [200, 50]}}}}]}]}"#
            )
            let xs = stride(from: 0.0, through: 1.5, by: 0.02).map { time -> Double in
                guard case .point(let p) = T.value(timeline, "card", "position", time) else { return .nan }
                return p.x
            }
            return (timeline, xs)
        }
        let bouncy = try positions(0.3)
        let spring = Spring(perceptualDuration: 0.5, bounce: 0.3)
        #expect(abs(spring.dampingRatio - 0.7) < 1e-12)
        #expect(bouncy.xs.max()! > 203)
        #expect(bouncy.timeline.animations.first?.settlingDuration == spring.settlingDuration)
        #expect(T.events(bouncy.timeline).last == "\(bouncy.timeline.animations[0].stoppedAt!) animate - true")
        let smooth = try positions(0)
        #expect(smooth.xs.max()! <= 200 + 1e-9)
        // springDuration or duration, not both; bounce below 1.
        for bad in [#""springDuration": 0.5, "duration": 1"#, #""bounce": 1"#, #""bounce": -1"#] {
            #expect(throws: SceneDocumentError.self) {
                _ = try SceneDecoder.decode(
                    bytes: Array(
                        #"{"layers": [{"id": "c"}], "script": [{"at": 0, "do": [{"animate": {\#(bad), "changes": {"c": {"opacity": 0}}}}]}]}"#
                            .utf8))
            }
        }
    }
}
