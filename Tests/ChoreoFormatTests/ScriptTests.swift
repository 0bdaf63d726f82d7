import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// The script vocabulary: transactions, UIView blocks, states, `after`, `if`, loops, and the
/// four examples taken from the source articles.
struct ScriptTests {
    static func timeline(_ text: String) throws -> Timeline {
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        return try SceneRunner.run(scene)
    }

    static func example(_ name: String) throws -> Timeline {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/\(name).json")
        return try timeline(String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    static func value(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ time: Double) -> Value {
        let index = timeline.layerIndex[layer]!
        let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
        return timeline.presentationValue(layer: index, keyPath: KeyPath(keyPath)!, at: time, map: maps[index])
    }

    static func number(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ time: Double) -> Double {
        guard case .number(let n) = value(timeline, layer, keyPath, time) else { return .nan }
        return n
    }

    /// Events as compact strings: "time type layer key finished name".
    static func events(_ timeline: Timeline) -> [String] {
        timeline.events.map { event in
            let time = "\(event.time)"
            switch event.kind {
            case .animationDidStart(let layer, let key): return "\(time) start \(layer) \(key ?? "-")"
            case .animationDidStop(let layer, let key, let finished):
                return "\(time) stop \(layer) \(key ?? "-") \(finished)"
            case .transactionCompleted(let name, let finished): return "\(time) transaction \(name ?? "-") \(finished)"
            case .animateCompleted(let name, let finished): return "\(time) animate \(name ?? "-") \(finished)"
            case .withAnimationCompleted(let name): return "\(time) withAnimation \(name ?? "-")"
            case .layerAdded(let layer): return "\(time) added \(layer)"
            case .layerRemoved(let layer): return "\(time) removed \(layer)"
            case .stateChanged(let layer, let state): return "\(time) state \(layer) \(state)"
            case .marker(let name): return "\(time) mark \(name)"
            case .animatorStateChanged(let animator, let state, let running):
                return "\(time) animator \(animator) \(state) \(running ? "running" : "paused")"
            case .animatorCompleted(let animator, let position): return "\(time) completed \(animator) \(position)"
            case .appearance(let kind, let layer, _): return "\(time) \(kind.rawValue) \(layer)"
            case .transitionCompleted(let transition, let did, let cancelled):
                return "\(time) transitionCompleted \(transition) \(did) \(cancelled)"
            }
        }
    }

    static func codes(_ timeline: Timeline) -> [String] { timeline.diagnostics.map(\.code.rawValue) }

    // MARK: The examples

    /// Seed 002: a 3 s animation interrupted at 0.5 s by a 1 s one back to the start. The
    /// additive animations stack: the box undershoots below 100, and both complete, finished.
    @Test func overlappingBlocksStackAndBothFinish() throws {
        let timeline = try Self.example("overlapping-bounds")
        let widths = stride(from: 0.5, through: 3, by: 0.05).map {
            Self.number(timeline, "box", "bounds.size.width", SceneTime.quantize($0))
        }
        #expect(widths.min()! < 60)
        #expect(abs(Self.number(timeline, "box", "bounds.size.width", 1.5) - 50) < 1e-9)
        #expect(Self.number(timeline, "box", "bounds.size.width", 3) == 100)
        let events = Self.events(timeline)
        #expect(events.contains("1.5 animate shrink true"))
        #expect(events.contains("3.0 animate grow true"))
        #expect(events.contains("1.5 mark shrink finished") && events.contains("3.0 mark grow finished"))
        #expect(Self.codes(timeline).isEmpty)
    }

    /// Seed 003: the outer balls follow two half-circle arcs; animationDidStart runs the UIView
    /// block (out and shrink, then back); animationDidStop restarts both, so it never settles.
    @Test func threeBallLoaderLoops() throws {
        let timeline = try Self.example("three-ball-loader")
        // Half way round, ball 1 is where ball 3 started (it went under the centre).
        guard case .point(let half) = Self.value(timeline, "ball-1", "position", 0.7),
            case .point(let low) = Self.value(timeline, "ball-1", "position", 0.35)
        else { Issue.record("position is not a point"); return }
        #expect(abs(half.x - 120) < 1e-6 && abs(half.y - 100) < 1e-6)
        #expect(low.y > 100)
        // The block moved ball 1 out by 20 and shrank it to 0.7, then brought it back.
        #expect(abs(Self.number(timeline, "ball-1", "transform.translation.x", 0.45) + 20) < 1e-9)
        #expect(abs(Self.number(timeline, "ball-2", "transform.scale.x", 0.45) - 0.7) < 1e-9)
        #expect(Self.number(timeline, "ball-2", "transform.scale.x", 0.9) == 1)
        let events = Self.events(timeline)
        for loop in 1...6 {
            let t = SceneTime.quantize(1.4 * Double(loop))
            #expect(events.contains("\(t) stop ball-1 animation true"), "loop \(loop)")
            #expect(events.contains("\(t) stop ball-3 rotation true"), "loop \(loop)")
            #expect(events.contains("\(t) start ball-1 animation"), "loop \(loop)")
        }
        #expect(!Self.codes(timeline).contains("key-replaced"))
        #expect(timeline.neverSettles)
        #expect(Self.codes(timeline) == ["never-settles"])
        // The loop is named: ball 1's onStop, which adds the animations again (not the
        // onStart block's completion that happens to come first past the horizon).
        let diagnostic = timeline.diagnostics[0]
        #expect(
            diagnostic.message.contains("still running at 10 s: $.script[0].do[0].add.onStop keeps"),
            "\(diagnostic.message)")
    }

    /// Seed 001: the two-stage press, the spring pop, the cross-dissolve, the three acts.
    @Test func wateringButton() throws {
        let timeline = try Self.example("watering-button")
        #expect(abs(Self.number(timeline, "waterButton", "transform.scale.x", 0.2) - 0.85) < 1e-9)
        #expect(Self.number(timeline, "statusLabel", "opacity", 0.55) == 1)
        // The spring (damping ratio 0.55) overshoots before it settles at 1.
        let pop = stride(from: 1.0, through: 1.6, by: 0.01).map {
            Self.number(timeline, "statusLabel", "transform.scale.x", SceneTime.quantize($0))
        }
        #expect(pop.first! == 0.5)
        #expect(pop.max()! > 1.05)
        #expect(abs(pop.last! - 1) < 1 / 255)
        // The three acts: down to 0.8, up to 1.15, back to 1 at 4.1 s.
        let acts = stride(from: 3.0, through: 4.1, by: 0.01).map {
            Self.number(timeline, "waterButton", "transform.scale.x", SceneTime.quantize($0))
        }
        #expect(abs(acts.min()! - 0.8) < 0.01)
        #expect(abs(acts.max()! - 1.15) < 0.01)
        #expect(acts.last! == 1)
        let events = Self.events(timeline)
        #expect(
            events.filter { $0.contains(" animate ") } == [
                "0.2 animate press true", "0.55 animate release true", "1.6 animate pop true",
                "2.3 animate text true", "4.1 animate three acts true",
            ])
        #expect(Self.codes(timeline).isEmpty)
    }

