import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// The findings of the reliability review that concern what one request may cost, each against
/// the real binary: poison scenes (finding 1), work bounded before it starts (6, 7, 8), the
/// render memory shared by requests in flight (10) and error lists (12).
@Suite(.serialized) struct LiveLimitsTests {
    /// The server's peak resident memory so far, in KiB (`VmHWM`).
    static func peakKiB(_ server: ServerProcess) -> Int { status(server, "VmHWM") }

    /// The server's resident anonymous memory (its heap, not its mapped files), in KiB.
    static func anonymousKiB(_ server: ServerProcess) -> Int { status(server, "RssAnon") }

    /// A scene of `count` layers in a row, each given the animations `adds` makes for it (the
    /// objects of its `add` actions), all added at 0.
    static func rowOfLayers(_ count: Int, _ adds: (Int) -> [String]) -> String {
        var layers: [String] = []
        var actions: [String] = []
        for index in 0..<count {
            layers.append(#"{"id": "l\#(index)", "position": [\#(index), 0]}"#)
            actions += adds(index).map { #"{"layer": "l\#(index)", "add": \#($0)}"# }
        }
        return
            #"{"layers": [\#(layers.joined(separator: ","))], "script": [{"at": 0, "do": [\#(actions.joined(separator: ","))]}]}"#
    }

    static func status(_ server: ServerProcess, _ field: String) -> Int {
        processStatusKiB(server.process.processIdentifier, field) ?? 0
    }

    static func errorPaths(_ response: RawHTTP.Response) -> [String] {
        guard case .object(let object)? = try? JSONParser.parse(response.body),
            case .array(let errors)? = object["errors"]
        else { return [] }
        return errors.compactMap {
            guard case .object(let error) = $0, case .string(let path)? = error["path"] else { return nil }
            return path
        }
    }

    /// Finding 1: scenes that once trapped the process are refused before they are stored, or
    /// stored and rendered; the server lives on.
    /// A thousand query parameters would exhaust libmicrohttpd's connection memory before any
    /// answer could be made (the client waited for the head deadline): past 256 the query is
    /// cut off before it is parsed, and the request is answered 400 at once.
    @Test func tooManyQueryParametersAreAnswered() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let many = (0..<1_000).map { "p\($0)=1" }.joined(separator: "&")
        let started = Date()
        let refused = try http.request("GET", "/v1/scenes?" + many)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(refused.status == 400)
        #expect(refused.text.contains("/problems/bad-request-target") && refused.text.contains("256"))
        // 256 are the request's, answered as it would be (here: unknown parameters).
        let allowed = (0..<256).map { "p\($0)=1" }.joined(separator: "&")
        let answered = try http.request("GET", "/v1/scenes?" + allowed)
        #expect(answered.status == 422 && answered.text.contains("query.p0"))
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    @Test func poisonScenesAreRefusedOrRendered() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        // The third sets its rate at run time: a store runs the scene, so it is refused too.
        let refused = [
            #"{"layers":[{"id":"e","type":"emitter","birthRate":1e300,"emitterCells":[{"birthRate":1,"lifetime":1}]}]}"#,
            #"{"layers":[{"id":"e","type":"emitter","lifetime":1.8e308,"emitterCells":[{"birthRate":1,"lifetime":1}]}]}"#,
            #"{"layers":[{"id":"e","type":"emitter","emitterCells":[{"birthRate":1,"lifetime":1}]}],"script":[{"at":0.5,"do":[{"set":{"e":{"birthRate":1e300}}}]}]}"#,
        ]
        for scene in refused {
            let stored = try http.request("POST", "/v1/scenes", body: scene)
            let rendered = try http.request("POST", "/v1/render?fps=1", body: scene)
            #expect(stored.status == 422 && rendered.status == 422, "\(stored.text)")
        }
        let accepted = [
            #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"group","duration":1,"animations":[{"type":"basic","keyPath":"opacity","toValue":0,"speed":1e-12,"repeatCount":1e6}]},"layer":"a"}]}]}"#,
            #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","toValue":0,"duration":1},"layer":"a"},{"set":{"a":{"beginTime":1e19}}}]}]}"#,
        ]
        for scene in accepted {
            let stored = try http.request("POST", "/v1/scenes", body: scene)
            #expect(stored.status == 201)
            guard case .object(let object) = try JSONParser.parse(stored.body), case .string(let id)? = object["id"]
            else { throw LiveError("no id") }
            #expect(try http.request("GET", "/v1/scenes/\(id)/frames?fps=1").status == 200)
        }
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// Findings 6 and 8: a loop that lets no time pass stops at its per-instant budget, multipliers
    /// set by the script are held to the cell limit, an emitter whose rate changes an hour in
    /// renders (its birth integral is computed once), and particles are bounded per frame
    /// before any frame is drawn.
    @Test func workIsBoundedBeforeItStarts() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let loop =
            #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","key":"k","keyPath":"opacity","toValue":0,"duration":5e-324,"onStop":[{"addAgain":"k","layer":"a"}]},"layer":"a"}]}]}"#
        let looped = try http.request("POST", "/v1/render?fps=1", body: loop, timeout: 120)
        #expect(looped.status == 422)
        #expect(looped.text.contains("without time passing"))
        let multiplier =
            #"{"layers":[{"id":"e","type":"emitter","emitterCells":[{"birthRate":10,"lifetime":1}]}],"script":[{"at":1,"do":[{"set":{"e":{"lifetime":1e6}}}]}]}"#
        let set = try http.request("POST", "/v1/render?fps=1", body: multiplier, timeout: 120)
        #expect(set.status == 422)
        #expect(Self.errorPaths(set) == ["$.script[0].do[0].set.e.lifetime"])
        let late =
            #"{"layers":[{"id":"e","type":"emitter","emitterCells":[{"birthRate":5,"lifetime":1}]}],"script":[{"at":3600,"do":[{"set":{"e":{"birthRate":2}}}]}]}"#
        let hour = try http.request("POST", "/v1/render?fps=1&format=ndjson", body: late, timeout: 120)
        #expect(hour.status == 200)
        #expect(hour.text.split(separator: "\n").count == 3_603)
        // 40 emitters of 16 cells at the per-cell cap: 3.2 million particles a frame could hold.
        let cells = Array(repeating: #"{"birthRate":5000,"lifetime":1}"#, count: 16).joined(separator: ",")
        let layers = (0..<40).map { #"{"id":"e\#($0)","type":"emitter","emitterCells":[\#(cells)]}"# }
        let heavy = #"{"layers":[\#(layers.joined(separator: ","))]}"#
        let refused = try http.request("POST", "/v1/render?fps=1&format=ndjson", body: heavy, timeout: 120)
        #expect(refused.status == 422)
        #expect(Self.errorPaths(refused) == ["query.layers"])
        #expect(refused.text.contains("3200000 particles"), "\(refused.text)")
        let one = try http.request("POST", "/v1/render?times=0.5&layers=e0", body: heavy, timeout: 120)
        #expect(one.status == 200)
        // A properties= list is checked before it is expanded: answered without the memory.
        let names = (0..<4_000).map { "p\($0)" }.joined(separator: ",")
        let long = try http.request("POST", "/v1/render?fps=1&properties=\(names)", body: heavy, timeout: 120)
        #expect(long.status == 422)
        #expect(Self.peakKiB(server) < 1_000_000)
    }

    /// Finding 7: a response's bytes are decided before its frames are written, from the size of
    /// a few frames; NDJSON streams the same render in bounded pieces.
    @Test func responseBytesAreDecidedBeforeTheWork() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let segments = (0..<60_000).map { "L\($0 % 500) \($0 / 500)" }.joined(separator: " ")
        let scene = #"{"layers":[{"id":"s","type":"shape","path":"M0 0 \#(segments)"}]}"#
        let json = try http.request("POST", "/v1/render?fps=10&end=60&properties=path", body: scene)
        #expect(json.status == 422)
        #expect(Self.errorPaths(json) == ["query.format"])
        #expect(json.text.contains("no frame was written"), "\(json.text)")
        let ndjson = try http.request("POST", "/v1/render?fps=10&end=6&properties=path&format=ndjson", body: scene)
        #expect(ndjson.status == 200)
        #expect(ndjson.text.split(separator: "\n").count == 63)
        #expect(Self.peakKiB(server) < 400_000, "peak \(Self.peakKiB(server)) KiB")
    }

    /// A JSON document larger than a few megabytes is streamed in pieces: the server's peak
    /// memory stays far below the document's size, and the bytes are those `choreo render`
    /// writes for the same scene and query.
    @Test func largeJSONDocumentsStreamInBoundedMemory() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let layers = (0..<1_000).map { #"{"id":"l\#($0)","position":[\#($0),0],"bounds":[0,0,10,10]}"# }
        let adds = (0..<1_000).map {
            #"{"layer":"l\#($0)","add":{"type":"basic","keyPath":"opacity","fromValue":0,"toValue":1,"duration":10}}"#
        }
        let scene =
            #"{"layers":[\#(layers.joined(separator: ","))],"script":[{"at":0,"do":[\#(adds.joined(separator: ","))]}]}"#
        let scratch = Scratch("choreo-large")
        let file = try scratch.write("large.json", scene)
        let before = Self.peakKiB(server)
        let response = try http.request("POST", "/v1/render?fps=60&end=10", body: scene)
        #expect(response.status == 200)
        #expect(response.headers["transfer-encoding"]?.lowercased() == "chunked")
        #expect(response.body.count > 60_000_000, "\(response.body.count) bytes")
        let peak = Self.peakKiB(server)
        #expect(
            peak < 64 * 1024, "peak \(peak) KiB (before the render: \(before) KiB) for \(response.body.count) bytes")
        let cli = try runChoreo(["render", file, "--fps", "60", "--end", "10"])
        #expect(cli.0 == 0)
        #expect(Array(cli.1.utf8) == response.body + [UInt8(ascii: "\n")])
        // The request log counts every byte the stream sent (chunk framing aside).
        var logged: String?
        for _ in 0..<100 where logged == nil {
            logged = server.drainLog().split(separator: "\n").last { $0.contains(#""path":"/v1/render""#) }.map(
                String.init)
            if logged == nil { usleep(20_000) }
        }
        #expect(logged?.contains(#""bytes":\#(response.body.count)"#) == true, "\(logged ?? "no log line")")
    }

    /// A render that held 32 MiB or more of render memory hands the heap it freed back to the
    /// system once its response is sent (`malloc_trim`), a streamed one too: its plan is let
    /// go when the stream closes, which libmicrohttpd may do after the request completes.
    /// Most of what the render took comes back; glibc keeps the free top of each thread's
    /// arena, a few MiB, which `malloc_trim` does not release (a plan still held would keep
    /// nearly all of it). 4,500 layers, so that the render's anonymous peak is well over the
    /// 16 MiB this needs (large blocks are mappings of their own, returned as they are freed).
    @Test func aLargeRenderHandsItsMemoryBack() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let scene = Self.rowOfLayers(4_500) { _ in
            [
                #"{"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 300, "duration": 10}"#,
                #"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.3, 1], "calculationMode": "cubic", "duration": 10}"#,
                #"{"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1, "duration": 10}"#,
            ]
        }
        #expect(try http.request("POST", "/v1/render?times=0", body: #"{"layers":[{"id":"a"}]}"#).status == 200)
        let before = Self.anonymousKiB(server)
        let response = try http.request("POST", "/v1/render?fps=60&end=1", body: scene, timeout: 120)
        #expect(response.status == 200 && response.headers["transfer-encoding"]?.lowercased() == "chunked")
        // The render's anonymous memory at its peak, about: the peak less the mapped files.
        let peak = Self.peakKiB(server) - Self.status(server, "RssFile")
        #expect(peak > before + 16 * 1024, "peak \(peak) KiB")
        var after = Self.anonymousKiB(server)
        for _ in 0..<40 where after - before > (peak - before) / 2 {
            usleep(50_000)
            after = Self.anonymousKiB(server)
        }
        #expect(
            after - before < (peak - before) / 2, "heap \(before) KiB before, \(after) KiB after (peak \(peak) KiB)")
    }

