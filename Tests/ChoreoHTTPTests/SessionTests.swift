import ChoreoFormat
import ChoreoJSON
import ChoreoStorage
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoHTTP
@testable import ChoreoService

/// Live sessions through the router: create, inputs, read, frames, delete; the 409, 412 and
/// 422 paths; replay equals render; sessions evicted from memory or served after a restart.
@Suite final class SessionTests {
    let scratch = Scratch("choreo-sessions")

    static let scene = #"""
        {"layers": [{"id": "card", "position": [0, 0]}], "script": []}
        """#
    static let inputs = [
        #"{"at": 0, "do": [{"propertyAnimator": {"id": "sheet", "duration": 2, "curve": "linear", "changes": {"card": {"position": [100, 0]}}}}, {"fractionComplete": 0.25, "animator": "sheet"}]}"#,
        #"{"at": 0.5, "do": [{"fractionComplete": 0.5, "animator": "sheet"}]}"#,
        #"{"at": 1, "do": [{"startAnimation": {}, "animator": "sheet"}]}"#,
        #"{"at": 1.5, "do": [{"isReversed": true, "animator": "sheet"}]}"#,
    ]

    func app(limits: SessionRegistry.Limits = .init(), directory: String? = nil) throws -> Application {
        var configuration = Application.Configuration(apiToken: nil)
        configuration.sessionLimits = limits
        return Application(
            store: try SQLiteStore(directory: directory ?? scratch.file("store")), configuration: configuration)
    }

    static func body(_ response: HTTPResponse) -> [UInt8] {
        switch response.body {
        case .bytes(let bytes): return bytes
        case .stream(let stream):
            var bytes: [UInt8] = []
            while case .bytes(let piece) = stream.next() { bytes += piece }
            return bytes
        }
    }

    static func json(_ response: HTTPResponse) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(body(response)) else { throw CancellationError() }
        return object
    }

    func create(_ app: Application) throws -> String {
        let created = app.handle(ApplicationTests.request("POST", "/v1/sessions", body: Self.scene))
        #expect(created.status == 201)
        guard case .string(let id)? = try Self.json(created)["id"] else { throw CancellationError() }
        #expect(created.headers.contains { $0.0 == "Location" && $0.1 == "/v1/sessions/\(id)" })
        return id
    }

    func input(_ app: Application, _ id: String, _ body: String, ifMatch: String? = nil) -> HTTPResponse {
        app.handle(
            ApplicationTests.request(
                "POST", "/v1/sessions/\(id)/inputs", body: body, headers: ifMatch.map { ["if-match": $0] } ?? [:]))
    }

    /// The render of the scene with the inputs appended to its script.
    static func rendered(_ app: Application, inputs: [String], query: [(String, String)]) -> [UInt8] {
        let script =
            "{\"layers\": [{\"id\": \"card\", \"position\": [0, 0]}], \"script\": [\(inputs.joined(separator: ", "))]}"
        return body(app.handle(ApplicationTests.request("POST", "/v1/render", query: query, body: script)))
    }

    @Test func inputsAnswerWithTheStateAndReplayEqualsRender() throws {
        let app = try app()
        let id = try create(app)
        let first = input(app, id, Self.inputs[0])
        #expect(first.status == 200)
        let answer = try Self.json(first)
        #expect(answer["inputs"] == .number(1) && answer["time"] == .number(0))
        guard case .object(let animators)? = answer["animators"], case .object(let sheet)? = animators["sheet"] else {
            throw CancellationError()
        }
        #expect(sheet["state"] == .string("active") && sheet["fractionComplete"] == .number(0.25))
        guard case .array(let events)? = answer["events"] else { throw CancellationError() }
        #expect(
            events.contains {
                if case .object(let e) = $0 { e["type"] == .string("animatorStateChanged") } else { false }
            })
        for (index, text) in Self.inputs.enumerated().dropFirst() {
            #expect(input(app, id, text, ifMatch: "\"\(index)\"").status == 200)
        }
        let query = [("fps", "20"), ("end", "3")]
        let frames = Self.body(
            app.handle(ApplicationTests.request("GET", "/v1/sessions/\(id)/frames", query: query, body: nil)))
        #expect(frames == Self.rendered(app, inputs: Self.inputs, query: query))
        let read = try Self.json(app.handle(ApplicationTests.request("GET", "/v1/sessions/\(id)", body: nil)))
        #expect(read["inputs"] == .number(4) && read["time"] == .number(1.5))
        guard case .array(let entries)? = read["entries"] else { throw CancellationError() }
        #expect(entries.count == 4)
    }

    @Test func conflictsPreconditionsAndInvalidInputsAppendNothing() throws {
        let app = try app()
        let id = try create(app)
        #expect(input(app, id, Self.inputs[0]).status == 200)
        #expect(input(app, id, Self.inputs[2]).status == 200)
        // Earlier than the session's time.
        let early = input(app, id, Self.inputs[1])
        #expect(early.status == 409)
        #expect(String(decoding: Self.body(early), as: UTF8.self).contains("session's time 1"))
        // Another input came first.
        #expect(input(app, id, #"{"at": 2, "do": []}"#, ifMatch: "\"1\"").status == 412)
        // An invalid action: 422 naming its path, with the UIKit name meant.
        let invalid = input(app, id, #"{"at": 2, "do": [{"update": 0.5, "transition": "x"}]}"#)
        #expect(invalid.status == 422)
        let text = String(decoding: Self.body(invalid), as: UTF8.self)
        #expect(text.contains("$.do[0]") && text.contains("updateInteractiveTransition"))
        // A call UIKit raises on: finishAnimation on a running animator.
        let raises = input(app, id, #"{"at": 2, "do": [{"finishAnimation": {"at": "end"}, "animator": "sheet"}]}"#)
        #expect(raises.status == 422)
        #expect(String(decoding: Self.body(raises), as: UTF8.self).contains("\"path\":\"$.do[0]\""))
        // A misspelt animator id.
        let misspelt = input(app, id, #"{"at": 2, "do": [{"pauseAnimation": {}, "animator": "shet"}]}"#)
        #expect(String(decoding: Self.body(misspelt), as: UTF8.self).contains("\"didYouMean\":\"sheet\""))
        // Nothing was appended, and the session still takes inputs where it was.
        let read = try Self.json(app.handle(ApplicationTests.request("GET", "/v1/sessions/\(id)", body: nil)))
        #expect(read["inputs"] == .number(2))
        #expect(
            input(app, id, #"{"at": 2, "do": [{"pauseAnimation": {}, "animator": "sheet"}]}"#, ifMatch: "2").status
                == 200)
        #expect(app.handle(ApplicationTests.request("GET", "/v1/sessions/ses_nope", body: nil)).status == 404)
        #expect(app.handle(ApplicationTests.request("DELETE", "/v1/sessions/\(id)", body: nil)).status == 204)
        #expect(app.handle(ApplicationTests.request("GET", "/v1/sessions/\(id)", body: nil)).status == 404)
    }

    /// The limits, and the token rule of every write.
    @Test func limitsAndToken() throws {
        var limits = SessionRegistry.Limits()
        limits.inputsPerSession = 2
        limits.inputBytes = 400
        let app = try app(limits: limits)
        let id = try create(app)
        #expect(input(app, id, Self.inputs[0]).status == 200)
        let large = #"{"at": 1, "do": [{"mark": ""# + String(repeating: "x", count: 500) + #""}]}"#
        #expect(input(app, id, large).status == 422)
        #expect(input(app, id, #"{"at": 1, "do": []}"#).status == 200)
        let over = input(app, id, #"{"at": 2, "do": []}"#)
        #expect(over.status == 409)
        let guarded = Application(
            store: try SQLiteStore(directory: scratch.file("guarded")), configuration: .init(apiToken: "s3cret"))
        #expect(guarded.handle(ApplicationTests.request("POST", "/v1/sessions", body: Self.scene)).status == 401)
        let allowed = guarded.handle(
            ApplicationTests.request(
                "POST", "/v1/sessions", body: Self.scene, headers: ["authorization": "Bearer s3cret"]))
        #expect(allowed.status == 201)
    }

    /// Sessions leave memory over the limits and come back from storage, also in a new server.
    @Test func evictedAndRestartedSessionsComeBack() throws {
        var limits = SessionRegistry.Limits()
        limits.liveSessions = 1
        let directory = scratch.file("shared")
        let app = try app(limits: limits, directory: directory)
        let a = try create(app)
        let b = try create(app)
        for text in Self.inputs {
            #expect(input(app, a, text).status == 200)
            #expect(input(app, b, text).status == 200)
        }
        #expect(app.sessions.liveCount == 1)
        let query = [("fps", "10")]
        let expected = Self.rendered(app, inputs: Self.inputs, query: query)
        for id in [a, b] {
            #expect(
                Self.body(
                    app.handle(ApplicationTests.request("GET", "/v1/sessions/\(id)/frames", query: query, body: nil)))
                    == expected)
        }
        let restarted = try self.app(directory: directory)
        #expect(
            Self.body(
                restarted.handle(ApplicationTests.request("GET", "/v1/sessions/\(a)/frames", query: query, body: nil)))
                == expected)
    }

    /// A session's pictures take the picture parameters (format, scale, size, fps) as a render
    /// does: the same bytes as the render of its scene with the inputs appended.
    @Test func picturesOfASessionEqualTheRenders() throws {
        let app = try app()
        let id = try create(app)
        for text in Self.inputs { #expect(input(app, id, text).status == 200) }
        let queries: [[(String, String)]] = [
            [("format", "png"), ("time", "0.5"), ("scale", "2"), ("width", "120"), ("height", "40")],
            [("format", "apng"), ("fps", "10"), ("width", "120"), ("height", "40")],
            [("format", "filmstrip"), ("fps", "4"), ("width", "120"), ("height", "40")],
        ]
        for query in queries {
            let response = app.handle(
                ApplicationTests.request("GET", "/v1/sessions/\(id)/frames", query: query, body: nil))
            #expect(response.status == 200, "\(query): \(String(decoding: Self.body(response), as: UTF8.self))")
            #expect(response.headers.contains { $0.0 == "Content-Type" && $0.1.hasPrefix("image/") })
            #expect(Self.body(response) == Self.rendered(app, inputs: Self.inputs, query: query), "\(query)")
        }
    }

    /// Milliseconds in an input's `at`: a jump of a minute or more is taken with a
    /// `suspicious-unit` warning, one past 600 s is refused naming `$.at`.
    @Test func millisecondsInAtAreCaught() throws {
        let app = try app()
        let id = try create(app)
        let refused = input(app, id, #"{"at": 700, "do": [{"set": {"card": {"position": [1, 0]}}}]}"#)
        #expect(refused.status == 422)
        #expect(String(decoding: Self.body(refused), as: UTF8.self).contains(#""path":"$.at""#))
        let plain = try Self.json(input(app, id, #"{"at": 1, "do": [{"set": {"card": {"position": [2, 0]}}}]}"#))
        #expect(plain["diagnostics"] == nil)
        let warned = input(app, id, #"{"at": 90, "do": [{"set": {"card": {"position": [3, 0]}}}]}"#)
        #expect(warned.status == 200)
        guard case .array(let diagnostics)? = try Self.json(warned)["diagnostics"],
            case .object(let first)? = diagnostics.first
        else { throw CancellationError() }
        #expect(first["code"] == .string("suspicious-unit") && first["path"] == .string("$.at"))
    }

    /// One session's inputs are bounded in bytes, not only in count: past the limit, 409 and
    /// nothing appended.
    @Test func oneSessionsInputsAreBoundedInBytes() throws {
        var limits = SessionRegistry.Limits()
        limits.bytesPerSession = 250
        let app = try app(limits: limits)
        let id = try create(app)
        let one = #"{"at": 1, "do": [{"set": {"card": {"position": [1, 0]}}}]}"#
        var taken = 0
        while taken < 10 && input(app, id, one).status == 200 { taken += 1 }
        #expect(taken == 250 / one.utf8.count, "\(taken) inputs of \(one.utf8.count) bytes")
        let refused = input(app, id, one)
        #expect(refused.status == 409)
        #expect(String(decoding: Self.body(refused), as: UTF8.self).contains("250"))
        guard
            case .number(let inputs)? = try Self.json(
                app.handle(ApplicationTests.request("GET", "/v1/sessions/\(id)")))["inputs"]
        else { throw CancellationError() }
        #expect(Int(inputs) == taken)
    }

    /// Live sessions hold their memory in the render budget: it grows with their inputs, the
    /// least recently used session leaves memory to make room for another's input, and when
    /// renders hold the rest an input is busy (503 with Retry-After) and nothing is stored.
    @Test func liveSessionsShareTheRenderMemory() throws {
        var configuration = Application.Configuration(apiToken: nil)
        configuration.maxRenderMemory = 6_000
        let app = Application(
            store: try SQLiteStore(directory: scratch.file("store")), configuration: configuration)
        let first = try create(app)
        let held = app.renderMemory.inUse
        #expect(held == Self.scene.utf8.count * 2)
        let one = #"{"at": 1, "do": [{"set": {"card": {"position": [1, 0]}}}]}"#
        #expect(input(app, first, one).status == 200)
        #expect(app.renderMemory.inUse == held + one.utf8.count * 2)
        // A second session's inputs push the first out of memory (it stays stored): 49 of
        // them and its scene are 2,904 bytes of documents, 5,808 of memory, and the first
        // session's 240 would pass the 6,000.
        let second = try create(app)
        #expect(app.sessions.liveCount == 2)
        var taken = 0
        while taken < 49 && input(app, second, one).status == 200 { taken += 1 }
        #expect(taken == 49)
        #expect(app.sessions.liveCount == 1)
        #expect(app.renderMemory.inUse == (Self.scene.utf8.count + 49 * one.utf8.count) * 2)
        // Renders holding the rest: the input is refused, and the session keeps its inputs.
        let renders = try #require(app.renderMemory.reserve(app.renderMemory.limit - app.renderMemory.inUse))
        let refused = input(app, second, one)
        #expect(refused.status == 503)
        #expect(refused.headers.contains { $0.0 == "Retry-After" })
        guard
            case .number(let inputs)? = try Self.json(
                app.handle(ApplicationTests.request("GET", "/v1/sessions/\(second)")))["inputs"]
        else { throw CancellationError() }
        #expect(Int(inputs) == taken)
        _ = consume renders
        #expect(input(app, second, one).status == 200)
        // The first session comes back from storage with its input.
        guard
            case .number(let firstInputs)? = try Self.json(
                app.handle(ApplicationTests.request("GET", "/v1/sessions/\(first)")))["inputs"]
        else { throw CancellationError() }
        #expect(firstInputs == 1)
        // Deleting them gives their memory back.
        #expect(app.handle(ApplicationTests.request("DELETE", "/v1/sessions/\(first)")).status == 204)
        #expect(app.handle(ApplicationTests.request("DELETE", "/v1/sessions/\(second)")).status == 204)
        #expect(app.renderMemory.inUse == 0)
    }

    /// Stored sessions are capped: past the limit, creating one is a 409 until one is deleted.
    @Test func storedSessionsAreCapped() throws {
        var limits = SessionRegistry.Limits()
        limits.storedSessions = 2
        let app = try app(limits: limits)
        let first = try create(app)
        _ = try create(app)
        let third = app.handle(ApplicationTests.request("POST", "/v1/sessions", body: Self.scene))
        #expect(third.status == 409)
        #expect(app.handle(ApplicationTests.request("DELETE", "/v1/sessions/\(first)")).status == 204)
        _ = try create(app)
    }
}
