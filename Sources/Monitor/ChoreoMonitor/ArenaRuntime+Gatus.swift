import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoService
import Foundation

/// Gatus's read API over the arena's nodes (docs/arena.md), as documents: dashboards and README
/// badges made for Gatus read choreo unchanged. The nodes are found by their Gatus key
/// (``node(forKey:)``); a window is one of Gatus's durations.
extension ArenaRuntime {
    /// Gatus's durations.
    public static let gatusDurations = ["1h", "24h", "7d", "30d"]

    /// One of Gatus's durations, or invalid at `path.duration` (400 in Gatus).
    public static func checkGatusDuration(_ duration: String) throws(ServiceError) {
        guard gatusDurations.contains(duration) else {
            throw ServiceError.unsupportedDuration(
                ValidationFailure([
                    FieldError(path: "path.duration", message: "durations supported: 1h, 24h, 7d, 30d, not \(duration)")
                ]))
        }
    }

    /// `GET /api/v1/endpoints/statuses?page=&pageSize=`: every node as a Gatus endpoint.
    public func gatusStatuses(parameters: [(String, String)] = []) throws(ServiceError) -> JSONValue {
        let page = GatusDocuments.Page(parameters)
        return .array(try nodes.map { node throws(ServiceError) in try gatusEndpoint(node, page: page) })
    }

    /// `GET /api/v1/endpoints/{key}/statuses?page=&pageSize=`.
    public func gatusEndpoint(key: String, parameters: [(String, String)] = []) throws(ServiceError) -> JSONValue {
        try gatusEndpoint(try node(forKey: key), page: GatusDocuments.Page(parameters))
    }

    /// One endpoint with a page of its results; its events (`START` at the oldest recorded
    /// probe, then each change) from all of them, as Gatus keeps its events apart.
    private func gatusEndpoint(_ node: NodeHealth, page: GatusDocuments.Page) throws(ServiceError) -> JSONValue {
        let results = try gatusResults(of: node)
        return GatusDocuments.endpoint(
            name: node.name, results: results, page: page, startedMs: results.first?.timeMs)
    }

    /// The node a Gatus route names and its uptime over one of Gatus's durations (invalid at
    /// `path.duration` otherwise, as Gatus refuses it).
    public func gatusUptime(key: String, duration: String) throws(ServiceError) -> UptimeReport {
        try Self.checkGatusDuration(duration)
        let node = try node(forKey: key)
        return try uptime(of: node.name, parameters: [("window", duration)])
    }

    /// The badges of Gatus's routes.
    public enum GatusBadge: Sendable {
        /// `…/uptimes/{duration}/badge.svg`: the ratio, coloured by it.
        case uptime
        /// `…/response-times/{duration}/badge.svg`: the mean of the answered probes.
        case responseTime
    }

    /// A badge's SVG; `style` and `label` are shields' parameters.
    public func gatusBadge(_ badge: GatusBadge, key: String, duration: String, parameters: [(String, String)])
        throws(ServiceError) -> [UInt8]
    {
        let (style, label) = Self.badgeOptions(parameters)
        let uptime = try gatusUptime(key: key, duration: duration).uptime
        switch badge {
        case .uptime:
            return GatusDocuments.badge(
                label: label ?? "uptime \(duration)", value: GatusDocuments.percent(uptime.ratio),
                color: GatusDocuments.uptimeColor(uptime.ratio), style: style)
        case .responseTime:
            let value = uptime.meanLatencyMicroseconds.map { "\(Int(($0 / 1000).rounded()))ms" } ?? "no data"
            return GatusDocuments.badge(
                label: label ?? "response time \(duration)", value: value,
                color: GatusDocuments.responseTimeColor(uptime.meanLatencyMicroseconds), style: style)
        }
    }

    /// `…/response-times/{duration}/chart.svg`: the answered probes of the window.
    public func gatusChart(key: String, duration: String) throws(ServiceError) -> [UInt8] {
        let report = try gatusUptime(key: key, duration: duration)
        let points = try history(of: report.node).filter {
            $0.verdict.answered && $0.timeMs >= report.uptime.fromMs && $0.timeMs < report.uptime.toMs
        }.map { (timeMs: $0.timeMs, microseconds: $0.latencyMicroseconds) }
        return GatusDocuments.chart(points: points, fromMs: report.uptime.fromMs, toMs: report.uptime.toMs)
    }

    /// `…/health/badge.shields`: shields.io's endpoint JSON, now.
    public func gatusShields(
        key: String, parameters: [(String, String)], now: Double = Date().timeIntervalSince1970
    ) throws(ServiceError) -> JSONValue {
        let label = Self.badgeOptions(parameters).label
        let node = try node(forKey: key)
        let maintenance = inMaintenance(node.name, atMs: Int64((now * 1000).rounded()))
        return GatusDocuments.shields(label: label ?? node.name, status: node.status, maintenance: maintenance)
    }

    /// The wallboard's kiosk options (`GET /arena`, read by its script, checked here so that a
    /// mistyped kiosk URL says so instead of showing defaults): `window` (1h, 24h, 7d, 30d),
    /// `theme` (dark, light), `nodes` (names, comma-separated), `kiosk` (0, 1).
    public static func checkWallboardOptions(_ query: [(String, String)]) throws(ServiceError) {
        let allowed: [String: Set<String>?] = [
            "window": Set(gatusDurations), "theme": ["dark", "light"], "nodes": nil, "kiosk": ["0", "1"],
        ]
        var errors: [FieldError] = []
        for (name, value) in query {
            guard let values = allowed[name] else {
                let near = Vocabulary.suggestion(for: name, among: allowed.keys)
                errors.append(
                    FieldError(
                        path: "query.\(name)",
                        message: "unknown option (window, theme, nodes, kiosk)"
                            + (near.map { "; did you mean \"\($0)\"?" } ?? ""), suggestion: near))
                continue
            }
            if let values, !values.contains(value) {
                errors.append(
                    FieldError(
                        path: "query.\(name)", message: "must be one of \(values.sorted().joined(separator: ", "))"))
            }
        }
        if !errors.isEmpty { throw ServiceError.invalidRequest(ValidationFailure(errors)) }
    }

    /// shields' `style` and `label` parameters; others are ignored, as shields and Gatus do.
    static func badgeOptions(_ parameters: [(String, String)]) -> (style: String?, label: String?) {
        (parameters.last { $0.0 == "style" }?.1, parameters.last { $0.0 == "label" }?.1)
    }
}
