import ChoreoFormat
import ChoreoJSON
import ChoreoStorage
import ChoreoTestSupport
import ChoreoTransport
import Foundation
import Testing

@testable import ChoreoHTTP
@testable import ChoreoMonitor
@testable import ChoreoService

/// The API through the router, with no socket: every status the API documents.
@Suite final class ApplicationTests {
    /// Removed after each test, with the stores made in it.
    let scratch = Scratch("choreo-test")

    static let scene =
        #"{"name":"t","layers":[{"id":"a","opacity":1}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":1,"toValue":0,"duration":1},"layer":"a"}]}]}"#

    func app(token: String? = nil) throws -> Application {
        let directory = scratch.file(UUID().uuidString)
        return Application(store: try SQLiteStore(directory: directory), configuration: .init(apiToken: token))
    }

    static func request(
        _ method: String, _ path: String, query: [(String, String)] = [], body: String? = nil,
        contentType: String? = "application/json", headers: [String: String] = [:]
    ) -> HTTPRequest {
        var allHeaders = headers
        if body != nil, let contentType { allHeaders["content-type"] = contentType }
        return HTTPRequest(
            method: method, path: path, query: query, headers: allHeaders, body: Array((body ?? "").utf8))
    }

    static func json(_ response: HTTPResponse) throws -> JSONObject {
        guard case .bytes(let bytes) = response.body, case .object(let object) = try JSONParser.parse(bytes) else {
            throw CancellationError()
        }
        return object
    }

    @Test func renderReturnsFrames() throws {
        let app = try app()
        let response = app.handle(Self.request("POST", "/v1/render", query: [("times", "0,0.5")], body: Self.scene))
        #expect(response.status == 200)
        let body = try Self.json(response)
        guard case .array(let frames)? = body["frames"] else { Issue.record("no frames"); return }
        #expect(frames.count == 2)
        #expect(body["duration"] == .number(1))
    }

    /// A render takes its document from the request: the server's copy of the request no
    /// longer holds it while the scene runs and its frames are made. A request that does not
    /// render keeps its body.
    @Test func aRenderTakesItsDocument() throws {
        let app = try app()
        let request = Self.request("POST", "/v1/render", query: [("times", "0")], body: Self.scene)
        let held = request
        #expect(app.handle(request).status == 200)
        #expect(request.body.isEmpty && held.body.isEmpty)

        let validation = Self.request("POST", "/v1/validate", body: Self.scene)
        #expect(app.handle(validation).status == 200)
        #expect(validation.body == Array(Self.scene.utf8))

        var replaced = Self.request("POST", "/v1/render", body: Self.scene)
        let original = replaced
        replaced.body = Array("{}".utf8)
        #expect(original.body == Array(Self.scene.utf8) && replaced.body == Array("{}".utf8))
    }

