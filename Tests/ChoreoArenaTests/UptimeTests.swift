import ChoreoArena
import ChoreoJSON
import Foundation
import Testing

/// Uptime over a window from a scripted schedule of probes, count- and time-weighted, and the
/// Gatus-compatible documents.
struct UptimeTests {
    /// A probe every 10 s for an hour, down from minute 20 to minute 26 (36 probes of 360).
    static func schedule() -> [NodeUptime.Probe] {
        (0..<360).map { index in
            let time = Int64(index) * 10_000
            let down = time >= 1_200_000 && time < 1_560_000
            return NodeUptime.Probe(
                timeMs: time, up: !down, latencyMicroseconds: down ? 0 : 2_000 + Int64(index % 3) * 1_000)
        }
    }

    @Test func countAndTimeWeightedRatiosAreExact() throws {
        let probes = Self.schedule()
        let hour = NodeUptime(probes: probes, fromMs: 0, toMs: 3_600_000)
        #expect(hour.total == 360 && hour.up == 324)
        #expect(hour.ratio == 324.0 / 360)
        // Down from 1,200 s to 1,560 s: 360 s of 3,600.
        #expect(hour.timeWeighted == 3_240.0 / 3_600)
        // A window that starts inside the outage: 1,500 s to 2,100 s; the probe at 1,490 s
        // (down) covers 1,500–1,510 s, so down until 1,560 s: 60 s of 600.
        let part = NodeUptime(probes: probes, fromMs: 1_500_000, toMs: 2_100_000)
        #expect(part.total == 60 && part.up == 54)
        #expect(part.timeWeighted == 540.0 / 600)
        // The answered probes' mean: 2, 3, 4 ms in turn.
        let mean = try #require(hour.meanLatencyMicroseconds)
        #expect(abs(mean - 3_000) < 10)
        // Before any probe: no data, not 0 % or 100 %.
        let empty = NodeUptime(probes: probes, fromMs: -3_600_000, toMs: 0)
        #expect(empty.ratio == nil && empty.timeWeighted == nil && empty.total == 0)
    }

    @Test func monthsHaveTheirBounds() throws {
        let november = try #require(CivilTime.month("2026-11"))
        #expect(november.days == 30)
        #expect(GatusDocuments.timestamp(november.fromMs) == "2026-11-01T00:00:00.000Z")
        #expect(GatusDocuments.timestamp(november.toMs) == "2026-12-01T00:00:00.000Z")
        #expect(CivilTime.month("2024-02")?.days == 29 && CivilTime.month("2026-12")?.days == 31)
        #expect(CivilTime.month("2026-13") == nil && CivilTime.month("26-11") == nil && CivilTime.month("x") == nil)
    }

    @Test func windowsHaveTheirLengths() {
        #expect(NodeUptime.windowMilliseconds("1h") == 3_600_000)
        #expect(NodeUptime.windowMilliseconds("7d") == 604_800_000)
        #expect(NodeUptime.windowMilliseconds("1y") == 31_536_000_000)
        #expect(NodeUptime.windowMilliseconds("2h") == nil)
    }

    @Test func gatusKeysReplaceItsSeparators() {
        #expect(GatusDocuments.key("web server_01") == "web-server-01")
        #expect(GatusDocuments.key("a/b,c.d#e+f&g") == "a-b-c-d-e-f-g")
        #expect(GatusDocuments.key("db-01") == "db-01")
    }

