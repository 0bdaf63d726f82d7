import Foundation

/// The arena as a monitor at scale (`--arena-only`): a release `choreo serve` probing 1,000
/// targets (distinct URLs on two `choreo target` processes) every second, with an alert rule on
/// every node and the probes summed into buckets. Reported: the probes made against those due
/// (the cadence), the history's bucket rows, and `GET /v1/arena` (the whole status of 1,000
/// nodes) against `GET /healthz` on the same connection in the same run, median and p99.
enum ArenaBenchmark {
    static func run(
        targets: Int = Int(ProcessInfo.processInfo.environment["PROBE_TARGETS"] ?? "") ?? 1000,
        seconds: Double = Double(ProcessInfo.processInfo.environment["PROBE_SECONDS"] ?? "") ?? 20
    ) throws -> [(String, String)] {
        let ports = try ProbeBenchmark.startTargets()
        defer { ProbeBenchmark.stopTargets() }
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("choreo-bench-arena-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let nodes = (0..<targets).map { index in
            #"{"name": "node-\#(index)", "url": "http://127.0.0.1:\#(ports[index % ports.count])/health?n=\#(index)"}"#
        }
        let configuration = """
            {"nodes": [\(nodes.joined(separator: ","))],
             "probe": {"interval": 1, "timeout": 0.9},
             "round": {"stagger": 0.1},
             "alerts": {"channels": [{"name": "ops", "url": "http://127.0.0.1:9/hook"}],
                        "rules": [{"name": "down", "nodes": ["*"], "failureThreshold": 3, "channels": ["ops"]}]}}
            """
        let file = directory.appendingPathComponent("arena.json")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        let server = try ChoreoChild(
            ["serve", "--port", "0", "--data", directory.appendingPathComponent("data").path, "--arena", file.path])
        defer { server.stop() }
        let connection = try KeepAliveConnection(port: server.port)
        // Every node probed a few times first.
        Thread.sleep(forTimeInterval: 5)
        func probesTotal() throws -> Double {
            try connection.get("/metrics").text.split(separator: "\n")
                .filter { $0.hasPrefix("choreo_arena_probes_total{") }
                .reduce(0) { $0 + (Double($1.split(separator: " ").last ?? "") ?? 0) }
        }
        func counter(_ text: String, _ name: String) -> Double {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
                Double($0.split(separator: " ")[1])
            }
                ?? 0
        }
        let metricsBefore = try connection.get("/metrics").text
        let before = try probesTotal()
        let started = Date()
        var status: [Double] = []
        var health: [Double] = []
        var bytes = 0
        // Alternately the whole status and the health check, for the window.
        while Date().timeIntervalSince(started) < seconds {
            let statusStart = DispatchTime.now().uptimeNanoseconds
            let answer = try connection.get("/v1/arena")
            status.append(Double(DispatchTime.now().uptimeNanoseconds - statusStart) / 1e6)
            guard answer.status == 200 else { throw BenchError("GET /v1/arena: \(answer.status)") }
            bytes = answer.text.utf8.count
            let healthStart = DispatchTime.now().uptimeNanoseconds
            _ = try connection.get("/healthz")
            health.append(Double(DispatchTime.now().uptimeNanoseconds - healthStart) / 1e6)
            usleep(50_000)
        }
        let made = try probesTotal() - before
        let elapsed = Date().timeIntervalSince(started)
        let metrics = try connection.get("/metrics").text
        let writes =
            counter(metrics, "choreo_arena_history_writes_total")
            - counter(metricsBefore, "choreo_arena_history_writes_total")
        let writeSeconds =
            counter(metrics, "choreo_arena_history_write_seconds_total")
            - counter(metricsBefore, "choreo_arena_history_write_seconds_total")
        func gauge(_ name: String) -> String {
            metrics.split(separator: "\n").first { $0.hasPrefix(name) }.map {
                String($0.split(separator: " ").last ?? "")
            }
                ?? "-1"
        }
        func percentile(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        return [
            ("arena_targets", "\(targets)"),
            ("arena_seconds", String(format: "%.1f", elapsed)),
            ("arena_probes_made", String(format: "%.0f", made)),
            ("arena_probes_due", String(format: "%.0f", Double(targets) * elapsed)),
            ("arena_cadence_ratio", String(format: "%.3f", made / (Double(targets) * elapsed))),
            ("arena_status_requests", "\(status.count)"),
            ("arena_status_bytes", "\(bytes)"),
            ("arena_status_ms_p50", String(format: "%.2f", percentile(status, 0.5))),
            ("arena_status_ms_p99", String(format: "%.2f", percentile(status, 0.99))),
            ("arena_healthz_ms_p50", String(format: "%.3f", percentile(health, 0.5))),
            ("arena_healthz_ms_p99", String(format: "%.3f", percentile(health, 0.99))),
            (
                "arena_status_p99_over_healthz_p99",
                String(format: "%.1f", percentile(status, 0.99) / percentile(health, 0.99))
            ),
            ("arena_history_writes", String(format: "%.0f", writes)),
            ("arena_history_write_ms_mean", String(format: "%.1f", writes > 0 ? writeSeconds / writes * 1000 : -1)),
            ("arena_minute_buckets", gauge("choreo_arena_history_buckets{resolution=\"minute\"}")),
            ("arena_hour_buckets", gauge("choreo_arena_history_buckets{resolution=\"hour\"}")),
            ("arena_day_buckets", gauge("choreo_arena_history_buckets{resolution=\"day\"}")),
            ("arena_resident_memory_bytes", gauge("process_resident_memory_bytes")),
        ]
    }
}
