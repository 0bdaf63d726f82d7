import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// The interactive contract, rule by rule, with numbers worked out by hand (linear curves make
/// them exact). Every value is read through the timeline and the compiled program.
@Suite struct InteractiveTests {
    static func timeline(_ layers: String, _ script: String) throws -> Timeline {
        let text = "{\"layers\": [\(layers)], \"script\": [\(script)]}"
        return try SceneRunner.run(try SceneDecoder.decode(bytes: Array(text.utf8)).scene, horizon: 10)
    }

    /// A key path of a layer at times, both sampling paths agreeing to the bit.
    static func values(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ times: [Double]) -> [Double] {
        let index = timeline.layerIndex[layer]!
        let path = KeyPath(keyPath)!
        let program = SamplingProgram(timeline: timeline, requests: [(index, path.property)])
        let cursor = SamplingCursor(for: program)
        return times.map { time in
            let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
            let value = timeline.presentationValue(layer: index, keyPath: path, at: time, map: maps[index])
            var lanes = Lanes()
            if program.sample(0, at: time, map: maps[index], cursor: cursor, into: &lanes) {
                let compiled = path.extract(from: Value(lanes: lanes, kind: path.property.kind))
                #expect(compiled == value, "\(keyPath) at \(time): compiled \(compiled) ≠ \(value)")
            }
            if case .number(let n) = value { return n }
            return .nan
        }
    }

    static func expect(
        _ got: [Double], _ expected: [Double], tolerance: Double = 1e-9,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(got.count == expected.count, sourceLocation: sourceLocation)
        for (g, e) in zip(got, expected) {
            #expect(abs(g - e) <= tolerance, "\(got) ≠ \(expected)", sourceLocation: sourceLocation)
        }
    }

    static func fraction(_ timeline: Timeline, _ animator: String, _ time: Double) -> Double {
        let track = timeline.animators.first { $0.id == animator }!
        return timeline.clocks[track.clock].value(at: time).fraction(at: time)
    }

    static let card = #"{"id": "card", "position": [0, 0], "opacity": 1}"#

    static func animator(_ id: String = "sheet", duration: Double = 2, curve: String = "linear", extra: String = "")
        -> String
    {
        #"{"propertyAnimator": {"id": "\#(id)", "duration": \#(duration), "curve": "\#(curve)", "changes": {"card": {"position": [100, 0]}}\#(extra)}}"#
    }

    static func call(_ json: String, _ id: String = "sheet") -> String {
        let trimmed = json.dropFirst().dropLast()
        return "{\(trimmed), \"animator\": \"\(id)\"}"
    }

    static func events(_ timeline: Timeline) -> [String] { ScriptTests.events(timeline) }

