import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// `CAEmitterLayer`: seeded particles, each a pure function of seed, cell and birth index.
struct EmitterTests {
    static func scene(
        cell: String =
            #"{"name": "bit", "birthRate": 30, "lifetime": 2, "velocity": 80, "velocityRange": 30, "emissionRange": 6.283185307179586, "scale": 0.08, "scaleRange": 0.04, "yAcceleration": 50}"#,
        layer: String = #""emitterPosition": [200, 0], "seed": 7"#, script: String = "[]"
    ) -> Scene {
        let text = """
            {"layers": [{"id": "confetti", "type": "emitter", \(layer), "emitterCells": [\(cell)]}], "script": \(script)}
            """
        return try! SceneDecoder.decode(bytes: Array(text.utf8)).scene
    }

    static func particles(_ scene: Scene, at time: Double) throws -> [Particle] {
        let timeline = try SceneRunner.run(scene)
        return timeline.particles(layer: 0, at: time)
    }

    static func render(_ scene: Scene, _ configure: (inout SamplingQuery) -> Void) throws -> [String: String] {
        var query = SamplingQuery()
        configure(&query)
        let bytes = ResponseEncoder.json(try RenderPlan.make(scene: scene, query: query))
        let json = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        var frames: [String: String] = [:]
        for frame in json["frames"] as! [[String: Any]] {
            let layers = frame["layers"] as! [String: Any]
            let data = try JSONSerialization.data(withJSONObject: layers, options: [.sortedKeys])
            frames["\(frame["time"]!)"] = String(decoding: data, as: UTF8.self)
        }
        return frames
    }

    @Test func aFrameComputedDirectlyEqualsTheSameFrameInASequence() throws {
        // An animated birth rate makes the emission history matter; it still comes out the same.
        let scene = Self.scene(
            script: """
                [{"at": 0.5, "do": [{"add": {"type": "basic", "keyPath": "birthRate", "fromValue": 1, "toValue": 3, "duration": 2}, "layer": "confetti"}]}]
                """)
        let sequence = try Self.render(scene) {
            $0.fps = 30
            $0.end = 3
        }
        for time in ["1.5", "2", "2.9"] {
            let direct = try Self.render(scene) { $0.times = [Double(time)!] }
            #expect(direct[time] != nil && direct[time] == sequence[time], "t = \(time)")
            #expect(direct[time]!.contains("\"particles\":[{"))
        }
    }