    /// `precision` rounds the sampled values to significant digits; times stay exact, and
    /// without it the bytes are the exact shortest ones.
    @Test func precisionRoundsSampledValues() throws {
        let app = try app()
        let scene =
            #"{"layers":[{"id":"a","opacity":1,"position":[0.123456789,1000.98765]}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":1,"toValue":0,"duration":3,"timingFunction":"easeInEaseOut"},"layer":"a"}]}]}"#
        func text(_ query: [(String, String)]) throws -> String {
            let response = app.handle(Self.request("POST", "/v1/render", query: query, body: scene))
            guard response.status == 200, case .bytes(let bytes) = response.body else {
                throw TestFailure("render answered \(response.status)")
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let exact = try text([("times", "0.3333333"), ("properties", "opacity,position")])
        let rounded = try text([("times", "0.3333333"), ("properties", "opacity,position"), ("precision", "3")])
        #expect(exact.contains("[0.123456789,1000.98765]"))
        #expect(rounded.contains(#""position":[0.123,1000]"#), "\(rounded)")
        #expect(rounded.contains(#""time":0.3333333"#))
        guard case .number(let opacity)? = (try JSONParser.parse(Array(rounded.utf8))).frames0("a", "opacity") else {
            throw TestFailure("no opacity in \(rounded)")
        }
        #expect(String(opacity).filter(\.isNumber).drop { $0 == "0" }.count <= 3)
        for bad in ["0", "18", "2.5", "x"] {
            let response = app.handle(
                Self.request("POST", "/v1/render", query: [("precision", bad)], body: scene))
            #expect(
                response.status == 422
                    && String(decoding: response.bodyBytes, as: UTF8.self).contains("query.precision"))
        }
        let picture = app.handle(
            Self.request("POST", "/v1/render", query: [("format", "png"), ("precision", "3")], body: scene))
        #expect(picture.status == 422)
    }

    @Test func errorStatuses() throws {
        let app = try app()
        let malformed = app.handle(Self.request("POST", "/v1/render", body: "{\"layers\": [\n  {\"id\": }"))
        #expect(malformed.status == 400)
        let problem = try Self.json(malformed)
        #expect(problem["errors"]?.serializedText.contains("line 2, column 10") == true)
        #expect(app.handle(Self.request("GET", "/nope")).status == 404)
        let notAllowed = app.handle(Self.request("PUT", "/v1/render", body: "{}"))
        #expect(notAllowed.status == 405)
        #expect(notAllowed.headers.contains { $0.0 == "Allow" && $0.1 == "POST" })
        #expect(
            app.handle(Self.request("POST", "/v1/render", body: Self.scene, contentType: "text/plain")).status == 415)
        let invalid = app.handle(
            Self.request("POST", "/v1/render", body: #"{"layers":[{"id":"a","animations":[{"duration":-1}]}]}"#))
        #expect(invalid.status == 422)
        #expect(try Self.json(invalid)["errors"]?.serializedText.contains("$.layers[0].animations") == true)
        let badKeyPath = app.handle(
            Self.request(
                "POST", "/v1/render",
                body:
                    #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacityy","duration":-1},"layer":"a"}]}]}"#
            ))
        #expect(badKeyPath.status == 422)
        let text = try Self.json(badKeyPath)["errors"]!.serializedText
        #expect(text.contains("$.script[0].do[0].add.keyPath"))
        let overLimit = app.handle(
            Self.request("POST", "/v1/render", query: [("fps", "1000"), ("end", "3600")], body: Self.scene))
        #expect(overLimit.status == 422)
        let badQuery = app.handle(Self.request("POST", "/v1/render", query: [("fps", "nan")], body: Self.scene))
        #expect(badQuery.status == 422)
        #expect(try Self.json(badQuery)["errors"]!.serializedText.contains("query.fps"))
    }

    @Test func storedScenesAndToken() throws {
        let app = try app(token: "s3cret")
        #expect(app.handle(Self.request("POST", "/v1/scenes", body: Self.scene)).status == 401)
        #expect(
            app.handle(Self.request("POST", "/v1/scenes", body: Self.scene, headers: ["authorization": "Bearer wrong"]))
                .status == 401)
        // Render and validate need no token.
        #expect(app.handle(Self.request("POST", "/v1/validate", body: Self.scene)).status == 200)
        let created = app.handle(
            Self.request("POST", "/v1/scenes", body: Self.scene, headers: ["authorization": "Bearer s3cret"]))
        #expect(created.status == 201)
        guard case .string(let id)? = try Self.json(created)["id"] else { Issue.record("no id"); return }
        #expect(created.headers.contains { $0 == ("Location", "/v1/scenes/\(id)") })
        let fetched = app.handle(Self.request("GET", "/v1/scenes/\(id)"))
        #expect(fetched.status == 200)
        #expect(fetched.byteCount == Self.scene.utf8.count)
        let frames = app.handle(Self.request("GET", "/v1/scenes/\(id)/frames", query: [("fps", "2")]))
        #expect(frames.status == 200)
        let list = try Self.json(app.handle(Self.request("GET", "/v1/scenes")))
        #expect(list["items"]?.serializedText.contains(id) == true)
        #expect(app.handle(Self.request("DELETE", "/v1/scenes/\(id)")).status == 401)
        #expect(
            app.handle(Self.request("DELETE", "/v1/scenes/\(id)", headers: ["authorization": "Bearer s3cret"])).status
                == 204)
        #expect(app.handle(Self.request("GET", "/v1/scenes/\(id)")).status == 404)
    }

