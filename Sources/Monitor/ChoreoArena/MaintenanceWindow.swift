import ChoreoJSON

/// A maintenance window (docs/arena.md): while it holds for a node, the node is still probed,
/// but it shows `maintenance`, alerts about it are held, and its uptime leaves the window out.
///
/// One-off (from `start` for `duration` seconds), recurring (at every minute a cron expression
/// names, in an IANA time zone, for `duration` seconds each), or until the node is healthy
/// again (from `start`, at most `duration` seconds).
public struct MaintenanceWindow: Sendable, Equatable {
    public var id: String
    /// Node names, or `["*"]` for every node.
    public var nodes: [String]
    /// Unix milliseconds: when it begins (a recurring window's first possible start).
    public var startMs: Int64
    /// Seconds: the window's length (each occurrence's, for a recurring one; the cap, until
    /// healthy).
    public var duration: Double
    public var cron: CronSchedule?
    public var timezone: String
    public var untilHealthy: Bool
    public var reason: String

    /// Most minutes a recurring window's occurrence lasts (so that finding whether one holds
    /// looks back at most a day of minutes).
    public static let maxRecurringDuration = 86_400.0
    /// Most windows in an arena.
    public static let maxWindows = 1_000

    public init(
        id: String, nodes: [String], startMs: Int64, duration: Double, cron: CronSchedule? = nil,
        timezone: String = "UTC", untilHealthy: Bool = false, reason: String = ""
    ) {
        self.id = id
        self.nodes = nodes
        self.startMs = startMs
        self.duration = duration
        self.cron = cron
        self.timezone = timezone
        self.untilHealthy = untilHealthy
        self.reason = reason
    }

    /// Whether it names `node`.
    public func covers(_ node: String) -> Bool { nodes.contains("*") || nodes.contains(node) }

    /// Whether it holds at `ms` (Unix milliseconds). `offset` gives the time zone's offset from
    /// UTC in seconds at a moment (the caller's calendar: this module does without one).
    /// A window until healthy holds until its cap here; the runtime ends it sooner.
    public func holds(atMs ms: Int64, offset: (Int64) -> Int) -> Bool {
        guard ms >= startMs else { return false }
        let length = Int64((duration * 1000).rounded())
        guard let cron else { return ms < startMs + length }
        // The latest minute at or before `ms` the schedule names, within one occurrence's length.
        var minute = ms - ((ms % 60_000) + 60_000) % 60_000
        let earliest = max(startMs - ((startMs % 60_000) + 60_000) % 60_000, ms - length + 1)
        while minute >= earliest {
            let local = minute / 1000 + Int64(offset(minute))
            if minute >= startMs - 59_999, cron.matches(CivilTime(seconds: local)), ms < minute + length { return true }
            minute -= 60_000
        }
        return false
    }

    /// The window as the API writes it.
    public var json: JSONValue {
        [
            "id": .string(id), "nodes": .array(nodes.map { .string($0) }),
            "start": .string(GatusDocuments.timestamp(startMs)), "duration": .number(duration),
            "cron": cron.map { .string($0.expression) } ?? .null, "timezone": .string(timezone),
            "untilHealthy": .bool(untilHealthy), "reason": .string(reason),
        ]
    }

    /// A health change's effect on windows until healthy that hold for its node: `unhealthy`
    /// keeps, per window, the nodes that went down or degraded in it and are not up again; a
    /// window ends (its id is returned) once such a node is up and none is left. A node up in a
    /// window where nothing went unhealthy ends nothing.
    public static func untilHealthyChanged(
        node: String, to status: ArenaStanding.Status, windows: [MaintenanceWindow],
        unhealthy: inout [String: Set<String>]
    ) -> [String] {
        var ended: [String] = []
        for window in windows where window.untilHealthy && window.covers(node) {
            switch status {
            case .up:
                guard var nodes = unhealthy[window.id], nodes.remove(node) != nil else { continue }
                if nodes.isEmpty {
                    unhealthy[window.id] = nil
                    ended.append(window.id)
                } else {
                    unhealthy[window.id] = nodes
                }
            case .down, .degraded:
                unhealthy[window.id, default: []].insert(node)
            case .pending:
                break
            }
        }
        return ended
    }
}
