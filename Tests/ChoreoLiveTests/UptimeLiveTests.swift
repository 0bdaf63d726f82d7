import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// Uptime and the Gatus-compatible routes against a real server probing real targets.
@Suite(.serialized) final class UptimeLiveTests {
    let scratch = Scratch("choreo-uptime")

    /// Uptime and Gatus's read routes against real targets: one that fails every third probe.
    @Test func uptimeAndGatusRoutes() throws {
        let steady = try ServerProcess.target([])
        let flaky = try ServerProcess.target(["--fail-every", "3"])
        let file = try scratch.write(
            "arena.json",
            ArenaLiveTests.configuration([("web server_01", steady.port), ("db", flaky.port)], interval: 0.2))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try ArenaLiveTests.waitFor(http, ["web server_01": "up"])
        // Enough probes for a ratio.
        let deadline = Date().addingTimeInterval(10)
        var probes = 0
        repeat {
            let history = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/nodes/db/history"))
            if case .array(let rows)? = history["probes"] { probes = rows.count }
            if probes >= 12 { break }
            usleep(100_000)
        } while Date() < deadline
        #expect(probes >= 12)
        // The JSON uptime agrees with the recorded probes it counts.
        let uptime = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/nodes/db/uptime?window=1h"))
        guard case .object(let counts)? = uptime["probes"], case .number(let total)? = counts["total"],
            case .number(let up)? = counts["up"], case .number(let ratio)? = uptime["uptime"]
        else { throw LiveError("no uptime: \(uptime)") }
        #expect(total >= 12 && up < total && up > 0)
        #expect(abs(ratio - up / total) < 1e-12)
        #expect(uptime["window"] == .string("1h") && uptime["maintenanceExcluded"] == .number(0))
        // Over a window from the first recorded probe to a later one, both figures are exactly
        // what the recorded probes give: the share of probes up, and the share of the time up
        // (each verdict holding until the next probe).
        let history = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/nodes/db/history"))
        guard case .array(let historyRows)? = history["probes"] else { throw LiveError("no history") }
        let recorded = historyRows.compactMap { row -> (time: Double, up: Bool)? in
            guard case .object(let probe) = row, case .number(let time)? = probe["time"],
                case .string(let verdict)? = probe["verdict"]
            else { return nil }
            return (time, verdict != "failed")
        }
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        // RFC 3339 with the probe's milliseconds exactly (no binary rounding on the way).
        func stamp(_ seconds: Double) -> String {
            let ms = Int64((seconds * 1000).rounded())
            let text = whole.string(from: Date(timeIntervalSince1970: Double(ms / 1000)))
            let millis = String(ms % 1000)
            return text.dropLast() + "." + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
        }
        let last = recorded.count - 1
        let window = try ArenaLiveTests.object(
            try http.request(
                "GET", "/v1/arena/nodes/db/uptime?from=\(stamp(recorded[0].time))&to=\(stamp(recorded[last].time))"))
        let counted = recorded[..<last]
        let upTime = (0..<last).filter { recorded[$0].up }.reduce(0.0) {
            $0 + (recorded[$1 + 1].time - recorded[$1].time)
        }
        guard case .object(let windowCounts)? = window["probes"],
            case .number(let windowTotal)? = windowCounts["total"],
            case .number(let windowRatio)? = window["uptime"], case .number(let timeWeighted)? = window["timeWeighted"]
        else { throw LiveError("no window uptime: \(window)") }
        #expect(windowTotal == Double(counted.count))
        #expect(abs(windowRatio - Double(counted.filter(\.up).count) / Double(counted.count)) < 1e-12)
        // (A millisecond off would be 5e-5 over these seconds.)
        #expect(abs(timeWeighted - upTime / (recorded[last].time - recorded[0].time)) < 1e-6)
        #expect(timeWeighted < 1 && timeWeighted > 0.3)
        let text = try http.request("GET", "/v1/arena/nodes/web%20server_01/uptime", headers: ["Accept": "text/plain"])
        #expect(text.status == 200 && text.text == "1.0")
        #expect(try http.request("GET", "/v1/arena/nodes/db/uptime?window=2h").status == 422)
        // This month's service level: every day, today's probes in it, as JSON and as CSV.
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let month = formatter.string(from: Date())
        let sla = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/nodes/db/sla?month=\(month)"))
        guard case .array(let days)? = sla["days"], case .object(let slaProbes)? = sla["probes"],
            case .number(let slaTotal)? = slaProbes["total"]
        else { throw LiveError("no SLA: \(sla)") }
        #expect(days.count >= 28 && days.count <= 31 && slaTotal >= total)
        // Only the watched time up to now counts: the month's time-weighted figure is the flaky
        // node's (about two thirds), not the rest of the month as up; days to come have none, and
        // the report says how little of the month was watched.
        guard case .number(let slaTimeWeighted)? = sla["timeWeighted"], case .number(let watched)? = sla["watched"],
            case .number(let watchedShare)? = sla["watchedShare"]
        else { throw LiveError("no time-weighted SLA: \(sla)") }
        #expect(slaTimeWeighted > 0.3 && slaTimeWeighted < 0.95, "\(slaTimeWeighted)")
        #expect(watched > 1 && watched < 600 && watchedShare > 0 && watchedShare < 0.001, "\(watched) \(watchedShare)")
        let today = String(stamp(Date().timeIntervalSince1970).prefix(10))
        let future = days.compactMap { day -> JSONObject? in
            guard case .object(let object) = day, case .string(let date)? = object["date"], date > today else {
                return nil
            }
            return object
        }
        #expect(future.allSatisfy { $0["timeWeighted"] == .null && $0["watched"] == .number(0) })
        let csv = try http.request("GET", "/v1/arena/nodes/db/sla?month=\(month)&format=csv")
        #expect(csv.status == 200 && csv.headers["content-type"]?.hasPrefix("text/csv") == true)
        let rows = csv.text.split(separator: "\n")
        #expect(rows.first?.hasPrefix("date,probes,up,uptime") == true && rows.last?.hasPrefix("total,") == true)
        #expect(rows.count == days.count + 2)
        #expect(try http.request("GET", "/v1/arena/nodes/db/sla?month=2026-13").status == 422)
        #expect(try http.request("GET", "/v1/arena/nodes/db/sla").status == 422)
        // Gatus's statuses: every node by its key, with results.
        let statuses = try http.request("GET", "/api/v1/endpoints/statuses")
        guard case .array(let endpoints) = try JSONParser.parse(statuses.body) else { throw LiveError("not a list") }
        let keys = endpoints.compactMap { value -> String? in
            guard case .object(let endpoint) = value, case .string(let key)? = endpoint["key"] else { return nil }
            return key
        }
        #expect(keys == ["web-server-01", "db"])
        let one = try ArenaLiveTests.object(try http.request("GET", "/api/v1/endpoints/db/statuses"))
        guard case .array(let results)? = one["results"], case .object(let first)? = results.first else {
            throw LiveError("no results")
        }
        #expect(first["hostname"] == .string("127.0.0.1") && first["status"] != nil && first["duration"] != nil)
        #expect(try http.request("GET", "/api/v1/endpoints/nope/statuses").status == 404)
        // The raw ratio, the badges with shields' parameters (unknown ones ignored), the chart.
        let raw = try http.request("GET", "/api/v1/endpoints/web-server-01/uptimes/1h")
        #expect(raw.status == 200 && raw.text == "1.0")
        let badge = try http.request(
            "GET", "/api/v1/endpoints/db/uptimes/24h/badge.svg?style=for-the-badge&label=db&x=1")
        #expect(badge.status == 200 && badge.headers["content-type"] == "image/svg+xml")
        #expect(badge.text.contains(">DB<") && badge.text.contains(#"height="28""#))
        let speed = try http.request("GET", "/api/v1/endpoints/web-server-01/response-times/1h/badge.svg")
        #expect(speed.status == 200 && speed.text.contains("ms<"))
        let chart = try http.request("GET", "/api/v1/endpoints/web-server-01/response-times/1h/chart.svg")
        #expect(chart.status == 200 && chart.text.contains("<polyline"))
        let unsupported = try http.request("GET", "/api/v1/endpoints/db/uptimes/2h/badge.svg")
        #expect(unsupported.status == 400 && unsupported.text.contains("/problems/unsupported-duration"))
        #expect(try http.request("GET", "/api/v1/endpoints/db/uptimes/2h").status == 400)
        // Gatus's keys (`_<name>`, lower-cased) find the same nodes; pages of results; /health.
        let gatusKeyed = try http.request("GET", "/api/v1/endpoints/_web-server-01/uptimes/1h")
        #expect(gatusKeyed.status == 200 && gatusKeyed.text == "1.0")
        let paged = try ArenaLiveTests.object(
            try http.request("GET", "/api/v1/endpoints/_db/statuses?page=1&pageSize=5"))
        guard case .array(let page)? = paged["results"], case .array(let whole)? = one["results"] else {
            throw LiveError("no page")
        }
        #expect(page.count == 5 && whole.count > 5)
        let health = try http.request("GET", "/health")
        #expect(health.status == 200 && health.text == #"{"status":"UP"}"#)
        let shields = try ArenaLiveTests.object(
            try http.request("GET", "/api/v1/endpoints/web-server-01/health/badge.shields"))
        #expect(shields["schemaVersion"] == .number(1) && shields["message"] == .string("up"))
        #expect(shields["label"] == .string("web server_01") && shields["color"] == .string("brightgreen"))
        // The arena's current round exports as any scene does.
        #expect(try http.request("GET", "/v1/arena/rounds/current/export?format=lottie").status == 404)
        #expect(try http.request("POST", "/v1/arena/rounds", body: "{}").status == 201)
        let round = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/rounds/current/export?format=lottie"))
        guard case .array(let layers)? = round["layers"], case .object(let report)? = round["choreo"] else {
            throw LiveError("no Lottie")
        }
        #expect(layers.count > 2 && report["format"] == .string("lottie"))
    }

