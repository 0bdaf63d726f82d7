import ChoreoArena
import ChoreoProbe
import Foundation

/// The arena's prober at scale: 1,000 targets probed every second by one prober thread. Starts two
/// `choreo target` processes on loopback and spreads 1,000 distinct URLs over them; reports the
/// probes completed against those due, the lateness, and the CPU the prober process used.
enum ProbeBenchmark {
    static func run(
        targets: Int = Int(ProcessInfo.processInfo.environment["PROBE_TARGETS"] ?? "") ?? 1000,
        seconds: Double = Double(ProcessInfo.processInfo.environment["PROBE_SECONDS"] ?? "") ?? 10
    ) throws -> [(String, String)] {
        let ports = try startTargets()
        defer { stopTargets() }
        var configuration = ArenaConfiguration()
        configuration.nodes = (0..<targets).map { index in
            let port = ports[index % ports.count]
            return ArenaConfiguration.Node(name: "node-\(index)", url: "http://127.0.0.1:\(port)/health?n=\(index)")
        }
        configuration.probe.interval = 1
        configuration.probe.timeout = 0.9
        let prober = Prober(configuration: configuration)
        let cpuBefore = cpuSeconds()
        let start = Date()
        prober.start()
        Thread.sleep(forTimeInterval: seconds)
        let health = prober.snapshot()
        let elapsed = Date().timeIntervalSince(start)
        let cpu = cpuSeconds() - cpuBefore
        prober.stop()
        let probes = health.reduce(0) { $0 + $1.probes }
        // Each target's first probe falls somewhere in the first second, then one a second.
        let due = Double(targets) * elapsed.rounded(.down)
        let fewest = health.map(\.probes).min() ?? 0
        let up = health.filter { $0.status == .up }.count
        let medians = health.compactMap(\.medianLatencyMs).sorted()
        var reasons: [String: Int] = [:]
        for node in health { reasons[node.lastReason ?? "none", default: 0] += 1 }
        let reasonText = reasons.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
        return [
            ("probe_targets", "\(targets)"),
            ("last_reasons", "{\(reasonText)}"),
            ("probe_seconds", String(format: "%.1f", elapsed)),
            ("probes_completed", "\(probes)"),
            ("probes_due", String(format: "%.0f", due)),
            ("probes_completed_ratio", String(format: "%.3f", Double(probes) / due)),
            ("fewest_probes_of_a_target", "\(fewest)"),
            ("probe_targets_up", "\(up)"),
            ("probe_median_latency_ms_p50", String(format: "%.2f", medians.isEmpty ? -1 : medians[medians.count / 2])),
            ("prober_cpu_seconds", String(format: "%.2f", cpu)),
            ("prober_cpu_share_of_one_core", String(format: "%.3f", cpu / elapsed)),
        ]
    }

    nonisolated(unsafe) static var targetProcesses: [Process] = []

    /// Starts two `choreo target` processes on loopback and returns their ports.
    static func startTargets() throws -> [UInt16] {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var ports: [UInt16] = []
        for index in 0..<2 {
            let process = Process()
            process.executableURL = directory.appendingPathComponent("choreo")
            process.arguments = ["target", "--port", "0"]
            // The log goes to a file: an unread pipe would fill and stall the target.
            let logPath = NSTemporaryDirectory() + "choreo-bench-target-\(index)-\(getpid()).log"
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: logPath)
            try process.run()
            targetProcesses.append(process)
            var port: UInt16 = 0
            let deadline = Date().addingTimeInterval(10)
            while port == 0 && Date() < deadline {
                let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                if let range = text.range(of: "\"port\":") {
                    port = UInt16(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
                } else {
                    usleep(20_000)
                }
            }
            ports.append(port)
        }
        return ports
    }

    static func stopTargets() {
        for process in targetProcesses { process.terminate() }
        targetProcesses = []
    }

    /// User + system CPU of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
