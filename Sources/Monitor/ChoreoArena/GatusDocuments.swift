import ChoreoJSON

/// Gatus's read API, so that dashboards and README badges made for Gatus read the arena
/// unchanged (docs/arena.md): endpoint statuses, uptime and response-time badges, the
/// shields.io endpoint JSON.
public enum GatusDocuments {
    /// A node's key: its name with spaces, `/`, `_`, `,`, `.`, `#`, `+` and `&` replaced by `-`
    /// (Gatus's rule for an endpoint without a group).
    public static func key(_ name: String) -> String {
        String(name.map { " /_,.#+&".contains($0) ? "-" : $0 })
    }

    /// A node's key as Gatus makes it: `<group>_<name>`, each lower-cased with spaces, `/`, `_`,
    /// `,`, `.`, `#`, `+` and `&` as `-` (`_flap`, `_web-server-01` for a node without a group).
    /// The Gatus routes take it beside choreo's own ``key(_:)``.
    public static func gatusKey(_ name: String, group: String = "") -> String {
        func sanitized(_ text: String) -> String { key(text.lowercased()) }
        return sanitized(group) + "_" + sanitized(name)
    }

    /// A page of an endpoint's results, as Gatus's `page` (from 1, the newest results) and
    /// `pageSize` (50 by default, at most 100) ask: a value that is not a whole number from 1 is
    /// read as its default, and a larger size as 100, as Gatus reads them.
    public struct Page: Sendable, Equatable {
        public let number: Int
        public let size: Int

        public static let defaultSize = 50
        public static let maximumSize = 100

        public init(number: Int = 1, size: Int = Page.defaultSize) {
            self.number = max(1, number)
            self.size = min(max(1, size), Page.maximumSize)
        }

        /// `page` and `pageSize` from a query; other parameters are ignored.
        public init(_ parameters: [(String, String)]) {
            var number = 1
            var size = Page.defaultSize
            for (name, value) in parameters {
                guard let whole = Int(value), whole >= 1 else { continue }
                if name == "page" { number = whole }
                if name == "pageSize" { size = whole }
            }
            self.init(number: number, size: size)
        }

        /// The page of `items` (oldest first): the newest `size` for page 1, the `size` before
        /// them for page 2, …, still oldest first.
        public func slice<Item>(_ items: [Item]) -> ArraySlice<Item> {
            let (skipped, overflow) = (number - 1).multipliedReportingOverflow(by: size)
            let end = overflow ? 0 : max(0, items.count - skipped)
            return items[max(0, end - size)..<end]
        }
    }

    /// One probe as Gatus reports a result.
    public struct Result: Sendable, Equatable {
        public let timeMs: Int64
        public let success: Bool
        /// The answer's status; nil when there was none (refused, timed out), and then left out
        /// of the result as Gatus leaves it out.
        public let httpStatus: Int?
        public let hostname: String
        public let durationNanoseconds: Int64
        public let errors: [String]

        public init(
            timeMs: Int64, success: Bool, httpStatus: Int?, hostname: String, durationNanoseconds: Int64,
            errors: [String]
        ) {
            self.timeMs = timeMs
            self.success = success
            self.httpStatus = httpStatus
            self.hostname = hostname
            self.durationNanoseconds = durationNanoseconds
            self.errors = errors
        }
    }

    /// An endpoint's status: its name, key, results (oldest first) and events (`START`, then
    /// `HEALTHY` / `UNHEALTHY` at each change of the results' success).
    public static func endpoint(name: String, results: [Result], page: Page = Page(), startedMs: Int64?) -> JSONValue {
        var events: [JSONValue] = []
        if let startedMs { events.append(["type": "START", "timestamp": .string(timestamp(startedMs))]) }
        var last: Bool?
        for result in results where result.success != last {
            events.append(
                [
                    "type": .string(result.success ? "HEALTHY" : "UNHEALTHY"),
                    "timestamp": .string(timestamp(result.timeMs)),
                ])
            last = result.success
        }
        let items: [JSONValue] = page.slice(results).map { result in
            var fields: [(String, JSONValue)] = []
            if let status = result.httpStatus, status > 0 { fields.append(("status", .number(Double(status)))) }
            fields += [
                ("hostname", .string(result.hostname)), ("duration", .number(Double(result.durationNanoseconds))),
                ("errors", .array(result.errors.map { .string($0) })), ("success", .bool(result.success)),
                ("timestamp", .string(timestamp(result.timeMs))),
            ]
            return .object(JSONObject(fields))
        }
        return [
            "name": .string(name), "group": "", "key": .string(key(name)), "results": .array(items),
            "events": .array(events),
        ]
    }

