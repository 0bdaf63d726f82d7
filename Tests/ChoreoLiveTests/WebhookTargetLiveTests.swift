import ChoreoArena
import ChoreoJSON
import ChoreoProbe
import ChoreoTestSupport
import Foundation
import Synchronization
import Testing

/// Webhook URLs a real server refuses at configuration (`PUT /v1/arena/alerts`, `--arena`), and
/// the check of the addresses libcurl connects to at delivery (docs/security.md).
@Suite(.serialized) final class WebhookTargetLiveTests {
    let scratch = Scratch("choreo-webhook-targets")

    /// An arena of one node, `alpha`, and the given alerts (none when empty).
    static func arena(target: UInt16, alerts: String = "") -> String {
        """
        {"nodes": [{"name": "alpha", "url": "http://127.0.0.1:\(target)/health", "ip": "127.0.0.1"}],
         "probe": {"interval": 0.5, "timeout": 0.4}\(alerts.isEmpty ? "" : ", \"alerts\": \(alerts)")}
        """
    }

    /// Alerts with one channel whose URL is `url` (written into JSON as is: escapes stay escapes).
    static func alerts(url: String, extra: String = "") -> String {
        """
        {"channels": [{"name": "ops", "type": "webhook", "url": "\(url)"\(extra)}],
         "rules": [{"name": "down", "nodes": ["*"], "when": "down", "channels": ["ops"]}]}
        """
    }

    @Test func hostileWebhookURLsAreRefusedAtConfiguration() throws {
        let target = try ServerProcess.target()
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let file = try scratch.write("arena.json", Self.arena(target: target.port))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        let hostile: [(url: String, says: String)] = [
            ("http://127.0.0.1:\(receiver.port)/hook\\r\\nX-Injected: 1", "control character"),
            ("http://127.0.0.1:\(receiver.port)/ho\\nok", "control character"),
            ("http://127.0.0.1:\(receiver.port)/\\u0000", "control character"),
            ("http://127.0.0.1:\(receiver.port)/\\t", "control character"),
            ("http://169.254.169.254/latest/meta-data/", "link-local"),
            ("http://[fe80::1]/hook", "link-local"),
            ("http://[::ffff:169.254.169.254]/hook", "link-local"),
            ("http://2852039166/hook", "link-local"),
            ("http://0xA9FEA9FE/hook", "link-local"),
            ("http://0251.0376.0251.0376/hook", "link-local"),
            ("http://0.0.0.0:\(receiver.port)/hook", "unspecified"),
            ("http://[::]:\(receiver.port)/hook", "unspecified"),
            ("http://255.255.255.255/hook", "broadcast"),
            ("http://192.168.1.10/hook", "allowPrivateTargets"),
            ("http://[fd00::1]/hook", "allowPrivateTargets"),
        ]
        for (url, says) in hostile {
            let response = try http.request("PUT", "/v1/arena/alerts", body: Self.alerts(url: url))
            #expect(response.status == 422, "\(url): \(response.status) \(response.text)")
            let problem = try ArenaLiveTests.object(response)
            guard case .array(let errors)? = problem["errors"], case .object(let first)? = errors.first,
                case .string(let message)? = first["message"]
            else {
                Issue.record("\(url): no errors in \(response.text)")
                continue
            }
            #expect(first["path"] == .string("$.channels[0].url"), "\(url)")
            #expect(message.contains(says), "\(url): \(message)")
        }
        // Nothing was stored: the alerts are still none.
        let stored = try ArenaLiveTests.object(try http.request("GET", "/v1/arena/alerts"))
        #expect(stored["channels"] == .array([]), "\(stored)")
        // Link-local stays refused with the opt-in; private ranges need it; loopback never does.
        let metadata = try http.request(
            "PUT", "/v1/arena/alerts",
            body: Self.alerts(url: "http://169.254.169.254/", extra: #", "allowPrivateTargets": true"#))
        #expect(metadata.status == 422 && metadata.text.contains("link-local"))
        let lan = try http.request(
            "PUT", "/v1/arena/alerts",
            body: Self.alerts(url: "http://192.168.1.10/hook", extra: #", "allowPrivateTargets": true"#))
        #expect(lan.status == 200, "\(lan.text)")
        #expect(lan.text.contains(#""allowPrivateTargets":true"#), "\(lan.text)")
        let loopback = try http.request(
            "PUT", "/v1/arena/alerts", body: Self.alerts(url: "http://127.0.0.1:\(receiver.port)/hook"))
        #expect(loopback.status == 200 && loopback.text.contains(#""allowPrivateTargets":false"#), "\(loopback.text)")

        // The same refusals for the --arena file: the server does not start.
        for url in ["http://169.254.169.254/", "http://127.0.0.1:9/hook\\r\\nX: 1", "http://0xA9FEA9FE/"] {
            let bad = try scratch.write("bad.json", Self.arena(target: target.port, alerts: Self.alerts(url: url)))
            let (status, _, errors) = try runProgram(
                ServerProcess.binary, ["serve", "--port", "0", "--data", scratch.file("bad-data"), "--arena", bad],
                timeout: 30)
            #expect(status != 0 && errors.contains("$.alerts.channels[0].url"), "\(url): \(status) \(errors)")
        }
    }

    /// Every address libcurl connects to passes the channel's policy first: a refused one gets
    /// no connection, and the failure says why (the receiver is on loopback, so the test's
    /// policy refuses loopback to show it).
    @Test func theAddressConnectedToIsCheckedAtDelivery() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        func post(_ url: String, refuse: @escaping @Sendable ([UInt8]) -> String?) -> CurlWebhookClient.Outcome {
            CurlWebhookClient.post(
                CurlWebhookClient.Request(
                    url: url, contentType: "application/json", body: Array(#"{"x":1}"#.utf8), headers: [],
                    timeout: 5, refuse: refuse))
        }
        let policy: @Sendable ([UInt8]) -> String? = {
            WebhookTarget.refusal(WebhookTarget.classify($0), address: $0, allowPrivate: false)
        }
        // The production policy lets loopback through, by name and by address.
        #expect(post("http://127.0.0.1:\(receiver.port)/hook", refuse: policy) == .answered(status: 200))
        #expect(post("http://localhost:\(receiver.port)/hook", refuse: policy) == .answered(status: 200))
        #expect(receiver.deliveries.count == 2)
        // An address the policy refuses is never connected to, however the host is named.
        let seen = SeenAddresses()
        let refuseAll: @Sendable ([UInt8]) -> String? = { address in
            seen.add(address)
            return "targets \(WebhookTarget.describe(address)), refused by this test"
        }
        for url in ["http://127.0.0.1:\(receiver.port)/hook", "http://localhost:\(receiver.port)/hook"] {
            let outcome = post(url, refuse: refuseAll)
            #expect(outcome.description.hasPrefix("refused: the webhook targets "), "\(outcome)")
            #expect(outcome.description.contains("refused by this test"), "\(outcome)")
        }
        #expect(receiver.deliveries.count == 2)
        #expect(seen.addresses.contains([127, 0, 0, 1]))
        // The bytes handed to the policy are the socket's: a link-local one is refused by it.
        #expect(policy([169, 254, 169, 254])?.contains("link-local") == true)
    }
}

/// The addresses a test's policy was asked about.
final class SeenAddresses: Sendable {
    private let list = Mutex<[[UInt8]]>([])
    func add(_ address: [UInt8]) { list.withLock { $0.append(address) } }
    var addresses: [[UInt8]] { list.withLock { $0 } }
}
