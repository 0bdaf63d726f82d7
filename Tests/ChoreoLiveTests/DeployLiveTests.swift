import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// deploy/: the Prometheus configuration and rules pass promtool's checks and unit tests, and
/// every metric they and the Grafana dashboard query is in a running server's `/metrics`.
@Suite(.serialized) final class DeployLiveTests {
    let scratch = Scratch("choreo-deploy")

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The metric names an expression reads.
    static func metrics(in expression: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: "\\b(choreo_[a-z_]+|process_[a-z_]+)\\b")
        let range = NSRange(expression.startIndex..., in: expression)
        return Set(
            pattern.matches(in: expression, range: range).compactMap {
                Range($0.range, in: expression).map { String(expression[$0]) }
            })
    }

    @Test(.enabled(if: promtool != nil || TestDatabase.required))
    func promtoolChecksAndTestsTheRules() throws {
        let promtool = try #require(Self.promtool, "promtool is missing: install the Debian package prometheus")
        let directory = Self.root.appendingPathComponent("deploy/prometheus").path
        // promtool reads the rule files relative to the working directory's files: copy them.
        for file in ["prometheus.yml", "alerts.yml", "alerts_test.yml"] {
            try FileManager.default.copyItem(atPath: "\(directory)/\(file)", toPath: scratch.file(file))
        }
        let config = try runProgram(promtool, ["check", "config", scratch.file("prometheus.yml")])
        #expect(config.0 == 0, "\(config.1)\(config.2)")
        let rules = try runProgram(promtool, ["check", "rules", scratch.file("alerts.yml")])
        #expect(rules.0 == 0 && rules.1.contains("5 rules found"), "\(rules.1)\(rules.2)")
        let tests = try runProgram(promtool, ["test", "rules", scratch.file("alerts_test.yml")])
        #expect(tests.0 == 0 && tests.1.contains("SUCCESS"), "\(tests.1)\(tests.2)")
    }

    @Test func everyQueriedMetricIsServed() throws {
        // The dashboard's expressions and the rules'.
        let dashboardData = try Data(contentsOf: Self.root.appendingPathComponent("deploy/grafana/choreo-arena.json"))
        guard case .object(let dashboard) = try JSONParser.parse(Array(dashboardData)),
            case .array(let panels)? = dashboard["panels"]
        else { throw LiveError("the dashboard is not an object with panels") }
        #expect(dashboard["uid"] == "choreo-arena" && panels.count >= 10)
        var queried: Set<String> = []
        var ids: Set<Double> = []
        for case .object(let panel) in panels {
            if case .number(let id)? = panel["id"] { #expect(ids.insert(id).inserted, "panel id \(id) twice") }
            guard case .array(let targets)? = panel["targets"], !targets.isEmpty else {
                Issue.record("a panel without targets: \(panel["title"] ?? .null)")
                continue
            }
            for case .object(let target) in targets {
                guard case .string(let expression)? = target["expr"] else { continue }
                queried.formUnion(Self.metrics(in: expression))
            }
        }
        let rules = try String(
            contentsOf: Self.root.appendingPathComponent("deploy/prometheus/alerts.yml"), encoding: .utf8)
        let ruleMetrics = rules.split(separator: "\n").filter {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        }
        .map { Self.metrics(in: String($0)) }.reduce(Set<String>()) { $0.union($1) }
        queried.formUnion(ruleMetrics)
        #expect(queried.count >= 12, "\(queried.sorted())")

        // A server with a node, an alert rule and some probes summed into buckets.
        let target = try ServerProcess.target()
        let file = try scratch.write(
            "arena.json", AlertLiveTests.configuration(target: target.port, receiver: try freeLoopbackPort()))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try ArenaLiveTests.waitFor(http, ["alpha": "up"])
        var metrics = ""
        let served = try waitUntil("alpha's 24 h uptime ratio in /metrics") {
            metrics = try http.request("GET", "/metrics").text
            return metrics.contains("choreo_arena_node_uptime_ratio{node=\"alpha\",window=\"24h\"} 1")
        }
        #expect(served.happened, "\(served)")
        for name in queried.sorted() {
            #expect(metrics.contains("\(name){") || metrics.contains("\(name) "), "\(name) is not in /metrics")
        }
    }
}
