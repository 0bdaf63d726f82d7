import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoSwiftImport
import Testing

/// UIKit's modal presentation as Apple documents it: `present(_:animated:completion:)` asks the
/// presented controller's `transitioningDelegate` for an animator
/// (`animationController(forPresented:presenting:source:)`, `animationController(forDismissed:)`),
/// whose `transitionDuration(using:)` and `animateTransition(using:)` run with a transition
/// context; `completeTransition(_:)` ends it and runs the presentation's completion.
@Suite struct ImportModalPresentationTests {
    static func run(_ source: String) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
    }

    /// Each sampled instant's layers (`layer id` → property → value), as `/v1/render` gives them.
    static func frames(_ result: ImportResult, at times: [Double], _ properties: [String]) throws -> [JSONObject] {
        let scene = try #require(result.scene)
        var writer = JSONWriter()
        writer.value(scene)
        let decoded = try SceneDecoder.decode(try JSONParser.parse(writer.bytes)).scene
        var query = SamplingQuery()
        query.times = times
        query.properties = properties
        let plan = try RenderPlan.make(scene: decoded, query: query)
        guard case .object(let response) = try JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
            case .array(let frames)? = response["frames"]
        else { return [] }
        return frames.compactMap { frame in
            guard case .object(let object) = frame, case .object(let layers)? = object["layers"] else { return nil }
            return layers
        }
    }

    static func number(_ frame: JSONObject, _ layer: String, _ property: String) -> Double? {
        guard case .object(let values)? = frame[layer], case .number(let value)? = values[property] else { return nil }
        return value
    }

    static func pair(_ frame: JSONObject, _ layer: String, _ property: String) -> [Double]? {
        guard case .object(let values)? = frame[layer], case .array(let items)? = values[property] else { return nil }
        return items.compactMap { if case .number(let n) = $0 { n } else { nil } }
    }

    static let fade = """
        class Fade: NSObject, UIViewControllerAnimatedTransitioning {
            var presenting = true
            func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
                return 0.4
            }
            func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
                let container = transitionContext.containerView
                if presenting {
                    let toController = transitionContext.viewController(forKey: .to)!
                    let toView = transitionContext.view(forKey: .to)!
                    toView.frame = transitionContext.finalFrame(for: toController)
                    toView.alpha = 0
                    container.addSubview(toView)
                    UIView.animate(withDuration: transitionDuration(using: transitionContext), animations: {
                        toView.alpha = 1
                    }) { _ in transitionContext.completeTransition(true) }
                } else {
                    let fromView = transitionContext.view(forKey: .from)!
                    UIView.animate(withDuration: 0.2, animations: { fromView.alpha = 0 }) { _ in
                        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
                    }
                }
            }
        }
        """

    static func presenter(_ appear: String, extra: String = "") -> String {
        fade + """

            class ViewController: UIViewController, UIViewControllerTransitioningDelegate {
                let fade = Fade()
                let marker = UIView(frame: CGRect(x: 20, y: 20, width: 40, height: 40))
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(marker)
                }
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
            \(appear)
                }
                func animationController(
                    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
                ) -> UIViewControllerAnimatedTransitioning? {
                    fade.presenting = true
                    return fade
                }
                func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
                    fade.presenting = false
                    return fade
                }
            \(extra)
            }
            """
    }

    @Test func aPlainUIViewControllerIsPresentedByItsTransitioningDelegatesAnimator() throws {
        let result = Self.run(
            Self.presenter(
                """
                        let sheet = UIViewController()
                        sheet.view.backgroundColor = .systemBlue
                        sheet.transitioningDelegate = self
                        sheet.modalPresentationStyle = .custom
                        present(sheet, animated: true)
                """))
        #expect(!result.diagnostics.contains { $0.severity != .note }, "\(result.diagnostics)")
        let scene = sceneText(result.scene)
        // The animator's duration, from transitionDuration(using:); the presented view is the
        // `UIViewController()`'s, loaded when first asked for, added to the container.
        #expect(
            scene.contains(#""operation":"present","from":"view","to":"sheet","container":"container","duration":0.4"#))
        #expect(scene.contains(#"{"addLayer":"sheet","parent":"container"}"#), "\(scene)")
        let frames = try Self.frames(result, at: [0, 0.2, 0.4, 0.6], ["opacity", "bounds"])
        #expect(Self.number(frames[0], "sheet", "opacity") == 0)
        let half = try #require(Self.number(frames[1], "sheet", "opacity"))
        #expect(half > 0.3 && half < 0.7)
        #expect(Self.number(frames[2], "sheet", "opacity") == 1)
        // The final frame for the presented controller is the screen.
        #expect(Self.pair(frames[3], "sheet", "bounds") == [0, 0, 375, 667])
        // The presenting controller's view stays (a custom presentation keeps it).
        #expect(Self.number(frames[3], "marker", "opacity") == 1)
    }

    @Test func thePresentationsCompletionRunsWhenTheAnimatorCompletesTheTransition() throws {
        let result = Self.run(
            Self.presenter(
                """
                        let sheet = UIViewController()
                        sheet.view.backgroundColor = .systemBlue
                        sheet.transitioningDelegate = self
                        sheet.modalPresentationStyle = .custom
                        present(sheet, animated: true) {
                            self.dismiss(animated: true, completion: nil)
                        }
                """))
        let scene = sceneText(result.scene)
        // dismiss sent to the presenting controller dismisses the one it presented, with the
        // animator for dismissal, after the presentation completed.
        #expect(scene.contains(#""operation":"dismiss","from":"sheet","to":"view""#), "\(scene)")
        let frames = try Self.frames(result, at: [0.3, 0.4, 0.5, 0.6], ["opacity"])
        #expect((Self.number(frames[0], "sheet", "opacity") ?? 0) > 0.5)
        #expect(Self.number(frames[1], "sheet", "opacity") == 1)
        let leaving = try #require(Self.number(frames[2], "sheet", "opacity"))
        #expect(leaving > 0.2 && leaving < 0.8)
        // Dismissed: UIKit takes the presented view out of the tree.
        #expect(frames[3]["sheet"] == nil || Self.number(frames[3], "sheet", "opacity") == 0)
    }

    @Test func appearanceTransitionsRunTheControllersAppearanceMethods() throws {
        // beginAppearanceTransition(false, animated:) runs viewWillDisappear(_:);
        // endAppearanceTransition() runs viewDidDisappear(_:).
        let result = Self.run(
            Self.presenter(
                """
                        beginAppearanceTransition(false, animated: true)
                        endAppearanceTransition()
                """,
                extra: """
                        override func viewWillDisappear(_ animated: Bool) {
                            UIView.animate(withDuration: 0.25) { self.marker.alpha = 0.5 }
                        }
                        override func viewDidDisappear(_ animated: Bool) {
                            marker.backgroundColor = .systemRed
                        }
                    """))
        let scene = sceneText(result.scene)
        #expect(scene.contains(#""duration":0.25,"changes":{"marker":{"opacity":0.5}}"#), "\(scene)")
        #expect(scene.contains(#""backgroundColor":"systemRed""#), "\(scene)")
    }
}
