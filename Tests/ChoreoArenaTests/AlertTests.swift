import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import Foundation
import Testing

/// The alert rules' state machine, their configuration's codec, and the delivery bodies.
struct AlertTests {
    /// Probes at 1 s intervals from t = 1000: `pattern` is a string of `u` (up) and `d` (down).
    static func probes(_ pattern: String, node: String = "db", start: Double = 1000, maintenance: Set<Int> = [])
        -> [AlertObservation]
    {
        pattern.enumerated().map { index, mark in
            AlertObservation(
                node: node, time: start + Double(index), failed: mark == "d", latencyMs: mark == "d" ? nil : 20,
                reason: mark == "d" ? "HTTP 503" : nil, inMaintenance: maintenance.contains(index))
        }
    }

    static func run(_ rule: AlertRule, _ observations: [AlertObservation]) -> [AlertTransition] {
        var evaluator = AlertEvaluator(rules: [rule])
        return observations.flatMap { evaluator.observe($0) }
    }

    @Test func failureThresholdTriggersAndSuccessThresholdResolves() {
        let rule = AlertRule(name: "down", failureThreshold: 2, successThreshold: 2, channels: ["ops"])
        let transitions = Self.run(rule, Self.probes("uudduddduudduu"))
        #expect(transitions.map(\.kind) == [.triggered, .resolved, .triggered, .resolved])
        // The first run of two failures (indices 2, 3) triggers at its second probe.
        #expect(transitions[0].at == 1003 && transitions[0].since == 1002 && transitions[0].sequence == 1)
        #expect(transitions[0].description == "db is down: HTTP 503")
        #expect(transitions[0].idempotencyKey == "down/db/1/triggered")
        // One good probe (index 4) is not enough to resolve; two (8, 9) are.
        #expect(transitions[1].at == 1009 && transitions[1].sequence == 2 && transitions[1].since == 1002)
        #expect(transitions[1].description == "db is up again after 7 s")
        #expect(transitions.map(\.sequence) == [1, 2, 3, 4])
        #expect(Set(transitions.map(\.idempotencyKey)).count == 4)
    }

    @Test func kOfNAndForAtLeastAreTheTriggersWhenNoThresholdIsSet() {
        let kOfN = AlertRule(name: "flaky", failureThreshold: nil, kOfN: (3, 5), successThreshold: 1, channels: ["x"])
        // Never two in a row, but three of five.
        let flaky = Self.run(kOfN, Self.probes("dududuuu"))
        #expect(flaky.map(\.kind) == [.triggered, .resolved])
        #expect(flaky[0].at == 1004 && flaky[1].at == 1005)
        let lasting = AlertRule(
            name: "long", failureThreshold: nil, forAtLeast: 3.5, successThreshold: 1, channels: ["x"])
        let long = Self.run(lasting, Self.probes("udddduddddd"))
        // The first run lasts 3 s (1001…1004): not enough; the second reaches 3.5 s at 1010.
        #expect(long.map(\.kind) == [.triggered])
        #expect(long[0].at == 1010 && long[0].since == 1006)
        // failureThreshold wins when several are set (the first set, in order).
        var both = kOfN
        both.failureThreshold = 4
        #expect(Self.run(both, Self.probes("dududuuu")).isEmpty)
    }

    @Test func remindersCountFromTheLastDelivery() {
        let rule = AlertRule(
            name: "down", failureThreshold: 1, successThreshold: 1, remindEvery: 3, channels: ["ops"])
        let transitions = Self.run(rule, Self.probes("ddddddddu"))
        #expect(transitions.map(\.kind) == [.triggered, .reminder, .reminder, .resolved])
        #expect(transitions[1].at == 1003 && transitions[1].reminder == 1 && transitions[1].sequence == 1)
        #expect(transitions[2].at == 1006 && transitions[2].reminder == 2)
        #expect(transitions[2].description == "db still down for 6 s, 2nd reminder: HTTP 503")
        #expect(transitions[2].idempotencyKey == "down/db/1/reminder-2")
        #expect(transitions[3].sequence == 2 && transitions[3].reminder == 0)
    }

