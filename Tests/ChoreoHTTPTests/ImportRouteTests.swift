import ChoreoJSON
import ChoreoStorage
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoHTTP

/// `POST /v1/import` through the router, with the real helper process beside the test binary.
@Suite final class ImportRouteTests {
    let scratch = Scratch("choreo-import-test")

    func app() throws -> Application {
        Application(store: try SQLiteStore(directory: scratch.file(UUID().uuidString)), configuration: .init())
    }

    static let source = """
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        card.backgroundColor = .systemBlue
        view.addSubview(card)
        UIView.animate(withDuration: 0.5) {
            card.alpha = 0
        }
        """

    @Test func importsASwiftSource() throws {
        let app = try app()
        let response = app.handle(
            ApplicationTests.request("POST", "/v1/import", body: Self.source, contentType: "text/x-swift"))
        #expect(response.status == 200)
        let body = try ApplicationTests.json(response)
        guard case .object(let scene)? = body["scene"], case .array(let script)? = scene["script"] else {
            Issue.record("no scene")
            return
        }
        #expect(script.count == 1)
        guard case .array(let diagnostics)? = body["diagnostics"], case .array(let map)? = body["sourceMap"] else {
            Issue.record("no diagnostics or source map")
            return
        }
        // `view` is not declared in top-level code: a warning at its line and column.
        #expect(
            diagnostics.contains {
                guard case .object(let d) = $0 else { return false }
                return d["line"] == .number(3) && d["column"] == .number(1) && d["severity"] == .string("warning")
            })
        #expect(
            map.contains {
                guard case .object(let m) = $0 else { return false }
                return m["path"] == .string("$.script[0].do[0]") && m["line"] == .number(4)
            })
        // The scene it answers renders.
        var writer = JSONWriter()
        writer.value(.object(scene))
        let render = app.handle(
            ApplicationTests.request(
                "POST", "/v1/render", query: [("times", "0.25")], body: String(decoding: writer.bytes, as: UTF8.self)))
        #expect(render.status == 200)
    }

    @Test func aSyntaxErrorIs422WithItsDiagnostics() throws {
        let app = try app()
        let response = app.handle(
            ApplicationTests.request(
                "POST", "/v1/import", query: [("language", "swift")], body: "UIView.animate(withDuration: {\n",
                contentType: "text/plain"))
        #expect(response.status == 422)
        let body = try ApplicationTests.json(response)
        #expect(body["type"] == .string("/problems/import-failed"))
        guard case .array(let diagnostics)? = body["diagnostics"], case .object(let first)? = diagnostics.first else {
            Issue.record("no diagnostics")
            return
        }
        #expect(first["severity"] == .string("error"))
        #expect(first["line"] != nil && first["column"] != nil)
    }

    @Test func theLanguageMustBeNamed() throws {
        let app = try app()
        #expect(
            app.handle(ApplicationTests.request("POST", "/v1/import", body: Self.source, contentType: "text/plain"))
                .status == 415)
        let misspelt = app.handle(
            ApplicationTests.request(
                "POST", "/v1/import", query: [("langauge", "swift")], body: Self.source, contentType: "text/x-swift"))
        #expect(misspelt.status == 422)
        let body = try ApplicationTests.json(misspelt)
        guard case .array(let errors)? = body["errors"], case .object(let error)? = errors.first else {
            Issue.record("no errors")
            return
        }
        #expect(error["didYouMean"] == .string("language"))
    }

    @Test func aSourceOverTheLimitIs413() throws {
        let app = try app()
        let big = String(repeating: "// padding\n", count: 100_000)
        let response = app.handle(
            ApplicationTests.request("POST", "/v1/import", body: big, contentType: "text/x-swift"))
        #expect(response.status == 413)
    }
}
