import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoService

/// The monitor's answers as the documents the API sends (``MonitorDocuments``): the edge
/// hands them to a response as they are.
extension ArenaRuntime.UptimeReport {
    /// `GET /v1/arena/nodes/{name}/uptime`'s JSON.
    public var document: JSONValue { MonitorDocuments.uptime(node: node, window: window, uptime) }
    /// The ratio alone (`text/plain`; empty without probes).
    public var text: String { uptime.ratio.map { String($0) } ?? "" }
}

extension ArenaRuntime.ResponseTimes {
    /// `GET /v1/arena/nodes/{name}/response-times`'s JSON.
    public var document: JSONValue {
        MonitorDocuments.responseTimes(node: node, resolution: resolution, fromMs: fromMs, toMs: toMs, buckets)
    }
}

extension ArenaRuntime.SLAReport {
    /// `GET /v1/arena/nodes/{name}/sla`'s JSON.
    public var document: JSONValue { MonitorDocuments.sla(node: node, month: month, total: total, days: days) }
    /// The same as CSV (`format=csv`).
    public var csv: [UInt8] { MonitorDocuments.slaCSV(total: total, days: days) }
}

extension ArenaRuntime.MaintenanceState {
    /// A maintenance window as `/v1/arena/maintenance` answers it.
    public var document: JSONValue { MonitorDocuments.maintenance(window, active: active) }
}

extension ArenaRuntime.Round {
    /// `POST /v1/arena/rounds`' answer: the round just started.
    public var document: JSONValue {
        MonitorDocuments.round(id: id, started: started, duration: duration, order: order, champion: champion)
    }
}

extension ArenaRuntime {
    /// How `GET /v1/arena` is asked for: `format=json` (the default) or `format=text`.
    public enum StatusFormat: Sendable { case json, text }

    /// `GET /v1/arena`'s query: only `format`, `json` or `text`.
    public static func statusFormat(_ parameters: [(String, String)]) throws(ServiceError) -> StatusFormat {
        var format = StatusFormat.json
        for (name, value) in parameters {
            guard name == "format", value == "json" || value == "text" else {
                throw ServiceError.invalidQuery("query.\(name)", "only format=json or format=text")
            }
            format = value == "text" ? .text : .json
        }
        return format
    }

    /// `GET /v1/arena/config`'s document: node URLs as configured and secrets shown only to a
    /// caller that may change them (`mayChange`: with the token, or on a server without one);
    /// others see them redacted.
    public func configurationDocument(mayChange: Bool) -> JSONValue {
        var configuration = self.configuration
        if !mayChange {
            for index in configuration.nodes.indices {
                configuration.nodes[index].url = URLRedaction.redacted(configuration.nodes[index].url)
            }
        }
        return ArenaConfigurationCodec.encode(configuration, redactSecrets: !mayChange)
    }

    /// `GET /v1/arena/maintenance`: `{"windows": [...]}`.
    public func maintenanceDocument() -> JSONValue { ["windows": .array(maintenance().map(\.document))] }
}
