import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// Swift statements as an article prints them, from a view controller whose outlets were
/// declared elsewhere: the views they use are made by their use, and what a completion block
/// does through `self.` is carried over.
@Suite struct SwiftSnippetOutletTests {
    static func run(_ source: String) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
    }

    static func text(_ value: JSONValue?) -> String {
        sceneText(value)
    }

    @Test func outletsAreMadeByTheirUseAndCompletionsKeepTheirAssignments() throws {
        let result = Self.run(
            """
            UIView.animate(withDuration: 0.2, animations: {
                self.pressButton.transform = CGAffineTransform(scaleX: 0.85, y: 0.85)
            }) { _ in
                UIView.animate(withDuration: 0.35) {
                    self.pressButton.transform = .identity
                    self.hintLabel.alpha = 1
                    self.hintLabel.textColor = .systemGreen
                }
            }
            """)
        let scene = Self.text(result.scene)
        #expect(
            scene.contains(#"{"id":"pressButton","frame":[20,100,100,44],"backgroundColor":"systemBlue"}"#), "\(scene)")
        // UILabel's defaults: 17 points, the label colour.
        #expect(
            scene.contains(
                #""id":"hintLabel","type":"text","frame":[140,100,200,40],"fontSize":17,"foregroundColor":"label","string":"hintLabel""#
            ), "\(scene)")
        // The completion's three assignments through `self.` are all there.
        #expect(scene.contains(#""pressButton":{"transform":"identity"}"#), "\(scene)")
        #expect(scene.contains(#""hintLabel":{"opacity":1,"foregroundColor":"systemGreen"}"#), "\(scene)")
        // Code written in a view controller runs on its screen: the canvas is the screen.
        #expect(scene.hasPrefix(#"{"canvas":{"width":375,"height":667},"layers""#), "\(scene.prefix(80))")
        let note = try #require(result.diagnostics.first { $0.message.hasPrefix("pressButton is not declared") })
        #expect(note.severity == .note && note.position.line == 2)
        #expect(note.message.contains("as UIButton"))
    }

    /// Bare names are outlets too; what the snippet declares, what it uses only as a value
    /// (`drag.y`), and closure parameters are not.
    @Test func onlyUndeclaredViewsAreOutlets() throws {
        let result = Self.run(
            """
            let card = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
            view.addSubview(card)
            if drag.y > 10 { card.alpha = 0.5 }
            UIView.animate(withDuration: 1) {
                logo.center = CGPoint(x: 200, y: 300)
                card.alpha = 0
            }
            """)
        let scene = Self.text(result.scene)
        #expect(scene.contains(#""id":"logo""#), "\(scene)")
        #expect(!scene.contains(#""id":"drag""#), "\(scene)")
        #expect(result.diagnostics.filter { $0.message.contains("is not declared: taken as") }.count == 1)
    }

    @Test func aNameAndItsUseSayTheClass() {
        #expect(SnippetOutlets.className("statusLabel", uses: ["alpha"]) == "UILabel")
        #expect(SnippetOutlets.className("waterButton", uses: ["transform"]) == "UIButton")
        #expect(SnippetOutlets.className("ring", uses: ["strokeEnd"]) == "CAShapeLayer")
        #expect(SnippetOutlets.className("cellIcon", uses: ["transform"]) == "UIImageView")
        #expect(SnippetOutlets.className("badge", uses: ["text"]) == "UILabel")
        #expect(SnippetOutlets.className("card", uses: ["alpha"]) == "UIView")
    }
}

/// Markers read what the code would print: a completion's `finished` interpolated or formatted
/// is written for each outcome under the scene's `if`.
@Suite struct PrintedMarkerTests {
    @Test func aPrintedFinishedReadsAsEachOutcome() throws {
        let swift = Importer.run(
            SwiftFrontEnd.lower(
                """
                let card = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
                view.addSubview(card)
                UIView.animate(withDuration: 0.5, animations: { card.alpha = 0 }) { finished in
                    print("card in: \\(finished)")
                }
                """), options: ImportOptions())
        let text = SwiftSnippetOutletTests.text(swift.scene)
        #expect(
            text.contains(
                #"[{"if":"finished","do":[{"mark":"card in: true"}]},{"if":"!finished","do":[{"mark":"card in: false"}]}]"#
            ),
            "\(text)")
        let objc = Importer.run(
            ObjCFrontEnd.lower(
                """
                @implementation V : UIViewController
                - (void)viewDidLoad {
                    UIView *card = [[UIView alloc] initWithFrame:CGRectMake(0, 0, 50, 50)];
                    [self.view addSubview:card];
                    [UIView animateWithDuration:0.5 animations:^{ card.alpha = 0; } completion:^(BOOL finished) {
                        NSLog(@"done %d", finished);
                    }];
                }
                @end
                """), options: ImportOptions())
        let logged = SwiftSnippetOutletTests.text(objc.scene)
        #expect(logged.contains(#"{"if":"finished","do":[{"mark":"done 1"}]}"#), "\(logged)")
        #expect(logged.contains(#"{"if":"!finished","do":[{"mark":"done 0"}]}"#), "\(logged)")
    }
}

/// A key path with a typo gets the key path meant, as a JSON scene's field does; a scene left
/// still because the code's animations were not carried over is an error naming the first.
@Suite struct DroppedAnimationTests {
    @Test func aKeyPathTypoIsNamedAndAStillSceneIsAnError() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let card = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
                view.addSubview(card)
                let fade = CABasicAnimation(keyPath: "opactiy")
                fade.toValue = 0
                card.layer.add(fade, forKey: "fade")
                let pulse = CABasicAnimation(keyPath: "transform.scal")
                card.layer.add(pulse, forKey: "pulse")
                """), options: ImportOptions())
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.position.line == 5)
        #expect(
            error.message.hasPrefix(
                "nothing in this code animates: the first animation it asks for is not carried over"))
        #expect(error.fix == #"did you mean "opacity"?"#, "\(error.fix ?? "")")
        let second = try #require(result.diagnostics.first { $0.message.contains("\"transform.scal\"") })
        #expect(second.fix == #"did you mean "transform.scale"?"#)
    }

    /// A property Core Animation has and choreo does not draw is said as such, not as a typo.
    @Test func anUnmodelledPropertyIsNotATypo() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let card = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
                view.addSubview(card)
                let move = CABasicAnimation(keyPath: "contents")
                card.layer.add(move, forKey: "c")
                UIView.animate(withDuration: 1) { card.alpha = 0 }
                """), options: ImportOptions())
        #expect(result.scene != nil)
        #expect(result.diagnostics.contains { $0.message.contains("choreo does not animate contents") })
    }
}
