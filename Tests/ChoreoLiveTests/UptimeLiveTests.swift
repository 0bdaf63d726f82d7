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
        let text = try http.request("GET", "/v1/arena/nodes/web%20server_01/uptime", headers: ["Accept": "text/plain"])
        #expect(text.status == 200 && text.text == "1.0")
        #expect(try http.request("GET", "/v1/arena/nodes/db/uptime?window=2h").status == 422)
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
        #expect(try http.request("GET", "/api/v1/endpoints/db/uptimes/2h/badge.svg").status == 422)
        let shields = try ArenaLiveTests.object(
            try http.request("GET", "/api/v1/endpoints/web-server-01/health/badge.shields"))
        #expect(shields["schemaVersion"] == .number(1) && shields["message"] == .string("up"))
        #expect(shields["label"] == .string("web server_01") && shields["color"] == .string("brightgreen"))
    }
}