    @Test func validateReportsErrorsAndDiagnostics() throws {
        let app = try app()
        let valid = try Self.json(app.handle(Self.request("POST", "/v1/validate", body: Self.scene)))
        #expect(valid["valid"] == .bool(true))
        #expect(valid["diagnostics"]?.serializedText.contains("snap-back") == true)
        let invalid = try Self.json(app.handle(Self.request("POST", "/v1/validate", body: #"{"layers":[{"id":1}]}"#)))
        #expect(invalid["valid"] == .bool(false))
    }

    @Test func healthAndMetrics() throws {
        let app = try app()
        #expect(app.handle(Self.request("GET", "/healthz")).status == 200)
        app.metrics.requestStarted()
        app.metrics.requestFinished(route: "/healthz", status: 200, seconds: 0.001)
        guard case .bytes(let bytes) = app.handle(Self.request("GET", "/metrics")).body else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("choreo_http_requests_total{route=\"/healthz\",status=\"200\"} 1"))
        #expect(text.contains("choreo_http_request_duration_seconds_bucket"))
        // The build and the process, as Prometheus's client libraries name them.
        #expect(text.contains("choreo_build_info{version=\"\(ProcessMetrics.version)\"} 1"))
        func value(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
                Double($0.split(separator: " ")[1])
            }
        }
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect(
            (value("process_open_fds") ?? 0) >= 3 && (value("process_max_fds") ?? 0) >= (value("process_open_fds") ?? 0)
        )
        #expect((value("process_cpu_seconds_total") ?? 0) > 0)
        #expect((value("process_start_time_seconds") ?? 0) > 1_700_000_000)
        app.store.close()
        #expect(app.handle(Self.request("GET", "/healthz")).status == 503)
    }

    /// A NUL in the path or a query parameter, decoded or left as `%00` by the server, is a 400
    /// naming where it is.
    @Test func nulInTheRequestTargetIsRefused() throws {
        let app = try self.app()
        let cases: [(HTTPRequest, String)] = [
            (Self.request("DELETE", "/v1/scenes/abc%00junk"), "path"),
            (Self.request("GET", "/v1/scenes/abc\u{0}junk"), "path"),
            (Self.request("POST", "/v1/render", query: [("fps", "1%00")], body: "{}"), "query.fps"),
            (
                Self.request("POST", "/v1/render", query: [("fps", "1"), ("end\u{0}", "2")], body: "{}"),
                "query.end\u{0}"
            ),
        ]
        for (request, field) in cases {
            let response = app.handle(request)
            #expect(response.status == 400)
            guard case .bytes(let bytes) = response.body else { throw CancellationError() }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("/problems/bad-request-target"), "\(text)")
            #expect(Application.fieldWithNUL(request) == field)
        }
        #expect(app.handle(Self.request("POST", "/v1/render", query: [("fps", "1")], body: "{}")).status != 400)
    }

    /// Limits count bytes too: a JSON document that grows past the byte limit is a 422 naming
    /// query.format (NDJSON streams the same render), and nothing past the limit is kept.
    @Test func jsonResponsesHaveAByteLimit() throws {
        var configuration = Application.Configuration()
        configuration.maxJSONResponseBytes = 20_000
        let app = Application(store: try SQLiteStore(directory: scratch.file("bytes")), configuration: configuration)
        let small = app.handle(Self.request("POST", "/v1/render", query: [("fps", "10")], body: Self.scene))
        #expect(small.status == 200)
        let large = app.handle(Self.request("POST", "/v1/render", query: [("fps", "1000")], body: Self.scene))
        #expect(large.status == 422)
        guard case .bytes(let bytes) = large.body else { throw CancellationError() }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("query.format") && text.contains("20000 bytes"), "\(text)")
        let streamed = app.handle(
            Self.request("POST", "/v1/render", query: [("fps", "1000"), ("format", "ndjson")], body: Self.scene))
        #expect(streamed.status == 200)
    }

    @Test func constantTimeComparison() {
        #expect(Application.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!Application.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!Application.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
    }
}

extension JSONValue {
    var serializedText: String { String(decoding: serialized, as: UTF8.self) }
}

@Suite struct RequestLogTests {
    @Test func oneJSONLinePerRequest() throws {
        let bytes = RequestLog.line(
            requestID: "ab-1", method: "GET", path: "/healthz", status: 200, bytes: 15, seconds: 0.001_234_4)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"request.id":"ab-1","method":"GET","path":"/healthz","status":200,"bytes":15,"duration_ms":1.234}"#
                + "\n")
        let slow = RequestLog.line(requestID: "x", method: "POST", path: "/p", status: 422, bytes: 0, seconds: 2.000_05)
        #expect(String(decoding: slow, as: UTF8.self).contains(#""duration_ms":2000.050}"#))
        _ = try JSONParser.parse(Array(bytes.dropLast()))
    }
}

/// Every problem `type` URI resolves to its documentation, and every problem choreo makes has one.
@Suite final class ProblemTypeTests {
    let scratch = Scratch("choreo-test")

    @Test func everyTypeResolves() throws {
        let app = Application(store: try SQLiteStore(directory: scratch.file("store")), configuration: .init())
        for kind in ProblemType.allCases {
            let response = app.handle(ApplicationTests.request("GET", kind.uri, body: nil))
            #expect(response.status == 200, "\(kind.uri)")
            #expect(response.headers.contains { $0.0 == "Content-Type" && $0.1.hasPrefix("text/html") })
            guard case .bytes(let bytes) = response.body else { throw CancellationError() }
            let page = String(decoding: bytes, as: UTF8.self)
            #expect(page.contains("<h1>\(kind.title)</h1>") && page.contains("HTTP status \(kind.status)"))
        }
        #expect(app.handle(ApplicationTests.request("GET", "/problems/no-such-thing", body: nil)).status == 404)
    }

