import ChoreoTestSupport
import Foundation
import Testing

/// An export's cost against the real binary: a scene of few layers and very many keyframes is
/// refused before its work, naming the figure and the limit, and exports run on a lane of
/// their own, so that those admitted never hold the render threads (docs/limits.md).
@Suite(.serialized) struct LiveExportTests {
    /// 15 SwiftUI views, each with five repeating keyframe tracks of `keyframes` keyframes of
    /// 0.1 ms: few layers, a group of one animation a keyframe per track, played again and
    /// again over the 10 s the scene is sampled for.
    static func keyframeBomb(keyframes: Int) -> String {
        HostileScenes.keyframeAnimators(views: 15, keyframes: keyframes, duration: 0.0001)
    }

    /// 1,000 layers, each moved by one animation for 6.5 s: 391 frames at 60 fps, just inside
    /// the 400,000 layer-frames an export samples, and tens of seconds of work.
    static let heavyExport: String = {
        let layers = (0..<1_000).map {
            #"{"id": "l\#($0)", "position": [\#($0 % 40 * 10), \#($0 / 40 * 10)], "bounds": [0, 0, 8, 8], "backgroundColor": [0.2, 0.4, 0.6, 1]}"#
        }
        let adds = (0..<1_000).map {
            #"{"layer": "l\#($0)", "add": {"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 300, "duration": 6.5}}"#
        }
        return
            #"{"layers": [\#(layers.joined(separator: ","))], "script": [{"at": 0, "do": [\#(adds.joined(separator: ","))]}]}"#
    }()

    /// The keyframes such a scene plays are counted before a frame is sampled: 422 naming the
    /// figure and the limit, once the scene has run (as for a render) instead of minutes of
    /// sampling; the server serves on. The issue's scene: 1,000 keyframes a track, 2.6 MB.
    @Test func aKeyframeBombIsRefusedBeforeItsWork() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let started = Date()
        let refused = try http.request(
            "POST", "/v1/export?format=lottie", body: Self.keyframeBomb(keyframes: 1_000), timeout: 150)
        let waited = Date().timeIntervalSince(started)
        #expect(refused.status == 422, "\(refused.status) \(refused.text)")
        #expect(LiveLimitsTests.errorPaths(refused) == ["body"], "\(refused.text)")
        #expect(
            refused.text.contains("9,000,000 keyframes (what 90,000 animations play in the 10 s exported")
                && refused.text.contains("at most 1,000,000"), "\(refused.text)")
        #expect(waited < 120, "answered after \(waited) s")
        // Every format counts the same keyframes: 200 a track, each track 500 times in 10 s.
        let smaller = Self.keyframeBomb(keyframes: 200)
        for format in ["css", "waapi", "html"] {
            let other = try http.request("POST", "/v1/export?format=\(format)", body: smaller, timeout: 90)
            #expect(other.status == 422 && other.text.contains("9,000,000 keyframes"), "\(format): \(other.text)")
        }
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// Two exports admitted and running, with the render threads two: a small render and a
    /// validation are answered promptly, while neither export has answered yet; an export
    /// beyond the export queue is 503 with Retry-After.
    @Test func exportsNeverHoldTheRenderThreads() throws {
        let server = try ServerProcess(arguments: ["--render-workers", "2", "--export-queue", "1"])
        let http = RawHTTP(port: server.port)
        let first = try http.start("/v1/export?format=lottie", body: Self.heavyExport)
        defer { close(first) }
        let second = try http.start("/v1/export?format=css", body: Self.heavyExport)
        defer { close(second) }
        // Both read and admitted: the export thread on the first, the second waiting.
        usleep(3_000_000)
        let started = Date()
        let render = try? http.request(
            "POST", "/v1/render?times=0,0.5", body: #"{"layers":[{"id":"a"},{"id":"b"},{"id":"c"}]}"#, timeout: 20)
        let validate = try? http.request("POST", "/v1/validate", body: #"{"layers":[{"id":"a"}]}"#, timeout: 20)
        let waited = Date().timeIntervalSince(started)
        #expect(render?.status == 200, "no render answered within 20 s behind the exports")
        #expect(validate?.status == 200, "no validation answered within 20 s behind the exports")
        #expect(waited < 20, "the render and the validation waited \(waited) s behind the exports")
        let full = try? http.request("POST", "/v1/export?format=lottie", body: Self.heavyExport, timeout: 20)
        #expect(full?.status == 503 && full?.headers["retry-after"] == "1", "\(full?.status ?? 0) \(full?.text ?? "")")
        // The exports were still at work: neither has answered.
        var byte: UInt8 = 0
        for socket in [first, second] {
            #expect(recv(socket, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && errno == EAGAIN)
        }
    }
}
