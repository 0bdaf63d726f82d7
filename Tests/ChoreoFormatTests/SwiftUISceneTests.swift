import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// The scene format's `swiftui` section run: views drawn as layers, state changes animated as
/// SwiftUI animates them, checked against the engine's own model of one value
/// (``SwiftUIValueTrack``, whose rules docs/semantics.md gives with their sources).
struct SwiftUISceneTests {
    /// A scene of one 60-point circle whose offset x is -100 or 100 by `isOn`; `modifiers`
    /// come after the offset, `script` is the scene's script.
    static func knob(after modifiers: String = "", state: String = #"{"isOn": false}"#, script: String) -> String {
        """
        {"canvas": {"width": 400, "height": 300},
         "swiftui": {"state": \(state), "views": [
           {"id": "knob", "shape": "circle", "modifiers": [
             {"frame": {"width": 60, "height": 60}},
             {"offset": {"x": {"if": "isOn", "then": 100, "else": -100}}}\(modifiers.isEmpty ? "" : ", " + modifiers)
           ]}]},
         "script": \(script)}
        """
    }

    static func x(_ timeline: Timeline, _ time: Double, layer: String = "knob") -> Double {
        ScriptTests.number(timeline, layer, "transform.translation.x", time)
    }

    /// The largest difference between the run and the reference over `times`.
    static func largestDifference(_ timeline: Timeline, _ reference: SwiftUIValueTrack, _ times: [Double]) -> Double {
        times.map { abs(x(timeline, $0) - reference.value(at: $0)) }.max() ?? .nan
    }

    static let times = (0..<400).map { SceneTime.quantize(0.5 + Double($0) * 0.005) }

    /// The knob toggled at 0.5 s by `withAnimation(.spring(duration: 0.5, bounce:))`, and the
    /// engine's model of that change.
    static func springToggle(bounce: Double) throws -> (Timeline, SwiftUIValueTrack) {
        let timeline = try ScriptTests.timeline(
            Self.knob(
                script:
                    #"[{"at": 0.5, "do": [{"withAnimation": {"spring": {"duration": 0.5, "bounce": \#(bounce)}}, "state": {"isOn": true}}]}]"#
            ))
        var reference = SwiftUIValueTrack(-100)
        reference.set(100, at: 0.5, animation: .spring(duration: 0.5, bounce: bounce))
        return (timeline, reference)
    }

    @Test func aSpringToggleIsTheSpringItsParametersDescribe() throws {
        let (timeline, reference) = try Self.springToggle(bounce: 0.3)
        #expect(Self.largestDifference(timeline, reference, Self.times) < 1e-9)
        #expect(Self.x(timeline, 0.4) == -100)
        // Bounce 0.3 overshoots.
        #expect(Self.times.map { Self.x(timeline, $0) }.max()! > 100.5)
        #expect(timeline.diagnostics.isEmpty)
    }

    /// Bounce 1 is SwiftUI's undamped spring: it oscillates for as long as the scene lasts (and
    /// never completes); beyond 1 a spring would grow without end, and is refused.
    @Test func anUndampedSpringOscillatesAndMoreBounceIsRefused() throws {
        let (timeline, reference) = try Self.springToggle(bounce: 1)
        for time in [0.6, 1.1, 3.05, 30.2] {
            #expect(abs(Self.x(timeline, time) - reference.value(at: time)) < 1e-6, "\(time)")
        }
        // A period later, the same place: it never settles.
        #expect(abs(Self.x(timeline, 30.2) - Self.x(timeline, 0.7)) < 1e-6)
        #expect(ScriptTests.codes(timeline).contains("never-settles"))
        let errors = Self.errors(
            Self.knob(
                script:
                    #"[{"at": 0.5, "do": [{"withAnimation": {"spring": {"duration": 0.5, "bounce": 1.5}}, "state": {"isOn": true}}]}]"#
            ))
        #expect(errors.contains { $0.hasPrefix("$.script[0].do[0].withAnimation.spring.bounce: must be at most 1") })
    }

    @Test func anInterruptedSpringKeepsItsVelocity() throws {
        let timeline = try ScriptTests.timeline(
            Self.knob(
                script: """
                    [{"at": 0.5, "do": [{"withAnimation": "smooth", "state": {"isOn": true}}]},
                     {"at": 0.62, "do": [{"withAnimation": {"spring": {"duration": 0.4, "bounce": 0.2}}, "state": {"isOn": false}}]}]
                    """))
        // The track answers for times after its last change: one before the interruption, one after.
        var reference = SwiftUIValueTrack(-100)
        reference.set(100, at: 0.5, animation: .smooth())
        #expect(Self.largestDifference(timeline, reference, Self.times.filter { $0 < 0.62 }) < 1e-9)
        reference.set(-100, at: 0.62, animation: .spring(duration: 0.4, bounce: 0.2))
        #expect(Self.largestDifference(timeline, reference, Self.times.filter { $0 >= 0.62 }) < 1e-9)
        // No jump and no kink at the interruption: it goes on the way it went.
        let before = (Self.x(timeline, 0.62) - Self.x(timeline, 0.6199)) / 1e-4
        let after = (Self.x(timeline, 0.6201) - Self.x(timeline, 0.62)) / 1e-4
        #expect(before > 500 && abs(after - before) < 0.01 * before)
        // The replaced spring is not a snap-back.
        #expect(timeline.diagnostics.isEmpty)
    }

