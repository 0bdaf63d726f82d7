import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import Testing

/// Verdicts and hysteresis, without a network.
struct HealthTests {
    static var probe: ArenaConfiguration.Probe {
        var probe = ArenaConfiguration.Probe()
        probe.failureThreshold = 3
        probe.successThreshold = 2
        probe.degradedLatencyMs = 300
        probe.acceptedStatus = [200...204, 301...301]
        probe.body = ArenaConfiguration.BodyCondition(field: "status", equals: "ok")
        probe.loadField = "load"
        probe.highLoad = 0.8
        return probe
    }

    static func answer(_ body: String, status: Int = 200, latency: Double = 10) -> ProbeResult {
        ProbeResult(status: status, body: Array(body.utf8), latencyMs: latency)
    }

    @Test func verdictsAndReasons() {
        let probe = Self.probe
        #expect(ProbeVerdict.judge(Self.answer(#"{"status":"ok","load":0.2}"#), probe) == ProbeVerdict(.up))
        #expect(ProbeVerdict.judge(Self.answer(#"{"status":"ok"}"#, status: 204), probe) == ProbeVerdict(.up))
        #expect(ProbeVerdict.judge(Self.answer("", status: 205), probe) == ProbeVerdict(.failed, "status 205"))
        #expect(
            ProbeVerdict.judge(Self.answer(#"{"status":"ok"}"#, latency: 301), probe)
                == ProbeVerdict(.degraded, "slow: 301 ms over 300 ms"))
        #expect(
            ProbeVerdict.judge(Self.answer(#"{"status":"ok","load":0.9}"#), probe)
                == ProbeVerdict(.degraded, "high load: load 0.9 over 0.8"))
        #expect(
            ProbeVerdict.judge(Self.answer(#"{"load":0.1}"#), probe)
                == ProbeVerdict(.degraded, #"body condition: status is missing, not "ok""#))
        #expect(
            ProbeVerdict.judge(Self.answer("<html>"), probe) == ProbeVerdict(.degraded, "body is not a JSON object"))
        #expect(ProbeVerdict.judge(ProbeResult(failure: .timeout), probe) == ProbeVerdict(.failed, "timeout"))
    }

    @Test func hysteresis() {
        let probe = Self.probe
        var health = NodeHealth(name: "n", ip: "", url: "http://x/")
        let ok = Self.answer(#"{"status":"ok"}"#)
        let fail = ProbeResult(failure: .connectionRefused)
        func record(_ result: ProbeResult) {
            health.record(ProbeVerdict.judge(result, probe), result, at: 0, probe: probe)
        }
        #expect(health.status == .pending)
        record(fail)
        record(fail)
        #expect(health.status == .pending)
        record(fail)
        #expect(health.status == .down)
        record(ok)
        #expect(health.status == .down)
        record(ok)
        #expect(health.status == .up)
        record(fail)
        record(fail)
        #expect(health.status == .up)
        record(ok)
        record(fail)
        record(fail)
        #expect(health.status == .up)
        record(fail)
        #expect(health.status == .down)
        #expect(health.probes == 11 && health.answered == 3)
        #expect(health.uptimeRatio == 3.0 / 11)
        #expect(health.lastReason == "connection refused")
    }

    @Test func configurationRoundTripsAndValidates() throws {
        var configuration = ArenaConfiguration()
        configuration.nodes = [ArenaConfiguration.Node(name: "a", url: "https://example.org/health", ip: "10.0.0.1")]
        configuration.probe = Self.probe
        configuration.roundEvery = 30
        let decoded = try ArenaConfigurationCodec.decode(ArenaConfigurationCodec.encode(configuration))
        #expect(decoded == configuration)
        for (bad, path) in [
            (#"{"nodes": [{"name": "a", "url": "ftp://x/"}]}"#, "$.nodes[0].url"),
            (#"{"nodes": [], "probe": {"interval": 1, "timeout": 1.5}}"#, "$.probe.timeout"),
            (#"{"nodes": [], "probe": {"acceptedStatus": "700"}}"#, "$.probe.acceptedStatus"),
            (#"{"nodes": [{"name": "a", "url": "http://h/"}, {"name": "a", "url": "http://h/"}]}"#, "$.nodes[1].name"),
            (#"{"nodes": [], "round": {"every": 0.5}}"#, "$.round.every"),
            (
                #"{"nodes": ["# + (0..<100).map { #"{"name": "n\#($0)", "url": "http://h/"}"# }.joined(separator: ",")
                    + #"], "round": {"stagger": 60}}"#, "$.round.stagger"
            ),
        ] {
            do {
                _ = try ArenaConfigurationCodec.decode(try! JSONParser.parse(Array(bad.utf8)))
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.errors.map(\.path).contains(path), "\(path) in \(error.errors)")
            }
        }
    }
}
