import Testing

@testable import ChoreoEngine

@Suite struct SceneRunnerTests {
    static func basic(
        _ keyPath: String, from: Value? = nil, to: Value? = nil, by: Value? = nil, duration: Double = 1,
        key: String? = nil, configure: (inout Animation) -> Void = { _ in }
    ) -> Animation {
        var animation = Animation(
            content: .basic(
                PropertyAnimation(keyPath: KeyPath(keyPath)!), BasicValues(from: from, to: to, by: by), spring: nil))
        animation.timing.duration = duration
        animation.key = key
        configure(&animation)
        return animation
    }

    static func layer(_ id: String, _ values: [LayerProperty: Value] = [:]) -> LayerNode {
        var node = LayerNode(id: id)
        node.values = values
        return node
    }

    static func value(_ timeline: Timeline, _ id: String, _ keyPath: String, _ t: Double) -> Value {
        let index = timeline.layerIndex[id]!
        return timeline.presentationValue(
            layer: index, keyPath: KeyPath(keyPath)!, at: t, map: timeline.timeMap(of: index, at: t))
    }

    @Test func basicFromToAndSnapBack() throws {
        let scene = Scene(
            layers: [Self.layer("a")],
            script: [
                ScriptEntry(at: 0, actions: [.add(Self.basic("opacity", from: .number(1), to: .number(0)), layer: "a")])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "opacity", 0.25) == .number(0.75))
        #expect(Self.value(timeline, "a", "opacity", 1) == .number(1))  // removed: the model shows
        #expect(timeline.diagnostics.map(\.code) == [.snapBack])
        #expect(timeline.lastChange == 1)
        #expect(
            timeline.events.map(\.kind) == [
                .animationDidStart(layer: "a", key: nil), .animationDidStop(layer: "a", key: nil, finished: true),
            ])
    }

    /// The same pitfall on many layers: the diagnostics share their texts (one string each,
    /// not one per layer), and each still names its own layer.
    @Test func repeatedDiagnosticsShareTheirTexts() throws {
        let ids = ["a", "b", "c"]
        let scene = Scene(
            layers: ids.map { Self.layer($0) },
            script: [
                ScriptEntry(
                    at: 0,
                    actions: ids.map { .add(Self.basic("opacity", from: .number(1), to: .number(0)), layer: $0) })
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(timeline.diagnostics.map(\.code) == [.snapBack, .snapBack, .snapBack])
        #expect(timeline.diagnostics.compactMap(\.layer) == ids)
        func storage(_ text: String) -> UnsafePointer<UInt8>? {
            var text = text
            return text.withUTF8 { $0.baseAddress }
        }
        let messages = Set(timeline.diagnostics.map { storage($0.message) })
        let fixes = Set(timeline.diagnostics.map { storage($0.fix) })
        #expect(messages.count == 1 && fixes.count == 1)
    }

    /// Semantics rule 9.4: missing ends read the model value live.
    @Test func missingEndReadsModelLive() throws {
        let scene = Scene(
            layers: [Self.layer("a", [.opacity: .number(0)])],
            script: [
                ScriptEntry(at: 0, actions: [.add(Self.basic("opacity", from: .number(1)), layer: "a")]),
                ScriptEntry(
                    at: 0.5, actions: [.set([LayerChanges(layer: "a", changes: [.property(.opacity, .number(0.5))])])]),
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "opacity", 0.25) == .number(0.75))
        #expect(Self.value(timeline, "a", "opacity", 0.75) == .number(0.625))
        #expect(timeline.diagnostics.isEmpty)
    }

    @Test func byAndToCombinations() throws {
        let scene = Scene(
            layers: [Self.layer("a", [.position: .point(Point(10, 10))])],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [
                        .add(Self.basic("position.x", by: .number(100), key: "by"), layer: "a"),
                        .add(Self.basic("position.y", to: .number(50), by: .number(20), key: "toby"), layer: "a"),
                    ])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "position", 0.5) == .point(Point(60, 40)))
    }

    @Test func additiveStacksAndCumulativeAccumulates() throws {
        let scene = Scene(
            layers: [Self.layer("a", [.position: .point(Point(0, 0))])],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [
                        .add(Self.basic("position.x", from: .number(0), to: .number(100), key: "one"), layer: "a"),
                        .add(
                            Self.basic("position.x", from: .number(-50), to: .number(0), key: "two") {
                                $0.content.setAdditive()
                            },
                            layer: "a"),
                        .add(
                            Self.basic("opacity", from: .number(10), to: .number(20), key: "cumulative") {
                                $0.timing.repeatCount = 3
                                $0.content.setCumulative()
                            }, layer: "a"),
                    ])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "position.x", 0.5) == .number(25))
        // From 10 to 20, repeatCount 3, t = 1.5 → 35 (SMIL accumulate, docs/semantics.md).
        #expect(Self.value(timeline, "a", "opacity", 1.5) == .number(35))
        #expect(!timeline.diagnostics.contains { $0.code == .overridden })
    }

    @Test func keyReplacementAndOverride() throws {
        let scene = Scene(
            layers: [Self.layer("a")],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [.add(Self.basic("opacity", from: .number(1), to: .number(1), key: "k"), layer: "a")]),
                ScriptEntry(
                    at: 0.5,
                    actions: [
                        .add(Self.basic("opacity", from: .number(1), to: .number(1), key: "k"), layer: "a"),
                        .add(Self.basic("opacity", from: .number(1), to: .number(1), key: "other"), layer: "a"),
                    ]),
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(
            timeline.events.contains(Event(time: 0.5, kind: .animationDidStop(layer: "a", key: "k", finished: false))))
        #expect(timeline.diagnostics.map(\.code).contains(.keyReplaced))
        #expect(timeline.diagnostics.map(\.code).contains(.overridden))
    }

    @Test func groupClipsAndWarpsChildren() throws {
        var group = Animation(
            content: .group([
                Self.basic("opacity", from: .number(0), to: .number(1), duration: 1),
                Self.basic("position.x", from: .number(0), to: .number(100), duration: 0.5) {
                    $0.timing.beginTime = 0.25
                },
            ]))
        group.timing.duration = 0.5
        group.key = "g"
        let scene = Scene(layers: [Self.layer("a")], script: [ScriptEntry(at: 0, actions: [.add(group, layer: "a")])])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "opacity", 0.25) == .number(0.25))
        #expect(Self.value(timeline, "a", "position.x", 0.375) == .number(25))
        #expect(Self.value(timeline, "a", "opacity", 0.5) == .number(1))  // group over: model value
        let clipped = timeline.diagnostics.filter { $0.code == .groupClipped }
        #expect(clipped.count == 2)
        #expect(timeline.lastChange == 0.5)
        // The group's leaves, one per child, made one after another.
        #expect(timeline.animations.map(\.leaves) == [0..<2])
        #expect(timeline.leaves.map(\.keyPath.description) == ["opacity", "position.x"])
    }

    /// Animations added one after another keep their own leaves, a group's as one range.
    @Test func eachAnimationKeepsItsOwnLeaves() throws {
        let group = Animation(
            content: .group([
                Self.basic("opacity", from: .number(0), to: .number(1)),
                Self.basic("position.y", from: .number(0), to: .number(9)),
            ]))
        let scene = Scene(
            layers: [Self.layer("a"), Self.layer("b")],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [
                        .add(Self.basic("position.x", from: .number(0), to: .number(5)), layer: "a"),
                        .add(group, layer: "b"), .add(Self.basic("opacity", to: .number(0)), layer: "a"),
                    ])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(timeline.animations.map(\.leaves) == [0..<1, 1..<3, 3..<4])
        #expect(timeline.animations.map(\.layer) == [0, 1, 0])
    }

    @Test func groupWithAForeverChildIsClippedNotACrash() throws {
        var group = Animation(
            content: .group([
                Self.basic("opacity", from: .number(0), to: .number(1), duration: 0.1) {
                    $0.timing.repeatCount = .infinity
                }
            ]))
        group.timing.duration = 0.5
        let scene = Scene(layers: [Self.layer("a")], script: [ScriptEntry(at: 0, actions: [.add(group, layer: "a")])])
        let timeline = try SceneRunner.run(scene)
        let clipped = timeline.diagnostics.filter { $0.code == .groupClipped }
        #expect(clipped.count == 1)
        #expect(clipped.first?.message.contains("runs for ever but the group lasts 0.5 s") == true)
        #expect(timeline.lastChange == 0.5)
    }

    @Test func layerSpeedAndPause() throws {
        var slow = Self.layer("parent")
        slow.timing = LayerTiming(speed: 2)
        slow.sublayers = [Self.layer("child")]
        let scene = Scene(
            layers: [slow],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [
                        .add(Self.basic("opacity", from: .number(0), to: .number(1), duration: 4), layer: "child")
                    ]),
                ScriptEntry(
                    at: 1, actions: [.set([LayerChanges(layer: "parent", changes: [.speed(0), .timeOffset(2)])])]),
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "child", "opacity", 0.5) == .number(0.25))
        #expect(Self.value(timeline, "child", "opacity", 3) == .number(0.5))  // frozen at local time 2
        #expect(!timeline.events.contains { if case .animationDidStop = $0.kind { true } else { false } })
    }

    @Test func keyframeModes() throws {
        var linear = Keyframes()
        linear.values = [.number(0), .number(10), .number(30)]
        linear.keyTimes = [0, 0.5, 1]
        var paced = linear
        paced.calculationMode = .paced
        var discrete = Keyframes()
        discrete.values = [.number(1), .number(2), .number(3)]
        discrete.calculationMode = .discrete
        var cubic = linear
        cubic.calculationMode = .cubic
        func animation(_ keyframes: Keyframes, _ keyPath: String) -> Animation {
            var a = Animation(content: .keyframe(PropertyAnimation(keyPath: KeyPath(keyPath)!), keyframes))
            a.timing.duration = 1
            return a
        }
        let scene = Scene(
            layers: [Self.layer("a"), Self.layer("b"), Self.layer("c"), Self.layer("d")],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [
                        .add(animation(linear, "opacity"), layer: "a"), .add(animation(paced, "opacity"), layer: "b"),
                        .add(animation(discrete, "opacity"), layer: "c"), .add(animation(cubic, "opacity"), layer: "d"),
                    ])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "opacity", 0.25) == .number(5))
        #expect(Self.value(timeline, "a", "opacity", 0.75) == .number(20))
        // Paced: constant speed over a distance of 30.
        #expect(abs(Self.value(timeline, "b", "opacity", 0.5).number! - 15) < 1e-9)
        #expect(Self.value(timeline, "c", "opacity", 0.3) == .number(1))
        #expect(Self.value(timeline, "c", "opacity", 0.4) == .number(2))
        #expect(Self.value(timeline, "c", "opacity", 0.7) == .number(3))
        // Cubic passes through the keyframes.
        #expect(abs(Self.value(timeline, "d", "opacity", 0.5).number! - 10) < 1e-9)
        #expect(Self.value(timeline, "d", "opacity", 0.25).number! != 5)
    }

    @Test func pathKeyframesFollowTheCurve() throws {
        var keyframes = Keyframes()
        keyframes.path = try SVGPathParser.parse("M 0 0 L 100 0 L 100 100")
        keyframes.calculationMode = .paced
        keyframes.rotationMode = .auto
        var animation = Animation(content: .keyframe(PropertyAnimation(keyPath: KeyPath("position")!), keyframes))
        animation.timing.duration = 2
        let scene = Scene(
            layers: [Self.layer("a")], script: [ScriptEntry(at: 0, actions: [.add(animation, layer: "a")])])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "position", 0.5) == .point(Point(50, 0)))
        #expect(Self.value(timeline, "a", "position", 1.5) == .point(Point(100, 50)))
        let angle = Self.value(timeline, "a", "transform.rotation.z", 1.5).number!
        #expect(abs(angle - Double.pi / 2) < 1e-6)
    }

    @Test func layerAddRemoveStopsAnimations() throws {
        let scene = Scene(
            layers: [Self.layer("root")],
            script: [
                ScriptEntry(
                    at: 0,
                    actions: [
                        .addLayer(Self.layer("child"), parent: "root", index: nil),
                        .add(
                            Self.basic("opacity", from: .number(0), to: .number(1), duration: 2, key: "fade"),
                            layer: "child"),
                    ]),
                ScriptEntry(at: 1, actions: [.removeLayer("child"), .mark("gone")]),
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(timeline.shape(at: 0.5).order.count == 2)
        #expect(timeline.shape(at: 1).order.count == 1)
        #expect(
            timeline.events.contains(
                Event(time: 1, kind: .animationDidStop(layer: "child", key: "fade", finished: false))))
        #expect(timeline.events.last == Event(time: 1, kind: .marker(name: "gone")))
    }

    /// A scene of one opacity animation repeated `repeatCount` times, `duration` a pass.
    static func repeating(_ repeatCount: Double, duration: Double = 1) throws -> Timeline {
        let animation = basic("opacity", from: .number(0), to: .number(1), duration: duration) {
            $0.timing.repeatCount = repeatCount
        }
        return try SceneRunner.run(
            Scene(layers: [layer("a")], script: [ScriptEntry(at: 0, actions: [.add(animation, layer: "a")])]))
    }

    @Test func infiniteRepeatNeverSettles() throws {
        let timeline = try Self.repeating(.infinity)
        #expect(timeline.neverSettles)
        #expect(timeline.naturalEnd == Limits.neverSettlesHorizon)
        #expect(timeline.diagnostics.map(\.code) == [.neverSettles])
    }

    /// An animation that ends only past the longest scene (3,600 s) is still running when the
    /// run stops: the scene does not settle within it, and is sampled to the horizon (it had a
    /// natural end of 0, its end never reached); one that ends within it ends the scene then.
    @Test(arguments: [(repeatCount: 100_000.0, end: Limits.neverSettlesHorizon), (1_000, 800)])
    func anAnimationEndingPastTheLongestSceneDoesNotSettle(case given: (repeatCount: Double, end: Double)) throws {
        let timeline = try Self.repeating(given.repeatCount, duration: 0.8)
        #expect(timeline.naturalEnd == given.end)
        let settles = given.end != Limits.neverSettlesHorizon
        #expect(timeline.neverSettles == !settles)
        #expect(timeline.diagnostics.map(\.code) == (settles ? [] : [.neverSettles]))
        if !settles {
            #expect(timeline.diagnostics.first?.message.contains("longest scene (3600 s)") ?? false)
        }
    }

    @Test func eventTimesAreQuantized() throws {
        let scene = Scene(
            layers: [Self.layer("a")],
            script: [
                ScriptEntry(
                    at: 1.2,
                    actions: [.add(Self.basic("opacity", from: .number(1), to: .number(1), duration: 0.6), layer: "a")])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(timeline.events.last?.time == 1.8)
    }

    @Test func implicitActions() throws {
        var node = Self.layer("a", [.opacity: .number(1)])
        node.actions = .implicit
        let scene = Scene(
            layers: [node],
            script: [
                ScriptEntry(
                    at: 0, actions: [.set([LayerChanges(layer: "a", changes: [.property(.opacity, .number(0))])])])
            ])
        let timeline = try SceneRunner.run(scene)
        #expect(Self.value(timeline, "a", "opacity", 0).number == 1)
        #expect(Self.value(timeline, "a", "opacity", 0.125).number! < 1)
        #expect(Self.value(timeline, "a", "opacity", 0.25).number == 0)
        #expect(timeline.diagnostics.isEmpty)
    }
}

extension Animation.Content {
    mutating func setAdditive() {
        if case .basic(var p, let v, let s) = self {
            p.additive = true
            self = .basic(p, v, spring: s)
        }
    }

    mutating func setCumulative() {
        if case .basic(var p, let v, let s) = self {
            p.cumulative = true
            self = .basic(p, v, spring: s)
        }
    }
}
