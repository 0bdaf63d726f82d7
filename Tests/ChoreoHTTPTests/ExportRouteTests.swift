import ChoreoJSON
import ChoreoStorage
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoHTTP

/// The export routes through the router: a scene in the body and a stored one, each format's
/// media type, the report alone, and the query's errors naming their field.
@Suite final class ExportRouteTests {
    let scratch = Scratch("choreo-export-route")

    func app() throws -> Application {
        Application(store: try SQLiteStore(directory: scratch.file(UUID().uuidString)), configuration: .init())
    }

    static let scene = """
        {"layers": [{"id": "card", "frame": [10, 10, 100, 60], "backgroundColor": "#3478F6", "cornerRadius": 8}],
         "script": [{"at": 0, "do": [{"animate": {"duration": 0.5, "changes": {"card": {"position": [150, 40], "opacity": 0.5}}}}]}]}
        """

    @Test func everyFormatHasItsMediaTypeAndReport() throws {
        let app = try app()
        let types = ["lottie": "application/json", "waapi": "application/json", "css": "text/css", "html": "text/html"]
        for (format, type) in types {
            let response = app.handle(
                ApplicationTests.request(
                    "POST", "/v1/export", query: [("format", format), ("fps", "30")], body: Self.scene))
            #expect(response.status == 200, "\(format)")
            #expect(response.headers.first { $0.0 == "Content-Type" }?.1.hasPrefix(type) == true, "\(format)")
            guard case .bytes(let bytes) = response.body else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            switch format {
            case "lottie":
                let document = try ApplicationTests.json(response)
                // The composition's members rlottie requires, and the report as a member.
                for key in ["v", "fr", "ip", "op", "w", "h", "layers", "choreo"] {
                    #expect(document[key] != nil, "\(key)")
                }
                #expect(document["fr"] == .number(30) && document["op"] == .number(16))
            case "waapi": #expect(try ApplicationTests.json(response)["report"] != nil)
            case "css": #expect(text.hasPrefix("/*\n * choreo export fidelity report") && text.contains("@keyframes"))
            default:
                #expect(text.contains("<div id=\"stage\">") && text.contains("data-layer=\"card\""))
                #expect(text.contains("choreo export fidelity report"))
            }
        }
        // The report alone.
        let report = app.handle(
            ApplicationTests.request(
                "POST", "/v1/export", query: [("format", "css"), ("report", "1")], body: Self.scene))
        let body = try ApplicationTests.json(report)
        #expect(body["format"] == .string("css") && body["frames"] == .number(31))
        guard case .array(let exact)? = body["exact"], case .array(let baked)? = body["baked"],
            case .object(let measured)? = body["measured"]
        else {
            Issue.record("no exact or baked list or measurement")
            return
        }
        // UIKit's additive animations with its default curve, written as themselves: nothing baked.
        #expect(baked.isEmpty)
        let eased = exact.contains(where: { (value: JSONValue) -> Bool in
            guard case .object(let entry) = value else { return false }
            return entry["properties"] == JSONValue.array([.string("position"), .string("opacity")])
                && entry["note"]
                    == JSONValue.string(
                        "additive animations added to the value beneath (animation-composition: add), at their own times, eased by their timing functions"
                    )
        })
        #expect(eased, "\(exact)")
        #expect(measured["samples"] == .number(91))
    }

    @Test func aStoredSceneExportsAsItsBodyWould() throws {
        let app = try app()
        let stored = app.handle(ApplicationTests.request("POST", "/v1/scenes", body: Self.scene))
        guard case .string(let id)? = try ApplicationTests.json(stored)["id"] else {
            Issue.record("not stored")
            return
        }
        let fromBody = app.handle(
            ApplicationTests.request("POST", "/v1/export", query: [("format", "waapi")], body: Self.scene))
        let fromStore = app.handle(
            ApplicationTests.request("GET", "/v1/scenes/\(id)/export", query: [("format", "waapi")]))
        #expect(fromStore.status == 200)
        guard case .bytes(let a) = fromBody.body, case .bytes(let b) = fromStore.body else { return }
        #expect(a == b)
        #expect(
            app.handle(ApplicationTests.request("GET", "/v1/scenes/nope/export", query: [("format", "css")])).status
                == 404)
    }

    @Test func badQueriesNameTheirField() throws {
        let app = try app()
        for (query, field, suggestion) in [
            ([("format", "lotie")], "query.format", "lottie"),
            ([("format", "css"), ("fsp", "30")], "query.fsp", "fps"),
            ([("format", "css"), ("fps", "0")], "query.fps", nil),
            ([("format", "css"), ("scale", "9")], "query.scale", nil),
            ([(String, String)](), "query.format", nil),
        ] as [([(String, String)], String, String?)] {
            let response = app.handle(ApplicationTests.request("POST", "/v1/export", query: query, body: Self.scene))
            #expect(response.status == 422, "\(query)")
            let body = try ApplicationTests.json(response)
            guard case .array(let errors)? = body["errors"], case .object(let first)? = errors.first else {
                Issue.record("no errors for \(query)")
                continue
            }
            #expect(first["path"] == .string(field), "\(query)")
            if let suggestion { #expect(first["didYouMean"] == .string(suggestion), "\(query)") }
        }
    }

    @Test func aSessionExportsItsRunSoFar() throws {
        let app = try app()
        let created = app.handle(ApplicationTests.request("POST", "/v1/sessions", body: Self.scene))
        guard case .string(let id)? = try ApplicationTests.json(created)["id"] else {
            Issue.record("no session")
            return
        }
        let input = #"{"at": 0.8, "do": [{"set": {"card": {"opacity": 0.25}}}]}"#
        #expect(app.handle(ApplicationTests.request("POST", "/v1/sessions/\(id)/inputs", body: input)).status == 200)
        let exported = app.handle(
            ApplicationTests.request("GET", "/v1/sessions/\(id)/export", query: [("format", "css")]))
        #expect(exported.status == 200)
        // The same as the scene with the input at the end of its script.
        let appended = Self.scene.replacingOccurrences(of: "}}}]}]}", with: "}}}]}, \(input)]}")
        let direct = app.handle(
            ApplicationTests.request("POST", "/v1/export", query: [("format", "css")], body: appended))
        guard case .bytes(let a) = exported.body, case .bytes(let b) = direct.body else { return }
        let session = String(decoding: a, as: UTF8.self)
        let scene = String(decoding: b, as: UTF8.self)
        // Past the head of the report (which names the scene), the stylesheets are the same.
        #expect(
            session.contains("opacity: 0.25")
                && session.split(separator: "#stage ", maxSplits: 1).last
                    == scene.split(separator: "#stage ", maxSplits: 1).last
        )
        #expect(
            app.handle(ApplicationTests.request("GET", "/v1/sessions/nope/export", query: [("format", "css")])).status
                == 404)
    }
}
