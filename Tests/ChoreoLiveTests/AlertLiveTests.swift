import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// Alerts against real servers: a real `choreo serve` probing a real target, delivering to a
/// real HTTP receiver on loopback (docs/alerts.md).
@Suite(.serialized) final class AlertLiveTests {
    let scratch = Scratch("choreo-alerts")

    /// An arena of one node, `alpha`, with a `down` rule sending to the receiver.
    static func configuration(target: UInt16, receiver: UInt16, interval: Double = 0.2, extra: String = "") -> String {
        """
        {"nodes": [{"name": "alpha", "url": "http://127.0.0.1:\(target)/health", "ip": "127.0.0.1"}],
         "probe": {"interval": \(interval), "timeout": \(interval * 0.8), "failureThreshold": 1, "successThreshold": 1},
         "alerts": {"channels": [{"name": "ops", "type": "webhook", "url": "http://127.0.0.1:\(receiver)/hook",
                                  "secret": "s3cret", "format": "generic"}],
                    "rules": [{"name": "down", "nodes": ["*"], "when": "down", "failureThreshold": 2,
                               "successThreshold": 2, "kOfN": null, "forAtLeast": null, "sendOnResolved": true,
                               "remindEvery": null, "channels": ["ops"]}\(extra)]}}
        """
    }

    static func keys(_ receiver: WebhookReceiver) -> [String] {
        receiver.deliveries.compactMap { $0.headers["x-choreo-idempotency-key"] }
    }

    /// The signature as OpenSSL's command line computes it.
    func openSSLSignature(secret: String, timestamp: String, body: [UInt8]) throws -> String {
        let file = scratch.file("signed-\(UUID().uuidString)")
        try Data(Array("\(timestamp).".utf8) + body).write(to: URL(fileURLWithPath: file))
        let (status, output, _) = try runProgram("/usr/bin/openssl", ["dgst", "-sha256", "-hmac", secret, "-r", file])
        #expect(status == 0)
        return "sha256=" + (output.split(separator: " ").first.map(String.init) ?? "")
    }