    @Test func timestampsAreRFC3339InUTC() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for milliseconds: Int64 in [0, 1_764_583_203_512, 951_782_400_000, 4_102_444_799_999, -86_400_001] {
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            #expect(GatusDocuments.timestamp(milliseconds) == expected, "\(milliseconds)")
        }
    }

    @Test func anEndpointHasItsResultsAndEvents() throws {
        let results = [
            GatusDocuments.Result(
                timeMs: 1_000, success: true, httpStatus: 200, hostname: "db", durationNanoseconds: 2_000_000,
                errors: []),
            GatusDocuments.Result(
                timeMs: 2_000, success: false, httpStatus: 503, hostname: "db", durationNanoseconds: 1_000_000,
                errors: ["HTTP 503"]),
            GatusDocuments.Result(
                timeMs: 3_000, success: false, httpStatus: 0, hostname: "db", durationNanoseconds: 0,
                errors: ["timeout"]),
        ]
        guard case .object(let endpoint) = GatusDocuments.endpoint(name: "db 01", results: results, startedMs: nil),
            case .array(let items)? = endpoint["results"], case .array(let events)? = endpoint["events"]
        else {
            Issue.record("not an endpoint")
            return
        }
        #expect(endpoint["key"] == .string("db-01") && endpoint["group"] == .string(""))
        #expect(items.count == 3)
        guard case .object(let second) = items[1] else { return }
        #expect(second["status"] == .number(503) && second["success"] == .bool(false))
        #expect(second["duration"] == .number(1_000_000) && second["errors"] == .array(["HTTP 503"]))
        // Healthy, then unhealthy once (not at every failed result).
        #expect(events.count == 2)
        guard case .object(let first) = events[0], case .object(let change) = events[1] else { return }
        #expect(first["type"] == .string("HEALTHY") && change["type"] == .string("UNHEALTHY"))
        #expect(change["timestamp"] == .string("1970-01-01T00:00:02.000Z"))
    }

    @Test func gatusKeysPagesAndAResultWithoutAnAnswer() throws {
        #expect(GatusDocuments.gatusKey("flap") == "_flap")
        #expect(GatusDocuments.gatusKey("Web Server_01") == "_web-server-01")
        #expect(GatusDocuments.gatusKey("db", group: "Core.EU") == "core-eu_db")
        let results: [GatusDocuments.Result] = (1...7).map { (index: Int) -> GatusDocuments.Result in
            let answered = index != 7
            let status: Int? = answered ? 200 : nil
            let errors: [String] = answered ? [] : ["connection refused"]
            return GatusDocuments.Result(
                timeMs: Int64(index) * 1000, success: answered, httpStatus: status, hostname: "db",
                durationNanoseconds: 1, errors: errors)
        }
        func times(_ query: [(String, String)]) -> [String] {
            guard
                case .object(let endpoint) = GatusDocuments.endpoint(
                    name: "db", results: results, page: GatusDocuments.Page(query), startedMs: 1000),
                case .array(let items)? = endpoint["results"]
            else { return [] }
            return items.compactMap { item in
                guard case .object(let result) = item, case .string(let time)? = result["timestamp"] else { return nil }
                return String(time.dropFirst(17).prefix(2))
            }
        }
        // Page 1 is the newest, each page oldest first; sizes past 100 are 100, nonsense the default.
        #expect(times([("pageSize", "3")]) == ["05", "06", "07"])
        #expect(times([("page", "2"), ("pageSize", "3")]) == ["02", "03", "04"])
        #expect(times([("page", "3"), ("pageSize", "3")]) == ["01"])
        #expect(times([("page", "4"), ("pageSize", "3")]) == [])
        #expect(times([("page", "x"), ("pageSize", "0")]).count == 7)
        #expect(GatusDocuments.Page([("pageSize", "1000")]).size == 100 && GatusDocuments.Page([]).size == 50)
        guard case .object(let endpoint) = GatusDocuments.endpoint(name: "db", results: results, startedMs: 1000),
            case .array(let items)? = endpoint["results"], case .object(let last)? = items.last,
            case .object(let first)? = items.first, case .array(let events)? = endpoint["events"],
            case .object(let start)? = events.first
        else {
            Issue.record("not an endpoint")
            return
        }
        // No answer, no status (Gatus omits it); an answer keeps its status.
        #expect(last["status"] == nil && first["status"] == .number(200))
        #expect(start["type"] == .string("START") && start["timestamp"] == .string("1970-01-01T00:00:01.000Z"))
    }

    @Test func badgesTakeShieldsStyles() {
        let flat = String(
            decoding: GatusDocuments.badge(label: "uptime", value: "99.5%", color: "#a3c51c", style: nil), as: UTF8.self
        )
        #expect(flat.contains(#"height="20""#) && flat.contains(#"rx="3""#) && flat.contains("99.5%"))
        let square = String(
            decoding: GatusDocuments.badge(label: "uptime", value: "99.5%", color: "#a3c51c", style: "flat-square"),
            as: UTF8.self)
        #expect(square.contains(#"rx="0""#))
        let big = String(
            decoding: GatusDocuments.badge(label: "uptime", value: "99.5%", color: "#a3c51c", style: "for-the-badge"),
            as: UTF8.self)
        #expect(big.contains(#"height="28""#) && big.contains("UPTIME"))
        #expect(GatusDocuments.percent(0.99951) == "99.95%" && GatusDocuments.percent(1) == "100%")
        #expect(GatusDocuments.percent(nil) == "no data")
        #expect(GatusDocuments.uptimeColor(0.9999) == "#4c1" && GatusDocuments.uptimeColor(0.5) == "#e05d44")
    }
}

/// The time-weighted figure over a period not over yet: only the time watched up to now counts.
@Suite struct WatchedTimeTests {
    @Test func timeToComeIsNotWatched() {
        // Up for 60 s, down for 40 s, up again at 100 s; now is 100 s into a 1000 s period.
        let probes = [
            NodeUptime.Probe(timeMs: 0, up: true, latencyMicroseconds: 1000),
            NodeUptime.Probe(timeMs: 60_000, up: false, latencyMicroseconds: 0),
            NodeUptime.Probe(timeMs: 100_000, up: true, latencyMicroseconds: 1000),
        ]
        let watched = NodeUptime(probes: probes, fromMs: 0, toMs: 1_000_000, nowMs: 100_000)
        #expect(watched.timeWeighted == 0.6)
        #expect(watched.watchedMilliseconds == 100_000 && watched.watchedShare == 0.1)
        // Before: the latest probe's verdict held to the period's end, as if watched.
        let unbounded = NodeUptime(probes: probes, fromMs: 0, toMs: 1_000_000)
        #expect(unbounded.timeWeighted == 0.96)
        // A period that starts after now has no figure at all.
        let future = NodeUptime(probes: probes, fromMs: 200_000, toMs: 300_000, nowMs: 100_000)
        #expect(future.timeWeighted == nil && future.watchedMilliseconds == 0)
    }
}
