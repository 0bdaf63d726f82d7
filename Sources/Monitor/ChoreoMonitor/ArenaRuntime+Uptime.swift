import ChoreoArena
import ChoreoFormat
import ChoreoService
import ChoreoStorage
import Foundation

/// Uptime and the Gatus-compatible reads, from the node's recorded probes (the newest
/// ``probesKeptPerNode`` of each node) and, before them, its minute, hour and day buckets.
extension ArenaRuntime {
    /// A node's uptime over a window, as `GET /v1/arena/nodes/{name}/uptime` answers it.
    public struct UptimeReport: Sendable, Equatable {
        public let node: String
        /// The window's name (`24h`), or `custom` for `from`/`to`.
        public let window: String
        public let uptime: NodeUptime
    }

    /// `window` (1h, 24h, 7d, 30d, 90d, 1y; 24h by default) or `from` and `to` (RFC 3339; `to`
    /// defaults to now). Not found for a node the configuration does not name.
    public func uptime(
        of node: String, parameters: [(String, String)], now: Double = Date().timeIntervalSince1970
    ) throws(ServiceError) -> UptimeReport {
        guard configuration.nodes.contains(where: { $0.name == node }) else {
            throw ServiceError.notFound("No node named \(node) in the arena.")
        }
        var window: String?
        var from: Double?
        var to: Double?
        var including = false
        var errors: [FieldError] = []
        for (key, value) in parameters {
            switch key {
            case "maintenance": including = Self.includesMaintenance(value, into: &errors)
            case "window":
                if NodeUptime.windowMilliseconds(value) != nil {
                    window = value
                } else {
                    errors.append(
                        FieldError(
                            path: "query.window",
                            message:
                                "must be one of \(NodeUptime.windowNames.joined(separator: ", ")), or give from and to"
                        ))
                }
            case "from": from = Self.timeParameter(key, value, into: &errors)
            case "to": to = Self.timeParameter(key, value, into: &errors)
            default:
                errors.append(
                    FieldError(path: "query.\(key)", message: "unknown query parameter (window, from, to, maintenance)")
                )
            }
        }
        if window != nil && (from != nil || to != nil) {
            errors.append(FieldError(path: "query.window", message: "give window, or from and to, not both"))
        }
        if to != nil && from == nil {
            errors.append(FieldError(path: "query.from", message: "required with to"))
        }
        if let from, let to, to <= from {
            errors.append(FieldError(path: "query.to", message: "must be after from"))
        }
        if !errors.isEmpty { throw ServiceError.invalidRequest(ValidationFailure(errors)) }
        let nowMs = Int64((now * 1000).rounded())
        let toMs = to.map { Int64(($0 * 1000).rounded()) } ?? nowMs
        let fromMs =
            from.map { Int64(($0 * 1000).rounded()) } ?? toMs - NodeUptime.windowMilliseconds(window ?? "24h")!
        let probes = try uptimeProbes(of: node)
        let buckets = try uptimeBuckets(of: node, fromMs: fromMs, toMs: toMs)
        return UptimeReport(
            node: node, window: from == nil ? window ?? "24h" : "custom",
            uptime: NodeUptime(
                probes: probes, buckets: buckets, fromMs: fromMs, toMs: toMs, nowMs: nowMs,
                includingMaintenance: including))
    }

    /// A node's recorded probes for uptime: those made while a maintenance window held are
    /// marked to be left out.
    func uptimeProbes(of node: String) throws(ServiceError) -> [NodeUptime.Probe] {
        // Each window's time zone looked up once, not once a probe.
        let windows = configuration.maintenance.filter { $0.covers(node) }.map { ($0, Self.offset($0)) }
        return try history(of: node).map { row in
            NodeUptime.Probe(
                timeMs: row.timeMs, up: row.verdict.answered, latencyMicroseconds: row.latencyMicroseconds,
                excluded: windows.contains { $0.0.holds(atMs: row.timeMs, offset: $0.1) })
        }
    }

