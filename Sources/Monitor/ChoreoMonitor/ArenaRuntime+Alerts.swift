import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import ChoreoService
import ChoreoStorage
import Foundation
import Synchronization

/// Alerts (docs/alerts.md): the leader applies the rules to its own probes; each transition is
/// recorded once with its deliveries (an outbox, in the same transaction), and the leader's
/// delivery thread drains the outbox: signed `POST`s, retried with backoff, the last failure
/// recorded. A leader killed between sending and recording leaves the delivery due, and the
/// next leader sends it again with the same idempotency key; a new leader first takes up the
/// recorded state and replays the stored probes, so a transition the old one computed but did
/// not record is recorded now, and none is recorded twice.
extension ArenaRuntime {
    /// What the delivery thread works from, under its own mutex (never held across I/O).
    struct AlertWork {
        /// Nil until the recorded state is taken up (at start, and at each takeover).
        var evaluator: AlertEvaluator?
        /// Transitions to record, oldest first.
        var pending: [AlertTransition] = []
        var stopping = false
        var running = false
        /// Tries so far by outcome, in this process (`choreo_alert_delivery_attempts_total`).
        var attempts: [String: Int] = ["success": 0, "failure": 0]
        /// Deliveries given up on in this process, by channel (`choreo_alert_deliveries_failed_total`):
        /// a counter, unlike the kept deliveries' gauge, which falls when an old one is trimmed.
        var givenUp: [String: Int] = [:]
        /// A follower's newest transition seen per rule and node (`rule/node` → sequence and
        /// reminder), so that it sends each recorded one to its own event streams once.
        var seen: [String: (sequence: Int, reminder: Int)] = [:]
    }

    /// Deliveries taken from the outbox at once.
    static let deliveryBatch = 20
    /// Deliveries not finished yet read at each turn, oldest first: of each rule and node's on a
    /// channel only the oldest is tried, so a `resolved` never overtakes its `triggered`.
    static let pendingWindow = 5_000
    /// Seconds between two tries of a delivery: 1, 2, 4, … at most 60.
    static func backoff(afterAttempt attempt: Int) -> Double { min(60, pow(2, Double(max(attempt - 1, 0)))) }

    /// Starts the delivery thread (``start()`` calls this).
    func startAlerts() {
        alertWork.withLock { $0.running = true }
        let thread = Thread { [weak self] in
            defer { self?.alertsDone.signal() }
            while let self, !self.alertWork.withLock({ $0.stopping }) {
                self.alertTurn()
                _ = self.alertWake.wait(timeout: .now() + 0.25)
            }
        }
        thread.name = "choreo-alerts"
        thread.start()
    }

    /// Ends the delivery thread (``stop()`` calls this); a delivery in flight ends at its timeout.
    func stopAlerts() {
        let running = alertWork.withLock { work -> Bool in
            work.stopping = true
            return work.running
        }
        guard running else { return }
        alertWake.signal()
        _ = alertsDone.wait(timeout: .now() + 70)
    }

    /// A probe of this replica's prober, applied to the rules (the leader's only).
    func alertObserve(_ record: Prober.Record, inMaintenance maintenance: Bool) {
        let rules = configuration.alerts.rules
        guard !rules.isEmpty else { return }
        let observation = AlertObservation(
            node: record.node, time: record.time, failed: record.verdict.kind == .failed,
            latencyMs: record.httpStatus == nil ? nil : record.latencyMs, reason: record.verdict.reason,
            inMaintenance: maintenance)
        let added = alertWork.withLock { work -> Bool in
            guard work.evaluator != nil else { return false }
            if work.evaluator!.rules != rules { work.evaluator!.reconfigure(rules) }
            let transitions = work.evaluator!.observe(observation)
            work.pending += transitions
            return !transitions.isEmpty
        }
        if added { alertWake.signal() }
    }

    /// The rules lose their state when this replica stops leading: the next leader takes it up.
    func alertsLostLeadership() {
        alertWork.withLock {
            $0.evaluator = nil
            $0.pending = []
        }
    }