    /// Finding 10: the JSON responses in flight share `--max-render-memory`: one that could
    /// never fit is a 422 at once, and the memory returns once responses are sent.
    @Test func renderMemoryIsSharedAndReturned() throws {
        let server = try ServerProcess(arguments: ["--max-render-memory", "1048576"])
        let http = RawHTTP(port: server.port)
        let segments = (0..<2_000).map { "L\($0 % 500) \($0 / 500)" }.joined(separator: " ")
        let scene = #"{"layers":[{"id":"s","type":"shape","path":"M0 0 \#(segments)"}]}"#
        let big = try http.request("POST", "/v1/render?fps=10&end=10&properties=path", body: scene)
        #expect(big.status == 422)
        #expect(Self.errorPaths(big) == ["query.format"])
        for _ in 0..<3 {
            #expect(try http.request("POST", "/v1/render?fps=10&end=1&properties=path", body: scene).status == 200)
        }
        var held = ""
        for _ in 0..<50 where held != "0" {
            let metrics = try http.request("GET", "/metrics").text
            held =
                metrics.split(separator: "\n").first { $0.hasPrefix("choreo_render_memory_bytes ") }
                .map { String($0.split(separator: " ")[1]) } ?? "missing"
            if held != "0" { usleep(20_000) }
        }
        #expect(held == "0")
    }

