import ChoreoJSON

/// The monitor's documents (docs/arena.md): a node's uptime, its response-time buckets, its
/// month's SLA as JSON or CSV, maintenance windows, a started round and recorded probes. The
/// HTTP edge hands them over as they are.
public enum MonitorDocuments {
    /// `GET /v1/arena/nodes/{name}/uptime`.
    public static func uptime(node: String, window: String, _ uptime: NodeUptime) -> JSONValue {
        [
            "node": .string(node), "window": .string(window),
            "from": .string(GatusDocuments.timestamp(uptime.fromMs)),
            "to": .string(GatusDocuments.timestamp(uptime.toMs)),
            "probes": ["total": .number(Double(uptime.total)), "up": .number(Double(uptime.up))],
            "uptime": uptime.ratio.map { .number($0) } ?? .null,
            "timeWeighted": uptime.timeWeighted.map { .number($0) } ?? .null,
            "maintenanceExcluded": .number(Double(uptime.excludedMilliseconds) / 1000),
            "maintenanceExcludedProbes": .number(Double(uptime.excludedProbes)),
            "meanLatencyMs": uptime.meanLatencyMicroseconds.map { .number($0 / 1000) } ?? .null,
        ]
    }

    /// `GET /v1/arena/nodes/{name}/response-times`: each bucket with its probes, uptime and
    /// response-time percentiles (milliseconds to three decimals).
    public static func responseTimes(
        node: String, resolution: String, fromMs: Int64, toMs: Int64, _ buckets: [UptimeBucket]
    ) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        let items: [JSONValue] = buckets.map { bucket in
            .object(
                JSONObject([
                    ("start", .string(GatusDocuments.timestamp(bucket.startMs))),
                    ("probes", .number(Double(bucket.total))), ("up", .number(Double(bucket.up))),
                    ("uptime", bucket.total == 0 ? .null : .number(Double(bucket.up) / Double(bucket.total))),
                    (
                        "timeWeighted",
                        bucket.coveredMs == 0 ? .null : .number(Double(bucket.upMs) / Double(bucket.coveredMs))
                    ),
                    (
                        "meanMs",
                        number(
                            bucket.latencyCount == 0
                                ? nil : Double(bucket.latencySumMicroseconds) / Double(bucket.latencyCount) / 1000)
                    ),
                    ("p50Ms", number(bucket.latencyPercentile(0.5))),
                    ("p95Ms", number(bucket.latencyPercentile(0.95))),
                    ("p99Ms", number(bucket.latencyPercentile(0.99))),
                    ("maintenanceProbes", .number(Double(bucket.excluded))),
                ]))
        }
        return [
            "node": .string(node), "resolution": .string(resolution),
            "from": .string(GatusDocuments.timestamp(fromMs)), "to": .string(GatusDocuments.timestamp(toMs)),
            "buckets": .array(items),
        ]
    }

    /// `GET /v1/arena/nodes/{name}/sla?month=`: the month's uptime and each day's.
    public static func sla(node: String, month: String, total: NodeUptime, days: [NodeUptime]) -> JSONValue {
        func entry(_ uptime: NodeUptime) -> [(String, JSONValue)] {
            [
                ("probes", ["total": .number(Double(uptime.total)), "up": .number(Double(uptime.up))]),
                ("uptime", uptime.ratio.map { .number($0) } ?? .null),
                ("timeWeighted", uptime.timeWeighted.map { .number($0) } ?? .null),
                ("meanLatencyMs", uptime.meanLatencyMicroseconds.map { .number($0 / 1000) } ?? .null),
                ("maintenanceExcluded", .number(Double(uptime.excludedMilliseconds) / 1000)),
                ("watched", .number(Double(uptime.watchedMilliseconds) / 1000)),
                ("watchedShare", .number(uptime.watchedShare)),
            ]
        }
        let dayItems: [JSONValue] = days.map { .object(JSONObject([("date", .string(date($0.fromMs)))] + entry($0))) }
        return .object(
            JSONObject(
                [
                    ("node", .string(node)), ("month", .string(month)),
                    ("from", .string(GatusDocuments.timestamp(total.fromMs))),
                    ("to", .string(GatusDocuments.timestamp(total.toMs))),
                ] + entry(total) + [("days", .array(dayItems))]))
    }

    /// `…/sla?format=csv`: a line a day, then the month's `total`.
    public static func slaCSV(total: NodeUptime, days: [NodeUptime]) -> [UInt8] {
        func ratio(_ value: Double?) -> String { value.map { String($0) } ?? "" }
        var lines = [
            "date,probes,up,uptime,time_weighted,mean_latency_ms,maintenance_excluded_s,watched_s,watched_share"
        ]
        for day in days + [total] {
            let label = day == total ? "total" : date(day.fromMs)
            lines.append(
                "\(label),\(day.total),\(day.up),\(ratio(day.ratio)),\(ratio(day.timeWeighted)),"
                    + "\(day.meanLatencyMicroseconds.map { String($0 / 1000) } ?? ""),\(Double(day.excludedMilliseconds) / 1000),"
                    + "\(Double(day.watchedMilliseconds) / 1000),\(day.watchedShare)"
            )
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    private static func date(_ ms: Int64) -> String { String(GatusDocuments.timestamp(ms).prefix(10)) }

    /// A maintenance window with `active`: whether it holds now.
    public static func maintenance(_ window: MaintenanceWindow, active: Bool) -> JSONValue {
        guard case .object(var object) = window.json else { return window.json }
        object["active"] = .bool(active)
        return .object(object)
    }

    /// `POST /v1/arena/rounds`: the round started.
    public static func round(id: Int, started: Double, duration: Double, order: [String], champion: String?)
        -> JSONValue
    {
        [
            "id": .number(Double(id)), "started": .number(started), "duration": .number(duration),
            "order": .array(order.map { .string($0) }), "champion": champion.map { .string($0) } ?? .null,
        ]
    }

    /// An alert firing now, as `alerts/state` lists it.
    public struct Firing: Sendable {
        public let rule: String
        public let node: String
        public let sinceMs: Int64
        public let sequence: Int
        public let description: String

        public init(rule: String, node: String, sinceMs: Int64, sequence: Int, description: String) {
            (self.rule, self.node, self.sinceMs, self.sequence, self.description) =
                (rule, node, sinceMs, sequence, description)
        }
    }

    /// A delivery of an alert to a channel, as `alerts/state` lists it.
    public struct Delivery: Sendable {
        public let key: String
        public let channel: String
        public let outcome: Outcome
        public let attempts: Int
        public let lastError: String?
        public let createdMs: Int64
        public let nextMs: Int64

        public init(
            key: String, channel: String, outcome: Outcome, attempts: Int, lastError: String?, createdMs: Int64,
            nextMs: Int64
        ) {
            (self.key, self.channel, self.outcome, self.attempts) = (key, channel, outcome, attempts)
            (self.lastError, self.createdMs, self.nextMs) = (lastError, createdMs, nextMs)
        }

        /// Where the delivery stands: not delivered yet (due again at `next`), sent, or given up on.
        public enum Outcome: String, Sendable, CaseIterable {
            case retrying, sent, failed
        }
    }

    /// `GET /v1/arena/alerts/state`: `{"firing": [...], "deliveries": [...]}`.
    public static func alertState(firing: [Firing], deliveries: [Delivery]) -> JSONValue {
        [
            "firing": .array(
                firing.map {
                    .object(
                        JSONObject([
                            ("rule", .string($0.rule)), ("node", .string($0.node)),
                            ("since", .string(GatusDocuments.timestamp($0.sinceMs))),
                            ("sequence", .number(Double($0.sequence))), ("description", .string($0.description)),
                        ]))
                }),
            "deliveries": .array(
                deliveries.map {
                    .object(
                        JSONObject([
                            ("idempotencyKey", .string($0.key)), ("channel", .string($0.channel)),
                            ("outcome", .string($0.outcome.rawValue)), ("attempts", .number(Double($0.attempts))),
                            ("lastError", $0.lastError.map { .string($0) } ?? .null),
                            ("created", .string(GatusDocuments.timestamp($0.createdMs))),
                            ("next", $0.outcome == .retrying ? .string(GatusDocuments.timestamp($0.nextMs)) : .null),
                        ]))
                }),
        ]
    }

    /// A node's recorded probes, oldest first: `GET /v1/arena/nodes/{name}/history`.
    public struct NodeHistory: Sendable {
        public let node: String
        public let probes: [Probe]

        public init(node: String, probes: [Probe]) {
            self.node = node
            self.probes = probes
        }
    }

    /// A recorded probe, as `history` lists it.
    public struct Probe: Sendable {
        public let timeMs: Int64
        public let url: String
        public let verdict: ProbeVerdict.Kind
        public let reason: String?
        public let httpStatus: Int?
        public let latencyMicroseconds: Int64

        public init(
            timeMs: Int64, url: String, verdict: ProbeVerdict.Kind, reason: String?, httpStatus: Int?,
            latencyMicroseconds: Int64
        ) {
            self.timeMs = timeMs
            self.url = url
            self.verdict = verdict
            self.reason = reason
            self.httpStatus = httpStatus
            self.latencyMicroseconds = latencyMicroseconds
        }
    }

    /// `{"node": …, "probes": [{"time", "url", "verdict", "reason", "httpStatus", "latencyMs"}]}`,
    /// each URL with its credentials redacted.
    public static func history(_ history: NodeHistory) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"node\":")
        writer.string(history.node)
        writer.raw(",\"probes\":")
        writer.array(history.probes) { writer, row in
            writer.value([
                "time": .number(Double(row.timeMs) / 1000), "url": .string(URLRedaction.redacted(row.url)),
                "verdict": .string(row.verdict.rawValue),
                "reason": row.reason.map { .string($0) } ?? .null,
                "httpStatus": row.httpStatus.map { .number(Double($0)) } ?? .null,
                "latencyMs": .number(Double(row.latencyMicroseconds) / 1000),
            ])
        }
        writer.raw("}")
        return writer.bytes
    }
}