    /// A maintenance window through the API: the node shows it, its badge and shields say so,
    /// its uptime leaves its probes out, and it ends on DELETE.
    @Test func maintenanceWindowsHoldAndEnd() throws {
        let steady = try ServerProcess.target([])
        let flaky = try ServerProcess.target(["--status", "503"])
        let file = try scratch.write(
            "arena.json", ArenaLiveTests.configuration([("web", steady.port), ("db", flaky.port)], interval: 0.2))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try ArenaLiveTests.waitFor(http, ["web": "up", "db": "down"])
        let refused = try http.request("POST", "/v1/arena/maintenance", body: #"{"nodes": ["bd"], "duration": 600}"#)
        #expect(refused.status == 422 && refused.text.contains("did you mean"))
        let created = try http.request(
            "POST", "/v1/arena/maintenance", body: #"{"nodes": ["db"], "duration": 600, "reason": "disk swap"}"#)
        #expect(created.status == 201)
        let window = try ArenaLiveTests.object(created)
        guard case .string(let id)? = window["id"] else { throw LiveError("no id: \(created.text)") }
        #expect(window["active"] == .bool(true) && window["reason"] == .string("disk swap"))
        let status = try ArenaLiveTests.object(try http.request("GET", "/v1/arena"))
        guard case .array(let nodes)? = status["nodes"] else { throw LiveError("no nodes") }
        var flags: [String: JSONValue] = [:]
        for case .object(let node) in nodes {
            if case .string(let name)? = node["name"] { flags[name] = node["maintenance"] }
        }
        #expect(flags == ["web": .bool(false), "db": .bool(true)])
        #expect(try http.request("GET", "/v1/arena/nodes/db/badge.svg").text.contains("maintenance"))
        let metrics = try http.request("GET", "/metrics").text
        #expect(metrics.contains(#"choreo_arena_node_maintenance{node="db"} 1"#))
        #expect(metrics.contains(#"choreo_arena_node_maintenance{node="web"} 0"#))
        #expect(try http.request("GET", "/v1/arena?format=text").text.contains("maint."))
        let shields = try ArenaLiveTests.object(try http.request("GET", "/api/v1/endpoints/db/health/badge.shields"))
        #expect(shields["message"] == .string("maintenance"))
        // Probes made during the window are left out of the uptime.
        usleep(700_000)
        let uptime = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/nodes/db/uptime?window=1h"))
        guard case .number(let excluded)? = uptime["maintenanceExcludedProbes"],
            case .number(let seconds)? = uptime["maintenanceExcluded"]
        else { throw LiveError("no exclusion: \(uptime)") }
        #expect(excluded >= 2 && seconds > 0)
        let list = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/maintenance"))
        guard case .array(let windows)? = list["windows"] else { throw LiveError("no list") }
        #expect(windows.count == 1)
        #expect(try http.request("DELETE", "/v1/arena/maintenance/\(id)").status == 204)
        #expect(try http.request("DELETE", "/v1/arena/maintenance/\(id)").status == 404)
        let after = try ArenaLiveTests.object(try http.request("GET", "/api/v1/endpoints/db/health/badge.shields"))
        #expect(after["message"] == .string("down"))
    }
}
