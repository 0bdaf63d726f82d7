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
        // `view` is not declared in top-level code: the view controller's view is meant, said in a
        // note at its line and column.
        #expect(
            diagnostics.contains {
                guard case .object(let d) = $0 else { return false }
                return d["line"] == .number(3) && d["column"] == .number(1) && d["severity"] == .string("note")
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

/// `POST /v1/import` with several files as JSON: the imported file first, the files read with it
/// after it (docs/import.md, "Several files").
@Suite final class ImportFilesRouteTests {
    let scratch = Scratch("choreo-import-files-test")

    func app() throws -> Application {
        Application(store: try SQLiteStore(directory: scratch.file(UUID().uuidString)), configuration: .init())
    }

    static func document(_ members: [(String, JSONValue)]) -> String {
        var writer = JSONWriter()
        writer.value(.object(JSONObject(members)))
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func files(_ files: [(String, String)]) -> JSONValue {
        .array(files.map { .object(JSONObject([("name", .string($0.0)), ("source", .string($0.1))])) })
    }

    static let main = """
        let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        card.backgroundColor = .systemBlue
        view.addSubview(card)
        Fader.fade(card, to: 0.25)
        """

    static let companion = """
        enum Fader {
            static func fade(_ target: UIView, to alpha: CGFloat) {
                UIView.animate(withDuration: 0.5) {
                    target.alpha = alpha
                }
            }
        }
        """

    func post(_ app: Application, _ body: String, query: [(String, String)] = []) -> HTTPResponse {
        app.handle(
            ApplicationTests.request("POST", "/v1/import", query: query, body: body, contentType: "application/json"))
    }

    @Test func aSwiftFileImportedWithTheFileThatDeclaresWhatItCalls() throws {
        let app = try app()
        let body = Self.document([("files", Self.files([("Card.swift", Self.main), ("Fader.swift", Self.companion)]))])
        let response = post(app, body)
        #expect(response.status == 200)
        let result = try ApplicationTests.json(response)
        guard case .object(let scene)? = result["scene"], case .array(let script)? = scene["script"],
            case .array(let map)? = result["sourceMap"]
        else {
            Issue.record("no scene")
            return
        }
        #expect(script.count == 1)
        // The animation's block is in Fader.swift, at line 3: the source map says so.
        #expect(
            map.contains {
                guard case .object(let m) = $0 else { return false }
                return m["file"] == .string("Fader.swift") && m["line"] == .number(3)
            })
        // The same main file alone does not know Fader: its call is dropped, so nothing animates.
        let alone = post(app, Self.document([("files", Self.files([("Card.swift", Self.main)]))]))
        #expect(alone.status == 200)
        guard case .object(let aloneScene)? = try ApplicationTests.json(alone)["scene"],
            case .array(let aloneScript)? = aloneScene["script"]
        else {
            Issue.record("no scene for the file alone")
            return
        }
        #expect(aloneScript.isEmpty)
    }

    @Test func anErrorInACompanionNamesItsFile() throws {
        let app = try app()
        let broken = "enum Fader {\n    static func fade(_ target: UIView, to alpha: CGFloat {\n}\n"
        let response = post(
            app, Self.document([("files", Self.files([("Card.swift", Self.main), ("Fader.swift", broken)]))]))
        #expect(response.status == 422)
        let body = try ApplicationTests.json(response)
        guard case .string(let detail)? = body["detail"], case .array(let diagnostics)? = body["diagnostics"] else {
            Issue.record("no detail or diagnostics")
            return
        }
        #expect(detail.hasPrefix("Fader.swift, line 2"))
        #expect(
            diagnostics.contains {
                guard case .object(let d) = $0 else { return false }
                return d["file"] == .string("Fader.swift") && d["severity"] == .string("error")
            })
    }

    @Test func anObjectiveCFileWithItsHeader() throws {
        let app = try app()
        let header = """
            #import <UIKit/UIKit.h>
            @interface Pulse : UIView
            @property (nonatomic, strong) CALayer *dot;
            - (void)start;
            @end
            """
        let implementation = """
            #import "Pulse.h"
            @implementation Pulse
            - (void)start {
                self.dot = [CALayer layer];
                self.dot.frame = CGRectMake(0, 0, 20, 20);
                [self.layer addSublayer:self.dot];
                CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:@"opacity"];
                fade.fromValue = @1;
                fade.toValue = @0;
                fade.duration = 0.8;
                [self.dot addAnimation:fade forKey:@"fade"];
            }
            @end
            """
        let response = post(
            app,
            Self.document([
                ("files", Self.files([("Pulse.m", implementation), ("Pulse.h", header)])), ("entry", .string("start")),
            ]))
        #expect(response.status == 200)
        let result = try ApplicationTests.json(response)
        guard case .object(let scene)? = result["scene"], case .array(let script)? = scene["script"] else {
            Issue.record("no scene: \(result)")
            return
        }
        #expect(!script.isEmpty)
        // Without the header, `self.dot` is no property of Pulse's superclass.
        let alone = post(app, Self.document([("files", Self.files([("Pulse.m", implementation)]))]))
        #expect(alone.status == 422)
    }

    @Test func theDocumentIsCheckedFieldByField() throws {
        let app = try app()
        func errors(_ body: String, query: [(String, String)] = []) throws -> [JSONObject] {
            let response = post(app, body, query: query)
            #expect(response.status == 422)
            guard case .array(let errors)? = try ApplicationTests.json(response)["errors"] else { return [] }
            return errors.compactMap { if case .object(let e) = $0 { e } else { nil } }
        }
        let missing = try errors(Self.document([("language", .string("swift"))]))
        #expect(missing.contains { $0["path"] == .string("$.files") })
        let twice = try errors(
            Self.document([("files", Self.files([("A.swift", Self.main), ("A.swift", Self.companion)]))]))
        #expect(twice.contains { $0["path"] == .string("$.files[1].name") })
        let misspelt = try errors(
            Self.document([("files", Self.files([("A.swift", Self.main)])), ("entyr", .string("start"))]))
        #expect(misspelt.contains { $0["path"] == .string("$.entyr") && $0["didYouMean"] == .string("entry") })
        let unnamed = try errors(Self.document([("files", Self.files([("notes.txt", Self.main)]))]))
        #expect(unnamed.contains { $0["path"] == .string("$.language") })
        let queried = try errors(
            Self.document([("files", Self.files([("A.swift", Self.main)]))]), query: [("language", "swift")])
        #expect(
            queried.contains { $0["path"] == .string("query.language") && $0["didYouMean"] == .string("$.language") })
        let noSource = try errors(
            Self.document([("files", .array([.object(JSONObject([("name", .string("A.swift"))]))]))]))
        #expect(noSource.contains { $0["path"] == .string("$.files[0].source") })
        let malformed = post(app, "{\"files\": [")
        #expect(malformed.status == 400)
    }
}