    /// Seed 000: the battle group in a transaction; its completion removes the animations and
    /// runs the 0.4 s defeat block, whose completion sets `defeated`.
    @Test func arenaBattle() throws {
        let timeline = try Self.example("arena-battle")
        #expect(
            Self.events(timeline) == [
                "0.0 state web-server-01 fighting", "0.0 start web-server-01 battleAnimation",
                "0.6 stop web-server-01 battleAnimation true", "0.6 transaction battle true",
                "0.6 start web-server-01 transform", "0.6 start web-server-01 opacity",
                "1.0 stop web-server-01 transform true", "1.0 stop web-server-01 opacity true",
                "1.0 animate defeat true", "1.0 state web-server-01 defeated",
            ])
        let codes = Self.codes(timeline)
        #expect(codes.filter { $0 == "group-clipped" }.count == 2)
        #expect(codes.contains("snap-back"))
        #expect(abs(Self.number(timeline, "web-server-01", "transform.scale.x", 1) - 0.1) < 1e-9)
        #expect(Self.number(timeline, "web-server-01", "opacity", 1) == 0.3)
        guard case .color(let border) = Self.value(timeline, "web-server-01", "borderColor", 1) else {
            Issue.record("borderColor is not a colour")
            return
        }
        #expect(abs(border.red - 142.0 / 255) < 1e-9)
    }

    // MARK: Transactions

    @Test func transactionCompletionWaitsForEveryAnimationInside() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a"}, {"id": "b"}],
             "script": [{"at": 0, "do": [{"transaction": {"name": "outer", "duration": 2, "timingFunction": "easeIn", "do": [
                {"add": {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1}, "layer": "a"},
                {"transaction": {"name": "inner", "do": [
                  {"add": {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 3}, "layer": "b"}],
                  "completion": [{"mark": "inner done"}]}}],
               "completion": [{"mark": "outer done"}]}}]}]}
            """)
        let events = Self.events(timeline)
        #expect(events.contains("3.0 transaction inner true"))
        #expect(events.contains("3.0 transaction outer true"))
        #expect(events.firstIndex(of: "3.0 transaction inner true")! < events.firstIndex(of: "3.0 mark outer done")!)
        // Inherited: 2 s and easeIn for the animation without its own.
        #expect(events.contains("2.0 stop a - true"))
        #expect(abs(Self.number(timeline, "a", "opacity", 1) - TimingFunction.easeIn.evaluate(0.5)) < 1e-12)
        #expect(Self.codes(timeline).isEmpty)
    }

    @Test func emptyTransactionCompletesAtOnceWithADiagnostic() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "opacity": 1}],
             "script": [{"at": 1, "do": [{"transaction": {"do": [{"set": {"a": {"opacity": 0.5}}}],
                                                          "completion": [{"mark": "done"}]}}]}]}
            """)
        #expect(Self.events(timeline) == ["1.0 transaction - true", "1.0 mark done"])
        #expect(Self.codes(timeline) == ["completion-immediate"])
        #expect(timeline.diagnostics[0].time == 1)
    }

    @Test func implicitActionsFollowTheTransaction() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "actions": "implicit", "opacity": 1}, {"id": "b", "actions": "implicit", "opacity": 1}],
             "script": [{"at": 0, "do": [
               {"transaction": {"duration": 1, "timingFunction": "linear", "do": [{"set": {"a": {"opacity": 0}}}]}},
               {"transaction": {"disableActions": true, "do": [{"set": {"b": {"opacity": 0}}}]}}]}]}
            """)
        #expect(Self.number(timeline, "a", "opacity", 0.5) == 0.5)
        #expect(Self.number(timeline, "b", "opacity", 0.1) == 0)
        #expect(Self.events(timeline).contains("1.0 stop a opacity true"))
    }

    // MARK: UIView blocks

    @Test func removedBlockAnimationCompletesUnfinished() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "position": [0, 0]}],
             "script": [
               {"at": 0, "do": [{"animate": {"duration": 1, "changes": {"a": {"position": [100, 0]}},
                 "completion": [{"if": "finished", "do": [{"mark": "yes"}]}, {"if": "!finished", "do": [{"mark": "no"}]}]}}]},
               {"at": 0.5, "do": [{"removeAll": "a"}]}]}
            """)
        #expect(
            Self.events(timeline) == [
                "0.0 start a position", "0.5 stop a position false", "0.5 animate - false", "0.5 mark no",
            ])
        // The model jumped at once: removing the animation shows it (and that is a snap-back).
        guard case .point(let p) = Self.value(timeline, "a", "position", 0.5) else { return }
        #expect(p.x == 100)
        #expect(Self.codes(timeline).contains("snap-back"))
    }

    @Test func beginFromCurrentStateStartsFromThePresentation() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "opacity": 0}],
             "script": [
               {"at": 0, "do": [{"animate": {"duration": 1, "options": ["curveLinear"], "changes": {"a": {"opacity": 1}}}}]},
               {"at": 0.5, "do": [{"animate": {"duration": 1, "options": ["curveLinear", "beginFromCurrentState"],
                                               "changes": {"a": {"opacity": 0}}}}]}]}
            """)
        #expect(Self.number(timeline, "a", "opacity", 0.5) == 0.5)
        #expect(abs(Self.number(timeline, "a", "opacity", 1.0) - 0.25) < 1e-12)
        #expect(Self.number(timeline, "a", "opacity", 1.5) == 0)
        // The block in flight was taken over: it stops unfinished.
        #expect(
            Self.events(timeline) == [
                "0.0 start a opacity", "0.5 stop a opacity false", "0.5 start a opacity", "0.5 animate - false",
                "1.5 stop a opacity true", "1.5 animate - true",
            ])
    }

    @Test func repeatAutoreverseAndDelay() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "opacity": 1}, {"id": "b", "opacity": 1}],
             "script": [{"at": 0, "do": [
               {"animate": {"duration": 1, "delay": 0.5, "options": ["curveLinear", "autoreverse"], "changes": {"a": {"opacity": 0}}}},
               {"animate": {"duration": 1, "options": ["repeat"], "changes": {"b": {"opacity": 0}}}}]}]}
            """)
        // The delay shows the old value (fill both), autoreverse goes there and back, then the
        // animation ends at the model value: the jump UIKit users know.
        #expect(Self.number(timeline, "a", "opacity", 0.25) == 1)
        #expect(Self.number(timeline, "a", "opacity", 1.0) == 0.5)
        #expect(Self.number(timeline, "a", "opacity", 1.5) == 0)
        #expect(Self.number(timeline, "a", "opacity", 2.25) == 0.75)
        #expect(Self.number(timeline, "a", "opacity", 2.5) == 0)
        #expect(timeline.diagnostics.contains { $0.code == .snapBack && $0.layer == "a" && $0.time == 2.5 })
        #expect(timeline.neverSettles)
        #expect(timeline.diagnostics.contains { $0.code == .neverSettles && $0.layer == "b" })
    }

    @Test func discreteKeyframesAndCurls() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "opacity": 1}, {"id": "page", "type": "text", "bounds": [0, 0, 10, 10], "string": "1"}],
             "script": [{"at": 0, "do": [
               {"animateKeyframes": {"duration": 1, "options": ["calculationModeDiscrete", "curveLinear"], "keyframes": [
                 {"relativeStartTime": 0.5, "relativeDuration": 0.5, "changes": {"a": {"opacity": 0.4}}}]}},
               {"transition": {"layer": "page", "duration": 1, "options": ["transitionCurlUp", "curveLinear"],
                               "changes": {"page": {"string": "2"}}}}]}]}
            """)
        #expect(Self.number(timeline, "a", "opacity", 0.49) == 1)
        #expect(Self.number(timeline, "a", "opacity", 0.5) == 0.4)
        let page = timeline.layerIndex["page"]!
        let state = timeline.transitionState(layer: page, at: 0.25, map: .identity)
        #expect(state?.transition.kind == .curlUp)
        #expect(state?.outgoingCurl == 0.25 && state?.incomingCurl == 0)
    }

    @Test func springBlockUsesTheUIKitMapping() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "position": [0, 0]}],
             "script": [{"at": 0, "do": [{"animate": {"duration": 0.5, "spring": {"dampingRatio": 0.5, "initialVelocity": 0.8},
                                                       "changes": {"a": {"position": [100, 0]}}}}]}]}
            """)
        let spring = Spring(uiKitDuration: 0.5, dampingRatio: 0.5, initialVelocity: 0.8)
        for t in [0.1, 0.2, 0.3] {
            guard case .point(let p) = Self.value(timeline, "a", "position", t) else { continue }
            // Additive from −100 to 0 on top of the model value 100.
            #expect(abs(p.x - (100 - 100 * (1 - spring.progress(at: t)))) < 1e-9)
        }
        #expect(timeline.animations[0].settlingDuration == spring.settlingDuration)
    }

    @Test func keyframeBlockHoldsBetweenKeyframes() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "opacity": 1}],
             "script": [{"at": 0, "do": [{"animateKeyframes": {"duration": 1, "options": ["curveLinear"], "keyframes": [
               {"relativeStartTime": 0, "relativeDuration": 0.25, "changes": {"a": {"opacity": 0}}},
               {"relativeStartTime": 0.5, "relativeDuration": 0.5, "changes": {"a": {"opacity": 1}}}]}}]}]}
            """)
        #expect(Self.number(timeline, "a", "opacity", 0.125) == 0.5)
        #expect(Self.number(timeline, "a", "opacity", 0.4) == 0)
        #expect(Self.number(timeline, "a", "opacity", 0.75) == 0.5)
        #expect(Self.number(timeline, "a", "opacity", 1) == 1)
    }

    @Test func flipTransitionTurnsTheContent() throws {
        let text = """
            {"layers": [{"id": "card", "type": "text", "bounds": [0, 0, 100, 50], "string": "front"}],
             "script": [{"at": 0, "do": [{"transition": {"layer": "card", "duration": 1,
               "options": ["transitionFlipFromLeft", "curveLinear"], "changes": {"card": {"string": "back"}}}}]}]}
            """
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        var query = SamplingQuery()
        query.times = [0.25, 0.75]
        let json = String(
            decoding: ResponseEncoder.json(try RenderPlan.make(scene: scene, query: query)), as: UTF8.self)
        #expect(json.contains("\"type\":\"flip\",\"subtype\":\"fromLeft\",\"progress\":0.25"))
        // At a quarter turn the outgoing face is turned 45° about y; the incoming one is hidden.
        let turn = "[\(cos(Double.pi / 4)),0,\(-sin(Double.pi / 4)),"
        #expect(json.contains("\"outgoing\":{\"opacity\":1,\"offset\":[0,0],\"transform\":\(turn)"))
        #expect(json.contains("\"incoming\":{\"opacity\":0"))
        // Past half way the incoming face shows, and the model already holds the new text.
        #expect(json.contains("\"progress\":0.75,\"outgoing\":{\"opacity\":0"))
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "card", "string", 0) == .string("back"))
    }

    // MARK: States, after, if, loops

    @Test func statesAfterAndGuards() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a", "opacity": 1, "states": {"dim": {"opacity": 0.2}, "lit": {"opacity": 1}}}],
             "script": [{"at": 0, "do": [
               {"setState": {"a": "dim"}, "animated": true, "duration": 0.5},
               {"after": 1, "do": [{"setState": {"a": "lit"}}, {"mark": "lit"}]}]}]}
            """)
        #expect(abs(Self.number(timeline, "a", "opacity", 0.25) - (1 - 0.8 * 0.5)) < 1e-12)
        #expect(Self.number(timeline, "a", "opacity", 0.5) == 0.2)
        #expect(Self.number(timeline, "a", "opacity", 1) == 1)
        #expect(
            Self.events(timeline) == [
                "0.0 state a dim", "0.0 start a opacity", "0.5 stop a opacity true", "0.5 animate - true",
                "1.0 state a lit", "1.0 mark lit",
            ])
    }

    @Test func onStopHearsRemovalWithFinishedFalse() throws {
        let timeline = try Self.timeline(
            """
            {"layers": [{"id": "a"}],
             "script": [
               {"at": 0, "do": [{"add": {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "key": "k",
                                          "onStop": [{"if": "!finished", "do": [{"mark": "interrupted"}]}]}, "layer": "a"}]},
               {"at": 0.25, "do": [{"remove": "k", "layer": "a"}]}]}
            """)
        #expect(Self.events(timeline) == ["0.0 start a k", "0.25 stop a k false", "0.25 mark interrupted"])
    }

    @Test func scriptErrorsNameTheirPlace() throws {
        let cases: [(String, String)] = [
            (
                #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"if": "finished", "do": []}]}]}"#,
                "$.script[0].do[0].if"
            ),
            (
                #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"setState": {"a": "nope"}}]}]}"#,
                "$.script[0].do[0].setState.a"
            ),
            (
                #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"addAgain": "k", "layer": "a"}]}]}"#,
                "$.script[0].do[0].addAgain"
            ),
        ]
        for (text, path) in cases {
            let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
            #expect(throws: RuntimeError.self) { try SceneRunner.run(scene) }
            do {
                _ = try SceneRunner.run(scene)
            } catch {
                #expect(error.path == path)
            }
        }
    }

    /// The decoder tells the runner whether an `addAgain` can run, wherever it sits (a batch
    /// run keeps each keyed `add` only then); a scene built in code says it can.
    @Test func addAgainIsFoundWhereverItIs() throws {
        let add =
            #"{"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1, "key": "k"}, "layer": "a"}"#
        let again = #"{"addAgain": "k", "layer": "a"}"#
        let plain = #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [\#(add)]}]}"#
        #expect(try !SceneDecoder.decode(bytes: Array(plain.utf8)).scene.mayAddAgain)
        for actions in [
            "\(add), {\"after\": 2, \"do\": [\(again)]}",
            "{\"transaction\": {\"do\": [\(add)], \"completion\": [{\"after\": 1, \"do\": [\(again)]}]}}",
        ] {
            let text = #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [\#(actions)]}]}"#
            let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
            #expect(scene.mayAddAgain)
            let timeline = try SceneRunner.run(scene)
            #expect(timeline.animations.count == 2, "\(actions)")
            #expect(timeline.animations.last?.addedAt == 2)
        }
        #expect(Scene(layers: []).mayAddAgain)
    }

    @Test func runawayLoopHitsTheEventBudget() throws {
        let text = """
            {"layers": [{"id": "a"}],
             "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 0.000001,
               "key": "tick", "onStop": [{"addAgain": "tick", "layer": "a"}]}, "layer": "a"}]}]}
            """
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        do {
            _ = try SceneRunner.run(scene)
            Issue.record("the loop was not stopped")
        } catch {
            #expect(error.message.contains("more than \(Limits.maxEvents) events"))
            #expect(error.path.hasPrefix("$.script[0].do[0].add"))
        }
    }

    @Test func blockDecodingErrors() {
        let errors = SceneDecoderTests.errors(
            """
            {"layers": [{"id": "a"}], "script": [{"at": 0, "do": [
              {"animate": {"duration": -1, "options": ["curveLinear", "curveEaseIn", "wobble"], "changes": {"a": {"opacity": 2}}}},
              {"animateKeyframes": {"duration": 1, "keyframes": [{"relativeStartTime": 0.8, "relativeDuration": 0.5, "changes": {}}]}},
              {"transition": {"duration": 1, "options": ["transitionCurlUp"]}},
              {"if": "maybe", "do": []},
              {"after": 1}
            ]}]}
            """)
        for expected in [
            "$.script[0].do[0].animate.duration", "$.script[0].do[0].animate.options",
            "$.script[0].do[0].animate.options[2]", "$.script[0].do[1].animateKeyframes.keyframes[0].relativeDuration",
            "$.script[0].do[2].transition.layer", "$.script[0].do[3].if", "$.script[0].do[4].do",
        ] {
            #expect(errors.contains(expected), "\(expected) in \(errors)")
        }
    }
}
