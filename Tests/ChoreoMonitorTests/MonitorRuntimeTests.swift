import ChoreoArena
import ChoreoJSON
import ChoreoStorage
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoMonitor

/// The monitor's runtime without the HTTP edge: a real SQLite store in a scratch directory, a
/// loopback target and a loopback receiver for the alerts.
@Suite(.serialized) final class MonitorRuntimeTests {
    let scratch = Scratch("choreo-monitor")

    /// Waits (at most `limit` seconds) until `condition` holds.
    func eventually(_ limit: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        repeat {
            if try condition() { return true }
            usleep(50_000)
        } while Date() < deadline
        return try condition()
    }

    static func configuration(target: UInt16, receiver: UInt16, channel: String = "") throws -> ArenaConfiguration {
        let text = """
            {"nodes": [{"name": "alpha", "url": "http://127.0.0.1:\(target)/health", "ip": "127.0.0.1"}],
             "probe": {"interval": 0.2, "timeout": 0.16, "failureThreshold": 1, "successThreshold": 1},
             "alerts": {"channels": [{"name": "ops", "type": "webhook", "url": "http://127.0.0.1:\(receiver)/hook",
                                      "format": "generic"\(channel)}],
                        "rules": [{"name": "down", "nodes": ["*"], "when": "down", "failureThreshold": 2,
                                   "successThreshold": 2, "sendOnResolved": true, "channels": ["ops"]}]}}
            """
        return try ArenaConfigurationCodec.decode(try JSONParser.parse(Array(text.utf8)))
    }

    @Test func anOutageIsRecordedDeliveredOnceAndResolvedFromTheStore() throws {
        let target = try WebhookReceiver()
        defer { target.stop() }
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let store = try SQLiteStore(directory: scratch.file("data"))
        let runtime = try ArenaRuntime(
            store: store, configuration: try Self.configuration(target: target.port, receiver: receiver.port))
        runtime.start()
        defer { runtime.stop() }
        #expect(eventually { runtime.status().nodes.first?.health.status == .up })

        target.answer(503)
        #expect(eventually { receiver.deliveries.count == 1 })
        let sent = try eventually {
            try runtime.alertState().deliveries.contains { $0.status == .sent }
        }
        #expect(sent)
        let (firing, deliveries) = try runtime.alertState()
        #expect(firing.map(\.rule) == ["down"] && firing.map(\.node) == ["alpha"])
        #expect(deliveries.map(\.key) == ["down/alpha/1/triggered"] && deliveries.map(\.attempts) == [1])

        target.answer(200)
        #expect(eventually { receiver.deliveries.count == 2 })
        #expect(try eventually { try runtime.alertState().firing.isEmpty })
        let keys = receiver.deliveries.compactMap { $0.headers["x-choreo-idempotency-key"] }
        #expect(keys == ["down/alpha/1/triggered", "down/alpha/2/resolved"])

        // The probes are stored with their verdicts as the store's own values.
        runtime.flush()
        let rows = try store.probes(node: "alpha")
        #expect(rows.contains { $0.verdict == .failed } && rows.contains { $0.verdict == .up })
        let history = try runtime.nodeHistory(of: "alpha", parameters: [])
        #expect(history.node == "alpha" && history.probes.count == rows.count)
        #expect(history.probes.filter { $0.verdict == .failed }.count == rows.filter { $0.verdict == .failed }.count)
    }

    /// A receiver down longer than the six tries that used to be a delivery's budget: the
    /// triggered delivery is tried on, the resolved one waits behind it, and both arrive in order,
    /// once each, when the receiver is back.
    @Test func aReceiverOutageDelaysDeliveriesInOrderWithoutLosingThem() throws {
        let target = try WebhookReceiver()
        defer { target.stop() }
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        receiver.answer(500)
        let store = try SQLiteStore(directory: scratch.file("outage"))
        let runtime = try ArenaRuntime(
            store: store, configuration: try Self.configuration(target: target.port, receiver: receiver.port))
        runtime.start()
        defer { runtime.stop() }
        #expect(eventually { runtime.status().nodes.first?.health.status == .up })
        target.answer(503)
        #expect(eventually { receiver.deliveries.count >= 2 })
        // The node is back: its resolved is recorded, and waits behind the triggered one.
        target.answer(200)
        #expect(try eventually { try runtime.alertState().deliveries.count == 2 })
        #expect(eventually(6) { receiver.deliveries.count >= 3 })
        func keys() -> [String] { receiver.deliveries.compactMap { $0.headers["x-choreo-idempotency-key"] } }
        #expect(Set(keys()) == ["down/alpha/1/triggered"], "\(keys())")
        #expect(runtime.metricsText().contains("choreo_alert_delivery_oldest_pending_seconds"))
        receiver.answer(200)
        #expect(try eventually(30) { try runtime.alertState().deliveries.allSatisfy { $0.status == .sent } })
        let sent = keys()
        #expect(sent.last == "down/alpha/2/resolved" && sent.filter { $0.hasSuffix("resolved") }.count == 1)
        #expect(sent.dropLast().allSatisfy { $0 == "down/alpha/1/triggered" } && sent.count >= 4)
        #expect(!runtime.metricsText().contains("choreo_alert_delivery_oldest_pending_seconds"))
    }

    /// Past the channel's retryFor a delivery is given up on, and counted as such.
    @Test func aDeliveryIsGivenUpPastItsHorizon() throws {
        let target = try WebhookReceiver()
        defer { target.stop() }
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        receiver.answer(500)
        let store = try SQLiteStore(directory: scratch.file("horizon"))
        let runtime = try ArenaRuntime(
            store: store,
            configuration: try Self.configuration(
                target: target.port, receiver: receiver.port, channel: #", "retryFor": 2"#))
        runtime.start()
        defer { runtime.stop() }
        #expect(eventually { runtime.status().nodes.first?.health.status == .up })
        target.answer(503)
        #expect(try eventually { try runtime.alertState().deliveries.contains { $0.status == .failed } })
        #expect(runtime.metricsText().contains(#"choreo_alert_deliveries_failed_total{channel="ops"} 1"#))
        #expect(receiver.deliveries.count >= 2)
    }
}
