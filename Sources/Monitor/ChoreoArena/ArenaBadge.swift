import ChoreoFormat

/// Status badges (`GET /v1/arena/badge.svg`, `/v1/arena/nodes/{name}/badge.svg`), as SVG: the
/// two-part label and value pictures of shields.io, for READMEs and dashboards. Green up, orange
/// degraded, red down, grey pending.
public enum ArenaBadge {
    /// The colour of a status.
    static func color(_ status: ArenaStanding.Status) -> String {
        switch status {
        case .up: "#4c1"
        case .degraded: "#fe7d37"
        case .down: "#e05d44"
        case .pending: "#9f9f9f"
        }
    }

    /// One node's badge: its name, and its status with its latest latency when it answers;
    /// `maintenance` (blue) while a window holds.
    public static func node(_ node: NodeHealth, maintenance: Bool = false) -> [UInt8] {
        if maintenance { return svg(label: node.name, value: "maintenance", color: "#007ec6") }
        var value = node.status.rawValue
        if node.status == .up || node.status == .degraded, let latency = node.lastLatencyMs {
            value += " \(Int(latency.rounded())) ms"
        }
        return svg(label: node.name, value: value, color: color(node.status))
    }

    /// The arena's badge: how many nodes are up, coloured by the worst of them.
    public static func arena(_ nodes: [NodeHealth]) -> [UInt8] {
        let up = nodes.filter { $0.status == .up }.count
        let status: ArenaStanding.Status
        if nodes.isEmpty || nodes.allSatisfy({ $0.status == .pending }) {
            status = .pending
        } else if nodes.allSatisfy({ $0.status == .down }) {
            status = .down
        } else if up == nodes.count {
            status = .up
        } else {
            status = .degraded
        }
        return svg(label: "arena", value: nodes.isEmpty ? "no nodes" : "\(up)/\(nodes.count) up", color: color(status))
    }

    /// Widths of Verdana 11 px, which badges are drawn in, approximated by character class.
    static func width(_ text: String) -> Int {
        var total = 0.0
        for character in text {
            switch character {
            case "i", "l", "j", "I", ".", ",", ":", ";", "'", "!", "|", "(", ")": total += 3.6
            case " ", "f", "t", "r": total += 4.4
            case "m", "w", "M", "W", "%": total += 10
            case "0"..."9": total += 7
            default: total += character.isUppercase ? 7.6 : 6.6
            }
        }
        return Int(total.rounded(.up))
    }

    static func escape(_ text: String) -> String { MarkupText.escaped(text) }

    /// A two-part badge: `radius` rounds its corners (0: square), `height` 20 (flat) or 28
    /// (shields' for-the-badge).
    static func svg(label: String, value: String, color: String, radius: Int = 3, height: Int = 20) -> [UInt8] {
        let left = width(label) + 10
        let right = width(value) + 10
        let total = left + right
        let l = escape(label)
        let v = escape(value)
        let baseline = height / 2 + 5
        let text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(total)" height="\(height)" role="img" aria-label="\(l): \(v)">\
            <title>\(l): \(v)</title>\
            <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>\
            <stop offset="1" stop-opacity=".1"/></linearGradient>\
            <clipPath id="r"><rect width="\(total)" height="\(height)" rx="\(radius)" fill="#fff"/></clipPath>\
            <g clip-path="url(#r)"><rect width="\(left)" height="\(height)" fill="#555"/>\
            <rect x="\(left)" width="\(right)" height="\(height)" fill="\(color)"/>\
            <rect width="\(total)" height="\(height)" fill="url(#s)"/></g>\
            <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">\
            <text x="\(left / 2)" y="\(baseline)" fill="#010101" fill-opacity=".3">\(l)</text>\
            <text x="\(left / 2)" y="\(baseline - 1)">\(l)</text>\
            <text x="\(left + right / 2)" y="\(baseline)" fill="#010101" fill-opacity=".3">\(v)</text>\
            <text x="\(left + right / 2)" y="\(baseline - 1)">\(v)</text></g></svg>
            """
        return Array(text.utf8)
    }
}