    @Test func maintenanceHoldsTransitionsUntilItEnds() {
        let rule = AlertRule(name: "down", failureThreshold: 2, successThreshold: 1, channels: ["ops"])
        // Down and up again inside the window: nothing, then or later.
        #expect(Self.run(rule, Self.probes("uddduuu", maintenance: [1, 2, 3, 4])).isEmpty)
        // Down inside the window and still down after it: triggered at the first probe after it.
        let after = Self.run(rule, Self.probes("udddddu", maintenance: [1, 2, 3]))
        #expect(after.map(\.kind) == [.triggered, .resolved])
        #expect(after[0].at == 1004 && after[0].since == 1001)
        // Firing before the window, up during it, up after: resolved after the window.
        let resolved = Self.run(rule, Self.probes("dduuuu", maintenance: [2, 3]))
        #expect(resolved.map(\.kind) == [.triggered, .resolved])
        #expect(resolved[1].at == 1004)
    }

    @Test func latencyRulesUseTheMedianOfTheirWindow() {
        let rule = AlertRule(
            name: "slow", when: .latencyOver(limit: 0.1, window: 3), failureThreshold: 1, successThreshold: 1,
            channels: ["ops"])
        let latencies: [Double] = [20, 20, 500, 500, 500, 20, 20, 20]
        let observations = latencies.enumerated().map { index, ms in
            AlertObservation(node: "api", time: 1000 + Double(index), failed: false, latencyMs: ms, reason: nil)
        }
        let transitions = Self.run(rule, observations)
        // Windows (the last 3 s: this probe and the two before): median 500 at indices 3 to 5.
        #expect(transitions.map(\.kind) == [.triggered, .resolved])
        #expect(transitions[0].at == 1003 && transitions[1].at == 1006)
        #expect(transitions[0].description == "api is slow: median 500 ms over 3 s (limit 100 ms)")
    }

    @Test func replayTakesUpTheRecordedStateWithoutRepeatingIt() {
        let rule = AlertRule(name: "down", failureThreshold: 2, successThreshold: 2, channels: ["ops"])
        let history = Self.probes("uudduuddd")
        var leader = AlertEvaluator(rules: [rule])
        var recorded: [AlertTransition] = []
        for probe in history { recorded += leader.observe(probe) }
        #expect(recorded.map(\.kind) == [.triggered, .resolved, .triggered])
        // A new leader that knows the recorded transitions replays the stored probes: nothing again.
        var successor = AlertEvaluator(rules: [rule])
        successor.restore(["down": ["db": recorded.last!.state]])
        #expect(history.flatMap { successor.replay($0) }.isEmpty)
        // A leader killed before recording its last transition: the successor emits it, once.
        var late = AlertEvaluator(rules: [rule])
        late.restore(["down": ["db": recorded[1].state]])
        let caughtUp = history.flatMap { late.replay($0) }
        #expect(caughtUp == [recorded[2]])
        // And both go on alike.
        let next = Self.probes("uu", start: 1009)
        #expect(next.flatMap { successor.observe($0) } == next.flatMap { leader.observe($0) })
    }

