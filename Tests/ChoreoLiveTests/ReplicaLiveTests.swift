import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// Two real `choreo serve` replicas on one real PostgreSQL database, behind a real HAProxy
/// (docs/scale-out.md): what one stores the other serves, a session driven through both, a
/// race on one session, one leader probing, and the other taking over when it is killed.
@Suite(.serialized, .enabled(if: TestDatabase.clusterURL != nil || TestDatabase.required))
final class ReplicaLiveTests {
    let scratch = Scratch("choreo-replicas")

    static let scene = #"{"layers":[{"id":"box","frame":[0,0,10,10]}]}"#
    static func input(_ at: Double, _ opacity: Double) -> String {
        #"{"at":\#(at),"do":[{"set":{"box":{"opacity":\#(opacity)}}}]}"#
    }

    func object(_ response: RawHTTP.Response) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(response.body) else {
            throw LiveError("not a JSON object: \(response.text)")
        }
        return object
    }

    /// A replica: `choreo serve --database URL`.
    func replica(_ database: TestDatabase, arena: String? = nil) throws -> ServerProcess {
        try ServerProcess(
            data: scratch.file("unused-\(UUID().uuidString)"),
            arguments: ["--database", database.url] + (arena.map { ["--arena", $0] } ?? []))
    }

    /// `GET /v1/arena`'s `leader`, or nil when the replica does not answer.
    func leads(_ server: ServerProcess) -> Bool? {
        guard let response = try? RawHTTP(port: server.port).request("GET", "/v1/arena"),
            let status = try? object(response)
        else { return nil }
        return status["leader"] == .bool(true)
    }

    @Test func scenesAndSessionsOnAnyReplicaBehindHAProxy() throws {
        let database = try TestDatabase()
        let a = try replica(database)
        let b = try replica(database)
        let proxy = try HAProxyProcess(backends: [a.port, b.port], directory: scratch.path) { port in
            (try? RawHTTP(port: port).request("GET", "/healthz"))?.status == 200
        }
        let httpA = RawHTTP(port: a.port)
        let httpB = RawHTTP(port: b.port)

        // A scene stored through one replica is read, listed and rendered through the other.
        let stored = try httpA.request("POST", "/v1/scenes", body: Self.scene)
        #expect(stored.status == 201)
        guard case .string(let id)? = try object(stored)["id"] else { throw LiveError("no id: \(stored.text)") }
        let read = try httpB.request("GET", "/v1/scenes/\(id)")
        #expect(read.status == 200 && read.text == Self.scene)
        #expect(try httpB.request("GET", "/v1/scenes").text.contains(id))
        let framesA = try httpA.request("GET", "/v1/scenes/\(id)/frames?times=0,0.5")
        let framesB = try httpB.request("GET", "/v1/scenes/\(id)/frames?times=0,0.5")
        #expect(framesA.status == 200 && framesA.body == framesB.body)

        // Through the load balancer: every request lands on one replica or the other.
        let http = RawHTTP(port: proxy.port)
        for _ in 0..<6 { #expect(try http.request("GET", "/v1/scenes/\(id)").status == 200) }
        #expect(try http.request("DELETE", "/v1/scenes/\(id)").status == 204)
        #expect(try httpA.request("GET", "/v1/scenes/\(id)").status == 404)
        #expect(try httpB.request("GET", "/v1/scenes/\(id)").status == 404)

        // A session driven alternately through both: each replica catches up with the other's inputs.
        let created = try httpA.request("POST", "/v1/sessions", body: Self.scene)
        #expect(created.status == 201)
        guard case .string(let session)? = try object(created)["id"] else { throw LiveError(created.text) }
        for step in 0..<6 {
            let through = step % 2 == 0 ? httpB : httpA
            let answer = try through.request(
                "POST", "/v1/sessions/\(session)/inputs", body: Self.input(Double(step) * 0.1, Double(step) / 10),
                headers: ["If-Match": "\"\(step)\""])
            #expect(answer.status == 200, "input \(step): \(answer.text)")
            #expect(try object(answer)["inputs"] == .number(Double(step + 1)))
        }
        let describedA = try httpA.request("GET", "/v1/sessions/\(session)")
        let describedB = try httpB.request("GET", "/v1/sessions/\(session)")
        #expect(describedA.body == describedB.body)
        #expect(try object(describedB)["inputs"] == .number(6))
        let sampledA = try httpA.request("GET", "/v1/sessions/\(session)/frames?times=0.55&properties=opacity")
        let sampledB = try httpB.request("GET", "/v1/sessions/\(session)/frames?times=0.55&properties=opacity")
        #expect(sampledA.status == 200 && sampledA.body == sampledB.body && sampledA.text.contains("0.5"))

        // A race on one session. With If-Match, the same number through both at once: one wins,
        // the other answers 412 as a single server would.
        for round in 0..<3 {
            let number = 6 + round
            let outcomes = Collected<Int>()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let through = index == 0 ? httpA : httpB
                let status =
                    (try? through.request(
                        "POST", "/v1/sessions/\(session)/inputs", body: Self.input(1 + Double(number), 0.9),
                        headers: ["If-Match": "\"\(number)\""]))?.status ?? 0
                outcomes.append(status)
            }
            #expect(outcomes.values.sorted() == [200, 412], "race \(round): \(outcomes.values.sorted())")
        }
        // Without If-Match both are taken, one after the other, as one server would order them.
        let outcomes = Collected<Int>()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let through = index == 0 ? httpA : httpB
            outcomes.append(
                (try? through.request("POST", "/v1/sessions/\(session)/inputs", body: Self.input(20, 0.2)))?.status
                    ?? 0)
        }
        #expect(outcomes.values.sorted() == [200, 200])
        #expect(try object(try httpA.request("GET", "/v1/sessions/\(session)"))["inputs"] == .number(11))
        #expect(try object(try httpB.request("GET", "/v1/sessions/\(session)"))["inputs"] == .number(11))
        // Deleted through one, gone from the other even though it had the session in memory.
        #expect(try httpB.request("DELETE", "/v1/sessions/\(session)").status == 204)
        #expect(try httpA.request("GET", "/v1/sessions/\(session)").status == 404)
        withExtendedLifetime((a, b, proxy)) {}
    }

    @Test func oneLeaderProbesAndAnotherTakesOverWhenItIsKilled() throws {
        let database = try TestDatabase()
        let target = try ServerProcess.target()
        let arena = try scratch.write(
            "arena.json",
            #"{"nodes":[{"name":"alpha","url":"http://127.0.0.1:\#(target.port)/health","ip":"127.0.0.1"}],"probe":{"interval":0.3,"timeout":0.25,"failureThreshold":2,"successThreshold":1}}"#
        )
        let a = try replica(database, arena: arena)
        let b = try replica(database)
        let replicas = [a, b]
        // Exactly one leader, and both replicas know the node's health.
        expectEventually("one leader and one follower") {
            replicas.compactMap(self.leads).sorted { !$0 && $1 } == [false, true]
        }
        let leader = leads(a) == true ? a : b
        let follower = leader === a ? b : a
        for server in replicas {
            expectEventually("alpha up on \(server === leader ? "the leader" : "the follower")") {
                (try? RawHTTP(port: server.port).request("GET", "/v1/arena"))?.text.contains(#""status":"up""#)
                    == true
            }
        }

        // The follower's event stream and metrics see a health change the leader probed.
        let events = try RawHTTP(port: follower.port).connect(timeout: 60)
        defer { close(events) }
        RawHTTP.send(events, Array("GET /v1/arena/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        // Subscribed (its snapshot read) before the node goes down.
        let subscribed = RawHTTP.awaitEvent(events, "data: {\"nodes\":")
        #expect(subscribed.awaited.happened, "\(subscribed.awaited)")
        let control = RawHTTP(port: target.port)
        #expect(try control.request("POST", "/control", body: #"{"status":503}"#).status == 200)
        let down = RawHTTP.awaitEvent(events, #""to":"down""#)
        #expect(down.awaited.happened, "\(down.awaited): \(down.stream.suffix(500))")
        expectEventually("alpha down in the follower's metrics") {
            (try? RawHTTP(port: follower.port).request("GET", "/metrics"))?.text.contains(
                #"choreo_arena_node_up{node="alpha"} 0"#) == true
        }
        #expect(try control.request("POST", "/control", body: #"{"status":200}"#).status == 200)

        // A round started through the follower is numbered by the database, runs on both, and a
        // second one through the leader is refused while it runs.
        let round = try RawHTTP(port: follower.port).request("POST", "/v1/arena/rounds", body: "{}")
        #expect(round.status == 201, "\(round.text)")
        let roundID = try object(round)["id"]
        #expect(try RawHTTP(port: leader.port).request("POST", "/v1/arena/rounds", body: "{}").status == 409)
        expectEventually("the follower's round on the leader") {
            guard let status = try? self.object(try RawHTTP(port: leader.port).request("GET", "/v1/arena")),
                case .object(let current)? = status["round"]
            else { return false }
            return current["id"] == roundID
        }
        let sceneOnLeader = try RawHTTP(port: leader.port).request("GET", "/v1/arena/rounds/current/scene")
        let sceneOnFollower = try RawHTTP(port: follower.port).request("GET", "/v1/arena/rounds/current/scene")
        #expect(sceneOnLeader.status == 200 && sceneOnLeader.body == sceneOnFollower.body)

        // A configuration stored through the follower reaches the leader, which probes its new node.
        let second = try ServerProcess.target()
        let configuration =
            #"{"nodes":[{"name":"alpha","url":"http://127.0.0.1:\#(target.port)/health","ip":"127.0.0.1"},{"name":"beta","url":"http://127.0.0.1:\#(second.port)/health","ip":"127.0.0.1"}],"probe":{"interval":0.3,"timeout":0.25,"failureThreshold":2,"successThreshold":1}}"#
        #expect(try RawHTTP(port: follower.port).request("PUT", "/v1/arena/config", body: configuration).status == 200)
        expectEventually("beta probed and up on both replicas") {
            (try? RawHTTP(port: leader.port).request("GET", "/v1/arena/nodes/beta"))?.status == 200
                && (try? RawHTTP(port: follower.port).request("GET", "/v1/arena/nodes/beta"))?.status == 200
        }

        // One prober: the target is asked about once per interval, not once per replica.
        let window = 3.0
        let before = try served(control)
        Thread.sleep(forTimeInterval: window)
        let perInterval = Double(try served(control) - before) / (window / 0.3)
        #expect(perInterval > 0.5 && perInterval < 1.5, "\(perInterval) probes per interval")

        // The leader dies without a word: the follower leads within the documented bound and probes.
        leader.signal(SIGKILL)
        _ = leader.waitForExit(timeout: 10)
        let killed = Date()
        // Awaited generously, so that a slow takeover is measured and reported, not cut off.
        expectEventually("the follower leading") { self.leads(follower) == true }
        let tookOver = Date().timeIntervalSince(killed)
        #expect(tookOver < 3, "took over after \(tookOver) s")
        let afterTakeover = try served(control)
        Thread.sleep(forTimeInterval: window)
        let rate = Double(try served(control) - afterTakeover) / (window / 0.3)
        #expect(rate > 0.5 && rate < 1.5, "\(rate) probes per interval after the takeover")
        #expect(follower.drainLog().contains(#""event":"leader""#))
    }

    /// With --leader-lease, a killed leader's lease runs out in the database's clock and the
    /// other replica takes over then: not before, and not much after.
    @Test func leaseModeTakesOverWhenTheLeaseExpires() throws {
        let database = try TestDatabase()
        let lease = ["--leader-lease", "5"]
        let a = try ServerProcess(data: scratch.file("lease-a"), arguments: ["--database", database.url] + lease)
        let b = try ServerProcess(data: scratch.file("lease-b"), arguments: ["--database", database.url] + lease)
        let replicas = [a, b]
        expectEventually("one leader and one follower") {
            replicas.compactMap(self.leads).sorted { !$0 && $1 } == [false, true]
        }
        let leader = leads(a) == true ? a : b
        let follower = leader === a ? b : a
        leader.signal(SIGKILL)
        _ = leader.waitForExit(timeout: 10)
        let killed = Date()
        expectEventually("the follower leading") { self.leads(follower) == true }
        let tookOver = Date().timeIntervalSince(killed)
        #expect(tookOver > 3 && tookOver < 7.5, "took over after \(tookOver) s")
        // A leader stopped cleanly (SIGTERM) gives the lease up at once: a third replica leads
        // within a campaign or two, long before the 5 s lease would have run out.
        let third = try ServerProcess(data: scratch.file("lease-c"), arguments: ["--database", database.url] + lease)
        expectEventually("the third replica following") { self.leads(third) == false }
        follower.signal(SIGTERM)
        #expect(follower.waitForExit() == 0)
        let stopped = Date()
        expectEventually("the third replica leading") { self.leads(third) == true }
        #expect(
            Date().timeIntervalSince(stopped) < 3, "took over \(Date().timeIntervalSince(stopped)) s after a clean stop"
        )
        // Without --database the option is a usage error, not silently ignored.
        let refused = try runChoreo(["serve", "--port", "0", "--leader-lease", "5", "--data", scratch.file("x")])
        #expect(refused.0 == 2 && refused.2.contains("--leader-lease needs --database"))
    }

    /// The database goes away under a running replica, then comes back: requests that need it
    /// answer 503 at once (not a hang), health says so, the replica stops leading; afterwards
    /// it serves what was stored and leads again. On a cluster of its own, so the outage
    /// touches no other test.
    @Test func databaseOutageIsUnavailableAndRecovers() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("Tests/postgres/cluster.sh").path
        let state = scratch.file("outage.state")
        let started = try runProgram(script, ["start", state])
        #expect(started.0 == 0, "\(started.2)")
        defer { _ = try? runProgram(script, ["stop", state]) }
        let url = started.1.trimmingCharacters(in: .whitespacesAndNewlines)
        let target = try ServerProcess.target()
        let arena = try scratch.write(
            "outage-arena.json",
            #"{"nodes":[{"name":"alpha","url":"http://127.0.0.1:\#(target.port)/health","ip":"127.0.0.1"}],"probe":{"interval":0.3,"timeout":0.25}}"#
        )
        let server = try ServerProcess(
            data: scratch.file("outage"), arguments: ["--database", url, "--arena", arena])
        let http = RawHTTP(port: server.port)
        expectEventually("the replica leading") { self.leads(server) == true }
        let stored = try http.request("POST", "/v1/scenes", body: Self.scene)
        guard case .string(let id)? = try object(stored)["id"] else { throw LiveError(stored.text) }

        #expect(try runProgram(script, ["halt", state]).0 == 0)
        let before = Date()
        let health = try http.request("GET", "/healthz")
        let read = try http.request("GET", "/v1/scenes/\(id)")
        #expect(health.status == 503 && read.status == 503, "\(health.text) \(read.text)")
        #expect(read.text.contains("Storage failed"))
        #expect(Date().timeIntervalSince(before) < 6)
        expectEventually("the replica no longer leading in the outage") { self.leads(server) == false }

        #expect(try runProgram(script, ["resume", state]).0 == 0)
        expectEventually("healthy again") { (try? http.request("GET", "/healthz"))?.status == 200 }
        #expect(try http.request("GET", "/v1/scenes/\(id)").text == Self.scene)
        expectEventually("the replica leading again") { self.leads(server) == true }
    }

    private func served(_ control: RawHTTP) throws -> Int {
        guard case .number(let served)? = try object(try control.request("GET", "/control"))["served"] else {
            throw LiveError("GET /control has no served count")
        }
        return Int(served)
    }
}
