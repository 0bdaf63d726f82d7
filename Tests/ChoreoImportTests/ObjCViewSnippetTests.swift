import ChoreoJSON
import ChoreoObjCImport
import Testing

@testable import ChoreoImport

/// Objective-C statements from a view subclass, as an article prints a loader's set-up: `self`
/// is a view (the code adds subviews to it), copied no-break spaces read as spaces, and a
/// macro the article defines elsewhere is named as such.
@Suite struct ObjCViewSnippetTests {
    /// The snippet, its spaces the no-break spaces a web page gives copied code.
    static let snippet = """
        CGFloat middle = SIZE / 2;
        UIView *dot = [[UIView alloc] initWithFrame:CGRectMake(middle, middle, 20, 20)];
        dot.backgroundColor = self.dotColor;
        [self addSubview:dot];
        self.dot = dot;
        [UIView animateWithDuration:0.5 animations:^{ self.dot.alpha = 0; }];
        """.replacingOccurrences(of: " ", with: "\u{00A0}").replacingOccurrences(
            of: "CGFloat\u{00A0}", with: "CGFloat ")

    static func text(_ value: JSONValue?) -> String {
        sceneText(value)
    }

    @Test func aViewsStatementsRunInAViewOnScreen() throws {
        let result = Importer.run(ObjCFrontEnd.lower("#define SIZE 100\n" + Self.snippet), options: ImportOptions())
        let scene = Self.text(result.scene)
        #expect(
            scene.contains(#"{"id":"host","frame":[0,0,375,667],"sublayers":[{"id":"dot","frame":[50,50,20,20]"#),
            "\(scene)")
        #expect(scene.contains(#""backgroundColor":"systemBlue""#), "\(scene)")
        #expect(scene.contains(#""dot":{"opacity":0}"#), "\(scene)")
        #expect(result.diagnostics.contains { $0.message.contains("are read as a view's, a UIView subclass's") })
        #expect(result.diagnostics.contains { $0.message == "dotColor is not declared: taken as a colour, systemBlue" })
        // One dot: `self.dot = dot` assigns the property (the no-break spaces read as spaces).
        #expect(scene.components(separatedBy: #""id":"dot"#).count == 2, "\(scene)")
    }

    @Test func aMacroTheCodeDoesNotDefineIsNamed() throws {
        let result = Importer.run(ObjCFrontEnd.lower(Self.snippet), options: ImportOptions())
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.message == "SIZE is not defined: the code uses it as a macro that it does not define")
        #expect(error.fix == "add #define SIZE … (its value) above the code")
        // Columns count bytes, as clang's do: two no-break spaces before it are four.
        #expect(error.position.line == 1 && error.position.column == 20, "\(error.position)")
    }
}
