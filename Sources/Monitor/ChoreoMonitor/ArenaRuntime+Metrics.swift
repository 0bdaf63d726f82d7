import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import Dispatch
import Foundation
import Synchronization

/// The arena's lines of `/metrics`.
extension ArenaRuntime {
    /// The arena's Prometheus lines for `/metrics`.
    public func metricsText(now: Double = Date().timeIntervalSince1970) -> String {
        func label(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
        let health = prober.snapshot()
        let (counts, durations) = prober.counters()
        var lines: [String] = []
        lines.append("# HELP choreo_arena_event_streams Open GET /v1/arena/events streams (at most 64).")
        lines.append("# TYPE choreo_arena_event_streams gauge")
        lines.append("choreo_arena_event_streams \(subscriberCount)")
        lines.append("# HELP choreo_arena_leader Whether this replica probes and runs rounds (1) or follows (0).")
        lines.append("# TYPE choreo_arena_leader gauge")
        lines.append("choreo_arena_leader \(isLeader ? 1 : 0)")
        lines.append("# HELP choreo_arena_node_up Whether the node is up (1) or not (0).")
        lines.append("# TYPE choreo_arena_node_up gauge")
        for node in health {
            lines.append("choreo_arena_node_up{node=\"\(label(node.name))\"} \(node.status == .up ? 1 : 0)")
        }
        lines.append(
            "# HELP choreo_arena_node_maintenance Whether a maintenance window holds for the node (1) or not (0).")
        lines.append("# TYPE choreo_arena_node_maintenance gauge")
        let nowMs = Int64((now * 1000).rounded())
        for node in health {
            lines.append(
                "choreo_arena_node_maintenance{node=\"\(label(node.name))\"} \(inMaintenance(node.name, atMs: nowMs) ? 1 : 0)"
            )
        }
        lines.append("# HELP choreo_arena_node_status The node's status: 1 up, 0 down, 2 pending, 4 degraded.")
        lines.append("# TYPE choreo_arena_node_status gauge")
        for node in health {
            let value =
                switch node.status {
                case .up: 1
                case .down: 0
                case .pending: 2
                case .degraded: 4
                }
            lines.append("choreo_arena_node_status{node=\"\(label(node.name))\"} \(value)")
        }
        lines.append("# HELP choreo_arena_node_latency_seconds The node's latest probe time (absent while it is down).")
        lines.append("# TYPE choreo_arena_node_latency_seconds gauge")
        for node in health where node.status != .down {
            guard let latency = node.lastLatencyMs else { continue }
            lines.append("choreo_arena_node_latency_seconds{node=\"\(label(node.name))\"} \(latency / 1000)")
        }
        lines.append(
            "# HELP choreo_arena_node_last_check_timestamp_seconds When the node's latest probe ended (Unix time).")
        lines.append("# TYPE choreo_arena_node_last_check_timestamp_seconds gauge")
        for node in health {
            guard let checked = node.lastChecked else { continue }
            lines.append("choreo_arena_node_last_check_timestamp_seconds{node=\"\(label(node.name))\"} \(checked)")
        }
        lines.append("# HELP choreo_arena_probe_duration_seconds Time each health probe took, by node.")
        lines.append("# TYPE choreo_arena_probe_duration_seconds histogram")
        for node in health {
            let histogram = durations[node.name] ?? DurationHistogram()
            let name = label(node.name)
            for (index, bound) in DurationHistogram.bounds.enumerated() {
                lines.append(
                    "choreo_arena_probe_duration_seconds_bucket{node=\"\(name)\",le=\"\(bound)\"} \(histogram.buckets[index])"
                )
            }
            lines.append("choreo_arena_probe_duration_seconds_bucket{node=\"\(name)\",le=\"+Inf\"} \(histogram.count)")
            lines.append("choreo_arena_probe_duration_seconds_sum{node=\"\(name)\"} \(histogram.sum)")
            lines.append("choreo_arena_probe_duration_seconds_count{node=\"\(name)\"} \(histogram.count)")
        }
        lines.append("# HELP choreo_arena_probes_total Probes by node and result.")
        lines.append("# TYPE choreo_arena_probes_total counter")
        for node in health {
            for kind in [ProbeVerdict.Kind.up, .degraded, .failed] {
                let count = counts[node.name]?[kind] ?? 0
                lines.append(
                    "choreo_arena_probes_total{node=\"\(label(node.name))\",result=\"\(kind.rawValue)\"} \(count)")
            }
        }
        let (rounds, current) = state.withLock { ($0.rounds, $0.current) }
        let running = current.map { now - $0.started < $0.duration } ?? false
        lines.append("# HELP choreo_arena_rounds_total Rounds started.")
        lines.append("# TYPE choreo_arena_rounds_total counter")
        lines.append("choreo_arena_rounds_total \(rounds)")
        lines.append("# HELP choreo_arena_round_running Whether a round is running.")
        lines.append("# TYPE choreo_arena_round_running gauge")
        lines.append("choreo_arena_round_running \(running ? 1 : 0)")
        lines.append("# HELP choreo_arena_round_elapsed_seconds Seconds into the current (or last) round.")
        lines.append("# TYPE choreo_arena_round_elapsed_seconds gauge")
        lines.append(
            "choreo_arena_round_elapsed_seconds \(current.map { min(max(now - $0.started, 0), $0.duration) } ?? 0)")
        lines += uptimeMetricLines(now: nowMs, label: label)
        lines += alertMetricLines(label: label)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `choreo_arena_node_uptime_ratio{node,window}` for 1h and 24h (minute buckets) and 7d and
    /// 30d (hour buckets): one query per window, whatever the number of nodes.
    func uptimeMetricLines(now nowMs: Int64, label: (String) -> String) -> [String] {
        let windows: [(String, Int64)] = [
            ("1h", UptimeBucket.minute), ("24h", UptimeBucket.minute), ("7d", UptimeBucket.hour),
            ("30d", UptimeBucket.hour),
        ]
        let (writes, writeSeconds) = state.withLock { ($0.historyWrites, $0.historyWriteSeconds) }
        var lines = [
            "# HELP choreo_arena_history_writes_total Writes of probes and their buckets (one transaction each).",
            "# TYPE choreo_arena_history_writes_total counter",
            "choreo_arena_history_writes_total \(writes)",
            "# HELP choreo_arena_history_write_seconds_total Seconds those writes took.",
            "# TYPE choreo_arena_history_write_seconds_total counter",
            "choreo_arena_history_write_seconds_total \(writeSeconds)",
        ]
        if let counts = try? store.bucketCounts() {
            lines.append(
                "# HELP choreo_arena_history_buckets Minute, hour and day buckets of probes kept (every node's).")
            lines.append("# TYPE choreo_arena_history_buckets gauge")
            for (name, resolution) in [
                ("minute", UptimeBucket.minute), ("hour", UptimeBucket.hour), ("day", UptimeBucket.day),
            ] {
                lines.append("choreo_arena_history_buckets{resolution=\"\(name)\"} \(counts[resolution] ?? 0)")
            }
        }
        lines += [
            "# HELP choreo_arena_node_uptime_ratio The share of the node's probes that answered over the window (maintenance left out), from whole minute or hour buckets.",
            "# TYPE choreo_arena_node_uptime_ratio gauge",
        ]
        let names = configuration.nodes.map(\.name)
        for (window, resolution) in windows {
            let length = NodeUptime.windowMilliseconds(window)!
            let fromMs = UptimeBucket.start(of: nowMs - length + resolution - 1, resolution: resolution)
            guard let totals = try? store.bucketTotals(resolution: resolution, fromMs: fromMs) else { return [] }
            for name in names {
                guard let sums = totals[name], sums.total > 0 else { continue }
                lines.append(
                    "choreo_arena_node_uptime_ratio{node=\"\(label(name))\",window=\"\(window)\"} \(Double(sums.up) / Double(sums.total))"
                )
            }
        }
        return lines
    }
}