    /// shields.io's endpoint JSON for a node's health.
    public static func shields(label: String, status: ArenaStanding.Status, maintenance: Bool = false) -> JSONValue {
        let (message, color): (String, String)
        if maintenance {
            (message, color) = ("maintenance", "blue")
        } else {
            (message, color) =
                switch status {
                case .up: ("up", "brightgreen")
                case .degraded: ("degraded", "orange")
                case .down: ("down", "red")
                case .pending: ("pending", "lightgrey")
                }
        }
        return ["schemaVersion": 1, "label": .string(label), "message": .string(message), "color": .string(color)]
    }

    /// The colour of an uptime: green from 99.9 %, yellow-green from 99 %, yellow from 95 %,
    /// orange from 90 %, red below; grey without probes.
    public static func uptimeColor(_ ratio: Double?) -> String {
        guard let ratio else { return "#9f9f9f" }
        switch ratio {
        case 0.999...: return "#4c1"
        case 0.99..<0.999: return "#a3c51c"
        case 0.95..<0.99: return "#dfb317"
        case 0.9..<0.95: return "#fe7d37"
        default: return "#e05d44"
        }
    }

    /// The colour of a mean response time: green under 100 ms, yellow under 300, orange under
    /// 1,000, red above; grey without answers.
    public static func responseTimeColor(_ microseconds: Double?) -> String {
        guard let microseconds else { return "#9f9f9f" }
        switch microseconds / 1000 {
        case ..<100: return "#4c1"
        case ..<300: return "#dfb317"
        case ..<1000: return "#fe7d37"
        default: return "#e05d44"
        }
    }

    /// An uptime as a badge shows it: "99.95%", "100%".
    public static func percent(_ ratio: Double?) -> String {
        guard let ratio else { return "no data" }
        let hundredths = (ratio * 10_000).rounded(.down) / 100
        return hundredths == hundredths.rounded() ? "\(Int(hundredths))%" : "\(hundredths)%"
    }

    /// A badge in one of shields' styles: `flat` (the default), `flat-square` or
    /// `for-the-badge`; other styles are drawn flat.
    public static func badge(label: String, value: String, color: String, style: String?) -> [UInt8] {
        switch style {
        case "flat-square": ArenaBadge.svg(label: label, value: value, color: color, radius: 0)
        case "for-the-badge":
            ArenaBadge.svg(label: label.uppercased(), value: value.uppercased(), color: color, radius: 0, height: 28)
        default: ArenaBadge.svg(label: label, value: value, color: color)
        }
    }

    /// A response-time chart: the answered probes' times over the window as a polyline, in an
    /// SVG of 600 × 200 with its axes' extremes written.
    public static func chart(points: [(timeMs: Int64, microseconds: Int64)], fromMs: Int64, toMs: Int64) -> [UInt8] {
        let width = 600.0
        let height = 200.0
        let top = Double(points.map(\.microseconds).max() ?? 0) / 1000
        let ceiling = max(1, top * 1.1)
        let span = Double(max(1, toMs - fromMs))
        let line = points.map { point in
            let x = 40 + (Double(point.timeMs - fromMs) / span) * (width - 50)
            let y = height - 20 - (Double(point.microseconds) / 1000 / ceiling) * (height - 30)
            return "\(Int(x.rounded())),\(Int(y.rounded()))"
        }.joined(separator: " ")
        let text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" role="img" \
            aria-label="response time">\
            <rect width="100%" height="100%" fill="#fff"/>\
            <line x1="40" y1="\(Int(height - 20))" x2="\(Int(width - 10))" y2="\(Int(height - 20))" stroke="#999"/>\
            <line x1="40" y1="10" x2="40" y2="\(Int(height - 20))" stroke="#999"/>\
            <text x="36" y="16" font-family="DejaVu Sans,sans-serif" font-size="10" text-anchor="end">\
            \(Int(ceiling.rounded())) ms</text>\
            <text x="36" y="\(Int(height - 20))" font-family="DejaVu Sans,sans-serif" font-size="10" text-anchor="end">0</text>\
            <polyline fill="none" stroke="#3478f6" stroke-width="1.5" points="\(line)"/></svg>
            """
        return Array(text.utf8)
    }

    /// Unix milliseconds as RFC 3339 in UTC with milliseconds (``CivilTime/rfc3339(milliseconds:)``).
    public static func timestamp(_ milliseconds: Int64) -> String { CivilTime.rfc3339(milliseconds: milliseconds) }
}
