import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// An imported scene driven as a live session over HTTP: the path docs/sessions.md describes,
/// from `POST /v1/import` to a first input that scrubs the animator the code made.
@Suite(.serialized) final class SessionFromImportLiveTests {
    let scratch = Scratch("choreo-live-import-session")

    /// The code makes a property animator at 0 s and never starts it: a slider scrubs it.
    static let code = """
        let box = UIView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
        box.backgroundColor = .systemBlue
        view.addSubview(box)
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) {
            box.center.x += 200
        }
        """

    static func object(_ body: [UInt8]) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(body) else { throw LiveError("not an object") }
        return object
    }

    /// The session made from the import's scene takes a first input naming the animator — at
    /// 0 s, the time the script makes it, and later — and a restarted server replays it.
    @Test(arguments: [0.0, 0.5])
    func aFirstInputScrubsTheImportedAnimator(at time: Double) throws {
        let data = scratch.file("data-\(time)")
        let input = #"{"at": \#(time), "do": [{"fractionComplete": 0.25, "animator": "animator"}]}"#
        var id = ""
        var scene = ""
        do {
            let server = try ServerProcess(data: data)
            let http = RawHTTP(port: server.port)
            let imported = try http.request("POST", "/v1/import", body: Self.code, contentType: "text/x-swift")
            #expect(imported.status == 200, "\(imported.text)")
            guard let sceneValue = try Self.object(imported.body)["scene"] else { throw LiveError("no scene") }
            scene = sceneValue.prettyPrinted()
            #expect(scene.contains(#""propertyAnimator""#))
            let created = try http.request("POST", "/v1/sessions", body: scene)
            #expect(created.status == 201)
            guard case .string(let given)? = try Self.object(created.body)["id"] else { throw LiveError("no id") }
            id = given
            let first = try http.request(
                "POST", "/v1/sessions/\(id)/inputs", body: input, headers: ["If-Match": "\"0\""])
            #expect(first.status == 200, "\(first.text)")
            #expect(first.text.contains(#""animator":{"state":"active","running":false,"fractionComplete":0.25"#))
            // The box is a quarter of the way: 70 + 0.25 × 200.
            let frame = try http.request("GET", "/v1/sessions/\(id)/frames?times=\(time)&properties=position")
            #expect(frame.text.contains(#""box":{"position":[120,70]}"#), "\(frame.text)")
            // A misspelt animator is still refused, with the name meant.
            let wrong = try http.request(
                "POST", "/v1/sessions/\(id)/inputs",
                body: #"{"at": \#(time), "do": [{"fractionComplete": 0.5, "animator": "animtor"}]}"#)
            #expect(wrong.status == 422)
            #expect(wrong.text.contains(#""didYouMean":"animator""#))
            server.signal(SIGKILL)
            _ = server.waitForExit()
        }
        // Restarted, the server replays the stored input as it ran: its frames are the render
        // of the scene with the input appended.
        let restarted = try ServerProcess(data: data)
        let http = RawHTTP(port: restarted.port)
        let frames = try http.request("GET", "/v1/sessions/\(id)/frames?fps=10")
        #expect(frames.status == 200, "\(frames.text)")
        guard case .object(var document) = try JSONParser.parse(scene),
            case .array(var script)? = document["script"]
        else { throw LiveError("no script") }
        script.append(try JSONParser.parse(input))
        document["script"] = .array(script)
        let render = try http.request("POST", "/v1/render?fps=10", body: JSONValue.object(document).prettyPrinted())
        #expect(frames.body == render.body)
    }
}