    /// One turn of the delivery thread: take up the state, record transitions, send what is due.
    private func alertTurn() {
        guard isLeader else {
            alertsLostLeadership()
            return
        }
        if alertWork.withLock({ $0.evaluator == nil }) {
            guard restoreAlerts() else { return }
        }
        recordPending()
        deliverDue()
    }

    /// Takes up the recorded state of every rule and node, then replays the stored probes
    /// (`history`'s where the caller has read them already): transitions the last leader
    /// computed but did not record are recorded now.
    @discardableResult
    func restoreAlerts(history: [String: [ProbeRow]] = [:]) -> Bool {
        flush()
        let configuration = self.configuration
        var evaluator = AlertEvaluator(rules: configuration.alerts.rules)
        var transitions: [AlertTransition] = []
        if !configuration.alerts.rules.isEmpty {
            guard let latest = try? store.latestAlertEvents() else { return false }
            var recorded: [String: [String: AlertState]] = [:]
            for event in latest {
                recorded[event.rule, default: [:]][event.node] = AlertState(
                    firing: event.firing, sequence: event.sequence,
                    since: Double(event.sinceMs) / 1000, reminders: event.reminder,
                    lastNotified: Double(event.atMs) / 1000, lastEventAt: Double(event.atMs) / 1000)
            }
            evaluator.restore(recorded)
            for node in configuration.nodes where configuration.alerts.rules.contains(where: { $0.covers(node.name) }) {
                guard let rows = history[node.name] ?? (try? store.probes(node: node.name)) else { return false }
                for row in rows where row.url == node.url {
                    let failed = row.verdict == .failed
                    transitions += evaluator.replay(
                        AlertObservation(
                            node: row.node, time: Double(row.timeMs) / 1000, failed: failed,
                            latencyMs: row.httpStatus == nil ? nil : Double(row.latencyMicroseconds) / 1000,
                            reason: row.reason, inMaintenance: inMaintenance(row.node, atMs: row.timeMs)))
                }
            }
        }
        alertWork.withLock { work in
            work.evaluator = evaluator
            work.pending = transitions + work.pending
        }
        return true
    }

    /// Records the pending transitions, each with a delivery per channel of its rule; one that
    /// another leader recorded first is skipped. Stops at the first storage failure (the rest
    /// wait for the next turn).
    private func recordPending() {
        let pending = alertWork.withLock { $0.pending }
        guard !pending.isEmpty else { return }
        // The probes that justify them are stored first: a successor replays them.
        flush()
        let configuration = self.configuration
        var done = 0
        for transition in pending {
            let rule = configuration.alerts.rules.first { $0.name == transition.rule }
            let nowMs = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            var deliveries: [StoredDelivery] = []
            if let rule, transition.kind != .resolved || rule.sendOnResolved {
                let nodeURL = configuration.nodes.first { $0.name == transition.node }.map {
                    URLRedaction.redacted($0.url)
                }
                for name in rule.channels {
                    guard let channel = configuration.alerts.channels.first(where: { $0.name == name }) else {
                        continue
                    }
                    let message = AlertMessage.make(transition, channel: channel, nodeURL: nodeURL ?? "")
                    deliveries.append(
                        StoredDelivery(
                            key: transition.idempotencyKey, channel: name, url: message.url,
                            contentType: message.contentType, body: message.body, nextMs: nowMs, createdMs: nowMs))
                }
            }
            let event = StoredAlertEvent(
                rule: transition.rule, node: transition.node, sequence: transition.sequence,
                reminder: transition.reminder, event: StoredAlertEvent.Kind(transition.kind),
                atMs: Int64((transition.at * 1000).rounded()), sinceMs: Int64((transition.since * 1000).rounded()),
                description: transition.description)
            guard let inserted = try? store.recordAlert(event, deliveries: deliveries) else { break }
            done += 1
            if inserted {
                alertWork.withLock {
                    $0.seen["\(transition.rule)/\(transition.node)"] = (transition.sequence, transition.reminder)
                }
                broadcast(.alert(transition))
            }
        }
        alertWork.withLock { $0.pending.removeFirst(min(done, $0.pending.count)) }
        // The other replicas' event streams show it too.
        if done > 0 { try? store.coordination?.notify(channel: Self.channel, payload: Self.alertRecorded) }
    }

