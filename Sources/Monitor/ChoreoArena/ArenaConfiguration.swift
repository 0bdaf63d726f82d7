/// The arena's configuration: the nodes to probe, how to probe them, how rounds are staged
/// (`choreo serve --arena FILE`, `GET`/`PUT /v1/arena/config`).
public struct ArenaConfiguration: Sendable, Equatable {
    /// One server node.
    public struct Node: Sendable, Equatable {
        public var name: String
        /// The health endpoint: `http` or `https` only.
        public var url: String
        public var ip: String

        public init(name: String, url: String, ip: String = "") {
            self.name = name
            self.url = url
            self.ip = ip
        }
    }

    /// How health is probed and judged.
    public struct Probe: Sendable, Equatable {
        /// Seconds between two probes of a node.
        public var interval = 5.0
        /// Seconds before a probe gives up; at most the interval.
        public var timeout = 4.0
        /// The HTTP statuses that count as answers (inclusive ranges).
        public var acceptedStatus: [ClosedRange<Int>] = [200...299]
        /// Slower answers make the node degraded.
        public var degradedLatencyMs = 300.0
        /// Consecutive failures before a node is down.
        public var failureThreshold = 3
        /// Consecutive answers before a down node is back.
        public var successThreshold = 2
        /// A condition on the JSON body of an accepted answer: `field` must equal `equals`.
        public var body: BodyCondition?
        /// A number in the JSON body: over `highLoad`, the node is degraded.
        public var loadField: String?
        public var highLoad = 0.8

        public init() {}

        /// The statuses as written: `200-299`, or a list such as `200,204,300-399`.
        public var acceptedStatusText: String {
            acceptedStatus.map {
                $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)"
            }
            .joined(separator: ",")
        }

        public func accepts(_ status: Int) -> Bool { acceptedStatus.contains { $0.contains(status) } }
    }

    /// `{"field": "status", "equals": "ok"}`.
    public struct BodyCondition: Sendable, Equatable {
        public var field: String
        public var equals: String

        public init(field: String, equals: String) {
            self.field = field
            self.equals = equals
        }
    }

    public var nodes: [Node] = []
    public var probe = Probe()
    public var round = ArenaRoundSettings()
    /// Seconds between automatic rounds; 0 starts rounds only on request.
    public var roundEvery = 0.0
    /// Maintenance windows (docs/arena.md).
    public var maintenance: [MaintenanceWindow] = []
    /// Alert rules and channels (docs/alerts.md).
    public var alerts = AlertConfiguration()
    /// How long the probes' minute, hour and day buckets are kept, seconds.
    public var retention = Retention()

    /// `"retention": {"minuteBuckets": 172800, "hourBuckets": 7776000, "dayBuckets": 63072000}`.
    public struct Retention: Sendable, Equatable {
        public var minuteBuckets = 2 * 86_400.0
        public var hourBuckets = 90 * 86_400.0
        public var dayBuckets = 2 * 365 * 86_400.0

        public init() {}

        /// Seconds kept at a resolution (milliseconds).
        public func seconds(resolution: Int64) -> Double {
            resolution == UptimeBucket.minute
                ? minuteBuckets : resolution == UptimeBucket.hour ? hourBuckets : dayBuckets
        }
    }

    public init() {}
}
