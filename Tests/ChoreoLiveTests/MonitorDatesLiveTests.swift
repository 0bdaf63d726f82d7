import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// Dates the monitor routes read and write, against a real server: impossible calendar dates
/// and times outside 1970…9999 refused with the field named, years written in four digits,
/// and the routes' 422s titled for what they are (docs/arena.md).
@Suite(.serialized) final class MonitorDatesLiveTests {
    let scratch = Scratch("choreo-monitor-dates")

    /// The problem's title, type and first error's path and message.
    static func problem(_ response: RawHTTP.Response) throws -> (
        title: String, type: String, path: String, message: String
    ) {
        let object = try ArenaLiveTests.object(response)
        guard case .string(let title)? = object["title"], case .string(let type)? = object["type"],
            case .array(let errors)? = object["errors"], case .object(let first)? = errors.first,
            case .string(let path)? = first["path"], case .string(let message)? = first["message"]
        else { throw LiveError("not a problem with errors: \(response.text)") }
        return (title, type, path, message)
    }

    @Test func impossibleAndOutOfRangeDatesAreRefusedAndYearsWrittenRight() throws {
        let target = try ServerProcess.target()
        let file = try scratch.write("arena.json", ArenaLiveTests.configuration([("alpha", target.port)]))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try ArenaLiveTests.waitFor(http, ["alpha": "up"])

        // Maintenance windows: Feb 30, Apr 31, Feb 29 of a common year, year 1, past 9999.
        for (start, says) in [
            ("2026-02-30T00:00:00Z", "February 2026 has 28 days"), ("2026-04-31T10:00:00Z", "April 2026 has 30 days"),
            ("2025-02-29T00:00:00Z", "February 2025 has 28 days"), ("0001-01-01T00:00:00Z", "from 1970-01-01"),
            ("9999-12-31T23:00:00-05:00", "to 9999-12-31T23:59:59Z"),
        ] {
            let response = try http.request(
                "POST", "/v1/arena/maintenance", body: #"{"nodes": ["*"], "start": "\#(start)", "duration": 600}"#)
            #expect(response.status == 422, "\(start): \(response.status) \(response.text)")
            let problem = try Self.problem(response)
            #expect(problem.path == "$.start" && problem.message.contains(says), "\(start): \(problem)")
            #expect(problem.title == "Invalid maintenance window", "\(problem.title)")
            #expect(problem.type == "/problems/invalid-maintenance-window")
        }
        #expect(try http.request("GET", "/v1/arena/maintenance").text.contains("\"start\"") == false)
        // The latest time taken is written back as it was sent; a leap day is a day.
        for start in ["9999-12-31T23:59:59Z", "2024-02-29T12:00:00Z"] {
            let made = try http.request(
                "POST", "/v1/arena/maintenance", body: #"{"nodes": ["*"], "start": "\#(start)", "duration": 60}"#)
            #expect(made.status == 201, "\(made.text)")
            let window = try ArenaLiveTests.object(made)
            #expect(window["start"] == .string(start.dropLast() + ".000Z"), "\(window)")
        }

        // Uptime's from and to, history's since, response times' from.
        let node = "/v1/arena/nodes/alpha"
        for (query, field, says) in [
            ("\(node)/uptime?from=2026-02-30T00:00:00Z&to=2026-03-02T00:00:00Z", "query.from", "not a date"),
            ("\(node)/uptime?from=0001-01-01T00:00:00Z&to=0001-01-02T00:00:00Z", "query.from", "from 1970-01-01"),
            ("\(node)/uptime?from=2026-01-01T00:00:00Z&to=2026-06-31T00:00:00Z", "query.to", "June 2026 has 30 days"),
            ("\(node)/history?since=2026-04-31T00:00:00Z", "query.since", "April 2026 has 30 days"),
            ("\(node)/history?since=1969-12-31T23:59:59Z", "query.since", "from 1970-01-01"),
            ("\(node)/response-times?from=2026-02-29T00:00:00Z&to=2026-03-01T00:00:00Z", "query.from", "not a date"),
            ("\(node)/sla?month=9999-12", "query.month", "9999-11"),
            ("\(node)/sla?month=0001-01", "query.month", "1970-01"),
            ("\(node)/history?limit=0", "query.limit", "1 to 100000"),
            ("/v1/arena/alerts/state?limit=5000", "query.limit", "1…1000"),
        ] {
            let response = try http.request("GET", query)
            #expect(response.status == 422, "\(query): \(response.status) \(response.text)")
            let problem = try Self.problem(response)
            #expect(problem.path == field && problem.message.contains(says), "\(query): \(problem)")
            #expect(problem.title == "Invalid request" && problem.type == "/problems/invalid-request", "\(problem)")
        }
        // The last month taken ends at 9999-12-01, four digits of year.
        let last = try ArenaLiveTests.object(try http.request("GET", "\(node)/sla?month=9999-11"))
        #expect(last["to"] == .string("9999-12-01T00:00:00.000Z"), "\(last)")
        let first = try ArenaLiveTests.object(
            try http.request("GET", "\(node)/uptime?from=1970-01-01T00:00:00Z&to=1970-01-02T00:00:00Z"))
        #expect(first["from"] == .string("1970-01-01T00:00:00.000Z"), "\(first)")
        // The new problem types resolve to their pages.
        for type in ["invalid-request", "invalid-maintenance-window"] {
            let page = try http.request("GET", "/problems/\(type)")
            #expect(page.status == 200 && page.text.contains("<h1>"), "\(type)")
        }
    }
}
