import ChoreoArena
import ChoreoStorage
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoHTTP

/// What the edge adds to every answer and checks on requests that change state: `nosniff`,
/// `Vary: Origin` whatever the origin, the bearer scheme in any case, and the loopback `Host`
/// check of a server without a token.
@Suite final class EdgeHeaderTests {
    let scratch = Scratch("choreo-edge")

    func app(_ configure: (inout Application.Configuration) -> Void) throws -> Application {
        var configuration = Application.Configuration(apiToken: nil)
        configure(&configuration)
        return Application(store: try SQLiteStore(directory: scratch.file("store")), configuration: configuration)
    }

    static let scene = #"{"layers": [{"id": "card"}]}"#

    static func header(_ response: HTTPResponse, _ name: String) -> [String] {
        response.headers.filter { $0.0 == name }.map(\.1)
    }

    @Test func everyAnswerIsNosniffAndVariesByOrigin() throws {
        let app = try app { $0.corsOrigins = ["https://dash.example"] }
        let answers = [
            app.handle(ApplicationTests.request("GET", "/v1/scenes", headers: ["origin": "https://other.example"])),
            app.handle(ApplicationTests.request("GET", "/nowhere")),
            app.handle(ApplicationTests.request("POST", "/v1/validate", body: Self.scene)),
            app.handle(ApplicationTests.request("GET", "/v1/scenes", headers: ["origin": "https://dash.example"])),
        ]
        for answer in answers {
            #expect(Self.header(answer, "X-Content-Type-Options") == ["nosniff"])
            #expect(Self.header(answer, "Vary") == ["Origin"])
        }
        #expect(Self.header(answers[0], "Access-Control-Allow-Origin").isEmpty)
        #expect(Self.header(answers[3], "Access-Control-Allow-Origin") == ["https://dash.example"])
    }

    @Test func theBearerSchemeIsCaseInsensitive() throws {
        let app = try app { $0.apiToken = "s3cret" }
        for header in ["Bearer s3cret", "bearer s3cret", "BEARER   s3cret"] {
            let answer = app.handle(
                ApplicationTests.request("POST", "/v1/scenes", body: Self.scene, headers: ["authorization": header]))
            #expect(answer.status == 201, "\(header)")
        }
        for header in ["Bearer s3cre", "Basic s3cret", "Bearers3cret", ""] {
            let answer = app.handle(
                ApplicationTests.request("POST", "/v1/scenes", body: Self.scene, headers: ["authorization": header]))
            #expect(answer.status == 401, "\(header)")
        }
    }

    /// A server on loopback without a token takes state changes only for a loopback Host.
    @Test func loopbackWithoutATokenChecksTheHost() throws {
        let app = try app { $0.loopbackHosts = ["localhost", "127.0.0.1", "::1"] }
        for host in ["127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]:8080"] {
            let answer = app.handle(
                ApplicationTests.request("POST", "/v1/scenes", body: Self.scene, headers: ["host": host]))
            #expect(answer.status == 201, "\(host)")
        }
        let rebound = app.handle(
            ApplicationTests.request("POST", "/v1/scenes", body: Self.scene, headers: ["host": "attacker.example"]))
        #expect(rebound.status == 421)
        // Reads and computations are not state changes.
        #expect(
            app.handle(ApplicationTests.request("GET", "/v1/scenes", headers: ["host": "attacker.example"])).status
                == 200)
        let render = app.handle(
            ApplicationTests.request("POST", "/v1/validate", body: Self.scene, headers: ["host": "attacker.example"]))
        #expect(render.status == 200)
    }

    @Test func credentialsInNodeURLsAreRedacted() {
        #expect(URLRedaction.redacted("https://user:pa55@db.example/health") == "https://user:…@db.example/health")
        #expect(URLRedaction.redacted("http://tok@db.example/h") == "http://tok@db.example/h")
        #expect(
            URLRedaction.redacted("https://x.example/health?api_key=K&region=eu&Access-Token=T#top")
                == "https://x.example/health?api_key=…&region=eu&Access-Token=…#top")
        #expect(URLRedaction.redacted("http://127.0.0.1:9/health") == "http://127.0.0.1:9/health")
    }

    /// HEAD on a frames route checks the query and the resource and renders nothing.
    @Test func headOnFramesRendersNothing() throws {
        let app = try app { _ in }
        let stored = app.handle(ApplicationTests.request("POST", "/v1/scenes", body: Self.scene))
        guard case .string(let id)? = try ApplicationTests.json(stored)["id"] else { throw CancellationError() }
        let head = app.handle(
            ApplicationTests.request("HEAD", "/v1/scenes/\(id)/frames", query: [("format", "png"), ("time", "0")]))
        #expect(head.status == 200 && head.byteCount == 0)
        #expect(Self.header(head, "Content-Type") == ["image/png"])
        #expect(app.metrics.render().contains("choreo_frames_total 0"))
        let bad = app.handle(ApplicationTests.request("HEAD", "/v1/scenes/\(id)/frames", query: [("fps", "fast")]))
        #expect(bad.status == 422)
        #expect(app.handle(ApplicationTests.request("HEAD", "/v1/scenes/scn_none/frames")).status == 404)
        let get = app.handle(ApplicationTests.request("GET", "/v1/scenes/\(id)/frames", query: [("fps", "4")]))
        #expect(get.status == 200 && !app.metrics.render().contains("choreo_frames_total 0"))
    }

    /// A database that stops answering makes /healthz answer 503 within its deadline, not when
    /// the database answers again; a check still waiting is not started twice.
    @Test func aFrozenDatabaseIsUnhealthyAtOnce() throws {
        let store = PausingStore(try SQLiteStore(directory: scratch.file("frozen")))
        let app = Application(store: store, configuration: .init(apiToken: nil))
        #expect(app.handle(ApplicationTests.request("GET", "/healthz")).status == 200)
        store.holdHealth()
        let frozen = app.handle(ApplicationTests.request("GET", "/healthz"))
        #expect(frozen.status == 503)
        #expect(String(decoding: SessionTests.body(frozen), as: UTF8.self).contains("did not answer"))
        let again = app.handle(ApplicationTests.request("GET", "/healthz"))
        #expect(again.status == 503)
        #expect(String(decoding: SessionTests.body(again), as: UTF8.self).contains("earlier health check"))
        store.releaseHealth()
        // Once the held check has returned, checks answer again (bounded: 50 tries).
        var status = 0
        for _ in 0..<50 {
            status = app.handle(ApplicationTests.request("GET", "/healthz")).status
            if status == 200 { break }
            usleep(100_000)
        }
        #expect(status == 200)
    }
}