    /// Rule 3: scrubbing shows every property at the fraction, linearly in the value; through the
    /// curve when scrubsLinearly is false.
    @Test func scrubbingIsLinearInTheValue() throws {
        let linear = try Self.timeline(
            Self.card,
            #"{"at": 0, "do": [\#(Self.animator(curve: "easeInOut")), \#(Self.call(#"{"fractionComplete": 0.3}"#))]}"#)
        Self.expect(Self.values(linear, "card", "position.x", [0, 1, 5]), [30, 30, 30])
        let curved = try Self.timeline(
            Self.card,
            #"{"at": 0, "do": [\#(Self.animator(curve: "easeInOut", extra: #", "scrubsLinearly": false"#)), \#(Self.call(#"{"fractionComplete": 0.3}"#))]}"#
        )
        Self.expect(Self.values(curved, "card", "position.x", [0]), [100 * TimingFunction.easeInEaseOut.evaluate(0.3)])
        #expect(Self.fraction(curved, "sheet", 0) == 0.3)
    }

    /// Rules 1 and 3, decision 24: start, pause, resume on the curve; after a scrub, the rest
    /// of the curve from the scrubbed value over the remaining time.
    @Test func pauseScrubResumeOnTheCurve() throws {
        let easeIn = TimingFunction.easeIn
        let timeline = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [\#(Self.animator(curve: "easeIn")), \#(Self.call(#"{"startAnimation": {}}"#))]},
            {"at": 1, "do": [\#(Self.call(#"{"pauseAnimation": {}}"#))]},
            {"at": 2, "do": [\#(Self.call(#"{"startAnimation": {}}"#))]}
            """#)
        Self.expect(
            Self.values(timeline, "card", "position.x", [0.5, 1, 1.5, 2.5, 3, 4]),
            [
                100 * easeIn.evaluate(0.25), 100 * easeIn.evaluate(0.5), 100 * easeIn.evaluate(0.5),
                100 * easeIn.evaluate(0.75), 100, 100,
            ])
        Self.expect([Self.fraction(timeline, "sheet", 1.5), Self.fraction(timeline, "sheet", 2.5)], [0.5, 0.75])
        let events = Self.events(timeline)
        #expect(events.contains("3.0 completed sheet end"))
        #expect(
            events.contains("1.0 animator sheet active paused") && events.contains("2.0 animator sheet active running"))
        // Scrubbed to 0.5 (50, linearly), then started: 50 at once, the rest of easeIn over 1 s.
        let scrubbed = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [\#(Self.animator(curve: "easeIn")), \#(Self.call(#"{"fractionComplete": 0.5}"#))]},
            {"at": 1, "do": [\#(Self.call(#"{"startAnimation": {}}"#))]}
            """#)
        let c5 = easeIn.evaluate(0.5)
        let rest = 50 + 50 * (easeIn.evaluate(0.75) - c5) / (1 - c5)
        Self.expect(Self.values(scrubbed, "card", "position.x", [1, 1.5, 2]), [50, rest, 100], tolerance: 1e-9)
        #expect(Self.events(scrubbed).contains("2.0 completed sheet end"))
    }

    /// Rule 4 and decision 25: reversed, it runs back over the time spent; fractionComplete goes
    /// down; the completion's position is start and the model takes the start values.
    @Test func reversingTakesTheTimeSpent() throws {
        let timeline = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [\#(Self.animator(extra: #", "completion": [{"if": "position == start", "do": [{"mark": "back"}]}]"#)), \#(Self.call(#"{"startAnimation": {}}"#))]},
            {"at": 0.5, "do": [\#(Self.call(#"{"isReversed": true}"#))]}
            """#)
        Self.expect(Self.values(timeline, "card", "position.x", [0.5, 0.75, 1, 2]), [25, 12.5, 0, 0])
        Self.expect([Self.fraction(timeline, "sheet", 0.75)], [0.125])
        let events = Self.events(timeline)
        #expect(events.contains("1.0 completed sheet start") && events.contains("1.0 mark back"))
        #expect(ScriptTests.value(timeline, "card", "position", 2) == .point(Point(0, 0)))
    }

    /// Decision 26: continueAnimation with a curve and a duration factor; 0 means 1.
    @Test func continueWithANewCurveAndFactor() throws {
        let script = { (factor: String) in
            #"""
            {"at": 0, "do": [\#(Self.animator()), \#(Self.call(#"{"fractionComplete": 0.5}"#))]},
            {"at": 1, "do": [\#(Self.call(#"{"continueAnimation": {"timingParameters": {"curve": "easeIn"}, "durationFactor": \#(factor)}}"#))]}
            """#
        }
        let doubled = try Self.timeline(Self.card, script("2"))
        Self.expect(
            Self.values(doubled, "card", "position.x", [1, 2, 3]),
            [50, 50 + 50 * TimingFunction.easeIn.evaluate(0.5), 100])
        #expect(Self.events(doubled).contains("3.0 completed sheet end"))
        #expect(Self.events(try Self.timeline(Self.card, script("0"))).contains("2.0 completed sheet end"))
        // A paused animator only: on a running one UIKit raises.
        #expect(throws: RuntimeError.self) {
            try Self.timeline(
                Self.card,
                #"{"at": 0, "do": [\#(Self.animator(extra: #", "start": true"#)), \#(Self.call(#"{"continueAnimation": {}}"#))]}"#
            )
        }
    }

    /// Rule 2: Apple's example — 2 s, running at 0.25, delayFactor 0.25: the new animations run 1.0 s.
    @Test func addAnimationsRunsOverTheRemainingTime() throws {
        let timeline = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [\#(Self.animator()), \#(Self.call(#"{"startAnimation": {}}"#))]},
            {"at": 0.5, "do": [\#(Self.call(#"{"addAnimations": {"changes": {"card": {"opacity": 0}}, "delayFactor": 0.25}}"#))]}
            """#)
        Self.expect(Self.values(timeline, "card", "opacity", [0.5, 1, 1.5, 2]), [1, 1, 0.5, 0])
        // Added while inactive: they run for duration minus the delay.
        let inactive = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [\#(Self.animator()), \#(Self.call(#"{"addAnimations": {"changes": {"card": {"opacity": 0}}, "delayFactor": 0.5}}"#)), \#(Self.call(#"{"startAnimation": {}}"#))]}
            """#)
        Self.expect(Self.values(inactive, "card", "opacity", [0.5, 1, 1.5, 2]), [1, 1, 0.5, 0])
    }

    /// Rule 1: stop, finish at a position, pausesOnCompletion; the calls UIKit raises on.
    @Test func statesStopFinishAndRaises() throws {
        let stopped = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [\#(Self.animator(extra: #", "completion": [{"if": "position == current", "do": [{"mark": "current"}]}]"#)), \#(Self.call(#"{"startAnimation": {}}"#))]},
            {"at": 1, "do": [\#(Self.call(#"{"stopAnimation": {"withoutFinishing": false}}"#))]},
            {"at": 2, "do": [\#(Self.call(#"{"finishAnimation": {"at": "current"}}"#))]}
            """#)
        Self.expect(Self.values(stopped, "card", "position.x", [1, 1.5, 2, 3]), [50, 50, 50, 50])
        let events = Self.events(stopped)
        #expect(events.contains("1.0 animator sheet stopped paused") && events.contains("2.0 mark current"))
        let holding = try Self.timeline(
            Self.card,
            #"{"at": 0, "do": [\#(Self.animator(extra: #", "pausesOnCompletion": true, "start": true"#))]}"#)
        #expect(!Self.events(holding).contains { $0.contains("completed") })
        #expect(holding.animators[0].status.value(at: 5).state == "active")
        for bad in [
            #"{"at": 0, "do": [\#(Self.animator()), \#(Self.call(#"{"finishAnimation": {"at": "end"}}"#))]}"#,
            #"{"at": 0, "do": [\#(Self.animator(extra: #", "start": true"#)), \#(Self.call(#"{"fractionComplete": 0.5}"#))]}"#,
            #"{"at": 0, "do": [\#(Self.animator(extra: #", "start": true"#)), \#(Self.call(#"{"stopAnimation": {"withoutFinishing": false}}"#)), \#(Self.call(#"{"startAnimation": {}}"#))]}"#,
        ] {
            #expect(throws: RuntimeError.self) { try Self.timeline(Self.card, bad) }
        }
    }

    /// Rule 6: several animators on one property add up.
    @Test func animatorsOnOnePropertyAdd() throws {
        let timeline = try Self.timeline(
            Self.card,
            #"""
            {"at": 0, "do": [{"propertyAnimator": {"id": "a", "duration": 1, "curve": "linear", "start": true, "changes": {"card": {"position": [100, 0]}}}}]},
            {"at": 0.5, "do": [{"propertyAnimator": {"id": "b", "duration": 1, "curve": "linear", "start": true, "changes": {"card": {"position": [200, 0]}}}}]}
            """#)
        Self.expect(Self.values(timeline, "card", "position.x", [0.75, 1, 1.5]), [100, 150, 200])
    }

    static let transitionLayers = #"""
        {"id": "container", "sublayers": [{"id": "from", "position": [0, 0]}]}, {"id": "to", "position": [0, 0], "detached": true}
        """#

    static func interactive(speed: Double = 1, complete: String = #""notCancelled""#) -> String {
        #"""
        {"beginTransition": {"id": "t", "operation": "push", "from": "from", "to": "to", "container": "container", "duration": 1,
          "interactive": {"completionSpeed": \#(speed), "completionCurve": "linear"},
          "animateTransition": [
            {"addLayer": "to", "parent": "container"},
            {"animate": {"duration": 1, "options": ["curveLinear"], "changes": {"to": {"position": [100, 0]}},
                         "completion": [{"completeTransition": \#(complete)}]}}]}}
        """#
    }

    /// §2 percent-driven: update shows the animations at p · duration; finish plays on in
    /// (1 − p) · duration / completionSpeed; the lifecycle events in UIKit's order.
    @Test func percentDrivenFinish() throws {
        let timeline = try Self.timeline(
            Self.transitionLayers,
            #"""
            {"at": 0, "do": [\#(Self.interactive(speed: 2))]},
            {"at": 1, "do": [{"updateInteractiveTransition": 0.4, "transition": "t"}]},
            {"at": 2, "do": [{"finishInteractiveTransition": {}, "transition": "t"}]}
            """#)
        Self.expect(
            Self.values(timeline, "to", "position.x", [0.5, 1, 1.5, 2, 2.15, 2.3, 3]), [0, 40, 40, 40, 70, 100, 100])
        let events = Self.events(timeline).filter {
            !$0.contains(" start ") && !$0.contains(" stop ") && !$0.contains(" animate ")
        }
        #expect(
            events == [
                "0.0 viewWillDisappear from", "0.0 viewWillAppear to", "0.0 added to", "2.3 viewDidDisappear from",
                "2.3 viewDidAppear to", "2.3 removed from", "2.3 transitionCompleted t true false",
            ])
        let phases = timeline.transitions[0].phase
        #expect(phases.value(at: 1).name == "interactive" && phases.value(at: 2.1).name == "finishing")
        #expect(abs(timeline.percentComplete(timeline.transitions[0], at: 2.15) - 0.7) < 1e-12)
    }

    /// A cancel runs back in p · duration / completionSpeed; the appearance is undone; the
    /// incoming view leaves; a view left at the transition's values is diagnosed.
    @Test func percentDrivenCancel() throws {
        let timeline = try Self.timeline(
            Self.transitionLayers,
            #"""
            {"at": 0, "do": [\#(Self.interactive()), {"set": {"from": {"opacity": 0.5}}}]},
            {"at": 1, "do": [{"updateInteractiveTransition": 0.4, "transition": "t"}]},
            {"at": 2, "do": [{"cancelInteractiveTransition": {}, "transition": "t"}]}
            """#)
        Self.expect(Self.values(timeline, "to", "position.x", [1, 2, 2.2]), [40, 40, 20])
        let events = Self.events(timeline).filter {
            $0.hasPrefix("2.4") && !$0.contains(" stop ") && !$0.contains(" animate ")
        }
        #expect(
            events == [
                "2.4 viewWillDisappear to", "2.4 viewDidDisappear to", "2.4 viewWillAppear from",
                "2.4 viewDidAppear from",
                "2.4 removed to", "2.4 transitionCompleted t false true",
            ])
        #expect(timeline.diagnostics.contains { $0.code == .cancelNotRestored && $0.layer == "from" })
    }

    /// The pan (seed 004): progress over 0.5 or velocity over 800 finishes, else it cancels.
    @Test(arguments: [(180.0, 0.0, true), (120.0, 900.0, true), (120.0, 100.0, false)])
    func panFinishesOrCancelsByTheSeedRule(translation: Double, velocity: Double, finishes: Bool) throws {
        let timeline = try Self.timeline(
            Self.transitionLayers,
            #"""
            {"at": 0, "do": [{"pan": {"transition": "t", "onBegan": [\#(Self.interactive())],
              "samples": [{"at": 1, "state": "began", "translation": [0, 0]},
                          {"at": 1.1, "state": "changed", "translation": [0, \#(translation)]},
                          {"at": 1.2, "state": "ended", "translation": [0, \#(translation)], "velocity": [0, \#(velocity)]}]}}]}
            """#)
        Self.expect(Self.values(timeline, "to", "position.x", [1.1]), [translation / 3])
        #expect(Self.events(timeline).contains { $0.contains("transitionCompleted t \(finishes) \(!finishes)") })
    }

    /// §3: the pitfalls of custom transitions.
    @Test func transitionPitfalls() throws {
        let forgotten = try Self.timeline(
            Self.transitionLayers,
            #"{"at": 0, "do": [{"beginTransition": {"id": "t", "operation": "push", "from": "from", "to": "to", "container": "container", "duration": 1, "animateTransition": []}}]}"#
        )
        let codes = forgotten.diagnostics.map(\.code)
        #expect(codes.contains(.toViewNotAdded) && codes.contains(.transitionNeverCompleted))
        let ignores = try Self.timeline(
            Self.transitionLayers,
            #"""
            {"at": 0, "do": [\#(Self.interactive(complete: "true"))]},
            {"at": 1, "do": [{"cancelInteractiveTransition": {}, "transition": "t"}]}
            """#)
        #expect(ignores.diagnostics.contains { $0.code == .completionIgnoresCancel })
        let offscreen = try Self.timeline(
            Self.transitionLayers,
            #"{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}, "layer": "to"}]}"#
        )
        #expect(offscreen.diagnostics.contains { $0.code == .animatesOffscreenLayer && $0.layer == "to" })
    }
}
