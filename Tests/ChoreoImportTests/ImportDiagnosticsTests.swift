import ChoreoFormat
import ChoreoImport
import ChoreoObjCImport
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
        // Nothing the code shows remains: an empty scene is an error, at the entry point.
        #expect(result.scene == nil)
        let empty = try #require(Self.find(result, .error, containing: "no layer"))
        #expect(empty.position.line == 1)
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
                func viewDidLoad() { view.addSubview(UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))) }
                func startArena() { print("start") }
            }
            """
        #expect(Self.run(source, entry: "ArenaViewController.startArena").scene != nil)
        let missing = Self.run(source, entry: "ArenaViewController.startArina")
        #expect(missing.scene == nil)
        #expect(missing.diagnostics.first?.fix == "did you mean ArenaViewController.startArena?")
    }
}

/// The Objective-C front end: libclang's errors with their positions, the names UIKit's
/// declarations lack as warnings at their line, messages in Swift's spelling.
@Suite struct ObjCImportTests {
    static func run(_ source: String, entry: String? = nil) -> ImportResult {
        Importer.run(ObjCFrontEnd.lower(source), options: ImportOptions(entry: entry))
    }

    @Test func aSyntaxErrorHasItsPositionAndNoScene() throws {
        let result = Self.run(
            """
            #import <UIKit/UIKit.h>
            void f(void) {
                UIView *v = [[UIView alloc] initWithFrame:CGRectMake(0, 0, 10, 10)];
                [UIView animateWithDuration:0.3 animations:^{ v.alpha = 0; }
            }
            """)
        #expect(result.scene == nil)
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        #expect(error.message.contains("expected"))
        #expect(error.position.line == 5)
    }

    @Test func unknownNamesAreWarningsAndTheRestImports() throws {
        let result = Self.run(
            """
            #import <UIKit/UIKit.h>
            #import "Helper.h"
            static const CGFloat kSide = 40;
            void start(void) {
                UIView *card = [[UIView alloc] initWithFrame:CGRectMake(0, 0, kSide, kSide * 2)];
                UIVisualEffectView *blur = [[UIVisualEffectView alloc] initWithEffect:nil];
                [UIView animateWithDuration:0.3 delay:0.1
                                    options:UIViewAnimationOptionCurveEaseOut | UIViewAnimationOptionBeginFromCurrentState
                                 animations:^{ card.alpha = 0; }
                                 completion:^(BOOL finished) { if (finished) { NSLog(@"faded %d", 1); } }];
            }
            """, entry: "start")
        let scene = try #require(result.scene)
        let blur = try #require(result.diagnostics.first { $0.message.contains("UIVisualEffectView") })
        #expect(blur.severity == .warning && blur.position.line == 6)
        #expect(
            result.diagnostics.contains { $0.severity == .note && $0.position == SourcePosition(line: 2, column: 1) })
        var writer = ChoreoJSONWriterBox()
        writer.write(scene)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""frame":[0,0,40,80]"#))
        #expect(text.contains(#""options":["curveEaseOut","beginFromCurrentState"]"#))
        #expect(text.contains(#""delay":0.1"#))
        #expect(text.contains(#"{"if":"finished","do":[{"mark":"faded 1"}]}"#))
    }

    /// A NUL inside the source (the fuzz test's mutations make them) is handed to libclang with
    /// the rest: the code after it imports, and every diagnostic is on a line of the file.
    @Test func aNULInTheSourceIsPartOfIt() throws {
        let source =
            "#import <UIKit/UIKit.h>\n// a \u{0} here\n"
            + (0..<40).map { "static const CGFloat kSide\($0) = \($0);\n" }.joined()
                + """
                void start(void) {
                    UIView *card = [[UIView alloc] initWithFrame:CGRectMake(0, 0, kSide39, 80)];
                    [UIView animateWithDuration:0.3 animations:^{ card.alpha = 0; }];
                }

                """
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count
        for _ in 0..<5 {
            let result = Self.run(source, entry: "start")
            for diagnostic in result.diagnostics {
                #expect(diagnostic.position.line <= lines, "\(diagnostic)")
            }
            let scene = try #require(result.scene)
            var writer = ChoreoJSONWriterBox()
            writer.write(scene)
            #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""frame":[0,0,39,80]"#))
        }
    }

    /// What viewDidLoad sets is the first frame; what viewDidAppear sets is an action (a
    /// standalone layer animates it implicitly), inside its transaction when one is open.
    @Test func viewDidAppearChangesAreActions() throws {
        let result = Self.run(
            """
            #import <UIKit/UIKit.h>
            @interface Demo : UIViewController
            @property (nonatomic, strong) CALayer *dot;
            @end
            @implementation Demo
            - (void)viewDidLoad {
                [super viewDidLoad];
                self.dot = [CALayer layer];
                self.dot.frame = CGRectMake(20, 20, 40, 40);
                [self.view.layer addSublayer:self.dot];
            }
            - (void)viewDidAppear:(BOOL)animated {
                [super viewDidAppear:animated];
                self.dot.position = CGPointMake(200, 40);
                [CATransaction begin];
                [CATransaction setDisableActions:YES];
                self.dot.opacity = 0.5;
                [CATransaction commit];
            }
            @end
            """)
        var writer = ChoreoJSONWriterBox()
        writer.write(try #require(result.scene))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#"{"id":"dot","actions":"implicit","frame":[20,20,40,40]}"#))
        #expect(text.contains(#"{"set":{"dot":{"position":[200,40]}}}"#))
        #expect(text.contains(#"{"transaction":{"disableActions":true,"do":[{"set":{"dot":{"opacity":0.5}}}]}}"#))
    }

    @Test func delegateCallbacksAndTransactions() throws {
        let result = Self.run(
            """
            #import <UIKit/UIKit.h>
            #import <QuartzCore/QuartzCore.h>
            @interface Spinner : UIViewController <CAAnimationDelegate>
            @property (nonatomic, strong) UIView *dot;
            @end
            @implementation Spinner
            - (void)viewDidLoad {
                [super viewDidLoad];
                self.dot = [[UIView alloc] initWithFrame:CGRectMake(10, 10, 20, 20)];
                self.dot.layer.cornerRadius = 10;
                [self.view addSubview:self.dot];
                [self spin];
            }
            - (void)spin {
                [CATransaction begin];
                [CATransaction setAnimationDuration:0.5];
                CABasicAnimation *turn = [CABasicAnimation animationWithKeyPath:@"transform.rotation.z"];
                turn.fromValue = @0;
                turn.toValue = @(M_PI * 2);
                turn.delegate = self;
                turn.removedOnCompletion = NO;
                turn.fillMode = kCAFillModeForwards;
                [self.dot.layer addAnimation:turn forKey:@"turn"];
                [CATransaction setCompletionBlock:^{ NSLog(@"turned"); }];
                [CATransaction commit];
            }
            - (void)animationDidStop:(CAAnimation *)anim finished:(BOOL)flag {
                [self spin];
            }
            @end
            """)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        var writer = ChoreoJSONWriterBox()
        writer.write(try #require(result.scene))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""keyPath":"transform.rotation.z""#))
        #expect(text.contains(#""fillMode":"forwards""#))
        #expect(text.contains(#""removedOnCompletion":false"#))
        #expect(text.contains(#""transaction":{"duration":0.5"#))
        // The restart from animationDidStop re-adds the same animation: a loop, not an endless import.
        #expect(text.contains(#""addAgain":"turn""#))
    }
}

/// `UIViewPropertyAnimator`: made, started, paused, scrubbed, reversed and continued as the
/// scene's `propertyAnimator` and its calls, named after the variable it is bound to.
@Suite struct PropertyAnimatorImportTests {
    @Test func anAnimatorAndItsCalls() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
                let slide = UIViewPropertyAnimator(duration: 0.5, curve: .easeOut) {
                    card.center.x += 200
                }
                slide.addCompletion { position in
                    if position == .end { print("slid") }
                }
                slide.startAnimation()
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) {
                    slide.pauseAnimation()
                    slide.fractionComplete = 0.3
                    slide.isReversed = true
                    slide.continueAnimation(withTimingParameters: nil, durationFactor: 1)
                }
                """), options: ImportOptions())
        let scene = try #require(result.scene)
        var writer = ChoreoJSONWriterBox()
        writer.write(scene)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""propertyAnimator":{"id":"slide","duration":0.5,"curve":"easeOut""#))
        #expect(text.contains(#""changes":{"card":{"position":[250,50]}}"#))
        #expect(text.contains(#"{"if":"position == end","do":[{"mark":"slid"}]}"#))
        #expect(text.contains(#"{"startAnimation":{},"animator":"slide"}"#))
        #expect(text.contains(#"{"fractionComplete":0.3,"animator":"slide"}"#))
        #expect(text.contains(#"{"isReversed":true,"animator":"slide"}"#))
        // The scene runs: the engine accepts every call in its state.
        _ = try SceneDecoder.decode(bytes: writer.bytes)
    }
}