    /// Sends the deliveries that are due, one after the other, and records each outcome. Of the
    /// deliveries of one rule and node to one channel, only the oldest not finished is tried:
    /// the receiver gets them in the order they were recorded, whatever it refused in between.
    private func deliverDue() {
        let nowMs = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        guard let pending = try? store.dueDeliveries(nowMs: .max, limit: Self.pendingWindow), !pending.isEmpty
        else { return }
        let due = Self.inOrder(pending, nowMs: nowMs).prefix(Self.deliveryBatch)
        let channels = configuration.alerts.channels
        for delivery in due {
            guard isLeader, !alertWork.withLock({ $0.stopping }) else { return }
            let attempt = delivery.attempts + 1
            guard let channel = channels.first(where: { $0.name == delivery.channel }) else {
                try? store.updateDelivery(
                    key: delivery.key, channel: delivery.channel, status: .failed, attempts: delivery.attempts,
                    nextMs: nowMs, error: "the channel \(delivery.channel) is no longer configured")
                alertWork.withLock { $0.givenUp[delivery.channel, default: 0] += 1 }
                continue
            }
            let outcome = send(delivery, channel: channel)
            let finishedMs = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            alertWork.withLock { $0.attempts[outcome.succeeded ? "success" : "failure", default: 0] += 1 }
            let givingUp =
                attempt >= (channel.maxAttempts ?? .max)
                || finishedMs - delivery.createdMs >= Int64(channel.retryFor * 1000)
            let status: StoredDelivery.Status = outcome.succeeded ? .sent : givingUp ? .failed : .retrying
            let next = finishedMs + Int64(Self.backoff(afterAttempt: attempt) * 1000)
            try? store.updateDelivery(
                key: delivery.key, channel: delivery.channel, status: status, attempts: attempt,
                nextMs: status == .retrying ? next : finishedMs,
                error: outcome.succeeded ? nil : outcome.description)
            if status == .failed { alertWork.withLock { $0.givenUp[delivery.channel, default: 0] += 1 } }
        }
    }

    /// The deliveries to try now, oldest first: each rule and node's oldest unfinished delivery
    /// to each channel, when it is due (`pending` is every unfinished one, oldest first).
    static func inOrder(_ pending: [StoredDelivery], nowMs: Int64) -> [StoredDelivery] {
        var seen = Set<String>()
        return pending.filter { delivery in
            // The key is rule/node/sequence/event: what precedes the last two parts names the pair.
            let pair = delivery.key.split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
            let first = seen.insert(delivery.channel + "\u{0}" + pair.joined(separator: "/")).inserted
            return first && delivery.nextMs <= nowMs
        }
    }

    /// One try: the stored body to the stored URL, signed now when the channel has a secret.
    /// The URL and every address its host resolves to are checked against the channel's
    /// policy first (``WebhookTarget``): a delivery stored before the policy refused it, or a
    /// name that resolves to a link-local address, is refused here.
    private func send(_ delivery: StoredDelivery, channel: AlertChannel) -> CurlWebhookClient.Outcome {
        let allowPrivate = channel.allowPrivateTargets
        if let problem = WebhookTarget.urlProblem(delivery.url, allowPrivate: allowPrivate) {
            return .failed("refused: the webhook URL \(problem)")
        }
        let timestamp = Int64(Date().timeIntervalSince1970)
        var headers: [(String, String)] = [
            ("X-Choreo-Timestamp", "\(timestamp)"), ("X-Choreo-Idempotency-Key", delivery.key),
        ]
        if let secret = channel.secret {
            switch WebhookSignature.header(secret: secret, timestamp: timestamp, body: delivery.body) {
            case .success(let signature): headers.append(("X-Choreo-Signature", signature))
            case .failure(let unavailable): return .failed(unavailable.description)
            }
        }
        return CurlWebhookClient.post(
            CurlWebhookClient.Request(
                url: delivery.url, contentType: delivery.contentType, body: delivery.body, headers: headers,
                timeout: channel.timeout,
                refuse: { WebhookTarget.refusal(WebhookTarget.classify($0), address: $0, allowPrivate: allowPrivate) }))
    }