    @Test func everyProblemIsCatalogued() {
        let failure = ValidationFailure([FieldError(path: "$", message: "x")])
        let services: [ServiceError] = [
            .malformedJSON(JSONParseError(line: 1, column: 1, reason: "x")), .invalidStandings(failure),
            .invalidConfiguration(failure), .invalidRequest(failure), .invalidMaintenanceWindow(failure),
            .unsupportedDuration(failure),
            .conflict("x"),
            .preconditionFailed("x"), .internalFailure("x"),
        ]
        let problems: [Problem] =
            services.map { Problem($0) } + [
                .badRequestTarget("path"), .invalidScene(failure), .notFound("x"), .methodNotAllowed(["GET"]),
                .tooLarge(limit: 1), .unsupportedMediaType(nil), .unauthorized(), .misdirected("x.example"),
                .conflictingLengths(), .unavailable("x"), .importFailed([]),
            ]
        for problem in problems {
            let kind = ProblemType.allCases.first { $0.uri == problem.type }
            #expect(kind != nil && kind?.status == problem.status && kind?.title == problem.title, "\(problem.type)")
        }
        #expect(Set(problems.map(\.type)).count == ProblemType.allCases.count)
    }
}

/// `POST /v1/arena/preview`: standings in, a valid scene out, 422 naming the field otherwise.
@Suite final class ArenaPreviewTests {
    let scratch = Scratch("choreo-test")

    func app(token: String? = nil) throws -> Application {
        Application(store: try SQLiteStore(directory: scratch.file("store")), configuration: .init(apiToken: token))
    }

    @Test func previewReturnsARenderableScene() throws {
        let app = try app(token: "secret")
        let standings =
            #"[{"name": "a", "ip": "10.0.0.1", "status": "up", "latencyMs": 12}, {"name": "b", "status": "down"}]"#
        // No token needed: like render, the preview changes nothing.
        let response = app.handle(ApplicationTests.request("POST", "/v1/arena/preview", body: standings))
        #expect(response.status == 200)
        guard case .bytes(let scene) = response.body else { Issue.record("no body"); return }
        let rendered = app.handle(
            ApplicationTests.request(
                "POST", "/v1/render", query: [("times", "0,1")], body: String(decoding: scene, as: UTF8.self)))
        #expect(rendered.status == 200)
        let body = try ApplicationTests.json(rendered)
        guard case .array(let events)? = body["events"] else { Issue.record("no events"); return }
        #expect(
            events.contains { event in
                guard case .object(let e) = event else { return false }
                return e["type"] == .string("stateChanged") && e["layer"] == .string("a")
                    && e["state"] == .string("champion")
            })
    }

    @Test func badStandingsAre422WithPaths() throws {
        let app = try app()
        let response = app.handle(
            ApplicationTests.request("POST", "/v1/arena/preview", body: #"[{"name": "a/b", "status": "fine"}]"#))
        #expect(response.status == 422)
        let body = try ApplicationTests.json(response)
        #expect(body["type"] == .string("/problems/invalid-standings"))
        let malformed = app.handle(ApplicationTests.request("POST", "/v1/arena/preview", body: "[{"))
        #expect(malformed.status == 400)
    }
}

/// The arena's status reads frames through the typed frame API: the same values the JSON
/// encoder writes, without encoding and parsing them.
@Suite struct FrameConsumerTests {
    @Test func collectorEqualsTheJSONFrame() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for name in ["arena-battle", "watering-button", "animator-cancel"] {
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent("examples/\(name).json")))
            let (scene, _) = try SceneDecoder.decode(bytes: bytes)
            for time in [0.0, 0.3, 0.75] {
                var query = SamplingQuery()
                query.times = [time]
                let plan = try RenderPlan.make(scene: scene, query: query)
                guard case .object(let response) = try JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
                    case .array(let frames)? = response["frames"], case .object(let frame)? = frames.first,
                    case .object(let layers)? = frame["layers"]
                else { throw CancellationError() }
                var collector = PresentationCollector(timeline: plan.timeline)
                plan.frames.visit(time, cursor: plan.frames.makeCursor(), &collector)
                #expect(JSONObject(collector.layers) == layers, "\(name) at \(time)")
            }
        }
    }

    /// Each kind of storage failure reaches the client as its own status.
    @Test func storageErrorKindsMapToStatuses() {
        let kinds: [(StorageError.Kind, Int)] = [
            (.unavailable, 503), (.notFound, 404), (.conflict, 409), (.corrupt, 500),
        ]
        for (kind, status) in kinds {
            #expect(Problem(ServiceError.storage(StorageError("x", kind: kind))).status == status)
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension JSONValue {
    /// `frames[0].layers[layer][property]`.
    func frames0(_ layer: String, _ property: String) -> JSONValue? {
        guard case .object(let body) = self, case .array(let frames)? = body["frames"],
            case .object(let frame)? = frames.first, case .object(let layers)? = frame["layers"],
            case .object(let values)? = layers[layer]
        else { return nil }
        return values[property]
    }
}

extension HTTPResponse {
    var bodyBytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}