    @Test func triggeredAndResolvedOnceSignedRetriedAndHeldByMaintenance() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let target = try ServerProcess.target()
        let control = RawHTTP(port: target.port)
        let file = try scratch.write("arena.json", Self.configuration(target: target.port, receiver: receiver.port))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try ArenaLiveTests.waitFor(http, ["alpha": "up"])
        // The rules and channels read back (the server has no token, and is on loopback).
        let alerts = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/alerts"))
        #expect(alerts["channels"].map { "\($0)" }?.contains("s3cret") == true)
        let events = try http.connect(timeout: 30)
        defer { close(events) }
        RawHTTP.send(events, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        // Subscribed (its snapshot read) before the node goes down.
        let subscribed = RawHTTP.awaitEvent(events, "data: {\"nodes\":")
        #expect(subscribed.awaited.happened, "\(subscribed.awaited)")

        // Down, with a receiver that fails twice: retried with the same key and body, then sent.
        receiver.answer(500)
        #expect(try control.request("POST", "/control", body: #"{"status":503}"#).status == 200)
        let failedTwice = waitUntil("two failed tries") { receiver.deliveries.count >= 2 }
        #expect(failedTwice.happened, "\(failedTwice)")
        receiver.answer(200)
        let sent = try waitUntil("the delivery recorded as sent") {
            try http.request("GET", "/v1/arena/alerts/state").text.contains(#""outcome":"sent""#)
        }
        #expect(sent.happened, "\(sent)")
        let triggered = receiver.deliveries
        #expect(triggered.count == 3, "\(triggered.count) tries")
        #expect(Set(triggered.map(\.text)).count == 1 && Set(Self.keys(receiver)) == ["down/alpha/1/triggered"])
        guard case .object(let body) = try JSONParser.parse(triggered[0].body) else { throw LiveError("not JSON") }
        #expect(body["event"] == "triggered" && body["node"] == "alpha" && body["sequence"] == .number(1))
        #expect(body["description"] == .string("alpha is down: status 503"))
        for delivery in triggered {
            let timestamp = try #require(delivery.headers["x-choreo-timestamp"])
            #expect(abs((Double(timestamp) ?? 0) - Date().timeIntervalSince1970) < 60)
            #expect(
                delivery.headers["x-choreo-signature"]
                    == (try openSSLSignature(secret: "s3cret", timestamp: timestamp, body: delivery.body)))
        }
        let firing = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/alerts/state"))
        guard case .array(let firingNow)? = firing["firing"], case .object(let alert)? = firingNow.first else {
            throw LiveError("nothing fires: \(firing)")
        }
        #expect(firingNow.count == 1 && alert["node"] == "alpha" && alert["sequence"] == .number(1))
        let alerted = RawHTTP.awaitEvent(events, "down/alpha/1/triggered")
        #expect(alerted.awaited.happened && alerted.stream.contains("event: alert"), "\(alerted.awaited)")
        let metrics = try http.request("GET", "/metrics").text
        #expect(metrics.contains(#"choreo_alerts_firing{rule="down"} 1"#))
        #expect(metrics.contains(#"choreo_alert_delivery_attempts_total{outcome="failure"} 2"#))

        // Up again: one resolution.
        #expect(try control.request("POST", "/control", body: #"{"status":200}"#).status == 200)
        let resolved = waitUntil("down/alpha/2/resolved delivered") {
            Self.keys(receiver).contains("down/alpha/2/resolved")
        }
        #expect(resolved.happened, "\(resolved)")
        // Nothing more comes in the next second: no duplicate, no other transition.
        Thread.sleep(forTimeInterval: 1)
        #expect(Set(Self.keys(receiver)) == ["down/alpha/1/triggered", "down/alpha/2/resolved"])
        #expect(Self.keys(receiver).filter { $0 == "down/alpha/2/resolved" }.count == 1)
        let resolvedState = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/alerts/state"))
        #expect(resolvedState["firing"] == .array([]))

        // In maintenance, down and up again: no delivery, then or after the window; the window
        // is left out of the uptime.
        let window = try http.request("POST", "/v1/arena/maintenance", body: #"{"nodes": ["alpha"], "duration": 4}"#)
        #expect(window.status == 201)
        let before = receiver.deliveries.count
        #expect(try control.request("POST", "/control", body: #"{"status":503}"#).status == 200)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try control.request("POST", "/control", body: #"{"status":200}"#).status == 200)
        Thread.sleep(forTimeInterval: 4)
        #expect(receiver.deliveries.count == before)
        let uptime = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/nodes/alpha/uptime?window=1h"))
        guard case .number(let excluded)? = uptime["maintenanceExcluded"] else { throw LiveError("\(uptime)") }
        // Seconds of the window left out: the whole window, as it is over.
        #expect(excluded > 3.9 && excluded < 4.1)
        // Counted in when asked: more probes, some of them down, nothing left out.
        let included = try ArenaLiveTests.object(
            try http.request("GET", "/v1/arena/nodes/alpha/uptime?window=1h&maintenance=include"))
        guard case .object(let withCounts)? = included["probes"], case .number(let withTotal)? = withCounts["total"],
            case .object(let withoutCounts)? = uptime["probes"],
            case .number(let withoutTotal)? = withoutCounts["total"]
        else { throw LiveError("\(included)") }
        #expect(withTotal > withoutTotal + 10 && included["maintenanceExcluded"] == .number(0))

        // A rule that names a channel that does not exist: refused with its path and a suggestion.
        let refused = try http.request(
            "PUT", "/v1/arena/alerts",
            body:
                #"{"channels": [{"name": "ops", "url": "http://127.0.0.1:1/x"}], "rules": [{"name": "r", "channels": ["opz"]}]}"#
        )
        #expect(
            refused.status == 422 && refused.text.contains("$.rules[0].channels[0]") && refused.text.contains("ops"))
        // And a valid replacement applies: GET gives it back.
        let replaced = try http.request(
            "PUT", "/v1/arena/alerts",
            body: #"{"channels": [{"name": "chat", "url": "http://127.0.0.1:1/x", "format": "slack"}], "rules": []}"#)
        #expect(replaced.status == 200)
        #expect(try http.request("GET", "/v1/arena/alerts").text.contains(#""format":"slack""#))

        // A channel nobody answers: tried maxAttempts times with backoff, then recorded as failed
        // with the last error (the dead letter).
        let closed = try freeLoopbackPort()
        let dead = try http.request(
            "PUT", "/v1/arena/alerts",
            body: #"""
                {"channels": [{"name": "dead", "url": "http://127.0.0.1:\#(closed)/hook", "maxAttempts": 2, "timeout": 1}],
                 "rules": [{"name": "gone", "nodes": ["alpha"], "failureThreshold": 1, "channels": ["dead"]}]}
                """#)
        #expect(dead.status == 200, "\(dead.text)")
        #expect(try control.request("POST", "/control", body: #"{"status":503}"#).status == 200)
        var state = ""
        let deadLetter = try waitUntil("the dead channel's delivery failed after 2 tries") {
            state = try http.request("GET", "/v1/arena/alerts/state").text
            return state.contains(#""channel":"dead","outcome":"failed","attempts":2"#)
        }
        #expect(deadLetter.happened, "\(deadLetter): \(state)")
        #expect(state.contains(#""idempotencyKey":"gone/alpha/1/triggered""#) && state.contains(#""lastError":"#))
        let failedMetric = try http.request("GET", "/metrics").text
        #expect(failedMetric.contains(#"choreo_alert_deliveries{outcome="failed"} 1"#))
        #expect(failedMetric.contains(#"choreo_alert_deliveries_failed_total{channel="dead"} 1"#))
    }

    /// Killed while the receiver holds a delivery (sent, not recorded): after a restart the same
    /// delivery is sent again with the same key, so the receiver, deduplicating, has it once.
    @Test func aDeliveryCutByAKillIsSentAgainAfterARestart() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let target = try ServerProcess.target()
        let control = RawHTTP(port: target.port)
        let file = try scratch.write(
            "arena-restart.json", Self.configuration(target: target.port, receiver: receiver.port))
        let data = scratch.file("data-restart")
        let first = try ServerProcess(data: data, arguments: ["--arena", file])
        _ = try ArenaLiveTests.waitFor(RawHTTP(port: first.port), ["alpha": "up"])
        receiver.answer(200, after: 4)
        #expect(try control.request("POST", "/control", body: #"{"status":503}"#).status == 200)
        let held = waitUntil("the delivery at the receiver") { receiver.deliveries.count >= 1 }
        #expect(held.happened && receiver.deliveries.count == 1, "\(held)")
        first.signal(SIGKILL)
        _ = first.waitForExit(timeout: 10)
        receiver.answer(200)
        let second = try ServerProcess(data: data, arguments: [])
        let again = waitUntil("the delivery sent again") { receiver.deliveries.count >= 2 }
        #expect(again.happened, "\(again)")
        #expect(Set(Self.keys(receiver)) == ["down/alpha/1/triggered"])
        #expect(Set(receiver.deliveries.map(\.text)).count == 1)
        let http = RawHTTP(port: second.port)
        let recorded = try waitUntil("the delivery recorded as sent") {
            try http.request("GET", "/v1/arena/alerts/state").text.contains(#""outcome":"sent""#)
        }
        #expect(recorded.happened, "\(recorded)")
        // Still down: no new transition was recorded by the restarted process.
        Thread.sleep(forTimeInterval: 1)
        #expect(Set(Self.keys(receiver)) == ["down/alpha/1/triggered"])
    }
}

/// Two replicas on one PostgreSQL database and a target that goes down for 10 s and comes
/// back, the leader killed with SIGKILL at a random moment of each outage (and replaced):
/// after deduplication by idempotency key, exactly one `triggered` and one `resolved` per
/// outage, 10 times over.
@Suite(.serialized, .enabled(if: TestDatabase.clusterURL != nil || TestDatabase.required))
final class AlertReplicaLiveTests {
    let scratch = Scratch("choreo-alert-replicas")

    func leads(_ server: ServerProcess) -> Bool {
        guard let response = try? RawHTTP(port: server.port).request("GET", "/v1/arena"),
            let status = try? ArenaLiveTests.object(response)
        else { return false }
        return status["leader"] == .bool(true)
    }

    /// Whether the replica answers and reports `alpha` up.
    func alphaUp(_ server: ServerProcess) -> Bool {
        (try? RawHTTP(port: server.port).request("GET", "/v1/arena"))?.text.contains(#""status":"up""#) == true
    }

    @Test func exactlyOneTriggeredAndOneResolvedWithTheLeaderKilled() throws {
        let database = try TestDatabase()
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let target = try ServerProcess.target()
        let control = RawHTTP(port: target.port)
        let file = try scratch.write(
            "arena.json", AlertLiveTests.configuration(target: target.port, receiver: receiver.port, interval: 0.25))
        var replicas = [
            try ServerProcess(data: scratch.file("a"), arguments: ["--database", database.url, "--arena", file]),
            try ServerProcess(data: scratch.file("b"), arguments: ["--database", database.url]),
        ]
        let led = waitUntil("a leader") { replicas.contains { self.leads($0) } }
        #expect(led.happened, "\(led)")
        let up = waitUntil("alpha up on both replicas") { replicas.allSatisfy(alphaUp) }
        #expect(up.happened, "\(up)")
        // Both first replicas' event streams, each subscribed (its snapshot read) before the
        // first outage. Whichever of them the first kill spares shows the alerts whoever
        // records them: its own as the leader, the others' (by NOTIFY) as a follower. Which
        // one leads when the kill comes is not known in advance: leadership may have moved
        // since the start (a leader's session lost on a loaded machine).
        let first = replicas
        var streams: [Int32] = []
        defer { streams.forEach { close($0) } }
        for replica in first {
            let events = try RawHTTP(port: replica.port).connect(timeout: 60)
            streams.append(events)
            RawHTTP.send(events, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let subscribed = RawHTTP.awaitEvent(events, "data: {\"nodes\":")
            #expect(subscribed.awaited.happened, "\(subscribed.awaited): \(subscribed.stream.suffix(500))")
        }
        var random = SplitMix64(seed: 0xC40_2E0)
        for outage in 0..<10 {
            let killAt = random.next(0, 10)
            let started = Date()
            #expect(try control.request("POST", "/control", body: #"{"status":503}"#).status == 200)
            // The kill comes at a random moment of the outage, which lasts 10 s: both are the
            // point of the test, not waits for something.
            Thread.sleep(forTimeInterval: killAt)
            // The leader then (one is elected again within a campaign or two of a kill).
            var leader: Int?
            let found = waitUntil("a leader to kill in outage \(outage)", limit: 30) {
                leader = replicas.firstIndex(where: leads)
                return leader != nil
            }
            #expect(found.happened, "\(found)")
            var killed: ServerProcess?
            if let leader {
                killed = replicas[leader]
                replicas[leader].signal(SIGKILL)
                _ = replicas[leader].waitForExit(timeout: 10)
                replicas[leader] = try ServerProcess(
                    data: scratch.file("r\(outage)"), arguments: ["--database", database.url])
            }
            Thread.sleep(forTimeInterval: max(0, 10 - Date().timeIntervalSince(started)))
            #expect(try control.request("POST", "/control", body: #"{"status":200}"#).status == 200)
            let triggered = "down/alpha/\(2 * outage + 1)/triggered"
            let resolved = "down/alpha/\(2 * outage + 2)/resolved"
            let delivered = waitUntil("\(resolved) delivered") { AlertLiveTests.keys(receiver).contains(resolved) }
            #expect(
                delivered.happened,
                "outage \(outage), leader killed \(killAt) s in: \(delivered); \(Set(AlertLiveTests.keys(receiver)).sorted())"
            )
            let keys = Set(AlertLiveTests.keys(receiver))
            let expected = Set(
                (0...outage).flatMap { ["down/alpha/\(2 * $0 + 1)/triggered", "down/alpha/\(2 * $0 + 2)/resolved"] })
            #expect(keys == expected, "outage \(outage), killed \(killAt) s in: \(keys.sorted())")
            #expect(keys.contains(triggered))
            if outage == 0 {
                for (index, replica) in first.enumerated() where replica !== killed {
                    let (stream, awaited) = RawHTTP.awaitEvent(streams[index], "down/alpha/2/resolved")
                    #expect(awaited.happened, "replica \(index): \(awaited): \(stream.suffix(500))")
                    #expect(
                        stream.contains("event: alert") && stream.contains("down/alpha/1/triggered"),
                        "replica \(index): \(stream.suffix(500))")
                }
            }
            // The node is up on every replica, and one of them leads, before the next outage.
            let agreed = waitUntil("alpha up on every replica after outage \(outage)") {
                replicas.allSatisfy(alphaUp)
            }
            #expect(agreed.happened, "\(agreed)")
        }
        let bodies = Dictionary(grouping: receiver.deliveries, by: { $0.headers["x-choreo-idempotency-key"] ?? "" })
        print("alerts across replicas: \(receiver.deliveries.count) deliveries of \(bodies.count) keys in 10 outages")
        // A key sent twice (a retry after a kill) carries the same body each time.
        #expect(bodies.values.allSatisfy { Set($0.map(\.text)).count == 1 })
        withExtendedLifetime(replicas) {}
    }
}