    /// An animated birth rate is integrated once per render, not once per frame: the frames of an
    /// hour share the cell's grid, which grows only as far as the latest frame needs (an hour
    /// at fps 10 used to integrate 36,000 times from the start).
    @Test func theBirthRateIntegralIsSharedByTheFrames() throws {
        let scene = Self.scene(
            cell: #"{"birthRate": 100, "lifetime": 1}"#,
            script: #"[{"at": 3600, "do": [{"set": {"confetti": {"birthRate": 2}}}]}]"#)
        let timeline = try SceneRunner.run(scene)
        let cache = EmissionCache()
        let late = timeline.particles(layer: 0, at: 3599, emissions: cache)
        let points = cache.gridPoints(layer: 0, cell: 0)
        #expect(points >= 3599 * 240 && points <= 3661 * 240)
        #expect(late.count == 100)
        // Earlier frames read the same grid; it does not grow or change.
        let early = timeline.particles(layer: 0, at: 10, emissions: cache)
        #expect(cache.gridPoints(layer: 0, cell: 0) == points)
        #expect(early == timeline.particles(layer: 0, at: 10))
        #expect(late == timeline.particles(layer: 0, at: 3599))
    }

    @Test func sameSeedSameParticlesOtherSeedOthers() throws {
        let a = try Self.particles(Self.scene(), at: 1.5)
        let b = try Self.particles(Self.scene(), at: 1.5)
        let c = try Self.particles(Self.scene(layer: #""emitterPosition": [200, 0], "seed": 8"#), at: 1.5)
        #expect(a == b)
        #expect(a.count == c.count)
        #expect(a.map(\.position) != c.map(\.position))
        // 30 per second, living 2 s: 45 born by 1.5 s, all alive.
        #expect(a.count == 45)
        #expect(a.map(\.index) == Array(0..<45))
    }

    @Test func rangesAreUniformAroundTheValue() throws {
        let particles = try Self.particles(
            Self.scene(
                cell:
                    #"{"birthRate": 1000, "lifetime": 4, "scale": 1, "scaleRange": 0.5, "color": [0.5, 0.5, 0.5, 1], "redRange": 0.2}"#
            ), at: 4)
        let scales = particles.map(\.scale)
        #expect(scales.min()! >= 0.75 && scales.max()! <= 1.25)
        #expect(scales.min()! < 0.76 && scales.max()! > 1.24)
        let mean = scales.reduce(0, +) / Double(scales.count)
        #expect(abs(mean - 1) < 0.01)
        let reds = particles.map(\.color.red)
        #expect(reds.min()! >= 0.4 && reds.max()! <= 0.6)
    }

    @Test func motionFollowsVelocityAndAcceleration() throws {
        let particles = try Self.particles(
            Self.scene(
                cell:
                    #"{"birthRate": 10, "lifetime": 5, "velocity": 100, "emissionLongitude": 0, "yAcceleration": 20, "spin": 1}"#,
                layer: #""emitterPosition": [10, 20]"#), at: 1)
        let first = particles[0]
        #expect(first.age == 1)
        #expect(abs(first.position.x - 110) < 1e-9 && abs(first.position.y - 30) < 1e-9)
        #expect(first.rotation == 1)
    }

    @Test func emitterShapes() throws {
        let circle = try Self.particles(
            Self.scene(
                cell: #"{"birthRate": 50, "lifetime": 1}"#,
                layer:
                    #""emitterPosition": [0, 0], "emitterSize": [40, 40], "emitterShape": "circle", "emitterMode": "outline""#
            ), at: 0.9)
        #expect(!circle.isEmpty)
        for particle in circle {
            #expect(
                abs(
                    (particle.position.x * particle.position.x + particle.position.y * particle.position.y).squareRoot()
                        - 20) < 1e-9)
        }
        let corners = try Self.particles(
            Self.scene(
                cell: #"{"birthRate": 50, "lifetime": 1}"#,
                layer:
                    #""emitterPosition": [0, 0], "emitterSize": [40, 20], "emitterShape": "rectangle", "emitterMode": "points""#
            ), at: 0.9)
        #expect(
            Set(corners.map { "\($0.position.x),\($0.position.y)" }) == [
                "-20.0,-10.0", "20.0,-10.0", "-20.0,10.0", "20.0,10.0",
            ])
    }

    @Test func animatedBirthRateIntegrates() throws {
        // birthRate 1 → 0 over 2 s: 30 × 1 s = 30 particles, then none.
        let scene = Self.scene(
            cell: #"{"birthRate": 30, "lifetime": 10}"#,
            script: """
                [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "birthRate", "fromValue": 1, "toValue": 0, "duration": 2, "fillMode": "forwards", "removedOnCompletion": false}, "layer": "confetti"}]}]
                """)
        let count = try Self.particles(scene, at: 3).count
        #expect(abs(count - 30) <= 1)
    }

    @Test func anEmitterLeftRunningIsDiagnosed() throws {
        let running = try SceneRunner.run(Self.scene())
        #expect(running.diagnostics.contains { $0.code == .emitterNotRemoved && $0.layer == "confetti" })
        let removed = try SceneRunner.run(
            Self.scene(script: #"[{"at": 2, "do": [{"removeLayer": "confetti"}]}]"#))
        #expect(!removed.diagnostics.contains { $0.code == .emitterNotRemoved })
    }

    @Test func emitterDecodingErrors() {
        let errors = SceneDecoderTests.errors(
            """
            {"layers": [
              {"id": "plain", "emitterShape": "line"},
              {"id": "e", "type": "emitter", "emitterShape": "blob", "emitterMode": "everywhere", "seed": -1,
               "emitterCells": [{"birthRate": 100000, "lifetime": 100}, {"birthRate": 1, "sparkle": true}]}]}
            """)
        for expected in [
            "$.layers[0].emitterShape", "$.layers[1].emitterShape", "$.layers[1].emitterMode", "$.layers[1].seed",
            "$.layers[1].emitterCells[0].birthRate", "$.layers[1].emitterCells[1].sparkle",
        ] {
            #expect(errors.contains(expected), "\(expected) in \(errors)")
        }
    }
}
