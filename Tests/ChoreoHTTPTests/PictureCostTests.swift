import ChoreoStorage
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoHTTP
@testable import ChoreoService

/// A picture's cost counts the pixels its layers cover (their bounds, scaled by their own and
/// their ancestors' transforms, at most the canvas), and a picture that could never fit the
/// render memory beside its scene is refused, not told to try again.
@Suite final class PictureCostTests {
    let scratch = Scratch("choreo-picture-cost")

    func app(renderMemory: Int = 1 << 30) throws -> Application {
        var configuration = Application.Configuration(apiToken: nil)
        configuration.maxRenderMemory = renderMemory
        return Application(store: try SQLiteStore(directory: scratch.file("store")), configuration: configuration)
    }

    static func scene(canvas: Int, count: Int, side: Int, parentScale: Double = 1) -> String {
        let layers = (0..<count).map { #"{"id": "l\#($0)", "frame": [0, 0, \#(side), \#(side)], "opacity": 0.5}"# }
        return """
            {"canvas": {"width": \(canvas), "height": \(canvas)},
             "layers": [{"id": "group", "frame": [0, 0, 1, 1], "transform": {"scale": \(parentScale)},
                         "sublayers": [\(layers.joined(separator: ", "))]}]}
            """
    }

    func png(_ app: Application, _ scene: String) -> HTTPResponse {
        app.handle(
            ApplicationTests.request("POST", "/v1/render", query: [("format", "png"), ("time", "0")], body: scene))
    }

    static func paths(_ response: HTTPResponse) -> [String] {
        guard case .array(let errors)? = try? ApplicationTests.json(response)["errors"] else { return [] }
        return errors.compactMap { if case .object(let e) = $0, case .string(let p)? = e["path"] { p } else { nil } }
    }

    @Test func layersAreChargedThePixelsTheyCover() throws {
        let app = try app()
        // 2,000 small layers draw.
        #expect(png(app, Self.scene(canvas: 400, count: 2000, side: 4)).status == 200)
        // 2,000 layers that each fill a 4,000-point canvas: 32 billion pixels, refused at once.
        let large = png(app, Self.scene(canvas: 4000, count: 2000, side: 4000))
        #expect(large.status == 422)
        #expect(Self.paths(large) == ["query.time"] || Self.paths(large) == ["query.times"], "\(Self.paths(large))")
        // Small layers made large by their parent's transform are charged as large.
        let scaled = png(app, Self.scene(canvas: 4000, count: 2000, side: 4, parentScale: 1000))
        #expect(scaled.status == 422)
    }

    @Test func aPictureThatCanNeverFitIsRefused() throws {
        // A 1,000 × 1,000 picture takes about 16 MB to draw; its scene's run holds some more.
        // With room for the picture but not for both, the answer is 422, not 503 for ever.
        let scene = Self.scene(canvas: 1000, count: 200, side: 10)
        let run = RenderService.runEstimate(Array(scene.utf8))
        let app = try app(renderMemory: 1000 * 1000 * 16 + run / 2)
        let answer = png(app, scene)
        #expect(answer.status == 422)
        #expect(Self.paths(answer) == ["query.scale"])
    }
}
