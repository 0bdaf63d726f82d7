/// One probe as the alert rules see it.
public struct AlertObservation: Sendable, Equatable {
    public let node: String
    /// Unix time, seconds.
    public let time: Double
    /// Whether the probe failed (no answer, an unaccepted status, a body condition unmet).
    public let failed: Bool
    /// The answer's time, when there was one.
    public let latencyMs: Double?
    /// Why it failed ("HTTP 503", "timed out after 4 s").
    public let reason: String?
    /// Whether a maintenance window held for the node then.
    public let inMaintenance: Bool

    public init(
        node: String, time: Double, failed: Bool, latencyMs: Double?, reason: String?, inMaintenance: Bool = false
    ) {
        self.node = node
        self.time = time
        self.failed = failed
        self.latencyMs = latencyMs
        self.reason = reason
        self.inMaintenance = inMaintenance
    }
}

/// A change of an alert, and each reminder: what is recorded once and delivered to the rule's
/// channels.
public struct AlertTransition: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case triggered, resolved, reminder
    }

    public let rule: String
    public let node: String
    public let kind: Kind
    /// The state change's number for this rule and node (1 for the first trigger, 2 for its
    /// resolution, …); a reminder has its trigger's.
    public let sequence: Int
    /// The reminder's number (1, 2, …); 0 for a state change.
    public let reminder: Int
    /// Unix time, seconds.
    public let at: Double
    /// When the alert's condition began (the first bad probe of the run that triggered it).
    public let since: Double
    public let description: String

    public init(
        rule: String, node: String, kind: Kind, sequence: Int, reminder: Int, at: Double, since: Double,
        description: String
    ) {
        self.rule = rule
        self.node = node
        self.kind = kind
        self.sequence = sequence
        self.reminder = reminder
        self.at = at
        self.since = since
        self.description = description
    }

    /// The same on every retry of a delivery, different for every state change and reminder:
    /// `rule/node/sequence/event` (`…/reminder-N` for reminders).
    public var idempotencyKey: String {
        "\(rule)/\(node)/\(sequence)/" + (kind == .reminder ? "reminder-\(reminder)" : kind.rawValue)
    }

    /// The delivered state after this transition.
    public var state: AlertState {
        AlertState(
            firing: kind != .resolved, sequence: sequence, since: since, reminders: reminder, lastNotified: at,
            lastEventAt: at)
    }
}

/// An alert's state as last recorded (the newest stored transition of a rule and node).
public struct AlertState: Sendable, Equatable {
    public var firing = false
    public var sequence = 0
    public var since = 0.0
    public var reminders = 0
    /// When it was last delivered (triggered or reminded): the next reminder counts from then.
    public var lastNotified = 0.0
    /// When the newest recorded transition happened.
    public var lastEventAt = -Double.infinity

    public init(
        firing: Bool = false, sequence: Int = 0, since: Double = 0, reminders: Int = 0, lastNotified: Double = 0,
        lastEventAt: Double = -.infinity
    ) {
        self.firing = firing
        self.sequence = sequence
        self.since = since
        self.reminders = reminders
        self.lastNotified = lastNotified
        self.lastEventAt = lastEventAt
    }
}

/// The alert rules applied to probes, one at a time, in time order: a pure state machine per
/// rule and node, which the leader alone runs (docs/alerts.md).
///
/// Each probe is good or bad for a rule (`down`: it failed; `latencyOver`: the median of the
/// answered probes of the rule's window is above its limit). The rule's condition turns on with
/// its trigger (`failureThreshold` bad in a row, else `kOfN`, else `forAtLeast` seconds of bad
/// probes) and off after `successThreshold` good ones in a row. A difference between the
/// condition and the recorded state is a transition, except while a maintenance window holds
/// for the node: then nothing is emitted, and a difference that still holds when the window
/// ends is emitted at the first probe after it.
public struct AlertEvaluator: Sendable {
    struct Key: Hashable {
        let rule: String
        let node: String
    }

    /// The counters of one rule and node.
    struct Track {
        var consecutiveBad = 0
        var consecutiveGood = 0
        var recent: [Bool] = []
        var badSince: Double?
        var condition = false
        var conditionSince = 0.0
        var reason: String?
        var latencies: [(time: Double, ms: Double)] = []
        var delivered = AlertState()
    }

    public private(set) var rules: [AlertRule]
    var tracks: [Key: Track] = [:]

    public init(rules: [AlertRule]) { self.rules = rules }

    /// Takes up the recorded state of each rule and node (`[rule: [node: state]]`).
    public mutating func restore(_ recorded: [String: [String: AlertState]]) {
        for (rule, nodes) in recorded {
            for (node, state) in nodes { tracks[Key(rule: rule, node: node), default: Track()].delivered = state }
        }
    }

    /// New rules: a rule whose definition is unchanged keeps its counters; every recorded
    /// state is kept.
    public mutating func reconfigure(_ newRules: [AlertRule]) {
        let unchanged = Set(newRules.filter { rule in rules.contains { $0 == rule } }.map(\.name))
        for key in tracks.keys where !unchanged.contains(key.rule) {
            tracks[key] = Track(delivered: tracks[key]!.delivered)
        }
        rules = newRules
    }

    /// The transitions one probe makes.
    public mutating func observe(_ observation: AlertObservation) -> [AlertTransition] {
        apply(observation, replaying: false)
    }

