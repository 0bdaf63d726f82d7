import ChoreoEngine
import ChoreoFormat
import Foundation
import Testing

/// Scenes that once trapped the process (a Double converted to an Int beyond its range) or
/// looped without bound: each now renders or is refused with a 422 naming the field. A
/// regression traps, and fails, the whole test run.
@Suite struct PoisonSceneTests {
    static func outcome(_ text: String, times: [Double] = [0, 0.6, 1]) -> String {
        do {
            let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
            var query = SamplingQuery()
            query.times = times
            _ = ResponseEncoder.json(try RenderPlan.make(scene: scene, query: query), threads: 1)
            var fps = SamplingQuery()
            fps.fps = 1
            _ = try RenderPlan.make(scene: scene, query: fps)
            return "rendered"
        } catch let failure as ValidationFailure {
            return "422 " + failure.errors.map(\.path).joined(separator: " ")
        } catch let error as SceneDocumentError {
            if case .invalid(let failure) = error { return "422 " + failure.errors.map(\.path).joined(separator: " ") }
            return "400"
        } catch {
            return "\(error)"
        }
    }

    @Test func emitterRatesBeyondTheLimit() {
        #expect(
            Self.outcome(
                #"{"layers": [{"id": "e", "type": "emitter", "birthRate": 1e300, "emitterCells": [{"birthRate": 1, "lifetime": 1}]}]}"#
            )
                == "422 $.layers[0].emitterCells[0].birthRate")
        #expect(
            Self.outcome(
                #"{"layers": [{"id": "e", "type": "emitter", "lifetime": 1.8e308, "emitterCells": [{"birthRate": 1, "lifetime": 1}]}]}"#
            )
                == "422 $.layers[0].emitterCells[0].birthRate $.layers[0].lifetime")
        // Set by the script: the limit holds on what the script reaches.
        #expect(
            Self.outcome(
                #"{"layers": [{"id": "e", "type": "emitter", "emitterCells": [{"birthRate": 1, "lifetime": 1}]}], "script": [{"at": 0.5, "do": [{"set": {"e": {"birthRate": 1e300}}}]}]}"#
            )
                == "422 $.script[0].do[0].set.e.birthRate")
        // Animated there: the frames draw the newest particles of the cell, at most the limit.
        let animated =
            #"{"layers": [{"id": "e", "type": "emitter", "emitterCells": [{"birthRate": 1, "lifetime": 1}]}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "birthRate", "fromValue": 1, "toValue": 1e12, "duration": 1}, "layer": "e"}]}]}"#
        #expect(Self.outcome(animated) == "rendered")
    }

    /// Query numbers are decimal (no hexadecimal floats, nan or inf), and no document lists more
    /// than 100 errors, whatever decoder found them.
    @Test func queryNumbersAndErrorCounts() {
        for text in ["0x1p3", "nan", "inf", "1e3x", ""] {
            #expect(throws: ValidationFailure.self, "\(text)") { try SamplingQuery.parse([("fps", text)]) }
        }
        #expect((try? SamplingQuery.parse([("fps", "1.5e1")]))?.fps == 15)
        let many = (0..<5_000).map { "x\($0)" }.joined(separator: ",")
        do {
            _ = try SamplingQuery.parse([("times", many)])
            Issue.record("5,000 bad times must fail")
        } catch {
            #expect(error.errors.count == 100)
        }
    }

    @Test func groupChildWithANearZeroSpeed() {
        #expect(
            Self.outcome(
                #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"add": {"type": "group", "duration": 1, "animations": [{"type": "basic", "keyPath": "opacity", "toValue": 0, "speed": 1e-12, "repeatCount": 1e6}]}, "layer": "a"}]}]}"#
            )
                == "rendered")
    }

    @Test func layerBeginTimeBeyondTheLongestScene() {
        #expect(
            Self.outcome(
                #"{"layers": [{"id": "a"}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}, "layer": "a"}, {"set": {"a": {"beginTime": 1e19}}}]}]}"#
            )
                == "rendered")
        #expect(
            Self.outcome(
                #"{"layers": [{"id": "a", "beginTime": 1e19}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}, "layer": "a"}]}]}"#
            )
                == "rendered")
    }

    /// A loop that lets no time pass ends at the per-instant budget, and a run asked to stop
    /// stops with ``RuntimeError/stopped`` within a few thousand events.
    @Test func loopsWithoutTimeAndCancelledRuns() throws {
        let loop =
            #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","key":"k","keyPath":"opacity","toValue":0,"duration":5e-324,"onStop":[{"addAgain":"k","layer":"a"}]},"layer":"a"}]}]}"#
        #expect(Self.outcome(loop) == "422 $.script[0].do[0].add")
        let (scene, _) = try SceneDecoder.decode(bytes: Array(loop.utf8))
        do {
            _ = try SceneRunner.run(scene, shouldStop: { true })
            Issue.record("a run told to stop must stop")
        } catch {
            #expect(error == .stopped)
        }
    }
}