/// A SwiftUI view over HTTP: its taps as `?tap=` or the JSON form's `taps`.
@Suite final class ImportSwiftUIRouteTests {
    let scratch = Scratch("choreo-import-swiftui-test")

    static let view = """
        import SwiftUI

        struct Mover: View {
            @State private var raised = false
            var body: some View {
                Circle()
                    .frame(width: 40, height: 40)
                    .offset(y: raised ? -100 : 0)
                    .onTapGesture {
                        withAnimation(.smooth) { raised.toggle() }
                    }
            }
        }
        """

    static func times(_ response: HTTPResponse) throws -> [JSONValue] {
        guard case .object(let scene)? = try ApplicationTests.json(response)["scene"],
            case .array(let script)? = scene["script"]
        else { return [] }
        return script.compactMap { if case .object(let entry) = $0 { entry["at"] } else { nil } }
    }

    @Test func tapsComeFromTheQueryOrTheDocument() throws {
        let app = Application(store: try SQLiteStore(directory: scratch.file("store")), configuration: .init())
        let queried = app.handle(
            ApplicationTests.request(
                "POST", "/v1/import", query: [("tap", "circle@0.5"), ("tap", "circle@0.7")], body: Self.view,
                contentType: "text/x-swift"))
        #expect(queried.status == 200)
        #expect(try Self.times(queried) == [.number(0.5), .number(0.7)])
        let document = ImportFilesRouteTests.document([
            ("files", ImportFilesRouteTests.files([("Mover.swift", Self.view)])),
            ("taps", .array([.object(JSONObject([("title", .string("circle")), ("at", .number(1.25))]))])),
        ])
        let posted = app.handle(ApplicationTests.request("POST", "/v1/import", body: document))
        #expect(posted.status == 200)
        #expect(try Self.times(posted) == [.number(1.25)])

        let malformed = app.handle(
            ApplicationTests.request(
                "POST", "/v1/import", query: [("tap", "circle")], body: Self.view, contentType: "text/x-swift"))
        #expect(malformed.status == 422)
        let unknown = app.handle(
            ApplicationTests.request(
                "POST", "/v1/import", query: [("tap", "square@1")], body: Self.view, contentType: "text/x-swift"))
        #expect(unknown.status == 422)
        let detail = try ApplicationTests.json(unknown)["detail"]
        #expect(
            detail == .string("line 3, column 1: no button or tapped view is called \"square\" (there are: \"circle\")")
        )
        let badMember = ImportFilesRouteTests.document([
            ("files", ImportFilesRouteTests.files([("Mover.swift", Self.view)])),
            ("taps", .array([.object(JSONObject([("title", .number(1))]))])),
        ])
        let rejected = app.handle(ApplicationTests.request("POST", "/v1/import", body: badMember))
        #expect(rejected.status == 422)
        guard case .array(let errors)? = try ApplicationTests.json(rejected)["errors"] else {
            Issue.record("no errors")
            return
        }
        #expect(errors.contains { if case .object(let e) = $0 { e["path"] == .string("$.taps[0]") } else { false } })
    }
}