/// Code as people write it outside a view controller: a playground's live view, a view
/// subclass that reads its own bounds.
@Suite struct SnippetImportTests {
    @Test func aPlaygroundsLiveViewIsTheCanvas() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                import PlaygroundSupport
                let container = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
                container.backgroundColor = .white
                PlaygroundPage.current.liveView = container
                let dot = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
                container.addSubview(dot)
                UIView.animate(withDuration: 0.5) { dot.alpha = 0 }
                """), options: ImportOptions())
        var writer = ChoreoJSONWriterBox()
        writer.write(try #require(result.scene))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"canvas":{"width":320,"height":480,"background":"white"},"layers":[{"id":"dot""#))
        _ = try SceneDecoder.decode(bytes: writer.bytes)
    }

    @Test func aViewSubclassReadsItsOwnBounds() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                class Spinner: UIView {
                    let dot = UIView()
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        dot.frame = CGRect(x: bounds.midX - 5, y: bounds.midY - 5, width: 10, height: 10)
                        addSubview(dot)
                    }
                    func spin() { UIView.animate(withDuration: 1) { self.dot.transform = CGAffineTransform(rotationAngle: .pi) } }
                }
                let spinner = Spinner(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
                spinner.spin()
                """), options: ImportOptions())
        #expect(!result.hasErrors, "\(result.diagnostics)")
        var writer = ChoreoJSONWriterBox()
        writer.write(try #require(result.scene))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#"{"id":"dot","frame":[45,25,10,10]}"#))
        #expect(text.contains(#""transform":{"rotate":3.141592653589793}"#))
    }
}