    @Test func timingCurvesInterruptedAddUp() throws {
        let timeline = try ScriptTests.timeline(
            Self.knob(
                script: """
                    [{"at": 0.5, "do": [{"withAnimation": {"easeInOut": {"duration": 1}}, "state": {"isOn": true}}]},
                     {"at": 0.9, "do": [{"withAnimation": {"linear": {"duration": 0.5}}, "state": {"isOn": false}}]}]
                    """))
        var reference = SwiftUIValueTrack(-100)
        reference.set(100, at: 0.5, animation: .easeInOut(duration: 1))
        #expect(Self.largestDifference(timeline, reference, Self.times.filter { $0 < 0.9 }) < 1e-9)
        reference.set(-100, at: 0.9, animation: .linear(duration: 0.5))
        #expect(Self.largestDifference(timeline, reference, Self.times.filter { $0 >= 0.9 }) < 1e-9)
        // Both run: at 1.4 the linear one is done and the first still has 0.1 s to go.
        #expect(abs(Self.x(timeline, 1.4) - reference.value(at: 1.4)) < 1e-9 && Self.x(timeline, 1.4) < -100)
    }

    @Test func delaysSpeedsAndRepeatsPlayAsSwiftUIPlaysThem() throws {
        let chains: [(String, SwiftUIAnimation)] = [
            (
                #"[{"easeInOut": {"duration": 0.4}}, {"delay": 0.2}, {"repeatCount": {"count": 3, "autoreverses": true}}]"#,
                .easeInOut(duration: 0.4).delay(0.2).repeatCount(3, autoreverses: true)
            ),
            (
                #"[{"linear": {"duration": 0.3}}, {"repeatCount": {"count": 2, "autoreverses": true}}]"#,
                .linear(duration: 0.3).repeatCount(2, autoreverses: true)
            ),
            (
                #"[{"easeIn": {"duration": 0.6}}, {"delay": 0.3}, {"speed": 2}]"#,
                .easeIn(duration: 0.6).delay(0.3).speed(2)
            ),
            (#"[{"easeOut": {}}, {"speed": 0.5}, {"delay": 0.1}]"#, .easeOut().speed(0.5).delay(0.1)),
            (#"[{"spring": {"duration": 0.3}}, {"delay": 0.25}]"#, .spring(duration: 0.3).delay(0.25)),
            (
                #"[{"linear": {"duration": 0.25}}, {"repeatForever": {"autoreverses": false}}]"#,
                .linear(duration: 0.25).repeatForever(autoreverses: false)
            ),
        ]
        for (json, animation) in chains {
            let timeline = try ScriptTests.timeline(
                Self.knob(script: #"[{"at": 0.5, "do": [{"withAnimation": \#(json), "state": {"isOn": true}}]}]"#))
            var reference = SwiftUIValueTrack(-100)
            reference.set(100, at: 0.5, animation: animation)
            #expect(Self.largestDifference(timeline, reference, Self.times) < 1e-9, "\(json)")
        }
    }

    @Test func theNearestAnimationModifierForAChangedValueWins() throws {
        let scene = """
            {"swiftui": {"state": {"a": false, "b": false}, "views": [
               {"id": "stack", "modifiers": [{"frame": {"width": 300, "height": 300}}, {"animation": {"linear": {"duration": 2}}, "value": "b"}],
                "children": [
                  {"id": "inner", "shape": "rectangle", "modifiers": [
                     {"frame": {"width": 10, "height": 10}},
                     {"offset": {"x": {"if": "a", "then": 100, "else": 0}}},
                     {"animation": {"linear": {"duration": 1}}, "value": "a"},
                     {"opacity": {"if": "a", "then": 0, "else": 1}}]},
                  {"id": "plain", "shape": "rectangle", "modifiers": [
                     {"frame": {"width": 10, "height": 10}}, {"offset": {"x": {"if": "b", "then": 100, "else": 0}}}]}]}]},
             "script": [{"at": 0, "do": [{"withAnimation": {"linear": {"duration": 0.5}}, "state": {"a": true, "b": true}}]}]}
            """
        let timeline = try ScriptTests.timeline(scene)
        // inner's offset: its own .animation for a (1 s); its opacity, after that modifier: the
        // stack's .animation watches b, which changed too (2 s); plain: the stack's (2 s).
        #expect(abs(ScriptTests.number(timeline, "inner", "transform.translation.x", 0.25) - 25) < 1e-9)
        #expect(abs(ScriptTests.number(timeline, "inner", "opacity", 0.5) - 0.75) < 1e-9)
        #expect(abs(ScriptTests.number(timeline, "plain", "transform.translation.x", 0.5) - 25) < 1e-9)

        // A plain change of a: inner's own .animation still applies; nothing else moves.
        let plain = try ScriptTests.timeline(
            scene.replacingOccurrences(
                of: #"{"withAnimation": {"linear": {"duration": 0.5}}, "state": {"a": true, "b": true}}"#,
                with: #"{"state": {"a": true}}"#))
        #expect(abs(ScriptTests.number(plain, "inner", "transform.translation.x", 0.5) - 50) < 1e-9)
        #expect(ScriptTests.number(plain, "inner", "opacity", 0.25) == 0)

        // disablesAnimations: the transaction's animation for every change.
        let disabled = try ScriptTests.timeline(
            scene.replacingOccurrences(
                of: #"{"withAnimation": {"linear": {"duration": 0.5}}, "state": {"a": true, "b": true}}"#,
                with:
                    #"{"withTransaction": {"animation": {"linear": {"duration": 0.5}}, "disablesAnimations": true}, "state": {"a": true, "b": true}}"#
            ))
        #expect(abs(ScriptTests.number(disabled, "inner", "transform.translation.x", 0.25) - 50) < 1e-9)
        #expect(abs(ScriptTests.number(disabled, "plain", "transform.translation.x", 0.25) - 50) < 1e-9)
    }

    @Test func animationNilTurnsTheAnimationOff() throws {
        let timeline = try ScriptTests.timeline(
            Self.knob(
                after: #"{"animation": null, "value": "isOn"}"#,
                script: #"[{"at": 0.5, "do": [{"withAnimation": "easeInOut", "state": {"isOn": true}}]}]"#))
        #expect(Self.x(timeline, 0.5) == 100)
    }

    @Test func completionsRunWhenTheirCriterionIsMet() throws {
        func completion(_ animation: String, criteria: String) throws -> (Timeline, Double?) {
            let timeline = try ScriptTests.timeline(
                Self.knob(
                    script: """
                        [{"at": 1, "do": [{"withAnimation": \(animation), "state": {"isOn": true},
                          "completionCriteria": "\(criteria)", "name": "done", "completion": [{"mark": "after"}]}]}]
                        """))
            let time = timeline.events.first { $0.kind == .withAnimationCompleted(name: "done") }?.time
            if let time {
                #expect(timeline.events.contains { $0.kind == .marker(name: "after") && $0.time == time })
            }
            return (timeline, time)
        }
        let spring = SwiftUISpring(duration: 0.5, bounce: 0.2)
        let springJSON = #"{"spring": {"duration": 0.5, "bounce": 0.2}}"#
        #expect(try completion(springJSON, criteria: "logicallyComplete").1 == SceneTime.quantize(1.5))
        let removed = SceneTime.quantize(1 + SwiftUIAnimation.spring(duration: 0.5, bounce: 0.2).completion(.removed)!)
        #expect(try completion(springJSON, criteria: "removed").1 == removed)
        #expect(removed > 1.5 && spring.duration == 0.5)
        #expect(try completion(#"{"easeIn": {"duration": 0.8}}"#, criteria: "logicallyComplete").1 == 1.8)
        // Repeating for ever: never, and said.
        let (forever, never) = try completion(#"["linear", {"repeatForever": true}]"#, criteria: "logicallyComplete")
        #expect(never == nil)
        #expect(ScriptTests.codes(forever).contains("completion-never-runs"))
        // Nothing changes: at once.
        let still = try ScriptTests.timeline(
            Self.knob(
                script:
                    #"[{"at": 1, "do": [{"withAnimation": "smooth", "state": {"isOn": false}, "completion": [{"mark": "now"}]}]}]"#
            ))
        #expect(still.events.contains { $0.kind == .marker(name: "now") && $0.time == 1 })
    }

    @Test func theDeprecatedAnimationModifierAnimatesEveryChangeAndIsSaid() throws {
        let timeline = try ScriptTests.timeline(
            Self.knob(
                after: #"{"animation": {"linear": {"duration": 1}}}"#,
                script: #"[{"at": 0.5, "do": [{"state": {"isOn": true}}]}]"#))
        #expect(abs(Self.x(timeline, 1) - 0) < 1e-9)
        #expect(ScriptTests.codes(timeline) == ["animation-without-value"])
    }

    @Test func viewsAreLayersWithTheirModifiersValues() throws {
        let timeline = try ScriptTests.timeline(
            """
            {"canvas": {"width": 400, "height": 300},
             "swiftui": {"state": {"big": true, "level": 0.5}, "views": [
               {"id": "card", "shape": "roundedRectangle", "modifiers": [
                  {"frame": {"width": 120, "height": 80}}, {"cornerRadius": 12},
                  {"fill": {"if": "big", "then": "#FF9500", "else": "#000000"}},
                  {"scaleEffect": {"if": "big", "then": 2, "else": 1}}, {"rotationEffect": {"degrees": 90}},
                  {"opacity": {"state": "level"}}, {"position": {"x": 100, "y": 50}}]},
               {"id": "pill", "shape": "capsule", "modifiers": [{"frame": {"width": 100, "height": 40}}, {"fill": "#007AFF"}]}]}}
            """)
        func value(_ layer: String, _ keyPath: String) -> Value { ScriptTests.value(timeline, layer, keyPath, 0) }
        #expect(value("card", "position") == .point(Point(100, 50)))
        #expect(value("card", "bounds") == .rect(Rect(x: 0, y: 0, width: 120, height: 80)))
        #expect(value("card", "cornerRadius") == .number(12))
        #expect(value("card", "opacity") == .number(0.5))
        #expect(abs(ScriptTests.number(timeline, "card", "transform.scale.x", 0) - 2) < 1e-12)
        #expect(abs(ScriptTests.number(timeline, "card", "transform.rotation.z", 0) - .pi / 2) < 1e-12)
        // Centred in the canvas when not positioned; a capsule's corners are half its height.
        #expect(value("pill", "position") == .point(Point(200, 150)))
        #expect(value("pill", "cornerRadius") == .number(20))
    }

    /// A document's field errors as `path: message (did you mean)`; none when it decodes.
    static func errors(_ text: String) -> [String] {
        do {
            _ = try SceneDecoder.decode(bytes: Array(text.utf8))
            return []
        } catch {
            guard case .invalid(let failure) = error else { return ["malformed"] }
            return failure.errors.map { "\($0.path): \($0.message)\($0.suggestion.map { " (\($0))" } ?? "")" }
        }
    }

    @Test func textViewsAreTextLayersMeasuredByTheirString() throws {
        let timeline = try ScriptTests.timeline(
            """
            {"canvas": {"width": 300, "height": 200}, "swiftui": {"state": {"big": false}, "views": [
               {"id": "title", "shape": "text", "text": "Hello", "modifiers": [
                  {"font": "title"}, {"fill": "#FF3B30"}, {"background": "#000000"},
                  {"opacity": {"if": "big", "then": 0.5, "else": 1}}]}]}}
            """)
        #expect(ScriptTests.value(timeline, "title", "string", 0) == .string("Hello"))
        #expect(ScriptTests.value(timeline, "title", "fontSize", 0) == .number(28))
        #expect(ScriptTests.value(timeline, "title", "alignmentMode", 0) == .string("center"))
        #expect(
            ScriptTests.value(timeline, "title", "foregroundColor", 0)
                == .color(Color(red: 1, green: 59.0 / 255, blue: 48.0 / 255, alpha: 1)))
        #expect(
            ScriptTests.value(timeline, "title", "backgroundColor", 0)
                == .color(Color(red: 0, green: 0, blue: 0, alpha: 1)))
        // Five characters at 0.6 em, one line of 1.2 em, centred in the canvas.
        #expect(ScriptTests.value(timeline, "title", "bounds", 0) == .rect(Rect(x: 0, y: 0, width: 84, height: 33.6)))
        #expect(ScriptTests.value(timeline, "title", "position", 0) == .point(Point(150, 100)))
        let errors = Self.errors(
            #"{"swiftui": {"views": [{"id": "t", "shape": "text", "modifiers": [{"font": "titel"}]}, {"id": "c", "shape": "circle", "modifiers": [{"font": 12}]}]}}"#
        )
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[0].text: is required") })
        #expect(
            errors.contains {
                $0.hasPrefix("$.swiftui.views[0].modifiers[0].font: must be points or a text style")
                    && $0.hasSuffix("(title)")
            })
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[1].modifiers[0].font: sets a Text's size") })
    }

    @Test func mistakesAreNamedWithTheirPath() {
        let errors = Self.errors
        let typo = errors(Self.knob(after: #"{"offest": {"x": 1}}"#, script: "[]"))
        #expect(
            typo.contains {
                $0.hasPrefix("$.swiftui.views[0].modifiers[2]: must name one modifier") && $0.hasSuffix("(offset)")
            })
        #expect(
            errors(Self.knob(after: #"{"opacity": {"if": "isOnn", "then": 1, "else": 0}}"#, script: "[]")).contains {
                $0.hasPrefix("$.swiftui.views[0].modifiers[2].opacity.if: no @State called \"isOnn\"")
            })
        #expect(
            errors(Self.knob(after: #"{"opacity": {"state": "isOn"}}"#, script: "[]")).contains {
                $0.contains("isOn is a Bool")
            })
        #expect(
            errors(Self.knob(after: #"{"offset": {"x": 3}}"#, script: "[]")).contains {
                $0.contains("a view takes one offset modifier")
            })
        #expect(
            errors(Self.knob(after: #"{"scaleEffect": 2}"#, script: "[]")).contains {
                $0.hasPrefix("$.swiftui.views[0].modifiers[1]: offset written before scaleEffect")
            })
        #expect(
            errors(Self.knob(script: #"[{"at": 1, "do": [{"withAnimation": "smooth", "state": {"isOn": 1}}]}]"#))
                .contains { $0.hasPrefix("$.script[0].do[0].state.isOn: must be a Bool") })
        #expect(
            errors(Self.knob(script: #"[{"at": 1, "do": [{"withAnimation": "smoth", "state": {"isOn": true}}]}]"#))
                .contains {
                    $0.hasPrefix("$.script[0].do[0].withAnimation: is not a SwiftUI Animation")
                        && $0.hasSuffix("(smooth)")
                })
        #expect(
            errors(#"{"layers": [], "script": [{"at": 0, "do": [{"state": {"x": true}}]}]}"#).contains {
                $0.contains("the scene has no swiftui section")
            })
    }
}

/// `keyframeAnimator`: each track's value is ``SwiftUIKeyframeTrack``'s to 1e-9, played when
/// its trigger changes (from the value shown then), or looping from the start.
struct SwiftUIKeyframeSceneTests {
    static let tracks = """
        [{"property": "scaleEffect", "initial": 1, "keyframes": [
           {"linear": 0.8, "duration": 0.1, "timingCurve": "easeOut"},
           {"spring": 1.3, "duration": 0.3, "springDuration": 0.3, "bounce": 0.4},
           {"spring": 1, "springDuration": 0.5, "bounce": 0.2}]},
         {"property": "offset.y", "keyframes": [
           {"cubic": -30, "duration": 0.25}, {"cubic": 10, "duration": 0.25}, {"cubic": 0, "duration": 0.2},
           {"move": 5}, {"linear": 0, "duration": 0.1, "timingCurve": [0.3, 0, 0.6, 1]}]},
         {"property": "rotationEffect", "keyframes": [
           {"cubic": 20, "duration": 0.3, "startVelocity": 100}, {"cubic": 20, "duration": 0.3}, {"cubic": 0, "duration": 0.3}]}]
        """

    static func scene(_ animator: String, script: String) -> String {
        """
        {"swiftui": {"state": {"taps": 0}, "views": [
           {"id": "heart", "shape": "circle", "modifiers": [
             {"frame": {"width": 80, "height": 80}}, {"keyframeAnimator": \(animator)}]}]},
         "script": \(script)}
        """
    }

    static let scale: [SwiftUIKeyframeTrack.Keyframe] = [
        .linear(0.8, duration: 0.1, curve: .easeOut),
        .spring(1.3, duration: 0.3, spring: SwiftUISpring(duration: 0.3, bounce: 0.4)),
        .spring(1, duration: nil, spring: SwiftUISpring(duration: 0.5, bounce: 0.2)),
    ]
    static let offset: [SwiftUIKeyframeTrack.Keyframe] = [
        .cubic(-30, duration: 0.25), .cubic(10, duration: 0.25), .cubic(0, duration: 0.2), .move(5),
        .linear(0, duration: 0.1, curve: .bezier(UnitBezier(0.3, 0, 0.6, 1))),
    ]
    static let rotation: [SwiftUIKeyframeTrack.Keyframe] = [
        .cubic(20 * .pi / 180, duration: 0.3, startVelocity: 100 * .pi / 180), .cubic(20 * .pi / 180, duration: 0.3),
        .cubic(0, duration: 0.3),
    ]

    static func largest(
        _ timeline: Timeline, _ keyPath: String, _ track: SwiftUIKeyframeTrack, from start: Double, to end: Double
    ) -> Double {
        // Off the keyframes' boundaries, where a jump's side is a matter of rounding.
        stride(from: start + 0.0013, to: end, by: 0.004).map { SceneTime.quantize($0) }.map {
            abs(ScriptTests.number(timeline, "heart", keyPath, $0) - track.value(at: $0 - start))
        }.max() ?? .nan
    }

    @Test func aTriggerPlaysTheTracksAndAnotherRestartsThemFromWhereTheyAre() throws {
        let timeline = try ScriptTests.timeline(
            Self.scene(
                #"{"trigger": "taps", "tracks": \#(Self.tracks)}"#,
                script: #"[{"at": 0.5, "do": [{"state": {"taps": 1}}]}, {"at": 0.8, "do": [{"state": {"taps": 2}}]}]"#))
        #expect(ScriptTests.number(timeline, "heart", "transform.scale.x", 0.4) == 1)
        let first = [
            ("transform.scale.x", SwiftUIKeyframeTrack(initial: 1, Self.scale)),
            ("transform.translation.y", SwiftUIKeyframeTrack(initial: 0, Self.offset)),
            ("transform.rotation.z", SwiftUIKeyframeTrack(initial: 0, Self.rotation)),
        ]
        for (keyPath, track) in first {
            #expect(Self.largest(timeline, keyPath, track, from: 0.5, to: 0.8) < 1e-9, "\(keyPath)")
            // The second play starts at 0.8 from what the first showed then.
            let again = SwiftUIKeyframeTrack(initial: track.value(at: 0.3), track.keyframes)
            #expect(Self.largest(timeline, keyPath, again, from: 0.8, to: 2.5) < 1e-9, "\(keyPath) again")
            // Once played, it stays at the end value.
            #expect(abs(ScriptTests.number(timeline, "heart", keyPath, 3) - again.value(at: again.duration)) < 1e-9)
        }
        #expect(timeline.diagnostics.isEmpty)
    }

    @Test func aRepeatingAnimatorLoopsFromTheStart() throws {
        let timeline = try ScriptTests.timeline(
            Self.scene(#"{"repeating": true, "tracks": \#(Self.tracks)}"#, script: "[]"))
        let track = SwiftUIKeyframeTrack(initial: 0, Self.offset)
        for time in stride(from: 0.0013, to: 2.5, by: 0.01).map({ SceneTime.quantize($0) }) {
            let local = time.truncatingRemainder(dividingBy: track.duration)
            let reference = track.value(at: local)
            let shown = ScriptTests.number(timeline, "heart", "transform.translation.y", time)
            #expect(abs(shown - reference) < 1e-9, "\(time)")
        }
        #expect(ScriptTests.codes(timeline).contains("never-settles"))
    }

    @Test func keyframeMistakesAreNamed() {
        func errors(_ animator: String, modifiers: String = "") -> [String] {
            SwiftUISceneTests.errors(
                """
                {"swiftui": {"state": {"taps": 0}, "views": [{"id": "v", "shape": "circle", "modifiers": [
                   \(modifiers){"keyframeAnimator": \(animator)}]}]}}
                """)
        }
        #expect(errors(#"{"tracks": []}"#).contains { $0.contains("needs a trigger") })
        #expect(
            errors(#"{"trigger": "taps", "tracks": [{"property": "offset.z", "keyframes": []}]}"#).contains {
                $0.hasPrefix("$.swiftui.views[0].modifiers[0].keyframeAnimator.tracks[0].property: must be one of")
            })
        #expect(
            errors(
                #"{"trigger": "taps", "tracks": [{"property": "opacity", "keyframes": [{"lineer": 1, "duration": 1}]}]}"#
            )
            .contains { $0.contains("must name one keyframe") && $0.hasSuffix("(linear)") })
        #expect(
            errors(
                #"{"trigger": "taps", "tracks": [{"property": "opacity", "keyframes": []}]}"#,
                modifiers: #"{"opacity": 0.5}, "#
            )
            .contains { $0.contains("opacity is driven by the view's keyframeAnimator") })
    }
}

/// `phaseAnimator`: each step is a state change of the values it drives, animated by the
/// phase's animation, the next one when it is logically complete.
struct SwiftUIPhaseSceneTests {
    static func scene(trigger: String?, script: String = "[]") -> String {
        """
        {"swiftui": {"state": {"taps": 0}, "views": [
           {"id": "dot", "shape": "circle", "modifiers": [
             {"frame": {"width": 40, "height": 40}},
             {"phaseAnimator": {\(trigger.map { #""trigger": "\#($0)", "# } ?? "")"phases": [
                {"scaleEffect": 1, "opacity": 1}, {"scaleEffect": 1.5, "opacity": 0.5}, {"scaleEffect": 0.8, "opacity": 1}],
                "animations": [{"easeOut": {"duration": 0.2}}, {"spring": {"duration": 0.4, "bounce": 0.3}}, null]}}]}]},
         "script": \(script)}
        """
    }

    static let spring = SwiftUIAnimation.spring(duration: 0.4, bounce: 0.3)

    static func scale(_ timeline: Timeline, _ time: Double) -> Double {
        ScriptTests.number(timeline, "dot", "transform.scale.x", time)
    }

    @Test func withoutATriggerThePhasesCycleForEver() throws {
        let timeline = try ScriptTests.timeline(Self.scene(trigger: nil))
        // Phase 1 by the spring from 0 s; at 0.4 s (its logical end) phase 2 at once (null);
        // then phase 0 by the curve, 0.2 s; then phase 1 again: a cycle of 0.6 s.
        var track = SwiftUIValueTrack(1)
        track.set(1.5, at: 0, animation: Self.spring)
        for time in stride(from: 0.0013, to: 0.4, by: 0.01) {
            #expect(abs(Self.scale(timeline, time) - track.value(at: time)) < 1e-9, "\(time)")
        }
        // Phase 2 has no animation: it jumps to 0.8 and takes no time, so phase 0 starts at
        // once, from 0.8.
        track = SwiftUIValueTrack(0.8)
        track.set(1, at: 0.4, animation: .easeOut(duration: 0.2))
        #expect(abs(Self.scale(timeline, 0.45) - track.value(at: 0.45)) < 1e-9)
        #expect(abs(Self.scale(timeline, 0.5) - track.value(at: 0.5)) < 1e-9)
        for cycle in 1...5 {
            let time = 0.6 * Double(cycle) + 0.1013
            #expect(abs(Self.scale(timeline, time) - Self.scale(timeline, 0.1013)) < 1e-9, "cycle \(cycle)")
        }
        #expect(ScriptTests.codes(timeline).contains("never-settles"))
    }

    @Test func aTriggerGoesRoundOnceAndAgainFromTheStart() throws {
        let timeline = try ScriptTests.timeline(
            Self.scene(
                trigger: "taps",
                script:
                    #"[{"at": 1, "do": [{"state": {"taps": 1}}]}, {"at": 3, "do": [{"state": {"taps": 2}}]}, {"at": 3.2, "do": [{"state": {"taps": 3}}]}]"#
            ))
        #expect(Self.scale(timeline, 0.9) == 1)
        #expect(abs(Self.scale(timeline, 1.2) - Self.scale(timeline, 0.2 + 1)) < 1e-12)
        // Round once: phase 1 (0.4 s), phase 2 at once, back to phase 0 over 0.2 s, and still.
        var back = SwiftUIValueTrack(0.8)
        back.set(1, at: 1.4, animation: .easeOut(duration: 0.2))
        #expect(abs(Self.scale(timeline, 1.45) - back.value(at: 1.45)) < 1e-9)
        #expect(abs(Self.scale(timeline, 1.6) - 1) < 1e-9 && Self.scale(timeline, 2.5) == 1)
        // Tapped again at 3.2 s while the play of 3 s runs: the new play starts, the old one's
        // next step (at 3.4 s) does not come: phase 1 goes on until 3.6 s.
        var track = SwiftUIValueTrack(1)
        track.set(1.5, at: 3, animation: Self.spring)
        let shown = Self.scale(timeline, 3.2)
        #expect(abs(shown - track.value(at: 3.2)) < 1e-9)
        #expect(abs(Self.scale(timeline, 3.5) - track.value(at: 3.5)) < 1e-9)
        back = SwiftUIValueTrack(0.8)
        back.set(1, at: 3.6, animation: .easeOut(duration: 0.2))
        #expect(abs(Self.scale(timeline, 3.65) - back.value(at: 3.65)) < 1e-9)
        #expect(!ScriptTests.codes(timeline).contains("never-settles"))
    }

    /// Phases a microsecond long step a million times a second: the run stops at its event
    /// budget with the animator's path, rather than going on (or growing the path each step).
    @Test func phasesTooShortToDrawAreStopped() throws {
        let text = """
            {"swiftui": {"state": {}, "views": [{"id": "d", "shape": "circle", "modifiers": [
               {"phaseAnimator": {"phases": [{"opacity": 1}, {"opacity": 0}],
                 "animations": [{"linear": {"duration": 0.000001}}, {"linear": {"duration": 0.000001}}]}}]}]}}
            """
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        #expect {
            _ = try SceneRunner.run(scene)
        } throws: { error in
            guard let error = error as? RuntimeError else { return false }
            return error.path == "$.swiftui.d.phaseAnimator[0]" && error.message.contains("events")
        }
    }

    @Test func phaseMistakesAreNamed() {
        let text = """
            {"swiftui": {"state": {}, "views": [{"id": "v", "shape": "circle", "modifiers": [
               {"phaseAnimator": {"phases": [{"scaleEffect": 1}, {"opacity": 0}], "animations": ["smooth"]}}]}]}}
            """
        let errors = SwiftUISceneTests.errors(text)
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[0].modifiers[0].phaseAnimator.phases[1]:") })
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[0].modifiers[0].phaseAnimator.animations:") })
    }
}

/// Views an `if` inserts and removes: their transitions, and matched geometry.
struct SwiftUITransitionSceneTests {
    static let scene = """
        {"canvas": {"width": 400, "height": 600},
         "swiftui": {"state": {"expanded": false}, "views": [
           {"id": "screen", "modifiers": [{"animation": {"linear": {"duration": 1}}, "value": "expanded"}], "children": [
             {"id": "thumb", "shape": "rectangle", "if": "!expanded", "modifiers": [
                {"frame": {"width": 100, "height": 100}}, {"position": {"x": 100, "y": 120}},
                {"matchedGeometryEffect": {"id": "card"}}]},
             {"id": "detail", "shape": "rectangle", "if": "expanded", "modifiers": [
                {"frame": {"width": 300, "height": 400}}, {"position": {"x": 200, "y": 300}},
                {"matchedGeometryEffect": {"id": "card"}}]},
             {"id": "badge", "shape": "circle", "if": "expanded", "modifiers": [
                {"frame": {"width": 40, "height": 40}}, {"position": {"x": 340, "y": 100}},
                {"transition": {"combined": ["opacity", {"scale": 0.2}, {"move": "top"}]}}]}]}]},
         "script": [{"at": 0.5, "do": [{"state": {"expanded": true}}]}, {"at": 3, "do": [{"state": {"expanded": false}}]}]}
        """

    static func value(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ time: Double) -> Value {
        ScriptTests.value(timeline, layer, keyPath, time)
    }

    @Test func insertedAndRemovedViewsTakeTheirTransitionsAndMatchedFrames() throws {
        let timeline = try ScriptTests.timeline(Self.scene)
        // Before: the thumbnail is there, the detail and badge hidden.
        #expect(Self.value(timeline, "detail", "hidden", 0.4) == .bool(true))
        #expect(Self.value(timeline, "thumb", "hidden", 0.4) == .bool(false))
        // Half way through the 1 s linear change: the detail (faded in half) is half way from
        // the thumbnail's frame to its own, the thumbnail (faded out half) half way to the detail's.
        for layer in ["detail", "thumb"] {
            #expect(Self.value(timeline, layer, "position", 1) == .point(Point(150, 210)))
            #expect(Self.value(timeline, layer, "bounds", 1) == .rect(Rect(x: 0, y: 0, width: 200, height: 250)))
            #expect(Self.value(timeline, layer, "opacity", 1) == .number(0.5))
        }
        // The badge: faded, scaled from 0.2 and moved down from 40 points above, half way.
        #expect(Self.value(timeline, "badge", "opacity", 1) == .number(0.5))
        #expect(abs(ScriptTests.number(timeline, "badge", "transform.scale.x", 1) - 0.6) < 1e-9)
        #expect(abs(ScriptTests.number(timeline, "badge", "transform.translation.y", 1) - -20) < 1e-9)
        // Once the change is done the removed thumbnail goes, its values its own again.
        #expect(Self.value(timeline, "thumb", "hidden", 1.6) == .bool(true))
        #expect(Self.value(timeline, "thumb", "position", 1.6) == .point(Point(100, 120)))
        // And back at 3 s.
        #expect(Self.value(timeline, "thumb", "hidden", 3.1) == .bool(false))
        #expect(Self.value(timeline, "badge", "hidden", 4.1) == .bool(true))
        #expect(Self.value(timeline, "thumb", "position", 4.1) == .point(Point(100, 120)))
        #expect(timeline.diagnostics.isEmpty)
    }

    @Test func withoutAnAnimationViewsComeAndGoAtOnce() throws {
        let timeline = try ScriptTests.timeline(
            Self.scene.replacingOccurrences(
                of: #""modifiers": [{"animation": {"linear": {"duration": 1}}, "value": "expanded"}], "#, with: ""))
        #expect(Self.value(timeline, "detail", "hidden", 0.5) == .bool(false))
        #expect(Self.value(timeline, "thumb", "hidden", 0.5) == .bool(true))
        #expect(Self.value(timeline, "detail", "opacity", 0.5) == .number(1))
    }

    @Test func transitionMistakesAreNamed() {
        let text = Self.scene.replacingOccurrences(of: #"{"move": "top"}"#, with: #"{"move": "up"}"#)
            .replacingOccurrences(
                of: #""id": "detail", "shape": "rectangle", "if": "expanded""#,
                with: #""id": "detail", "shape": "rectangle", "if": "expandd""#)
        let messages = SwiftUISceneTests.errors(text)
        #expect(
            messages.contains { $0.contains("transition.combined[2].move: must be top, bottom, leading or trailing") })
        #expect(
            messages.contains {
                $0.contains("children[1].if: no @State called \"expandd\"") && $0.hasSuffix("(expanded)")
            })
    }
}
