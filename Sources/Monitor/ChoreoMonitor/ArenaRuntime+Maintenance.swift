import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import ChoreoService
import Foundation

/// Maintenance windows (docs/arena.md): kept in the arena's configuration, so that they are
/// stored, shared by replicas and read at start as the rest of it; added, listed and ended
/// through `/v1/arena/maintenance`.
extension ArenaRuntime {
    /// A window and whether it holds now.
    public struct MaintenanceState: Sendable, Equatable {
        public let window: MaintenanceWindow
        public let active: Bool
    }

    /// Whether an IANA time zone exists (the calendar's list).
    public static func knownTimeZone(_ name: String) -> Bool { TimeZone(identifier: name) != nil }

    /// The offset of a window's time zone from UTC at a moment, seconds.
    static func offset(_ window: MaintenanceWindow) -> (Int64) -> Int {
        let zone = TimeZone(identifier: window.timezone) ?? TimeZone(secondsFromGMT: 0)!
        return { ms in zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000)) }
    }

    /// Whether a maintenance window holds for `node` at `ms` (Unix milliseconds).
    public func inMaintenance(_ node: String, atMs ms: Int64) -> Bool {
        configuration.maintenance.contains { $0.covers(node) && $0.holds(atMs: ms, offset: Self.offset($0)) }
    }

    /// The maintenance of the configuration, each with whether it holds now.
    public func maintenance(now: Double = Date().timeIntervalSince1970) -> [MaintenanceState] {
        let ms = Int64((now * 1000).rounded())
        return configuration.maintenance.map {
            MaintenanceState(window: $0, active: $0.holds(atMs: ms, offset: Self.offset($0)))
        }
    }

    /// `POST /v1/arena/maintenance`: a window from its JSON (`start` now when not given), with
    /// an id of its own, added to the configuration and stored.
    public func addMaintenance(body: [UInt8], now: Double = Date().timeIntervalSince1970) throws(ServiceError)
        -> MaintenanceState
    {
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            throw ServiceError.malformedJSON(error)
        }
        var configuration = self.configuration
        guard configuration.maintenance.count < MaintenanceWindow.maxWindows else {
            throw ServiceError.invalidMaintenanceWindow(
                ValidationFailure([
                    FieldError(
                        path: "$", message: "an arena has at most \(MaintenanceWindow.maxWindows) maintenance windows")
                ]))
        }
        var errors: [FieldError] = []
        let id = "mnt_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let ms = Int64((now * 1000).rounded())
        guard
            let window = ArenaConfigurationCodec.decodeWindow(
                document, path: "$", id: id, names: Set(configuration.nodes.map(\.name)), now: ms,
                knownTimeZone: Self.knownTimeZone, errors: &errors)
        else { throw ServiceError.invalidMaintenanceWindow(ValidationFailure(errors)) }
        if configuration.maintenance.contains(where: { $0.id == window.id }) {
            throw ServiceError.conflict("A maintenance window has the id \(window.id) already.")
        }
        configuration.maintenance.append(window)
        try save(configuration)
        return MaintenanceState(window: window, active: window.holds(atMs: ms, offset: Self.offset(window)))
    }

    /// `DELETE /v1/arena/maintenance/{id}`: the window ends (it leaves the configuration).
    public func endMaintenance(_ id: String) throws(ServiceError) {
        var configuration = self.configuration
        guard let index = configuration.maintenance.firstIndex(where: { $0.id == id }) else {
            throw ServiceError.notFound("No maintenance window has the id \(id).")
        }
        configuration.maintenance.remove(at: index)
        try save(configuration)
    }

    /// A window until healthy ends once every node it covers that went unhealthy in it is up
    /// again (called with each health change).
    func maintenanceHealthChanged(_ change: Prober.Change) {
        let ms = Int64((change.time * 1000).rounded())
        // The windows read before the arena's lock is taken (the prober's is not taken inside it).
        let windows = configuration.maintenance.filter {
            $0.untilHealthy && $0.covers(change.node) && $0.holds(atMs: ms, offset: Self.offset($0))
        }
        guard !windows.isEmpty else { return }
        let ended = state.withLock { state in
            MaintenanceWindow.untilHealthyChanged(
                node: change.node, to: change.to, windows: windows, unhealthy: &state.unhealthyInMaintenance)
        }
        for id in ended { try? endMaintenance(id) }
    }
}