    /// A month's service level for `GET /v1/arena/nodes/{name}/sla?month=2026-11`: the month's
    /// uptime and each day's (UTC).
    public struct SLAReport: Sendable, Equatable {
        public let node: String
        public let month: String
        public let total: NodeUptime
        public let days: [NodeUptime]
    }

    /// `month` (required, `2026-11`) and `format` (`json` or `csv`, read by the edge).
    public func sla(
        of node: String, parameters: [(String, String)], now: Double = Date().timeIntervalSince1970
    ) throws(ServiceError) -> SLAReport {
        guard configuration.nodes.contains(where: { $0.name == node }) else {
            throw ServiceError.notFound("No node named \(node) in the arena.")
        }
        var month: (name: String, range: (fromMs: Int64, toMs: Int64, days: Int))?
        var including = false
        var errors: [FieldError] = []
        for (key, value) in parameters {
            switch key {
            case "maintenance": including = Self.includesMaintenance(value, into: &errors)
            case "month":
                switch CivilTime.parse(month: value) {
                case .success(let range): month = (value, range)
                case .failure(let refusal): errors.append(FieldError(path: "query.month", message: refusal.message))
                }
            case "format":
                if value != "json" && value != "csv" {
                    errors.append(FieldError(path: "query.format", message: "must be json or csv"))
                }
            default:
                errors.append(
                    FieldError(path: "query.\(key)", message: "unknown query parameter (month, format, maintenance)"))
            }
        }
        if month == nil && !errors.contains(where: { $0.path == "query.month" }) {
            errors.append(FieldError(path: "query.month", message: "is required: a month, as 2026-11"))
        }
        guard let month, errors.isEmpty else { throw ServiceError.invalidRequest(ValidationFailure(errors)) }
        let probes = try uptimeProbes(of: node)
        let buckets = try uptimeBuckets(of: node, fromMs: month.range.fromMs, toMs: month.range.toMs)
        // Only time up to now is watched: a day to come has no time-weighted figure.
        let nowMs = Int64((now * 1000).rounded())
        let days = (0..<month.range.days).map { day in
            let from = month.range.fromMs + Int64(day) * 86_400_000
            return NodeUptime(
                probes: probes, buckets: buckets, fromMs: from, toMs: from + 86_400_000, nowMs: nowMs,
                includingMaintenance: including)
        }
        return SLAReport(
            node: node, month: month.name,
            total: NodeUptime(
                probes: probes, buckets: buckets, fromMs: month.range.fromMs, toMs: month.range.toMs, nowMs: nowMs,
                includingMaintenance: including),
            days: days)
    }

    /// A `maintenance` query parameter: whether probes made in maintenance count (`include`),
    /// or an error naming it.
    static func includesMaintenance(_ value: String, into errors: inout [FieldError]) -> Bool {
        guard value == "include" || value == "exclude" else {
            errors.append(FieldError(path: "query.maintenance", message: "must be exclude (the default) or include"))
            return false
        }
        return value == "include"
    }

    /// The node whose key is `key`, choreo's or Gatus's (``GatusDocuments/gatusKey(_:group:)``);
    /// not found otherwise.
    public func node(forKey key: String) throws(ServiceError) -> NodeHealth {
        guard
            let node = nodes.first(where: { GatusDocuments.key($0.name) == key })
                ?? nodes.first(where: { GatusDocuments.gatusKey($0.name) == key })
        else {
            throw ServiceError.notFound("No node has the key \(key).")
        }
        return node
    }

    /// A node's recorded probes as Gatus's results, oldest first.
    public func gatusResults(of node: NodeHealth) throws(ServiceError) -> [GatusDocuments.Result] {
        let host = URLComponents(string: node.url)?.host ?? ""
        return try history(of: node.name).map { row in
            GatusDocuments.Result(
                timeMs: row.timeMs, success: row.verdict.answered, httpStatus: row.httpStatus, hostname: host,
                durationNanoseconds: row.latencyMicroseconds * 1000,
                errors: row.verdict == .failed ? [row.reason ?? "failed"] : [])
        }
    }
}