    /// A scene's own run (its parsed document, timeline and compiled program) is held against
    /// `--max-render-memory` too, from before it is parsed until its response is sent: a
    /// document that could never run within it is a 422 naming the body, and one that does
    /// not fit beside a render in flight is a 503 with Retry-After until that render ends.
    @Test func sceneRunsAreHeldAgainstRenderMemory() throws {
        // 1,500 layers with three animations each: an estimate of about 16 MB to parse, and
        // 3 MB more for every 4,096 events as it runs.
        let scene = Self.rowOfLayers(1_500) { _ in
            [
                #"{"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 300, "duration": 10}"#,
                #"{"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 10}"#,
                #"{"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1, "duration": 10}"#,
            ]
        }
        let server = try ServerProcess(arguments: ["--max-render-memory", "30000000"])
        let http = RawHTTP(port: server.port)
        let tooSmall = try ServerProcess(arguments: ["--max-render-memory", "10000000"])
        let never = try RawHTTP(port: tooSmall.port).request("POST", "/v1/render?times=0", body: scene)
        #expect(never.status == 422 && Self.errorPaths(never) == ["body"], "\(never.text)")
        #expect(never.text.contains("--max-render-memory"))

        // A stream whose client reads nothing holds the scene's run while it waits.
        let holder = try http.start("/v1/render?format=ndjson&fps=60&end=100", body: scene)
        var first = [UInt8](repeating: 0, count: 1024)
        let received = recv(holder, &first, first.count, 0)
        #expect(
            received > 0 && String(decoding: first.prefix(max(received, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        for path in ["/v1/render?times=0", "/v1/validate", "/v1/scenes"] {
            let busy = try http.request("POST", path, body: scene)
            #expect(busy.status == 503 && busy.headers["retry-after"] == "1", "\(path): \(busy.status) \(busy.text)")
        }
        // A small scene still fits beside it.
        #expect(try http.request("POST", "/v1/render?times=0", body: #"{"layers":[{"id":"a"}]}"#).status == 200)
        close(holder)
        var after = 0
        for _ in 0..<100 where after != 200 {
            after = try http.request("POST", "/v1/render?times=0", body: scene).status
            if after != 200 { usleep(50_000) }
        }
        #expect(after == 200)
    }

    /// Finding 12: no document lists more than 100 errors, whichever decoder found them.
    @Test func errorListsAreCapped() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let standings = (0..<5_000).map { _ in #"{"name":7}"# }.joined(separator: ",")
        let preview = try http.request("POST", "/v1/arena/preview", body: #"{"standings":[\#(standings)]}"#)
        #expect(preview.status == 422)
        #expect(Self.errorPaths(preview).count <= 100)
        let times = (0..<5_000).map { "x\($0)" }.joined(separator: ",")
        let query = try http.request("POST", "/v1/render?times=\(times)", body: #"{"layers":[{"id":"a"}]}"#)
        #expect(query.status == 422)
        #expect(Self.errorPaths(query).count == 100)
        let hex = try http.request("POST", "/v1/render?fps=0x1p3", body: #"{"layers":[{"id":"a"}]}"#)
        #expect(hex.status == 422)
        #expect(Self.errorPaths(hex) == ["query.fps"])
    }
}
