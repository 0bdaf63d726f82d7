import ChoreoJSON
import ChoreoService
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// Code written in a view controller draws on a screen: 375 × 667 points unless the import is
/// given another (`--screen`, `screen`), and what moves outside it for the whole of its
/// animation is said at the line that made it.
@Suite struct ImportScreenTests {
    static let code = """
        let card = UIView(frame: CGRect(x: 20, y: 700, width: 300, height: 120))
        view.addSubview(card)
        let badge = UIView(frame: CGRect(x: 420, y: 40, width: 40, height: 40))
        view.addSubview(badge)
        UIView.animate(withDuration: 0.5) {
            card.frame.origin.y = 400
            badge.alpha = 0.5
        }
        """

    static func run(_ source: String, screen: (width: Double, height: Double)? = nil) -> ImportResult {
        var options = ImportOptions()
        options.screen = screen
        return Importer.run(SwiftFrontEnd.lower(source), options: options)
    }

    @Test func whatMovesOffTheScreenForAllOfItsAnimationIsSaid() throws {
        let result = Self.run(Self.code)
        let scene = sceneText(result.scene)
        #expect(scene.hasPrefix(#"{"canvas":{"width":375,"height":667}"#), "\(scene.prefix(60))")
        // The badge, right of a 375-point screen, is said at the line that made it; the card,
        // which slides in from below the fold, is not.
        let outside = result.diagnostics.filter { $0.message.contains("animates outside") }
        #expect(outside.count == 1, "\(outside.map(\.message))")
        let warning = try #require(outside.first)
        #expect(warning.severity == .warning && warning.position.line == 3)
        #expect(warning.message.hasPrefix("badge animates outside the 375 × 667-point screen"))
        #expect(warning.fix?.contains("--screen WxH") == true)
    }

    @Test func anotherScreenIsTheCanvasAndWhatTheCodeReads() throws {
        let result = Self.run(
            Self.code + "\nlet wide = UIScreen.main.bounds.width\nbadge.frame.origin.x = wide - 50\n",
            screen: (500, 900))
        let scene = sceneText(result.scene)
        #expect(scene.hasPrefix(#"{"canvas":{"width":500,"height":900}"#), "\(scene.prefix(60))")
        #expect(!result.diagnostics.contains { $0.message.contains("animates outside") })
        #expect(scene.contains(#""badge":{"frame":[450,40,40,40]}"#), "\(scene)")
        #expect(result.diagnostics.contains { $0.message.contains("the import takes 500 × 900 points") })
    }

    @Test func aScreenIsAWidthAndAHeight() throws {
        #expect(ImportScreen.parse("390x844")! == (390, 844))
        #expect(ImportScreen.parse("390×844.5")! == (390, 844.5))
        for wrong in ["390", "0x844", "390x", "x844", "390x844x2", "20000x10", "ax b"] {
            #expect(ImportScreen.parse(wrong) == nil, "\(wrong)")
        }
        let query = try #require(
            try ImportRequest.decode(
                source: Array("let a = 1".utf8), query: [("screen", "390x844")], mediaType: "text/x-swift"))
        #expect(query.screen! == (390, 844))
        let json = try ImportRequest.decode(
            json: Array(#"{"files": [{"name": "A.swift", "source": "let a = 1"}], "screen": "320x568"}"#.utf8),
            query: [])
        #expect(json.screen! == (320, 568))
        #expect(throws: ServiceError.self) {
            try ImportRequest.decode(
                json: Array(#"{"files": [{"name": "A.swift", "source": "let a = 1"}], "screen": 390}"#.utf8), query: [])
        }
    }
}
