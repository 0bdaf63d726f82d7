import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoSwiftImport
import Testing

/// Callbacks that start each other for ever (a completion that starts its animation again) stop
/// at a horizon with a warning at the loop's line, and the scene still reads back and runs.
@Suite struct ImportChainTests {
    static func run(_ source: String) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
    }

    /// The scene as a client gets it: written, parsed back (256 levels at most), decoded and run.
    static func timeline(_ result: ImportResult, horizon: Double = 30) throws -> Timeline {
        let scene = try #require(result.scene)
        var writer = JSONWriter()
        writer.value(scene)
        let parsed = try JSONParser.parse(writer.bytes)
        return try SceneRunner.run(try SceneDecoder.decode(parsed).scene, horizon: horizon)
    }

    static func controller(_ pulse: String) -> String {
        """
        class PulseViewController: UIViewController {
            let dot = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            var rounds = 0
            override func viewDidLoad() {
                super.viewDidLoad()
                view.addSubview(dot)
            }
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
                pulse()
            }
        \(pulse)
        }
        """
    }

    @Test func anAnimatorThatStartsTheNextFromItsCompletion() throws {
        let result = Self.run(
            Self.controller(
                """
                    func pulse() {
                        let animator = UIViewPropertyAnimator(duration: 0.5, curve: .easeInOut) {
                            self.dot.alpha = self.dot.alpha == 1 ? 0.2 : 1
                        }
                        animator.addCompletion { _ in
                            self.pulse()
                        }
                        animator.startAnimation()
                    }
                """))
        let warning = try #require(result.diagnostics.first { $0.message.contains("endless chain") })
        #expect(warning.severity == .warning)
        #expect(warning.position.line == 16)
        #expect(warning.message.contains("after 24 rounds, at 12 s"))
        let timeline = try Self.timeline(result)
        // The first animator and the 24 its completions started, each with an id of its own.
        let completed = timeline.events.compactMap { event -> String? in
            if case .animatorCompleted(let animator, _) = event.kind { animator } else { nil }
        }
        #expect(completed.count == 25)
        #expect(Set(completed).count == 25)
        #expect(abs((timeline.events.last?.time ?? 0) - 12.5) < 1e-9)
    }

    @Test func aUIViewBlockThatRunsAgainFromItsCompletion() throws {
        let result = Self.run(
            Self.controller(
                """
                    func pulse() {
                        UIView.animate(withDuration: 0.4, animations: {
                            self.dot.transform = self.dot.transform.isIdentity ? CGAffineTransform(scaleX: 2, y: 2) : .identity
                        }, completion: { _ in
                            self.pulse()
                        })
                    }
                """))
        let warning = try #require(result.diagnostics.first { $0.message.contains("endless chain") })
        #expect(warning.position.line == 15)
        let timeline = try Self.timeline(result)
        let completions = timeline.events.filter { if case .animateCompleted = $0.kind { true } else { false } }
        #expect(completions.count == 25)
        #expect(abs((completions.last?.time ?? 0) - 25 * 0.4) < 1e-9)
    }

    @Test func aDelayedBlockThatSchedulesItself() throws {
        let result = Self.run(
            Self.controller(
                """
                    func pulse() {
                        dot.alpha = dot.alpha == 1 ? 0.5 : 1
                        DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                            self.pulse()
                        }
                    }
                """))
        #expect(result.diagnostics.contains { $0.message.contains("endless chain") && $0.position.line == 14 })
        _ = try Self.timeline(result)
    }

    @Test func aChainThatEndsIsNotCut() throws {
        let result = Self.run(
            Self.controller(
                """
                    func pulse() {
                        rounds += 1
                        guard rounds <= 20 else { return }
                        UIView.animate(withDuration: 0.25, animations: {
                            self.dot.alpha = self.dot.alpha == 1 ? 0.2 : 1
                        }, completion: { _ in
                            self.pulse()
                        })
                    }
                """))
        #expect(!result.diagnostics.contains { $0.message.contains("endless chain") })
        let timeline = try Self.timeline(result)
        #expect(abs(timeline.naturalEnd - 20 * 0.25) < 1e-9)
    }
}
