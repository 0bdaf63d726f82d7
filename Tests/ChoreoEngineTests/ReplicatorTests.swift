import Glibc
import Testing

@testable import ChoreoEngine

/// `CAReplicatorLayer`'s copies, with vectors worked by hand: a 15-dot spinner (instance
/// transform 2π/15 about the replicator's centre, delay 1/15 s, an opacity fade repeating for
/// ever) and the instance colour with its offsets.
@Suite struct ReplicatorTests {
    static let angle = 2 * Double.pi / 15

    /// A 100 × 100 replicator at (0, 0) with a 10 × 10 dot at (50, 10); the dot fades from 1
    /// to 0 over 1 s, for ever, from time 0.
    static func spinner(script extra: [ScriptEntry] = [], values: [LayerProperty: Value] = [:]) throws -> Timeline {
        var replicator = LayerNode(id: "spinner", type: .replicator)
        replicator.values = [
            .bounds: .rect(Rect(x: 0, y: 0, width: 100, height: 100)), .position: .point(Point(50, 50)),
            .instanceCount: .number(15), .instanceDelay: .number(1.0 / 15),
            .instanceTransform: .transform(.rotation(angle, x: 0, y: 0, z: 1)),
        ].merging(values) { $1 }
        var dot = LayerNode(id: "dot")
        dot.values = [
            .bounds: .rect(Rect(x: 0, y: 0, width: 10, height: 10)), .position: .point(Point(50, 10)),
            .backgroundColor: .color(Color(red: 1, green: 0, blue: 0, alpha: 1)),
        ]
        replicator.sublayers = [dot]
        var fade = SceneRunnerTests.basic("opacity", from: .number(1), to: .number(0), duration: 1)
        fade.timing.repeatCount = .infinity
        let scene = Scene(
            layers: [replicator], script: [ScriptEntry(at: 0, actions: [.add(fade, layer: "dot")])] + extra)
        return try SceneRunner.run(scene)
    }

    static func number(_ timeline: Timeline, _ id: String, _ keyPath: String, _ t: Double) -> Double {
        guard case .number(let n) = SceneRunnerTests.value(timeline, id, keyPath, t) else { return .nan }
        return n
    }

    @Test func copiesAreLayersAfterTheSourceInDrawingOrder() throws {
        let timeline = try Self.spinner()
        let shape = timeline.shape(at: 0.5)
        let ids = shape.order.map { timeline.layers[$0].id }
        #expect(ids == ["spinner", "dot"] + (1..<15).map { "dot#\($0)" })
        let spinner = timeline.layerIndex["spinner"]!
        for k in 1..<15 { #expect(shape.parent[timeline.layerIndex["dot#\(k)"]!] == spinner) }
    }

    /// Copy k runs the fade k/15 s later: at 0.5 s copy 3 is 0.2 s in (opacity 0.7); copy 10
    /// has not started (the model's 1, no backwards fill); at 1.2 s copy 10 is 8/15 s in.
    @Test func eachCopyRunsTheAnimationsItsDelayLater() throws {
        let timeline = try Self.spinner()
        #expect(abs(Self.number(timeline, "dot", "opacity", 0.5) - 0.5) < 1e-12)
        #expect(abs(Self.number(timeline, "dot#3", "opacity", 0.5) - 0.7) < 1e-12)
        #expect(Self.number(timeline, "dot#10", "opacity", 0.5) == 1)
        #expect(abs(Self.number(timeline, "dot#10", "opacity", 1.2) - (1 - (1.2 - 10.0 / 15))) < 1e-12)
        #expect(abs(Self.number(timeline, "dot", "opacity", 1.2) - 0.8) < 1e-12)
        // The copies keep the source's model values.
        #expect(SceneRunnerTests.value(timeline, "dot#7", "position", 0.5) == .point(Point(50, 10)))
    }

    /// Copy k is turned k × 2π/15 about the replicator's centre (50, 50): the dot's centre,
    /// 40 points above it, lands at (50 + 40 sin kθ, 50 − 40 cos kθ), so the copy's own
    /// transform (about its position (50, 10)) translates by (40 sin kθ, 40 − 40 cos kθ).
    @Test func copyKIsTurnedKTimesAboutTheReplicatorsCentre() throws {
        let timeline = try Self.spinner()
        #expect(SceneRunnerTests.value(timeline, "dot", "transform", 0.5) == .transform(.identity))
        for k in [1, 2, 7, 14] {
            guard case .transform(let m) = SceneRunnerTests.value(timeline, "dot#\(k)", "transform", 0.5) else {
                Issue.record("no transform")
                continue
            }
            let turn = Double(k) * Self.angle
            #expect(abs(m.m41 - 40 * sin(turn)) < 1e-9)
            #expect(abs(m.m42 - (40 - 40 * cos(turn))) < 1e-9)
            #expect(abs(m.m11 - cos(turn)) < 1e-12 && abs(m.m12 - sin(turn)) < 1e-12)
            #expect(
                abs(Self.number(timeline, "dot#\(k)", "transform.rotation.z", 0.5) - atan2(sin(turn), cos(turn))) < 1e-9
            )
        }
    }

