import ChoreoImport
import ChoreoSwiftImport
import Testing

/// A scene is never still when the code it comes from asks for an animation: when nothing
/// moves although the source calls an animation API, the import is an error that names the
/// first call not carried over (what the animation depended on), or the animation call that the
/// entry point never reaches — never a still scene that exits 0.
@Suite struct ImportStillSceneTests {
    static func run(_ source: String) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
    }

    static func controller(_ appear: String, extra: String = "") -> String {
        """
        class ViewController: UIViewController {
            let box = UIView(frame: CGRect(x: 20, y: 20, width: 40, height: 40))
            override func viewDidLoad() {
                super.viewDidLoad()
                view.addSubview(box)
            }
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
        \(appear)
            }
        \(extra)
        }
        """
    }

    @Test func aStillSceneWhoseAnimationDependsOnASkippedCallIsAnErrorThere() throws {
        let result = Self.run(
            Self.controller(
                """
                        let pages = UIPageViewController()
                        present(pages, animated: true)
                """))
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        // At the first call not carried over (line 9), naming the animation call it stopped.
        #expect(error.position.line == 9, "\(error)")
        #expect(error.message.hasPrefix("nothing in this code animates, though it calls present(_:animated:)"))
        #expect(error.message.contains("UIPageViewController is not an API the importer knows"))
    }

    @Test func anAnimationTheEntryPointNeverReachesIsAnErrorAtIt() throws {
        let result = Self.run(
            Self.controller(
                "        box.backgroundColor = .systemRed",
                extra: """
                        func shake() {
                            UIView.animate(withDuration: 0.3) { self.box.alpha = 0 }
                        }
                    """))
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.position.line == 12, "\(error)")
        #expect(
            error.message == "nothing in this code animates: animate(withDuration:_:) is never run from the entry point"
        )
        #expect(error.fix?.contains("--entry Type.method") == true)
    }

    @Test func codeThatAsksForNoAnimationIsAStillSceneWithAWarning() throws {
        let result = Self.run(Self.controller("        box.backgroundColor = .systemRed"))
        #expect(result.scene != nil)
        let warning = try #require(result.diagnostics.first { $0.message.hasPrefix("nothing in this code animates") })
        #expect(warning.severity == .warning)
        #expect(warning.message == "nothing in this code animates: the scene is still")
    }

    @Test func anAnimationTheImportCarriesOverIsNotJudged() throws {
        let result = Self.run(Self.controller("        UIView.animate(withDuration: 0.3) { self.box.alpha = 0 }"))
        #expect(result.scene != nil)
        #expect(!result.diagnostics.contains { $0.message.hasPrefix("nothing in this code animates") })
    }
}