    @Test func codecValidatesWithPathsAndRoundTrips() throws {
        let text = #"""
            {"channels": [{"name": "ops", "type": "webhook", "url": "http://127.0.0.1:9000/hook",
                           "secret": "s3cret", "format": "generic"}],
             "rules": [{"name": "down", "nodes": ["*"], "when": "down",
                        "failureThreshold": 2, "successThreshold": 1,
                        "kOfN": null, "forAtLeast": null,
                        "sendOnResolved": true, "remindEvery": null, "channels": ["ops"]}]}
            """#
        var errors: [FieldError] = []
        let alerts = AlertConfigurationCodec.decode(
            try JSONParser.parse(Array(text.utf8)), path: "$", names: ["db"], errors: &errors)
        #expect(errors.isEmpty, "\(errors)")
        #expect(alerts.rules.first?.failureThreshold == 2 && alerts.channels.first?.secret == "s3cret")
        var again: [FieldError] = []
        #expect(
            AlertConfigurationCodec.decode(
                AlertConfigurationCodec.encode(alerts), path: "$", names: ["db"], errors: &again)
                == alerts)
        // Secrets and webhook paths are hidden from readers without the token.
        var writer = JSONWriter()
        writer.value(AlertConfigurationCodec.encode(alerts, redactSecrets: true))
        let shown = String(decoding: writer.bytes, as: UTF8.self)
        #expect(!shown.contains("s3cret") && !shown.contains("/hook") && shown.contains("http://127.0.0.1:9000/"))

        let bad = #"""
            {"channels": [{"name": "ops", "url": "ftp://x", "format": "slak"}],
             "rules": [{"name": "down", "nodes": ["dv"], "when": "up", "kOfN": [5, 3],
                        "channels": ["opz"], "remindEvry": 5}]}
            """#
        var problems: [FieldError] = []
        _ = AlertConfigurationCodec.decode(
            try JSONParser.parse(Array(bad.utf8)), path: "$.alerts", names: ["db"], errors: &problems)
        let byPath = Dictionary(problems.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byPath["$.alerts.channels[0].url"] != nil)
        #expect(byPath["$.alerts.channels[0].format"]?.suggestion == "slack")
        #expect(byPath["$.alerts.rules[0].nodes[0]"]?.suggestion == "db")
        #expect(byPath["$.alerts.rules[0].when"] != nil)
        #expect(byPath["$.alerts.rules[0].kOfN"] != nil)
        #expect(byPath["$.alerts.rules[0].remindEvry"]?.suggestion == "remindEvery")
        // The channel was refused, so the rule's reference to "opz" has nothing to suggest.
        #expect(byPath["$.alerts.rules[0].channels[0]"] != nil)
    }

    @Test func deliveriesInEachFormat() throws {
        let transition = AlertTransition(
            rule: "down", node: "db-server-01", kind: .triggered, sequence: 7, reminder: 0, at: 1_764_583_203.512,
            since: 1_764_583_201.004, description: "db-server-01 is down: HTTP 503")
        let generic = AlertMessage.make(
            transition, channel: AlertChannel(name: "ops", url: "http://127.0.0.1:9000/hook"), nodeURL: "")
        #expect(
            String(decoding: generic.body, as: UTF8.self)
                == #"{"idempotencyKey":"down/db-server-01/7/triggered","event":"triggered","rule":"down","node":"db-server-01","at":"2025-12-01T10:00:03.512Z","sequence":7,"description":"db-server-01 is down: HTTP 503","since":"2025-12-01T10:00:01.004Z","reminder":0}"#
        )
        for format in AlertChannel.Format.allCases where format != .template {
            let message = AlertMessage.make(
                transition, channel: AlertChannel(name: "c", url: "https://ntfy.sh/alerts", format: format),
                nodeURL: "")
            guard case .object(let body) = try JSONParser.parse(message.body) else {
                Issue.record("\(format) is not a JSON object")
                continue
            }
            let text = String(decoding: message.body, as: UTF8.self)
            #expect(text.contains("db-server-01 is down: HTTP 503"), "\(format)")
            switch format {
            case .slack: #expect(body["text"] != nil)
            case .discord: #expect(body["content"] != nil)
            case .teams: #expect(body["type"] == "message" && text.contains("AdaptiveCard"))
            case .ntfy:
                #expect(body["topic"] == "alerts" && message.url == "https://ntfy.sh/")
                #expect(body["priority"] == .number(5))
            default: break
            }
        }
        let template = AlertMessage.make(
            transition,
            channel: AlertChannel(
                name: "t", url: "http://x/y", format: .template,
                template: #"{"text": "[ALERT_TRIGGERED_OR_RESOLVED] [ENDPOINT_NAME] \"[ALERT_DESCRIPTION]\""}"#),
            nodeURL: "http://db/health")
        #expect(
            String(decoding: template.body, as: UTF8.self)
                == #"{"text": "TRIGGERED db-server-01 \"db-server-01 is down: HTTP 503\""}"#)
        #expect(template.contentType == "application/json")
    }
}
