import ChoreoJSON

/// What one health probe got back, before it is judged.
public struct ProbeResult: Sendable, Equatable {
    /// Why no usable answer came.
    public enum Failure: Sendable, Equatable {
        case timeout
        case connectionRefused
        case cannotResolve
        case tooManyRedirects
        /// The body passed the prober's read limit.
        case bodyTooLarge
        case other(String)

        public var reason: String {
            switch self {
            case .timeout: "timeout"
            case .connectionRefused: "connection refused"
            case .cannotResolve: "cannot resolve host"
            case .tooManyRedirects: "too many redirects"
            case .bodyTooLarge: "body too large"
            case .other(let text): text
            }
        }
    }

    public var failure: Failure?
    /// The HTTP status of the final answer (0 without one).
    public var status: Int
    public var body: [UInt8]
    public var latencyMs: Double

    public init(failure: Failure? = nil, status: Int = 0, body: [UInt8] = [], latencyMs: Double = 0) {
        self.failure = failure
        self.status = status
        self.body = body
        self.latencyMs = latencyMs
    }
}

/// A probe judged against the configuration: up, degraded (answering, with a reason) or failed.
public struct ProbeVerdict: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case up, degraded, failed
    }

    public var kind: Kind
    /// Why it is degraded or failed (nil when up).
    public var reason: String?

    public init(_ kind: Kind, _ reason: String? = nil) {
        self.kind = kind
        self.reason = reason
    }

    /// Judges one result: a transport failure or an unaccepted status fails; an accepted
    /// answer is degraded when its body condition fails, its load is over `highLoad`, or it is
    /// slower than `degradedLatencyMs`; up otherwise.
    public static func judge(_ result: ProbeResult, _ probe: ArenaConfiguration.Probe) -> ProbeVerdict {
        if let failure = result.failure { return ProbeVerdict(.failed, failure.reason) }
        guard probe.accepts(result.status) else { return ProbeVerdict(.failed, "status \(result.status)") }
        if probe.body != nil || probe.loadField != nil {
            guard case .object(let body)? = try? JSONParser.parse(result.body) else {
                return ProbeVerdict(.degraded, "body is not a JSON object")
            }
            if let condition = probe.body {
                let actual: String? =
                    switch body[condition.field] {
                    case .string(let text)?: text
                    case .number(let n)?: JSONValue.number(n).compactText
                    case .bool(let flag)?: flag ? "true" : "false"
                    default: nil
                    }
                if actual != condition.equals {
                    let shown = actual.map { "\"\($0)\"" } ?? "missing"
                    return ProbeVerdict(
                        .degraded, "body condition: \(condition.field) is \(shown), not \"\(condition.equals)\"")
                }
            }
            if let field = probe.loadField, case .number(let load)? = body[field], load > probe.highLoad {
                return ProbeVerdict(
                    .degraded,
                    "high load: \(field) \(JSONValue.number(load).compactText) over \(JSONValue.number(probe.highLoad).compactText)"
                )
            }
        }
        if result.latencyMs > probe.degradedLatencyMs {
            return ProbeVerdict(
                .degraded,
                "slow: \(Int(result.latencyMs.rounded())) ms over \(Int(probe.degradedLatencyMs.rounded())) ms")
        }
        return ProbeVerdict(.up)
    }
}

extension JSONValue {
    /// A short text form of a scalar (numbers as choreo writes them).
    var compactText: String {
        var writer = JSONWriter()
        writer.value(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
