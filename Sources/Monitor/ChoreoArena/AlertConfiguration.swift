/// The arena's alerting (docs/alerts.md): where alerts go (channels) and when they fire (rules),
/// under `"alerts"` in the arena configuration and through `GET`/`PUT /v1/arena/alerts`.
public struct AlertConfiguration: Sendable, Equatable {
    public var channels: [AlertChannel] = []
    public var rules: [AlertRule] = []

    public init(channels: [AlertChannel] = [], rules: [AlertRule] = []) {
        self.channels = channels
        self.rules = rules
    }

    /// Channels and rules in one arena, at most.
    public static let maxChannels = 50
    public static let maxRules = 200
}

/// Where an alert is sent: a webhook, its body in one of the formats chat services read.
public struct AlertChannel: Sendable, Equatable {
    /// The body a delivery carries.
    public enum Format: String, Sendable, CaseIterable {
        /// choreo's own JSON (docs/alerts.md, openapi.yaml `AlertDelivery`).
        case generic
        /// A Slack incoming webhook's `{"text": …}`.
        case slack
        /// A Discord webhook's `{"content": …}`.
        case discord
        /// A Microsoft Teams workflow's message with an Adaptive Card.
        case teams
        /// ntfy's JSON publishing form (`topic`, `title`, `message`, `tags`, `priority`).
        case ntfy
        /// The channel's `template`, with Gatus's placeholders replaced.
        case template
    }

    public var name: String
    /// `http` or `https`.
    public var url: String
    /// The shared secret of the `X-Choreo-Signature` header; none when nil.
    public var secret: String?
    public var format: Format
    /// The body of a `template` channel.
    public var template: String?
    /// ntfy's topic (by default the URL's last path segment).
    public var topic: String?
    /// Seconds a delivery may take.
    public var timeout: Double
    /// Tries before a delivery is recorded as failed (the first one included); nil: as many as
    /// ``retryFor`` allows.
    public var maxAttempts: Int?
    /// Seconds after a delivery was recorded that it is still tried, with backoff: past them it
    /// is recorded as failed (24 hours by default), so a receiver down for hours still gets it.
    public var retryFor: Double
    /// Whether the webhook may be at a private address (10.0.0.0/8, 172.16.0.0/12,
    /// 192.168.0.0/16, 100.64.0.0/10, fc00::/7): off by default (``WebhookTarget``).
    public var allowPrivateTargets: Bool

    public init(
        name: String, url: String, secret: String? = nil, format: Format = .generic, template: String? = nil,
        topic: String? = nil, timeout: Double = 5, maxAttempts: Int? = nil, retryFor: Double = 86_400,
        allowPrivateTargets: Bool = false
    ) {
        self.name = name
        self.url = url
        self.secret = secret
        self.format = format
        self.template = template
        self.topic = topic
        self.timeout = timeout
        self.maxAttempts = maxAttempts
        self.retryFor = retryFor
        self.allowPrivateTargets = allowPrivateTargets
    }
}

/// When an alert fires and resolves, for which nodes, and where it goes.
public struct AlertRule: Sendable, Equatable {
    /// What is watched.
    public enum Condition: Sendable, Equatable {
        /// Probes that fail (the node answers badly or not at all).
        case down
        /// The median latency of the answered probes of the last `window` seconds above
        /// `limit` seconds.
        case latencyOver(limit: Double, window: Double)
    }

    public var name: String
    /// Node names, or `["*"]` for every node.
    public var nodes: [String]
    public var when: Condition
    /// Bad probes in a row that trigger (the first trigger set counts, in this order).
    public var failureThreshold: Int?
    /// `k` bad of the last `n` probes trigger.
    public var kOfN: (k: Int, n: Int)?
    /// Seconds of continuously bad probes that trigger.
    public var forAtLeast: Double?
    /// Good probes in a row that resolve.
    public var successThreshold: Int
    public var sendOnResolved: Bool
    /// Seconds between reminders while it still fires; none when nil.
    public var remindEvery: Double?
    /// The channels' names.
    public var channels: [String]

    public init(
        name: String, nodes: [String] = ["*"], when: Condition = .down, failureThreshold: Int? = 3,
        kOfN: (k: Int, n: Int)? = nil, forAtLeast: Double? = nil, successThreshold: Int = 2,
        sendOnResolved: Bool = true, remindEvery: Double? = nil, channels: [String] = []
    ) {
        self.name = name
        self.nodes = nodes
        self.when = when
        self.failureThreshold = failureThreshold
        self.kOfN = kOfN
        self.forAtLeast = forAtLeast
        self.successThreshold = successThreshold
        self.sendOnResolved = sendOnResolved
        self.remindEvery = remindEvery
        self.channels = channels
    }

    public func covers(_ node: String) -> Bool { nodes.contains("*") || nodes.contains(node) }

    /// The probes of the `kOfN` window kept (or one, when none is set).
    var historyLength: Int { failureThreshold == nil ? kOfN?.n ?? 1 : 1 }

    public static func == (a: AlertRule, b: AlertRule) -> Bool {
        a.name == b.name && a.nodes == b.nodes && a.when == b.when && a.failureThreshold == b.failureThreshold
            && a.kOfN?.k == b.kOfN?.k && a.kOfN?.n == b.kOfN?.n && a.forAtLeast == b.forAtLeast
            && a.successThreshold == b.successThreshold && a.sendOnResolved == b.sendOnResolved
            && a.remindEvery == b.remindEvery && a.channels == b.channels
    }
}
