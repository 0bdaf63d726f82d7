import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// `choreo serve --arena` against real targets: status, rounds, events, metrics, configuration,
/// and the history back after a restart.
@Suite(.serialized) final class ArenaLiveTests {
    /// Removed after each test: configuration files and data directories.
    let scratch = Scratch("choreo-arena")

    static func configuration(_ nodes: [(String, UInt16)], interval: Double = 0.3) -> String {
        let list = nodes.map { #"{"name": "\#($0.0)", "url": "http://127.0.0.1:\#($0.1)/health", "ip": "10.0.0.1"}"# }
        return """
            {"nodes": [\(list.joined(separator: ", "))],
             "probe": {"interval": \(interval), "timeout": \(interval * 0.8), "failureThreshold": 2, "successThreshold": 2},
             "round": {"stagger": 0.3}}
            """
    }

    static func object(_ response: RawHTTP.Response) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(response.body) else { throw LiveError("not an object") }
        return object
    }

    /// Polls GET /v1/arena (bounded) until every named node has the status.
    static func waitFor(_ http: RawHTTP, _ expected: [String: String], timeout: Double = 10) throws -> JSONObject {
        let deadline = Date().addingTimeInterval(timeout)
        var last = JSONObject()
        repeat {
            last = try object(try http.request("GET", "/v1/arena"))
            if case .array(let nodes)? = last["nodes"] {
                var statuses: [String: String] = [:]
                for case .object(let node) in nodes {
                    if case .string(let name)? = node["name"], case .string(let status)? = node["status"] {
                        statuses[name] = status
                    }
                }
                if expected.allSatisfy({ statuses[$0.key] == $0.value }) { return last }
            }
            usleep(100_000)
        } while Date() < deadline
        throw LiveError("statuses not reached: \(last)")
    }

    func write(_ text: String) throws -> String {
        try scratch.write("arena-\(UUID().uuidString).json", text)
    }