    /// A probe from before this evaluator took over (a stored one): counted, and no transition
    /// emitted for a rule and node whose newest recorded transition is at or after it (the
    /// condition then is what was recorded); newer ones are emitted as ``observe(_:)`` does.
    public mutating func replay(_ observation: AlertObservation) -> [AlertTransition] {
        apply(observation, replaying: true)
    }

    private mutating func apply(_ observation: AlertObservation, replaying: Bool) -> [AlertTransition] {
        var transitions: [AlertTransition] = []
        for rule in rules where rule.covers(observation.node) {
            let key = Key(rule: rule.name, node: observation.node)
            var track = tracks[key] ?? Track()
            Self.count(observation, rule, &track)
            if replaying && observation.time <= track.delivered.lastEventAt {
                track.condition = track.delivered.firing
                if track.condition { track.conditionSince = track.delivered.since }
            } else if !observation.inMaintenance, let transition = Self.emit(observation, rule, &track) {
                transitions.append(transition)
            }
            tracks[key] = track
        }
        return transitions
    }

    /// The alerts firing now: rule, node, since, sequence.
    public var firing: [(rule: String, node: String, since: Double, sequence: Int)] {
        tracks.filter { $0.value.delivered.firing }
            .map { ($0.key.rule, $0.key.node, $0.value.delivered.since, $0.value.delivered.sequence) }
            .sorted { ($0.rule, $0.node) < ($1.rule, $1.node) }
    }

    // MARK: The state machine

    /// Updates the counters and the condition with one probe.
    static func count(_ observation: AlertObservation, _ rule: AlertRule, _ track: inout Track) {
        let bad: Bool
        switch rule.when {
        case .down:
            bad = observation.failed
            if bad { track.reason = observation.reason }
        case .latencyOver(let limit, let window):
            if !observation.failed, let ms = observation.latencyMs { track.latencies.append((observation.time, ms)) }
            track.latencies.removeAll { $0.time <= observation.time - window }
            let median = Self.median(track.latencies.map(\.ms))
            bad = median.map { $0 > limit * 1000 } ?? false
            if bad, let median {
                track.reason =
                    "median \(Self.milliseconds(median)) over \(Self.duration(window)) (limit \(Self.milliseconds(limit * 1000)))"
            }
        }
        if bad {
            track.consecutiveBad += 1
            track.consecutiveGood = 0
            if track.badSince == nil { track.badSince = observation.time }
        } else {
            track.consecutiveGood += 1
            track.consecutiveBad = 0
            track.badSince = nil
        }
        let length = rule.historyLength
        track.recent.append(bad)
        if track.recent.count > length { track.recent.removeFirst(track.recent.count - length) }
        if !track.condition {
            let triggers: Bool
            if let threshold = rule.failureThreshold {
                triggers = track.consecutiveBad >= threshold
            } else if let (k, _) = rule.kOfN {
                triggers = track.recent.count(where: { $0 }) >= k
            } else if let seconds = rule.forAtLeast, let since = track.badSince {
                triggers = observation.time - since >= seconds
            } else {
                triggers = false
            }
            if triggers {
                track.condition = true
                track.conditionSince = track.badSince ?? observation.time
            }
        } else if track.consecutiveGood >= rule.successThreshold {
            track.condition = false
            // A resolved alert starts counting afresh: old failures in a k-of-n window do not
            // trigger it again at the next bad probe.
            track.recent = []
        }
    }

    /// The transition the condition asks for now, if any, recorded in the track.
    static func emit(_ observation: AlertObservation, _ rule: AlertRule, _ track: inout Track) -> AlertTransition? {
        let node = observation.node
        let now = observation.time
        let what = rule.when == .down ? "down" : "slow"
        if track.condition != track.delivered.firing {
            let kind: AlertTransition.Kind = track.condition ? .triggered : .resolved
            let since = track.condition ? track.conditionSince : track.delivered.since
            let description =
                track.condition
                ? "\(node) is \(what)" + (track.reason.map { ": \($0)" } ?? "")
                : "\(node) is \(rule.when == .down ? "up" : "fast") again after \(duration(now - since))"
            let transition = AlertTransition(
                rule: rule.name, node: node, kind: kind, sequence: track.delivered.sequence + 1, reminder: 0, at: now,
                since: since, description: description)
            track.delivered = transition.state
            return transition
        }
        if track.delivered.firing, let every = rule.remindEvery, now - track.delivered.lastNotified >= every {
            let number = track.delivered.reminders + 1
            let transition = AlertTransition(
                rule: rule.name, node: node, kind: .reminder, sequence: track.delivered.sequence, reminder: number,
                at: now, since: track.delivered.since,
                description:
                    "\(node) still \(what) for \(duration(now - track.delivered.since)), \(ordinal(number)) reminder"
                    + (track.reason.map { ": \($0)" } ?? ""))
            track.delivered = transition.state
            return transition
        }
        return nil
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func milliseconds(_ ms: Double) -> String { "\(Int(ms.rounded())) ms" }

    /// `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`.
    public static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 { return "\(s / 3600) h" + (s % 3600 / 60 > 0 ? " \(s % 3600 / 60) min" : "") }
        return "\(s / 86_400) d" + (s % 86_400 / 3600 > 0 ? " \(s % 86_400 / 3600) h" : "")
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 21st, …
    static func ordinal(_ n: Int) -> String {
        let suffix =
            (11...13).contains(n % 100) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th"
        return "\(n)\(suffix)"
    }
}
