import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// The real `choreo serve` binary on loopback: sockets, limits, persistence, shutdown.
@Suite(.serialized) final class LiveServerTests {
    /// Removed after each test.
    let scratch = Scratch("choreo-live")

    static let scene =
        #"{"name":"live","layers":[{"id":"a","opacity":1}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":0,"toValue":1,"duration":2},"layer":"a"}]}]}"#

    @Test func healthRenderAndErrors() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let health = try http.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.headers["x-request-id"]?.isEmpty == false)
        let render = try http.request("POST", "/v1/render?fps=10", body: Self.scene)
        #expect(render.status == 200)
        guard case .object(let object) = try JSONParser.parse(render.body), case .array(let frames)? = object["frames"]
        else { throw LiveError("bad render body") }
        #expect(frames.count == 21)
        // The CLI prints the same bytes, with a final newline for the shell.
        let file = try scratch.write("scene.json", Self.scene)
        let cli = try runChoreo(["render", file, "--fps", "10"])
        #expect(Array(cli.1.utf8) == render.body + [UInt8(ascii: "\n")])

        let ndjson = try http.request("POST", "/v1/render?fps=10&format=ndjson", body: Self.scene)
        #expect(ndjson.status == 200)
        #expect(ndjson.headers["content-type"] == "application/x-ndjson")
        let lines = ndjson.text.split(separator: "\n")
        #expect(lines.count == 23)
        #expect(lines.first?.hasPrefix("{\"duration\":2") == true)
        #expect(lines.last?.hasPrefix("{\"events\":") == true)

        #expect(try http.request("POST", "/v1/render", body: "{\"layers\": [").status == 400)
        #expect(try http.request("GET", "/missing").status == 404)
        let wrongMethod = try http.request("DELETE", "/v1/render")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "POST")
        #expect(try http.request("POST", "/v1/render", body: "{}", contentType: "text/plain").status == 415)
        let invalid = try http.request("POST", "/v1/render", body: #"{"layers":[{"id":"a","opacity":"x"}]}"#)
        #expect(invalid.status == 422)
        #expect(invalid.headers["content-type"] == "application/problem+json")
        #expect(invalid.text.contains("$.layers[0].opacity"))
        let log = server.drainLog()
        #expect(!log.contains("layers"))  // bodies are never logged
    }

    /// A body announced larger than the limit is refused on the first callback, before upload.
    @Test func oversizedBodyIsRefusedFromContentLength() throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "4096"])
        let http = RawHTTP(port: server.port)
        let fd = try http.connect()
        defer { close(fd) }
        RawHTTP.send(
            fd,
            Array(
                "POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n"
                    .utf8))
        let response = try RawHTTP.parse(RawHTTP.readAll(fd))
        #expect(response.status == 413)
        #expect(response.text.contains("body-too-large"))
        // Still serving.
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// A request whose headers never finish is closed by the connection timeout.
    @Test func stalledRequestIsClosedByTimeout() throws {
        let server = try ServerProcess(arguments: ["--connection-timeout", "2"])
        let fd = try RawHTTP(port: server.port).connect(timeout: 10)
        defer { close(fd) }
        RawHTTP.send(fd, Array("POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Le".utf8))
        let start = Date()
        let received = RawHTTP.readAll(fd)
        let elapsed = Date().timeIntervalSince(start)
        #expect(received.isEmpty)
        #expect(elapsed >= 1.5 && elapsed < 9, "closed after \(elapsed) s")
    }

    /// Sends `bytes` one at a time, `interval` seconds apart, until the server closes the
    /// connection or `limit` seconds pass; returns the seconds until it closed, or nil.
    static func trickle(_ fd: Int32, _ bytes: [UInt8], interval: Double, limit: Double) -> Double? {
        let start = Date()
        var index = 0
        var probe = [UInt8](repeating: 0, count: 4096)
        while Date().timeIntervalSince(start) < limit {
            let byte = bytes[index % bytes.count]
            index += 1
            if withUnsafePointer(to: byte, { send(fd, $0, 1, Int32(MSG_NOSIGNAL)) }) < 0 {
                return Date().timeIntervalSince(start)
            }
            let received = recv(fd, &probe, probe.count, Int32(MSG_DONTWAIT))
            if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                return Date().timeIntervalSince(start)
            }
            usleep(UInt32(interval * 1_000_000))
        }
        return nil
    }

    /// Slowloris: a head trickled a byte at a time is cut at the head deadline, though each
    /// byte resets the idle timeout; a body trickled below the minimum rate is cut too; an
    /// endless chunked body past the limit is cut; a healthy client is still answered.
    @Test func slowClientsAreDisconnected() throws {
        let server = try ServerProcess(arguments: ["--head-timeout", "1", "--max-body-bytes", "4096"])
        let http = RawHTTP(port: server.port)
        let head = try http.connect(timeout: 10)
        defer { close(head) }
        let headClosed = Self.trickle(
            head, Array("GET /healthz HTTP/1.1\r\nX-Slow: abcdefgh".utf8), interval: 0.1, limit: 8)
        #expect(headClosed != nil, "a trickled head was never cut")
        let body = try http.connect(timeout: 10)
        defer { close(body) }
        RawHTTP.send(
            body,
            Array(
                "POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
                    .utf8))
        let bodyClosed = Self.trickle(body, Array("{".utf8), interval: 0.1, limit: 8)
        #expect(bodyClosed != nil, "a trickled body was never cut")
        let chunked = try http.connect(timeout: 10)
        defer { close(chunked) }
        RawHTTP.send(
            chunked,
            Array(
                "POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .utf8))
        let chunk = Array("400\r\n".utf8) + [UInt8](repeating: 32, count: 1024) + Array("\r\n".utf8)
        var cut = false
        for _ in 0..<64 where !cut {
            cut = chunk.withUnsafeBytes { send(chunked, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } < 0
            if !cut { usleep(5_000) }
        }
        #expect(cut, "an endless chunked body was never cut")
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// Bodies in flight share one memory budget: two 1 MiB uploads under way fill a 2 MiB budget,
    /// a third is told 503 with Retry-After, and the budget is back when they end.
    @Test func requestBodiesShareAMemoryBudget() throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "1048576", "--max-body-memory", "2097152"])
        let http = RawHTTP(port: server.port)
        let head =
            "POST /v1/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"
        var uploads: [Int32] = []
        defer { for fd in uploads { close(fd) } }
        for _ in 0..<2 {
            let fd = try http.connect()
            uploads.append(fd)
            RawHTTP.send(fd, Array(head.utf8))
        }
        usleep(300_000)
        let third = try http.connect()
        defer { close(third) }
        RawHTTP.send(third, Array(head.utf8))
        let refused = try RawHTTP.parse(RawHTTP.readAll(third))
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        for fd in uploads { close(fd) }
        uploads = []
        var status = 0
        for _ in 0..<50 where status != 201 {
            usleep(100_000)
            status = try http.request("POST", "/v1/scenes", body: #"{"layers":[{"id":"a"}]}"#).status
        }
        #expect(status == 201)
    }

    /// One client address holds at most --max-connections-per-client connections at once.
    @Test func connectionsPerClientAreCapped() throws {
        let server = try ServerProcess(arguments: ["--max-connections-per-client", "3"])
        let http = RawHTTP(port: server.port)
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<3 { held.append(try http.connect(timeout: 5)) }
        usleep(200_000)
        let extra = try http.connect(timeout: 5)
        defer { close(extra) }
        RawHTTP.send(extra, Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(RawHTTP.readAll(extra).isEmpty)
        for fd in held { close(fd) }
        held = []
        // The server counts a connection until it has seen it close: bounded retries.
        var status = 0
        for _ in 0..<50 where status != 200 {
            usleep(100_000)
            status = (try? http.request("GET", "/healthz").status) ?? 0
        }
        #expect(status == 200)
    }

    /// Admission control: with one render worker and one place in the queue, a third request
    /// that runs a scene is refused at once (503, Retry-After) while two heavy ones run and
    /// wait; storage reads and health checks are answered meanwhile.
    @Test func rendersBeyondTheQueueAreRefused() throws {
        let server = try ServerProcess(arguments: ["--render-workers", "1", "--render-queue", "1"])
        let http = RawHTTP(port: server.port)
        let stored = try http.request("POST", "/v1/scenes", body: #"{"layers":[{"id":"a"}]}"#)
        #expect(stored.status == 201)
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        // One at a time: the first running, then the second waiting (bounded polls).
        for expected in ["choreo_renders_running 1\n", "choreo_renders_waiting 1\n"] {
            held.append(try http.start("/v1/render?fps=10", body: RawHTTP.slowScene))
            var metrics = ""
            for _ in 0..<100 where !metrics.contains(expected) {
                usleep(50_000)
                metrics = try http.request("GET", "/metrics").text
            }
            #expect(metrics.contains(expected), "\(metrics.split(separator: "\n").filter { $0.hasPrefix("choreo_") })")
        }
        let refused = try http.request("POST", "/v1/render?times=0.5", body: #"{"layers":[{"id":"a"}]}"#)
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.text.contains("/problems/unavailable"))
        #expect(try http.request("GET", "/metrics").text.contains("choreo_renders_refused_total 1\n"))
        #expect(try http.request("GET", "/v1/scenes").status == 200)
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// A client that hangs up cancels its render: the render worker is free again within a
    /// fraction of a second, and the log says 499.
    @Test func disconnectingCancelsTheRender() throws {
        let server = try ServerProcess(arguments: ["--render-workers", "1"])
        let http = RawHTTP(port: server.port)
        let fd = try http.start("/v1/render?fps=10", body: RawHTTP.slowScene)
        func running() throws -> Bool {
            try http.request("GET", "/metrics").text.contains("choreo_renders_running 1\n")
        }
        var started = false
        for _ in 0..<100 where !started {
            usleep(50_000)
            started = try running()
        }
        #expect(started)
        usleep(300_000)
        close(fd)
        // Noticed within a quarter second; the frame then being drawn (an hour of emitter
        // integral in a debug build on a loaded machine) finishes first. The whole render
        // would take minutes.
        var stillRunning = true
        for _ in 0..<200 where stillRunning {
            usleep(50_000)
            stillRunning = try running()
        }
        #expect(!stillRunning, "the render kept running after its client left")
        #expect(try http.request("POST", "/v1/render?times=0.5", body: #"{"layers":[{"id":"a"}]}"#).status == 200)
        var log = server.drainLog()
        for _ in 0..<50 where !log.contains("\"status\":499") {
            usleep(20_000)
            log = server.drainLog()
        }
        #expect(log.contains("\"status\":499"))
    }

    @Test func tokenProtectsStateChanges() throws {
        let server = try ServerProcess(environment: ["CHOREO_API_TOKEN": "live-token"])
        let http = RawHTTP(port: server.port)
        #expect(try http.request("POST", "/v1/scenes", body: Self.scene).status == 401)
        #expect(try http.request("POST", "/v1/render", body: Self.scene).status == 200)
        let stored = try http.request(
            "POST", "/v1/scenes", body: Self.scene, headers: ["Authorization": "Bearer live-token"])
        #expect(stored.status == 201)
        #expect(!server.drainLog().contains("live-token"))
        // A client that waits for 100 Continue is refused from the head: 401 first, no body read.
        let waiting = try http.connect(timeout: 60)
        defer { close(waiting) }
        RawHTTP.send(
            waiting,
            Array(
                "POST /v1/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n"
                    .utf8))
        let (answer, answered) = RawHTTP.awaitEvent(waiting, "\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answered): \(answer)")
        // Two different Content-Length headers: 400, whichever a proxy would have believed.
        let smuggled = try http.connect(timeout: 60)
        defer { close(smuggled) }
        RawHTTP.send(
            smuggled,
            Array(
                "POST /v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}"
                    .utf8))
        let (refused, answeredRefused) = RawHTTP.awaitEvent(smuggled, "bad-request-head")
        #expect(
            refused.hasPrefix("HTTP/1.1 400") && refused.contains("bad-request-head"), "\(answeredRefused): \(refused)")
    }

    /// A scene acknowledged with 201 survives kill -9 and a restart.
    @Test func storedSceneSurvivesKill9() throws {
        let data = scratch.file("data")
        var ids: [String] = []
        do {
            let server = try ServerProcess(data: data)
            let http = RawHTTP(port: server.port)
            for _ in 0..<3 {
                let created = try http.request("POST", "/v1/scenes", body: Self.scene)
                #expect(created.status == 201)
                guard case .object(let object) = try JSONParser.parse(created.body),
                    case .string(let id)? = object["id"]
                else { throw LiveError("no id") }
                ids.append(id)
            }
            server.signal(SIGKILL)
            _ = server.waitForExit()
        }
        let restarted = try ServerProcess(data: data)
        let http = RawHTTP(port: restarted.port)
        for id in ids {
            let fetched = try http.request("GET", "/v1/scenes/\(id)")
            #expect(fetched.status == 200)
            #expect(fetched.text == Self.scene)
        }
        let frames = try http.request("GET", "/v1/scenes/\(ids[0])/frames?times=1")
        #expect(frames.status == 200)
        #expect(frames.text.contains("\"opacity\":0.5"))
    }

    /// A session input acknowledged with 200 survives kill -9; the restarted server replays the
    /// session and its frames are the render of the scene with the inputs appended.
    @Test func sessionSurvivesKill9() throws {
        let data = scratch.file("sessions")
        let scene = #"{"layers": [{"id": "card", "position": [0, 0]}]}"#
        let inputs = [
            #"{"at": 0, "do": [{"propertyAnimator": {"id": "sheet", "duration": 1, "curve": "linear", "changes": {"card": {"position": [100, 0]}}}}]}"#,
            #"{"at": 0.2, "do": [{"fractionComplete": 0.5, "animator": "sheet"}]}"#,
            #"{"at": 0.4, "do": [{"startAnimation": {}, "animator": "sheet"}]}"#,
        ]
        var id = ""
        do {
            let server = try ServerProcess(data: data)
            let http = RawHTTP(port: server.port)
            let created = try http.request("POST", "/v1/sessions", body: scene)
            #expect(created.status == 201)
            guard case .object(let object) = try JSONParser.parse(created.body), case .string(let given)? = object["id"]
            else { throw LiveError("no id") }
            id = given
            for input in inputs {
                #expect(try http.request("POST", "/v1/sessions/\(id)/inputs", body: input).status == 200)
            }
            server.signal(SIGKILL)
            _ = server.waitForExit()
        }
        let restarted = try ServerProcess(data: data)
        let http = RawHTTP(port: restarted.port)
        let frames = try http.request("GET", "/v1/sessions/\(id)/frames?fps=10")
        #expect(frames.status == 200)
        let whole =
            #"{"layers": [{"id": "card", "position": [0, 0]}], "script": ["# + inputs.joined(separator: ",") + "]}"
        #expect(frames.body == (try http.request("POST", "/v1/render?fps=10", body: whole)).body)
        // The session goes on where it was.
        let next = try http.request(
            "POST", "/v1/sessions/\(id)/inputs", body: #"{"at": 0.5, "do": []}"#, headers: ["If-Match": "\"3\""])
        #expect(next.status == 200)
        #expect(next.text.contains("\"inputs\":4"))
    }

    @Test func sigtermStopsGracefully() throws {
        let server = try ServerProcess()
        #expect(try RawHTTP(port: server.port).request("GET", "/healthz").status == 200)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    @Test func cliErrorsAndHelp() throws {
        func run(_ arguments: [String]) throws -> (Int32, String, String) { try runChoreo(arguments) }
        #expect(try run(["--version"]).1.hasPrefix("choreo "))
        #expect(try run(["render", "--help"]).1.contains("Usage: choreo render"))
        let missing = try run(["render", "/no/such/file.json"])
        #expect(missing.0 != 0)
        #expect(missing.2.hasPrefix("error: cannot read"))
        let unknown = try run(["frobnicate"])
        #expect(unknown.0 == 2)
        let file = try scratch.write("bad.json", #"{"layers":[{"id":"a","opacity":2,"bogus":1}]}"#)
        let invalid = try run(["validate", file])
        #expect(invalid.0 == 1)
        #expect(invalid.1.contains("\"valid\":false"))
        #expect(invalid.1.contains("$.layers[0].bogus"))
    }
}

/// Robustness of the live server: interrupted streams, SIGINT, numbers beyond a double.
@Suite(.serialized) struct LiveRobustnessTests {
    /// A client that hangs up in the middle of an NDJSON stream leaves the server healthy.
    @Test func clientDisconnectingMidStream() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let scene =
            #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":0,"toValue":1,"duration":600},"layer":"a"}]}]}"#
        for _ in 0..<5 {
            let fd = try http.start("/v1/render?fps=100&format=ndjson", body: scene)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let received = recv(fd, &buffer, buffer.count, 0)
            #expect(received > 0)
            close(fd)
        }
        for _ in 0..<20 {
            #expect(try http.request("GET", "/healthz").status == 200)
        }
        let metrics = try http.request("GET", "/metrics")
        #expect(metrics.text.contains("choreo_http_requests_in_flight"))
        server.signal(SIGINT)
        #expect(server.waitForExit() == 0)
    }

    /// SIGTERM with a request still running at the shutdown deadline exits 0 (it used to abort:
    /// libmicrohttpd cannot stop with a suspended connection) and logs what it abandoned.
    @Test func sigtermWithARunningRenderExitsZero() throws {
        let server = try ServerProcess(arguments: ["--shutdown-timeout", "0"])
        let http = RawHTTP(port: server.port)
        let fd = try http.start("/v1/render?fps=10", body: RawHTTP.slowScene)
        defer { close(fd) }
        // Bounded wait until the server reports the render in flight.
        var running = false
        for _ in 0..<100 where !running {
            let metrics = try http.request("GET", "/metrics").text
            running = metrics.contains("choreo_http_requests_in_flight 2")
            if !running { usleep(50_000) }
        }
        #expect(running)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        var log = server.drainLog()
        for _ in 0..<100 where !log.contains("\"stopped\"") {
            usleep(20_000)
            log = server.drainLog()
        }
        #expect(log.contains("\"event\":\"stopped\",\"abandoned\":1"), "\(log)")
    }

    /// An encoded NUL neither truncates a path nor a query value: 400, and nothing is deleted.
    @Test func encodedNULIsRefused() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let stored = try http.request("POST", "/v1/scenes", body: #"{"layers":[{"id":"a"}]}"#)
        #expect(stored.status == 201)
        guard case .object(let object) = try JSONParser.parse(stored.body), case .string(let id)? = object["id"]
        else { throw LiveError("no id") }
        let deleted = try http.request("DELETE", "/v1/scenes/\(id)%00junk")
        #expect(deleted.status == 400)
        #expect(deleted.text.contains("/problems/bad-request-target") && deleted.text.contains("\"path\""))
        #expect(try http.request("GET", "/v1/scenes/\(id)").status == 200)
        let query = try http.request("GET", "/v1/scenes/\(id)/frames?fps=1%00junk")
        #expect(query.status == 400)
        #expect(query.text.contains("query.fps"))
        #expect(try http.request("GET", "/v1/scenes/\(id)/frames?fps=1").status == 200)
        // An encoded slash stays inside its segment: /v1/scenes/ID%2Fframes is no scene (404),
        // not the frames of ID; in a query value it is a slash.
        let slashed = try http.request("GET", "/v1/scenes/\(id)%2Fframes")
        #expect(slashed.status == 404, "\(slashed.status) \(slashed.text)")
        let layers = try http.request("GET", "/v1/scenes/\(id)/frames?fps=1&layers=a%2Fb")
        #expect(layers.status == 422 && layers.text.contains("a/b"), "\(layers.text)")
    }

    /// Another process holding the database's write lock: `/healthz` says 503 after a bounded
    /// wait instead of freezing the server, `/metrics` answers meanwhile, and health returns
    /// once the lock is released.
    @Test func writeLockHeldByAnotherProcess() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        #expect(try http.request("GET", "/healthz").status == 200)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); sys.stdin.read()",
            server.data + "/choreo.sqlite",
        ]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        var locked: RawHTTP.Response?
        for _ in 0..<50 where locked == nil {
            let health = try http.request("GET", "/healthz")
            if health.status == 503 { locked = health } else { usleep(100_000) }
        }
        #expect(locked?.text.contains("locked") == true, "\(locked?.text ?? "never 503")")
        #expect(try http.request("GET", "/metrics").status == 200)
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// The data directory deleted under a running server: 503 from `/healthz` and from a store,
    /// never a 201 for a scene that would be gone after a restart.
    @Test func deletedDataDirectoryFailsHealthAndWrites() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        #expect(try http.request("POST", "/v1/scenes", body: #"{"layers":[{"id":"a"}]}"#).status == 201)
        try FileManager.default.removeItem(atPath: server.data)
        let health = try http.request("GET", "/healthz")
        #expect(health.status == 503)
        #expect(health.text.contains("is gone"))
        #expect(try http.request("POST", "/v1/scenes", body: #"{"layers":[{"id":"a"}]}"#).status == 503)
    }

    @Test func numbersBeyondADoubleAreUnprocessable() throws {
        let server = try ServerProcess()
        let response = try RawHTTP(port: server.port).request(
            "POST", "/v1/render", body: #"{"layers":[{"id":"a","opacity":1e400}]}"#)
        #expect(response.status == 422)
        #expect(response.text.contains("$.layers[0].opacity"))
    }
}