extension SnippetImportTests {
    /// A block nested in another's animations: the outer block's animations are added first, as
    /// UIKit adds them while its properties change, and the model ends at the last value set.
    @Test func aNestedBlockFollowsTheOuterOne() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let crown = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
                UIView.animate(withDuration: 0.25) {
                    crown.alpha = 0
                    UIView.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0.8, options: []) {
                        crown.alpha = 1
                    }
                }
                """), options: ImportOptions())
        var writer = ChoreoJSONWriterBox()
        writer.write(try #require(result.scene))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            text.contains(
                #"[{"animate":{"duration":0.25,"changes":{"crown":{"opacity":0}}}},{"animate":{"duration":0.5,"delay":0,"spring""#
            ), "\(text)")
    }
}

extension SnippetImportTests {
    /// Spellings Swift code often uses: `.init(…)` with an implied type, `.systemFont(ofSize:)`,
    /// `#keyPath(CALayer.opacity)`, `NSNumber(value:)`, `.infinity`.
    @Test func commonSwiftSpellings() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let card = UIView(frame: .init(x: 10, y: 10, width: 100, height: 60))
                card.backgroundColor = .init(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
                card.layer.cornerCurve = .continuous
                let title = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
                title.font = .systemFont(ofSize: 15)
                card.addSubview(title)
                let fade = CABasicAnimation(keyPath: #keyPath(CALayer.opacity))
                fade.fromValue = NSNumber(value: 1)
                fade.toValue = 0
                fade.duration = 0.5
                fade.repeatCount = .infinity
                card.layer.add(fade, forKey: "fade")
                """), options: ImportOptions())
        #expect(result.diagnostics.allSatisfy { $0.severity == .note }, "\(result.diagnostics)")
        var writer = ChoreoJSONWriterBox()
        writer.write(try #require(result.scene))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""frame":[10,10,100,60],"backgroundColor":[0.2,0.4,0.8,1]"#))
        #expect(text.contains(#""fontSize":15"#))
        #expect(
            text.contains(#""keyPath":"opacity","fromValue":1,"toValue":0,"duration":0.5,"repeatCount":"infinity""#))
        _ = try SceneDecoder.decode(bytes: writer.bytes)
    }
}