    /// instanceColor (0.5, 1, 1, 1) with a red offset of 0.25 and an alpha offset of −0.1: the
    /// red dot is 0.5 red in instance 0, 0.75 in copy 1, 1 (clamped) from copy 2; its alpha
    /// 1 − 0.1 k.
    @Test func instanceColorAndOffsetsMultiplyTheColours() throws {
        let timeline = try Self.spinner(values: [
            .instanceColor: .color(Color(red: 0.5, green: 1, blue: 1, alpha: 1)),
            .instanceRedOffset: .number(0.25), .instanceAlphaOffset: .number(-0.1),
        ])
        func color(_ id: String) -> Color? {
            guard case .color(let c) = SceneRunnerTests.value(timeline, id, "backgroundColor", 0.5) else { return nil }
            return c
        }
        #expect(color("dot")?.red == 0.5 && color("dot")?.alpha == 1)
        #expect(color("dot#1")?.red == 0.75)
        #expect(color("dot#2")?.red == 1 && color("dot#4")?.red == 1)
        #expect(abs((color("dot#3")?.alpha ?? 0) - 0.7) < 1e-12)
        #expect(color("dot#12")?.alpha == 0)
        #expect(color("dot#5")?.green == 0 && color("dot#5")?.blue == 0)
    }

    /// `instanceCount` set to 3 at 1 s: from then only two copies are in the tree.
    @Test func theCountFollowsTheModel() throws {
        let timeline = try Self.spinner(script: [
            ScriptEntry(
                at: 1,
                actions: [.set([LayerChanges(layer: "spinner", changes: [.property(.instanceCount, .number(3))])])])
        ])
        #expect(timeline.shape(at: 0.5).order.count == 16)
        let later = timeline.shape(at: 1.5).order.map { timeline.layers[$0].id }
        #expect(later == ["spinner", "dot", "dot#1", "dot#2"])
        #expect(timeline.shape(at: 1.5).parent[timeline.layerIndex["dot#5"]!] == -1)
    }

    /// A copy's values come out of a frame plan (the response, the pictures, the exports read
    /// them so) equal to the timeline's.
    @Test func framePlansSampleTheCopies() throws {
        let timeline = try Self.spinner()
        let columns = FramePlan.drawnColumns(timeline)
        let plan = FramePlan(
            timeline: timeline, times: [0.5], selected: [Bool](repeating: true, count: timeline.layers.count),
            columns: columns, releasingLeaves: true)
        struct Reader: FrameVisitor {
            let plan: FramePlan
            var layer = -1
            var opacity: [Int: Double] = [:]
            mutating func beginLayer(_ layer: Int) { self.layer = layer }
            mutating func lanes(_ column: Int, _ keyPath: KeyPath, _ lanes: UnsafePointer<Double>) {
                if keyPath == KeyPath(.opacity) { opacity[layer] = lanes[0] }
            }
            mutating func value(_ column: Int, _ keyPath: KeyPath, _ value: Value) {
                if keyPath == KeyPath(.opacity), case .number(let n) = value { opacity[layer] = n }
            }
            mutating func transition(_ column: Int, _ state: TransitionState) {}
            mutating func particles(_ column: Int, _ particles: [Particle]) {}
            mutating func endLayer(_ layer: Int) {}
        }
        var reader = Reader(plan: plan)
        plan.visit(0.5, cursor: plan.makeCursor(), &reader)
        let index = plan.timeline.layerIndex["dot#3"]!
        #expect(abs((reader.opacity[index] ?? 0) - 0.7) < 1e-12)
        #expect(reader.opacity.count == 16)
    }

    /// 5,000 instances of one dot ask for 4,999 copies: the first 2,000 are made, and a
    /// `replicas-capped` warning says so.
    @Test func copiesStopAtTheirLimit() throws {
        let timeline = try Self.spinner(values: [.instanceCount: .number(5_000)])
        #expect(timeline.layers.count == 2 + Limits.maxReplicaLayers)
        #expect(timeline.shape(at: 0.5).order.count == 2 + Limits.maxReplicaLayers)
        let capped = try #require(timeline.diagnostics.first { $0.code == .replicasCapped })
        #expect(capped.layer == "spinner" && capped.message.contains("4999 copies"))
    }
}
