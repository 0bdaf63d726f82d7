import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import Foundation
import Testing

/// Maintenance windows: cron schedules, when a window holds, and the configuration's codec.
struct MaintenanceTests {
    static func ms(_ text: String) -> Int64 { CivilTime.milliseconds(rfc3339: text)! }

    @Test func rfc3339ReadsAsFoundationDoes() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for text in [
            "2026-12-01T10:00:00.000Z", "1999-02-28T23:59:59.500+01:00", "2000-02-29T00:00:00.000-05:30",
            "1970-01-01T00:00:00.000Z",
        ] {
            let expected = Int64((formatter.date(from: text)!.timeIntervalSince1970 * 1000).rounded())
            #expect(CivilTime.milliseconds(rfc3339: text) == expected, "\(text)")
        }
        #expect(CivilTime.milliseconds(rfc3339: "2026-12-01T10:00:00Z") == Self.ms("2026-12-01T10:00:00.000Z"))
        for bad in ["2026-13-01T10:00:00Z", "2026-12-01 10:00:00", "2026-12-01T10:00:00", "yesterday", ""] {
            #expect(CivilTime.milliseconds(rfc3339: bad) == nil, "\(bad)")
        }
        // 2026-12-01 is a Tuesday.
        #expect(CivilTime(seconds: Self.ms("2026-12-01T10:00:00Z") / 1000).weekday == 2)
    }

    @Test func cronReadsCrontabFields() throws {
        let nightly = try CronSchedule.parse("30 2 * * *").get()
        #expect(nightly.matches(CivilTime(seconds: Self.ms("2026-12-01T02:30:00Z") / 1000)))
        #expect(!nightly.matches(CivilTime(seconds: Self.ms("2026-12-01T02:31:00Z") / 1000)))
        let weekdays = try CronSchedule.parse("*/15 9-17 * * mon-fri").get()
        #expect(weekdays.matches(CivilTime(seconds: Self.ms("2026-12-01T09:45:00Z") / 1000)))
        #expect(!weekdays.matches(CivilTime(seconds: Self.ms("2026-12-05T09:45:00Z") / 1000)))  // Saturday
        // Day of month or day of week when both are restricted; 7 is Sunday.
        let either = try CronSchedule.parse("0 0 1 * 7").get()
        #expect(either.matches(CivilTime(seconds: Self.ms("2026-12-06T00:00:00Z") / 1000)))  // a Sunday
        #expect(either.matches(CivilTime(seconds: Self.ms("2026-12-01T00:00:00Z") / 1000)))  // the 1st
        #expect(!either.matches(CivilTime(seconds: Self.ms("2026-12-02T00:00:00Z") / 1000)))
        for bad in ["* * * *", "60 * * * *", "* * * foo *", "*/0 * * * *", "5-1 * * * *"] {
            guard case .failure = CronSchedule.parse(bad) else {
                Issue.record("\(bad) was read")
                continue
            }
        }
    }

    @Test func windowsHoldWhenTheySay() throws {
        let utc: (Int64) -> Int = { _ in 0 }
        let once = MaintenanceWindow(id: "a", nodes: ["db"], startMs: Self.ms("2026-12-01T10:00:00Z"), duration: 600)
        #expect(once.holds(atMs: Self.ms("2026-12-01T10:00:00Z"), offset: utc))
        #expect(once.holds(atMs: Self.ms("2026-12-01T10:09:59Z"), offset: utc))
        #expect(!once.holds(atMs: Self.ms("2026-12-01T10:10:00Z"), offset: utc))
        #expect(!once.holds(atMs: Self.ms("2026-12-01T09:59:59Z"), offset: utc))
        #expect(once.covers("db") && !once.covers("web"))
        // Every night at 02:30 in Paris (UTC+1 in December) for 30 minutes.
        let nightly = MaintenanceWindow(
            id: "b", nodes: ["*"], startMs: 0, duration: 1_800, cron: try CronSchedule.parse("30 2 * * *").get(),
            timezone: "Europe/Paris")
        let paris: (Int64) -> Int = { _ in 3_600 }
        #expect(nightly.holds(atMs: Self.ms("2026-12-01T01:45:00Z"), offset: paris))
        #expect(!nightly.holds(atMs: Self.ms("2026-12-01T02:45:00Z"), offset: paris))
        #expect(!nightly.holds(atMs: Self.ms("2026-12-01T01:29:00Z"), offset: paris))
        #expect(nightly.covers("anything"))
    }

    @Test func aWindowUntilHealthyEndsWhenWhatWentDownIsUpAgain() {
        let window = MaintenanceWindow(id: "w", nodes: ["a", "b"], startMs: 0, duration: 3_600, untilHealthy: true)
        var unhealthy: [String: Set<String>] = [:]
        // Up before anything went down: the window goes on (the work has not begun).
        #expect(
            MaintenanceWindow.untilHealthyChanged(node: "a", to: .up, windows: [window], unhealthy: &unhealthy).isEmpty)
        #expect(
            MaintenanceWindow.untilHealthyChanged(node: "a", to: .down, windows: [window], unhealthy: &unhealthy)
                .isEmpty)
        #expect(
            MaintenanceWindow.untilHealthyChanged(node: "b", to: .degraded, windows: [window], unhealthy: &unhealthy)
                .isEmpty)
        #expect(
            MaintenanceWindow.untilHealthyChanged(node: "a", to: .up, windows: [window], unhealthy: &unhealthy).isEmpty)
        #expect(
            MaintenanceWindow.untilHealthyChanged(node: "b", to: .up, windows: [window], unhealthy: &unhealthy) == ["w"]
        )
        #expect(unhealthy.isEmpty)
        // Another node, or another kind of window, changes nothing.
        #expect(
            MaintenanceWindow.untilHealthyChanged(node: "c", to: .down, windows: [window], unhealthy: &unhealthy)
                .isEmpty)
        #expect(unhealthy.isEmpty)
    }

    @Test func theConfigurationKeepsItsWindows() throws {
        let document = try JSONParser.parse(
            Array(
                #"""
                {"nodes": [{"name": "db", "url": "http://127.0.0.1:1/health"}],
                 "maintenance": [{"nodes": ["db"], "start": "2026-12-01T10:00:00Z", "duration": 600, "reason": "upgrade"},
                                 {"id": "nightly", "nodes": ["*"], "cron": "30 2 * * *", "timezone": "Europe/Paris", "duration": 1800}]}
                """#.utf8))
        let configuration = try ArenaConfigurationCodec.decode(
            document, knownTimeZone: { $0 == "Europe/Paris" || $0 == "UTC" })
        #expect(configuration.maintenance.map(\.id) == ["config-1", "nightly"])
        #expect(configuration.maintenance[0].reason == "upgrade" && configuration.maintenance[1].cron != nil)
        let again = try ArenaConfigurationCodec.decode(
            ArenaConfigurationCodec.encode(configuration), knownTimeZone: { $0 == "Europe/Paris" || $0 == "UTC" })
        #expect(again == configuration)
        // Errors name the field, with the node meant.
        let bad = try JSONParser.parse(
            Array(
                #"{"nodes": [{"name": "db", "url": "http://127.0.0.1:1/health"}], "maintenance": [{"nodes": ["bd"], "start": "soon", "duration": 0, "timezone": "Mars/Olympus", "cron": "* *"}]}"#
                    .utf8))
        do {
            _ = try ArenaConfigurationCodec.decode(bad)
            Issue.record("a bad window was read")
        } catch {
            let paths = error.errors.map(\.path)
            for path in ["nodes[0]", "start", "duration", "timezone", "cron"] {
                #expect(paths.contains("$.maintenance[0].\(path)"), "\(paths)")
            }
            #expect(error.errors.contains { $0.message.contains("did you mean \"db\"") })
        }
    }
}
