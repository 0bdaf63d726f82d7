import ChoreoImport
import ChoreoSwiftImport
import Testing

/// Diagnostics at the line and column they are about.
@Suite struct ImportDiagnosticsTests {
    static func run(_ source: String, entry: String? = nil) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions(entry: entry))
    }

    static func find(_ result: ImportResult, _ severity: ImportDiagnostic.Severity, containing text: String)
        -> ImportDiagnostic?
    {
        result.diagnostics.first { $0.severity == severity && $0.message.contains(text) }
    }

    @Test func syntaxErrorHasItsPositionAndNoScene() throws {
        let result = Self.run(
            """
            let card = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            UIView.animate(withDuration: 0.3 {
                card.alpha = 0
            }
            """)
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.position.line == 2)
        #expect(error.position.column > 1)
    }

    @Test func unknownAPIIsAWarningAtItsColumn() throws {
        let result = Self.run(
            """
            let card = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            card.wobble(times: 3)
            UIView.animte(withDuration: 0.3) { card.alpha = 0 }
            """)
        #expect(result.scene != nil)
        let wobble = try #require(Self.find(result, .warning, containing: "wobble"))
        #expect(wobble.position == SourcePosition(line: 2, column: 1))
        let typo = try #require(Self.find(result, .warning, containing: "animte"))
        #expect(typo.position.line == 3)
        #expect(typo.fix == "did you mean animate?")
    }

    @Test func aRunTimeValueNamesWhatWasAssumed() throws {
        let result = Self.run(
            """
            let card = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let layer = card.layer.presentation()
            if gestureTranslation.y > 100 {
                card.alpha = 0.5
            }
            """)
        let warning = try #require(Self.find(result, .warning, containing: "gestureTranslation is not declared"))
        #expect(warning.position == SourcePosition(line: 3, column: 4))
        let assumed = try #require(Self.find(result, .warning, containing: "assumes it holds"))
        #expect(assumed.position == SourcePosition(line: 3, column: 1))
        #expect(Self.find(result, .warning, containing: "presentation layer") != nil)
    }

    @Test func aLoopOverTheLimitStopsAtItsLine() throws {
        let result = Self.run(
            """
            var x = 0
            for i in 0..<5 {
                x += i
            }
            while true {
                x += 1
            }
            """)
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.position == SourcePosition(line: 5, column: 1))
        #expect(error.message.contains("more than 10000 times"))
    }

    @Test func completionsSeeFinishedAtRunTime() throws {
        let result = Self.run(
            """
            let card = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            UIView.animate(withDuration: 0.3, animations: { card.alpha = 0 }) { finished in
                if finished {
                    card.removeFromSuperview()
                } else {
                    print("cut short")
                }
            }
            """)
        let scene = try #require(result.scene)
        let text = String(
            decoding: {
                var w = ChoreoJSONWriterBox(); w.write(scene); return w.bytes
            }(), as: UTF8.self)
        #expect(text.contains("\"if\":\"finished\""))
        #expect(text.contains("\"if\":\"!finished\""))
    }

    @Test func entryNamesAMethodWithASuggestion() throws {
        let source = """
            class ArenaViewController: UIViewController {
                func viewDidLoad() {}
                func startArena() { print("start") }
            }
            """
        #expect(Self.run(source, entry: "ArenaViewController.startArena").scene != nil)
        let missing = Self.run(source, entry: "ArenaViewController.startArina")
        #expect(missing.scene == nil)
        #expect(missing.diagnostics.first?.fix == "did you mean ArenaViewController.startArena?")
    }
}
