import ChoreoHTTP
import ChoreoJSON
import ChoreoService
import ChoreoTransport
import Foundation
import Synchronization

/// `choreo target`: a real, tiny health endpoint for demos and tests of the arena's prober.
///
/// `GET /health` answers `{"status": "ok", "load": 0.4}` after `latencyMs`, with the configured
/// HTTP status; how it misbehaves is set at start and changed at run time with
/// `POST /control` (the same fields as JSON; `GET /control` reads them back):
/// `latencyMs`, `status`, `failEvery` (every K-th health request answers 503), `load`,
/// `bodyStatus` (the `status` field's value, to fail a body condition), `padBytes` (a body
/// that large, to exceed the prober's limit), `redirect` (a 302 loop to itself), `hang`
/// (accept and never answer, up to 10 minutes).
public final class TargetService: HTTPService {
    /// How the target behaves.
    public struct Settings: Sendable, Equatable {
        public var latencyMs: Double = 0
        public var status = 200
        public var failEvery = 0
        public var load = 0.0
        public var bodyStatus = "ok"
        public var padBytes = 0
        public var redirect = false
        public var hang = false

        public init() {}
    }

    public let metrics = Metrics(routes: ["GET /health", "GET /control", "POST /control"])
    private let state: Mutex<(settings: Settings, served: Int)>

    public init(settings: Settings) {
        state = Mutex((settings, 0))
    }

    public var settings: Settings { state.withLock { $0.settings } }

    /// Its three routes, by name. Everything runs on a worker: a slow or hanging answer must
    /// not hold an I/O thread.
    public func match(method: String, path: String) -> RouteMatch {
        let name =
            switch (method, path) {
            case ("GET", "/health"), ("HEAD", "/health"): "GET /health"
            case ("GET", "/control"): "GET /control"
            case ("POST", "/control"): "POST /control"
            default: "unmatched"
            }
        return RouteMatch(name: name, lane: .worker, index: nil)
    }

    public func handle(_ request: HTTPRequest, _ match: RouteMatch) -> HTTPResponse {
        switch match.name {
        case "GET /health": return health()
        case "GET /control": return .json(200, Self.encode(settings, served: state.withLock { $0.served }))
        case "POST /control": return control(request.body)
        default:
            return .json(404, Array(#"{"error":"not found; GET /health, GET or POST /control"}"#.utf8))
        }
    }

    private func health() -> HTTPResponse {
        let (settings, served) = state.withLock { state -> (Settings, Int) in
            state.served += 1
            return (state.settings, state.served)
        }
        if settings.hang {
            Thread.sleep(forTimeInterval: 600)
            return .json(503, Array(#"{"status":"hung"}"#.utf8))
        }
        if settings.latencyMs > 0 { Thread.sleep(forTimeInterval: min(settings.latencyMs, 600_000) / 1000) }
        if settings.redirect {
            return HTTPResponse(status: 302, headers: [("Location", "/health")], body: .bytes([]))
        }
        let failing = settings.failEvery > 0 && served % settings.failEvery == 0
        var writer = JSONWriter()
        writer.raw("{\"status\":")
        writer.string(failing ? "failing" : settings.bodyStatus)
        writer.raw(",\"load\":")
        writer.number(settings.load)
        if settings.padBytes > 0 {
            writer.raw(",\"padding\":\"")
            writer.bytes += [UInt8](repeating: UInt8(ascii: "x"), count: settings.padBytes)
            writer.raw("\"")
        }
        writer.raw("}")
        return .json(failing ? 503 : settings.status, writer.bytes)
    }

    private func control(_ body: [UInt8]) -> HTTPResponse {
        guard case .object(let object)? = try? JSONParser.parse(body) else {
            return .json(400, Array(#"{"error":"the body must be a JSON object of settings"}"#.utf8))
        }
        var problems: [String] = []
        let updated = state.withLock { state -> Settings in
            var settings = state.settings
            for key in object.keys {
                let value = object[key]!
                switch (key, value) {
                case ("latencyMs", .number(let n)) where n >= 0: settings.latencyMs = n
                case ("status", .number(let n)) where n >= 100 && n <= 599 && n == n.rounded(): settings.status = Int(n)
                case ("failEvery", .number(let n)) where n >= 0 && n == n.rounded(): settings.failEvery = Int(n)
                case ("load", .number(let n)): settings.load = n
                case ("bodyStatus", .string(let text)): settings.bodyStatus = text
                case ("padBytes", .number(let n)) where n >= 0 && n <= 16_777_216: settings.padBytes = Int(n)
                case ("redirect", .bool(let flag)): settings.redirect = flag
                case ("hang", .bool(let flag)): settings.hang = flag
                default: problems.append(key)
                }
            }
            if problems.isEmpty { state.settings = settings }
            return state.settings
        }
        guard problems.isEmpty else {
            var writer = JSONWriter()
            writer.raw("{\"error\":\"invalid settings\",\"fields\":")
            writer.array(problems) { $0.string($1) }
            writer.raw("}")
            return .json(422, writer.bytes)
        }
        return .json(200, Self.encode(updated))
    }

    /// The settings as JSON; with `served`, the health requests answered so far too (`GET /control`).
    static func encode(_ settings: Settings, served: Int? = nil) -> [UInt8] {
        var value: JSONValue = [
            "latencyMs": .number(settings.latencyMs), "status": .number(Double(settings.status)),
            "failEvery": .number(Double(settings.failEvery)), "load": .number(settings.load),
            "bodyStatus": .string(settings.bodyStatus), "padBytes": .number(Double(settings.padBytes)),
            "redirect": .bool(settings.redirect), "hang": .bool(settings.hang),
        ]
        if let served, case .object(var fields) = value {
            fields["served"] = .number(Double(served))
            value = .object(fields)
        }
        var writer = JSONWriter()
        writer.value(value)
        return writer.bytes
    }
}
