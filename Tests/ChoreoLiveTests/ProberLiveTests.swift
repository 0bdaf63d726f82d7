import ChoreoArena
import ChoreoProbe
import Foundation
import Synchronization
import Testing

/// The prober against real `choreo target` processes on loopback: every failure classified with
/// its reason, none delaying the others, and the hysteresis counted right.
@Suite(.serialized) struct ProberLiveTests {
    /// Waits (bounded) until `condition` holds for the prober's snapshot.
    static func wait(
        _ prober: Prober, timeout: Double = 10, _ condition: ([String: NodeHealth]) -> Bool
    ) -> [String: NodeHealth] {
        let deadline = Date().addingTimeInterval(timeout)
        var health: [String: NodeHealth] = [:]
        repeat {
            health = Dictionary(uniqueKeysWithValues: prober.snapshot().map { ($0.name, $0) })
            if condition(health) { return health }
            usleep(50_000)
        } while Date() < deadline
        return health
    }

    static func unusedPort() throws -> UInt16 {
        // A target started and stopped leaves a port nobody listens on.
        let target = try ServerProcess.target()
        let port = target.port
        target.signal(SIGTERM)
        _ = target.waitForExit()
        return port
    }

    @Test func everyFailureIsClassifiedAndNoneDelaysTheOthers() throws {
        let up = try ServerProcess.target(["--latency", "5ms", "--load", "0.3"])
        let slow = try ServerProcess.target(["--latency", "150ms"])
        let unavailable = try ServerProcess.target(["--status", "503"])
        let hanging = try ServerProcess.target()
        let unhealthy = try ServerProcess.target()
        let oversized = try ServerProcess.target()
        let looping = try ServerProcess.target()
        let loaded = try ServerProcess.target(["--load", "0.95"])
        for (target, settings) in [
            (hanging, #"{"hang": true}"#), (unhealthy, #"{"bodyStatus": "degraded"}"#),
            (oversized, #"{"padBytes": 100000}"#), (looping, #"{"redirect": true}"#),
        ] {
            #expect(try RawHTTP(port: target.port).request("POST", "/control", body: settings).status == 200)
        }
        let refused = try Self.unusedPort()
        var configuration = ArenaConfiguration()
        func node(_ name: String, _ port: UInt16) -> ArenaConfiguration.Node {
            ArenaConfiguration.Node(name: name, url: "http://127.0.0.1:\(port)/health")
        }
        configuration.nodes = [
            node("up", up.port), node("slow", slow.port), node("unavailable", unavailable.port),
            node("refused", refused), node("hanging", hanging.port), node("unhealthy", unhealthy.port),
            node("oversized", oversized.port), node("looping", looping.port), node("loaded", loaded.port),
        ]
        configuration.probe.interval = 0.5
        configuration.probe.timeout = 0.4
        configuration.probe.degradedLatencyMs = 100
        configuration.probe.failureThreshold = 2
        configuration.probe.body = ArenaConfiguration.BodyCondition(field: "status", equals: "ok")
        configuration.probe.loadField = "load"
        configuration.probe.highLoad = 0.8
        let prober = Prober(configuration: configuration)
        prober.start()
        defer { prober.stop() }
        let failing = ["unavailable", "refused", "hanging", "oversized", "looping"]
        let health = Self.wait(prober) { health in
            failing.allSatisfy { health[$0]?.status == .down } && health["up"]?.status == .up
                && ["slow", "unhealthy", "loaded"].allSatisfy { health[$0]?.status == .degraded }
                && (health["up"]?.probes ?? 0) >= 4
        }
        #expect(health["up"]?.status == .up)
        #expect(health["up"]?.lastReason == nil)
        #expect(health["slow"]?.status == .degraded)
        #expect(health["slow"]?.lastReason?.hasPrefix("slow: ") == true)
        #expect(health["unhealthy"]?.lastReason == #"body condition: status is "degraded", not "ok""#)
        #expect(health["loaded"]?.lastReason == "high load: load 0.95 over 0.8")
        #expect(health["unavailable"]?.status == .down)
        #expect(health["unavailable"]?.lastReason == "status 503")
        #expect(health["unavailable"]?.lastHTTPStatus == 503)
        #expect(health["refused"]?.lastReason == "connection refused")
        #expect(health["hanging"]?.lastReason == "timeout")
        #expect(health["oversized"]?.lastReason == "body too large")
        #expect(health["looping"]?.lastReason == "too many redirects")
        // The hanging target held only its own transfer: the healthy one kept its cadence and
        // answered fast while the other timed out.
        let upHealth = health["up"]!
        #expect(upHealth.probes >= 4)
        #expect(upHealth.medianLatencyMs! < 100)
        #expect(upHealth.uptimeRatio == 1)
        // One request per interval, whatever a target answers: no retry storm.
        #expect((health["refused"]?.probes ?? 0) <= upHealth.probes + 1)
    }

    @Test func hysteresisCountsConsecutiveProbes() throws {
        let target = try ServerProcess.target()
        var configuration = ArenaConfiguration()
        configuration.nodes = [ArenaConfiguration.Node(name: "n", url: "http://127.0.0.1:\(target.port)/health")]
        configuration.probe.interval = 0.2
        configuration.probe.timeout = 0.2
        configuration.probe.failureThreshold = 3
        configuration.probe.successThreshold = 2
        let changes = Mutex<[Prober.Change]>([])
        let prober = Prober(
            configuration: configuration, onChange: { change in changes.withLock { $0.append(change) } })
        prober.start()
        defer { prober.stop() }
        #expect(Self.wait(prober) { $0["n"]?.status == .up }["n"]?.status == .up)
        _ = try RawHTTP(port: target.port).request("POST", "/control", body: #"{"status": 500}"#)
        let down = Self.wait(prober) { $0["n"]?.status == .down }["n"]!
        #expect(down.status == .down)
        #expect(down.consecutiveFailures >= 3)
        _ = try RawHTTP(port: target.port).request("POST", "/control", body: #"{"status": 200}"#)
        let back = Self.wait(prober) { $0["n"]?.status == .up }["n"]!
        #expect(back.status == .up)
        #expect(back.consecutiveAnswers >= 2)
        let seen = changes.withLock { $0 }.map { "\($0.from.rawValue)→\($0.to.rawValue)" }
        #expect(seen == ["pending→up", "up→down", "down→up"])
    }
}