    /// A follower's part: the newest recorded transition of each rule and node that it has not
    /// sent yet goes to its event streams (`remember` only notes them, at start).
    func followAlerts(remember: Bool = false) {
        guard let latest = try? store.latestAlertEvents() else { return }
        let fresh = alertWork.withLock { work -> [StoredAlertEvent] in
            var fresh: [StoredAlertEvent] = []
            for event in latest {
                let key = "\(event.rule)/\(event.node)"
                if let seen = work.seen[key], (seen.sequence, seen.reminder) >= (event.sequence, event.reminder) {
                    continue
                }
                work.seen[key] = (event.sequence, event.reminder)
                fresh.append(event)
            }
            return remember ? [] : fresh
        }
        for event in fresh {
            broadcast(
                .alert(
                    AlertTransition(
                        rule: event.rule, node: event.node,
                        kind: AlertTransition.Kind(event.event), sequence: event.sequence,
                        reminder: event.reminder, at: Double(event.atMs) / 1000, since: Double(event.sinceMs) / 1000,
                        description: event.description)))
        }
    }

    // MARK: Reading and changing

    /// `PUT /v1/arena/alerts`: validated against the configured nodes, stored, applied.
    public func replaceAlerts(_ body: [UInt8]) throws(ServiceError) -> AlertConfiguration {
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            throw ServiceError.malformedJSON(error)
        }
        var configuration = self.configuration
        var errors: [FieldError] = []
        let alerts = AlertConfigurationCodec.decode(
            document, path: "$", names: Set(configuration.nodes.map(\.name)), errors: &errors)
        guard errors.isEmpty else { throw ServiceError.invalidConfiguration(ValidationFailure(errors)) }
        configuration.alerts = alerts
        try save(configuration)
        return alerts
    }

    /// An alert firing now, as recorded.
    public struct FiringAlert: Sendable, Equatable {
        public let rule: String
        public let node: String
        /// Unix milliseconds.
        public let sinceMs: Int64
        public let sequence: Int
        public let description: String
    }

    /// `GET /v1/arena/alerts/state`: what fires and the newest deliveries, as stored (the same
    /// on every replica).
    public func alertState(deliveries limit: Int = 100) throws(ServiceError) -> (
        firing: [FiringAlert], deliveries: [StoredDelivery]
    ) {
        try ServiceError.storing { () throws(StorageError) in
            let firing = try store.latestAlertEvents().filter(\.firing).map {
                FiringAlert(
                    rule: $0.rule, node: $0.node, sinceMs: $0.sinceMs, sequence: $0.sequence,
                    description: $0.description)
            }
            return (firing, try store.recentDeliveries(limit: limit))
        }
    }

    /// `alerts/state`'s `limit`: 1…1000, 100 when not given; any other parameter is refused.
    public static func alertStateLimit(_ query: [(String, String)]) throws(ServiceError) -> Int {
        var limit = 100
        for (name, value) in query {
            guard name == "limit", let number = Int(value), (1...1000).contains(number) else {
                throw ServiceError.invalidQuery(
                    "query.\(name)", name == "limit" ? "must be a whole number, 1…1000" : "unknown parameter (limit)")
            }
            limit = number
        }
        return limit
    }

    /// ``alertState(deliveries:)`` as its document.
    public func alertStateDocument(deliveries limit: Int) throws(ServiceError) -> JSONValue {
        let (firing, deliveries) = try alertState(deliveries: limit)
        return MonitorDocuments.alertState(
            firing: firing.map {
                MonitorDocuments.Firing(
                    rule: $0.rule, node: $0.node, sinceMs: $0.sinceMs, sequence: $0.sequence,
                    description: $0.description)
            },
            deliveries: deliveries.map {
                MonitorDocuments.Delivery(
                    key: $0.key, channel: $0.channel, outcome: MonitorDocuments.Delivery.Outcome($0.status),
                    attempts: $0.attempts,
                    lastError: $0.lastError,
                    createdMs: $0.createdMs, nextMs: $0.nextMs)
            })
    }

    /// The alerts' lines of `/metrics` (none when storage cannot be read now).
    func alertMetricLines(label: (String) -> String) -> [String] {
        guard let latest = try? store.latestAlertEvents(), let counts = try? store.deliveryCounts() else { return [] }
        var lines: [String] = []
        lines.append("# HELP choreo_alerts_firing Alerts firing now, by rule.")
        lines.append("# TYPE choreo_alerts_firing gauge")
        for rule in configuration.alerts.rules {
            let firing = latest.filter { $0.rule == rule.name && $0.firing }.count
            lines.append("choreo_alerts_firing{rule=\"\(label(rule.name))\"} \(firing)")
        }
        lines.append("# HELP choreo_alert_deliveries Alert deliveries kept, by outcome (retrying, sent, failed).")
        lines.append("# TYPE choreo_alert_deliveries gauge")
        for outcome in StoredDelivery.Status.allCases {
            lines.append("choreo_alert_deliveries{outcome=\"\(outcome.rawValue)\"} \(counts[outcome] ?? 0)")
        }
        let (attempts, givenUp) = alertWork.withLock { ($0.attempts, $0.givenUp) }
        if let oldest = (try? store.dueDeliveries(nowMs: .max, limit: 1))?.first {
            let age = max(0, Date().timeIntervalSince1970 - Double(oldest.createdMs) / 1000)
            lines.append(
                "# HELP choreo_alert_delivery_oldest_pending_seconds Age of the oldest delivery not finished yet (absent when none)."
            )
            lines.append("# TYPE choreo_alert_delivery_oldest_pending_seconds gauge")
            lines.append("choreo_alert_delivery_oldest_pending_seconds \(age)")
        }
        lines.append("# HELP choreo_alert_delivery_attempts_total Delivery tries by this process, by outcome.")
        lines.append("# TYPE choreo_alert_delivery_attempts_total counter")
        for outcome in ["success", "failure"] {
            lines.append("choreo_alert_delivery_attempts_total{outcome=\"\(outcome)\"} \(attempts[outcome] ?? 0)")
        }
        lines.append("# HELP choreo_alert_deliveries_failed_total Deliveries this process gave up on, by channel.")
        lines.append("# TYPE choreo_alert_deliveries_failed_total counter")
        for channel in Set(configuration.alerts.channels.map(\.name)).union(givenUp.keys).sorted() {
            lines.append(
                "choreo_alert_deliveries_failed_total{channel=\"\(label(channel))\"} \(givenUp[channel] ?? 0)")
        }
        return lines
    }
}

extension StoredAlertEvent.Kind {
    /// A transition's kind as the store keeps it.
    init(_ kind: AlertTransition.Kind) {
        self =
            switch kind {
            case .triggered: .triggered
            case .resolved: .resolved
            case .reminder: .reminder
            }
    }
}

extension AlertTransition.Kind {
    /// A stored transition's kind.
    init(_ kind: StoredAlertEvent.Kind) {
        self =
            switch kind {
            case .triggered: .triggered
            case .resolved: .resolved
            case .reminder: .reminder
            }
    }
}

extension MonitorDocuments.Delivery.Outcome {
    /// A stored delivery's status, as `alerts/state` shows it.
    init(_ status: StoredDelivery.Status) {
        self =
            switch status {
            case .retrying: .retrying
            case .sent: .sent
            case .failed: .failed
            }
    }
}