    /// The open event streams the server reports in `/metrics`.
    static func eventStreams(_ http: RawHTTP) throws -> Int? {
        let text = try http.request("GET", "/metrics").text
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("choreo_arena_event_streams ") })
        else { return nil }
        return Int(line.split(separator: " ").last ?? "")
    }

    /// 64 idle event streams hold no worker (a render is answered while they are open), and
    /// their slots are freed when their clients hang up: a new subscriber is accepted again.
    @Test func idleEventStreamsStarveNothingAndFreeTheirSlots() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        var streams: [Int32] = []
        defer { for fd in streams { close(fd) } }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<64 {
            let fd = try http.connect(timeout: 5)
            streams.append(fd)
            RawHTTP.send(fd, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(recv(fd, &buffer, buffer.count, 0) > 0)
        }
        #expect(try Self.eventStreams(http) == 64)
        #expect(try http.request("GET", "/v1/arena/events").status == 503)
        let render = try http.request("POST", "/v1/render?times=0.5", body: #"{"layers":[{"id":"a"}]}"#)
        #expect(render.status == 200)
        for fd in streams { close(fd) }
        streams = []
        // Noticed at the next keep-alive (15 s): bounded wait.
        let deadline = Date().addingTimeInterval(25)
        var open = try Self.eventStreams(http)
        while open != 0 && Date() < deadline {
            usleep(250_000)
            open = try Self.eventStreams(http)
        }
        #expect(open == 0)
        let fd = try http.connect(timeout: 5)
        defer { close(fd) }
        RawHTTP.send(fd, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let n = recv(fd, &buffer, buffer.count, 0)
        #expect(n > 0 && String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    @Test func statusRoundsEventsAndMetrics() throws {
        let alpha = try ServerProcess.target(["--latency", "5ms"])
        let beta = try ServerProcess.target(["--status", "503"])
        let file = try write(Self.configuration([("alpha", alpha.port), ("beta", beta.port)]))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        let status = try Self.waitFor(http, ["alpha": "up", "beta": "down"])
        guard case .array(let nodes)? = status["nodes"], case .object(let b)? = nodes.last else {
            Issue.record("no nodes")
            return
        }
        #expect(b["reason"] == .string("status 503"))
        #expect(status["round"] == .null)
        let text = try http.request("GET", "/v1/arena?format=text")
        #expect(text.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(text.text.contains("beta") && text.text.contains("status 503") && text.text.contains("no round yet"))

        // Subscribe before the round starts, then start it: 201, then 409 while it runs.
        let events = try http.connect(timeout: 60)
        defer { close(events) }
        RawHTTP.send(events, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        // Subscribed (its snapshot read) before the round starts.
        let subscribed = RawHTTP.awaitEvent(events, "data: {\"nodes\":")
        #expect(subscribed.awaited.happened, "\(subscribed.awaited)")
        let started = try http.request("POST", "/v1/arena/rounds", body: "{}")
        #expect(started.status == 201)
        let round = try Self.object(started)
        #expect(round["order"] == .array([.string("beta"), .string("alpha")]))
        #expect(round["champion"] == .string("alpha"))
        #expect(try http.request("POST", "/v1/arena/rounds", body: "{}").status == 409)
        let (rest, awaited) = RawHTTP.awaitEvent(events, "battleAnimation")
        #expect(awaited.happened, "\(awaited)")
        let received = subscribed.stream + rest
        #expect(received.contains("text/event-stream"))
        #expect(received.contains("event: round"))
        #expect(received.contains("\"battleAnimation\""))

        // The round's scene and frames, and the nodes' visual state in it.
        let scene = try http.request("GET", "/v1/arena/rounds/current/scene")
        #expect(scene.status == 200 && scene.text.contains("\"battleAnimation\""))
        let frames = try http.request("GET", "/v1/arena/rounds/current/frames?times=0.1&layers=beta")
        #expect(frames.status == 200 && frames.text.contains("\"beta\""))
        let during = try Self.object(try http.request("GET", "/v1/arena"))
        guard case .object(let current)? = during["round"] else {
            Issue.record("no round")
            return
        }
        #expect(current["champion"] == .string("alpha"))
        let metrics = try http.request("GET", "/metrics").text
        #expect(metrics.contains(#"choreo_arena_node_up{node="alpha"} 1"#))
        #expect(metrics.contains(#"choreo_arena_node_status{node="beta"} 0"#))
        #expect(metrics.contains(#"choreo_arena_probes_total{node="beta",result="failed"}"#))
        #expect(metrics.contains("choreo_arena_rounds_total 1"))
        #expect(metrics.contains(#"choreo_arena_probe_duration_seconds_count{node="alpha"}"#))
        #expect(metrics.contains(#"choreo_http_requests_total{route="/v1/arena/rounds",status="409"} 1"#))
        // The event stream is still open: stopping ends it instead of waiting for it.
        let stopping = Date()
        server.signal(SIGTERM)
        #expect(server.waitForExit(timeout: 10) == 0)
        #expect(Date().timeIntervalSince(stopping) < 5)
    }

    /// Every event has an id; `max` ends a stream; a client that reconnects with
    /// `Last-Event-ID` gets the events it missed, in order, instead of a new snapshot; an id of
    /// another stream gets the snapshot.
    @Test func eventsHaveIdsAndResume() throws {
        let alpha = try ServerProcess.target()
        let file = try write(Self.configuration([("alpha", alpha.port)]))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try Self.waitFor(http, ["alpha": "up"])
        // max=1: the snapshot alone, then the stream ends.
        let one = try http.connect(timeout: 10)
        defer { close(one) }
        RawHTTP.send(
            one, Array("GET /v1/arena/events?max=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let only = String(decoding: RawHTTP.readAll(one), as: UTF8.self)
        #expect(only.contains("event: snapshot\nid: ") && only.contains("data: {\"nodes\":"), "\(only)")
        #expect(try http.request("GET", "/v1/arena/events?max=0").status == 422)
        // A round's first events, then the rest after reconnecting with the last id read.
        let first = try http.connect(timeout: 10)
        defer { close(first) }
        RawHTTP.send(
            first, Array("GET /v1/arena/events?max=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        _ = RawHTTP.read(first, until: "data: {\"nodes\":", seconds: 10)
        #expect(try http.request("POST", "/v1/arena/rounds", body: "{}").status == 201)
        let head = String(decoding: RawHTTP.readAll(first), as: UTF8.self)
        let ids = Self.eventIDs(head)
        #expect(ids.count == 2, "\(head)")
        guard let last = ids.last, let dash = last.lastIndex(of: "-"),
            let number = Int(last[last.index(after: dash)...])
        else {
            Issue.record("no id in \(head)")
            return
        }
        let resumed = try http.connect(timeout: 10)
        defer { close(resumed) }
        RawHTTP.send(
            resumed,
            Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: \(last)\r\n\r\n".utf8))
        let rest = RawHTTP.read(resumed, until: #""phase":"finished""#, seconds: 20)
        #expect(!rest.contains("event: snapshot"), "\(rest)")
        let stream = last[..<dash]
        let numbers = Self.eventIDs(rest).compactMap { id -> Int? in
            guard let dash = id.lastIndex(of: "-"), id[..<dash] == stream else { return nil }
            return Int(id[id.index(after: dash)...])
        }
        #expect(numbers.first == number + 1 && numbers == Array(numbers.indices.map { number + 1 + $0 }), "\(rest)")
        #expect(rest.contains(#""phase":"finished""#))
        // An id this server never gave: the snapshot again.
        let other = try http.connect(timeout: 10)
        defer { close(other) }
        RawHTTP.send(
            other,
            Array(
                "GET /v1/arena/events?max=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 0-5\r\nConnection: close\r\n\r\n"
                    .utf8))
        #expect(String(decoding: RawHTTP.readAll(other), as: UTF8.self).contains("event: snapshot"))
    }

    /// The `id:` lines of an event stream, in order.
    static func eventIDs(_ stream: String) -> [Substring] {
        stream.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { $0.dropFirst(4) }
    }

    /// A new subscriber gets the whole status first; a round's end is announced; between rounds
    /// every node's state follows its health, a down node shows no latency, and
    /// `/v1/arena/nodes/{name}` is a health check (200 up, 503 otherwise); per-node metrics.
    @Test func betweenRoundsHealthChecksAndNodeMetrics() throws {
        let alpha = try ServerProcess.target(["--latency", "5ms"])
        let beta = try ServerProcess.target()
        let file = try write(Self.configuration([("alpha", alpha.port), ("beta", beta.port)]))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try Self.waitFor(http, ["alpha": "up", "beta": "up"])
        let events = try http.connect(timeout: 10)
        defer { close(events) }
        RawHTTP.send(events, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        // Subscribed (its snapshot read) before the round starts, or the round's start may
        // come before the subscription and only the snapshot would show it.
        let subscribed = RawHTTP.read(events, until: "data: {\"nodes\":", seconds: 10)
        #expect(try http.request("POST", "/v1/arena/rounds", body: "{}").status == 201)
        // beta goes down after the round has started: the champion may be either; what
        // matters is what each shows once the round is over.
        _ = try RawHTTP(port: beta.port).request("POST", "/control", body: #"{"status": 503}"#)
        _ = try Self.waitFor(http, ["alpha": "up", "beta": "down"])
        let received = subscribed + RawHTTP.read(events, until: #""phase":"finished""#, seconds: 20)
        let snapshot = received.range(of: "event: snapshot\n")
        let started = received.range(of: #""phase":"started""#)
        #expect(snapshot != nil && started != nil && snapshot!.lowerBound < started!.lowerBound)
        #expect(received.contains(#""phase":"finished""#))
        // Finished is the round's last event: nothing of the round comes after it (the round's
        // last events come at its very end, with it).
        let after = RawHTTP.read(events, until: "\"events\":", seconds: 1.5)
        #expect(!after.contains("\"events\":"), "round events after finished: \(after)")

        let status = try Self.object(try http.request("GET", "/v1/arena"))
        guard case .array(let nodes)? = status["nodes"], case .object(let round)? = status["round"] else {
            Issue.record("no nodes or round")
            return
        }
        #expect(round["phase"] == .string("finished"))
        for case .object(let node) in nodes {
            guard case .object(let visual)? = node["visual"] else { continue }
            if node["name"] == .string("beta") {
                #expect(visual["state"] == .string("offline"))
                #expect(node["latencyMs"] == .null && node["medianLatencyMs"] == .null)
            } else {
                #expect(visual["state"] == .string("idle"))
                #expect(node["latencyMs"] != .null)
            }
        }
        #expect(
            !(try http.request("GET", "/v1/arena?format=text").text.split(separator: "\n")
                .first { $0.hasPrefix("beta") }.map { $0.contains(" ms") } ?? true))
        let up = try http.request("GET", "/v1/arena/nodes/alpha")
        let upNode = try Self.object(up)
        #expect(up.status == 200 && upNode["status"] == .string("up"))
        let down = try http.request("GET", "/v1/arena/nodes/beta")
        let downNode = try Self.object(down)
        #expect(down.status == 503 && downNode["status"] == .string("down"))
        #expect(try http.request("GET", "/v1/arena/nodes/gamma").status == 404)
        let metrics = try http.request("GET", "/metrics").text
        #expect(metrics.contains(#"choreo_arena_node_latency_seconds{node="alpha"}"#))
        #expect(!metrics.contains(#"choreo_arena_node_latency_seconds{node="beta"}"#))
        #expect(metrics.contains(#"choreo_arena_node_last_check_timestamp_seconds{node="beta"}"#))
        #expect(metrics.contains(#"choreo_arena_probe_duration_seconds_bucket{node="beta",le="+Inf"}"#))
    }

    @Test func configurationIsValidatedProtectedAndKeptAcrossRestarts() throws {
        let alpha = try ServerProcess.target()
        let data = scratch.file("data")
        let file = try write(Self.configuration([("alpha", alpha.port)]))
        var server: ServerProcess? = try ServerProcess(
            data: data, arguments: ["--arena", file], environment: ["CHOREO_API_TOKEN": "s3cret"])
        var http = RawHTTP(port: server!.port)
        _ = try Self.waitFor(http, ["alpha": "up"])
        // HEAD is answered where Allow lists it.
        let head = try http.request("HEAD", "/v1/arena")
        #expect(head.status == 200 && head.body.isEmpty)
        let bad = #"{"nodes": [{"name": "x", "url": "file:///etc/passwd"}], "probe": {"interval": 1, "timeout": 2}}"#
        #expect(try http.request("PUT", "/v1/arena/config", body: bad).status == 401)
        let rejected = try http.request(
            "PUT", "/v1/arena/config", body: bad, headers: ["Authorization": "Bearer s3cret"])
        #expect(rejected.status == 422)
        #expect(rejected.text.contains("$.nodes[0].url") && rejected.text.contains("$.probe.timeout"))
        // A second node, applied without a restart.
        let beta = try ServerProcess.target()
        let updated = Self.configuration([("alpha", alpha.port), ("beta", beta.port)])
        let accepted = try http.request(
            "PUT", "/v1/arena/config", body: updated, headers: ["Authorization": "Bearer s3cret"])
        #expect(accepted.status == 200)
        _ = try Self.waitFor(http, ["alpha": "up", "beta": "up"])
        usleep(1_500_000)  // the history is written once a second
        let before = try Self.object(try http.request("GET", "/v1/arena"))
        guard case .array(let nodesBefore)? = before["nodes"], case .object(let alphaBefore)? = nodesBefore.first,
            case .number(let probesBefore)? = alphaBefore["probes"]
        else {
            Issue.record("no probes")
            return
        }
        server!.signal(SIGTERM)
        #expect(server!.waitForExit() == 0)
        server = nil
        // Restarted without --arena: the stored configuration and the history come back.
        server = try ServerProcess(data: data, environment: ["CHOREO_API_TOKEN": "s3cret"])
        http = RawHTTP(port: server!.port)
        let config = try Self.object(try http.request("GET", "/v1/arena/config"))
        guard case .array(let configured)? = config["nodes"] else {
            Issue.record("no nodes")
            return
        }
        #expect(configured.count == 2)
        let after = try Self.object(try http.request("GET", "/v1/arena"))
        guard case .array(let nodesAfter)? = after["nodes"], case .object(let alphaAfter)? = nodesAfter.first,
            case .number(let probesAfter)? = alphaAfter["probes"]
        else {
            Issue.record("no probes")
            return
        }
        #expect(probesAfter >= probesBefore - 2)
        let history = try Self.object(try http.request("GET", "/v1/arena/nodes/alpha/history"))
        guard case .array(let probes)? = history["probes"] else {
            Issue.record("no history")
            return
        }
        #expect(Double(probes.count) >= probesBefore - 2)
        #expect(try http.request("GET", "/v1/arena/nodes/nobody/history").status == 404)
        // since and limit: the newest N without since; the first N at or after since.
        func times(_ target: String) throws -> [Double] {
            guard case .array(let list)? = try Self.object(try http.request("GET", target))["probes"] else { return [] }
            return list.compactMap {
                if case .object(let probe) = $0, case .number(let t)? = probe["time"] { t } else { nil }
            }
        }
        // The prober goes on probing meanwhile: a probe may land between two reads.
        let newest = try times("/v1/arena/nodes/alpha/history?limit=2")
        let all = try times("/v1/arena/nodes/alpha/history")
        #expect(all.count >= 3)
        #expect(newest == Array(all.suffix(2)) || newest == Array(all.dropLast().suffix(2)), "\(newest) of \(all)")
        let middle = all[all.count / 2]
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let since = stamp.string(from: Date(timeIntervalSince1970: middle))
        let atOrAfter = try times("/v1/arena/nodes/alpha/history?since=\(since)")
        let expected = all.filter { $0 >= middle }
        #expect(
            Array(atOrAfter.prefix(expected.count)) == expected && atOrAfter.allSatisfy { $0 >= middle }
                && atOrAfter.count <= expected.count + 1, "\(since)")
        #expect(try times("/v1/arena/nodes/alpha/history?since=\(since)&limit=1") == [middle])
        #expect(try http.request("GET", "/v1/arena/nodes/alpha/history?since=yesterday").status == 422)
        #expect(try http.request("GET", "/v1/arena/nodes/alpha/history?limit=0").status == 422)
        // Badges ignore shields' parameters.
        #expect(try http.request("GET", "/v1/arena/nodes/alpha/badge.svg?style=flat-square&label=db").status == 200)
        #expect(probesAfter > 0)
        #expect(alphaAfter["status"] == .string("up"))
    }
}

/// The arena's other ways in: automatic rounds, and the CLI's `arena-scene`.
@Suite(.serialized) final class ArenaScheduleAndCLITests {
    let scratch = Scratch("choreo-arena")

    @Test func roundsStartOnTheirOwnEveryInterval() throws {
        let alpha = try ServerProcess.target()
        let file = scratch.file("arena.json")
        try """
        {"nodes": [{"name": "alpha", "url": "http://127.0.0.1:\(alpha.port)/health"}],
         "probe": {"interval": 0.3, "timeout": 0.2}, "round": {"every": 1, "stagger": 0.3}}
        """.write(toFile: file, atomically: false, encoding: .utf8)
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        let deadline = Date().addingTimeInterval(8)
        var metrics = ""
        repeat {
            metrics = try http.request("GET", "/metrics").text
            if !metrics.contains("choreo_arena_rounds_total 0") { break }
            usleep(200_000)
        } while Date() < deadline
        #expect(metrics.contains("choreo_arena_rounds_total") && !metrics.contains("choreo_arena_rounds_total 0"))
        #expect(try http.request("GET", "/v1/arena/rounds/current/scene").status == 200)
    }

    @Test func arenaSceneCommand() throws {
        func run(_ arguments: [String]) throws -> (Int32, String, String) { try runChoreo(arguments) }
        let good = scratch.file("standings.json")
        try #"[{"name": "a", "status": "up", "latencyMs": 10}, {"name": "b", "status": "degraded"}]"#.write(
            toFile: good, atomically: false, encoding: .utf8)
        let (status, scene, _) = try run(["arena-scene", good])
        #expect(status == 0)
        #expect(scene.contains("\"battleAnimation\"") && scene.contains("\"championBounce\""))
        // The scene renders with choreo render, as any other.
        let sceneFile = scratch.file("round.json")
        try scene.write(toFile: sceneFile, atomically: false, encoding: .utf8)
        let rendered = try run(["render", sceneFile, "--times", "0,2"])
        #expect(rendered.0 == 0 && rendered.1.contains("\"stateChanged\""))
        let bad = scratch.file("bad-standings.json")
        try #"[{"name": "", "status": "up"}]"#.write(toFile: bad, atomically: false, encoding: .utf8)
        let failed = try run(["arena-scene", bad])
        #expect(failed.0 == 1)
        #expect(failed.2.contains("$[0].name"))
    }
}
