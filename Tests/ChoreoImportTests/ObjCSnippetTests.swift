import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import Testing

/// Objective-C as articles print it: statements at the top level, methods without their
/// `@implementation`, views used and never declared.
@Suite struct ObjCSnippetTests {
    static func run(_ source: String, entry: String? = nil) -> ImportResult {
        Importer.run(ObjCFrontEnd.lower(source), options: ImportOptions(entry: entry))
    }

    static func layers(_ result: ImportResult) -> [JSONObject] {
        guard case .object(let scene)? = result.scene, case .array(let layers)? = scene["layers"] else { return [] }
        return layers.compactMap { if case .object(let layer) = $0 { layer } else { nil } }
    }

    static func timeline(_ result: ImportResult) throws -> Timeline {
        try SceneRunner.run(try SceneDecoder.decode(try #require(result.scene)).scene)
    }

    @Test func topLevelStatementsAreAViewControllersViewDidLoad() throws {
        let result = Self.run(
            """
            UIView *box = [[UIView alloc] initWithFrame:CGRectMake(20, 20, 80, 80)];
            box.backgroundColor = [UIColor redColor];
            [self.view addSubview:box];
            [box wobble];
            [UIView animateWithDuration:0.5 animations:^{
                box.alpha = 0;
            }];
            """)
        #expect(!result.diagnostics.contains { $0.severity == .error })
        let note = try #require(result.diagnostics.first { $0.message.contains("statements at the top level") })
        #expect(note.severity == .note)
        #expect(note.message.contains("lines 1–7"))
        #expect(note.message.contains("viewDidLoad"))
        // A diagnostic in the statements is at its line and column in the file as given.
        let wobble = try #require(result.diagnostics.first { $0.message.contains("wobble") })
        #expect(wobble.position.line == 4)
        #expect(wobble.position.column == 6)
        #expect(Self.layers(result).map { $0["id"] } == [.string("box")])
        let timeline = try Self.timeline(result)
        #expect(timeline.events.contains { if case .animateCompleted = $0.kind { $0.time == 0.5 } else { false } })
        // The source map points at the animation's line as written.
        #expect(result.sourceMap.contains { $0.path == "$.script[0].do[0]" && $0.position.line == 5 })
    }

    @Test func viewsUsedAndNeverDeclaredAreMadeWithANote() throws {
        let result = Self.run(
            """
            #import <UIKit/UIKit.h>

            // Move the red view down and back, then draw the ring.
            CABasicAnimation *move = [CABasicAnimation animationWithKeyPath:@"position.y"];
            move.toValue = @300;
            move.duration = 1.0;
            [self.redView.layer addAnimation:move forKey:@"move"];
            _ringLayer.path = [UIBezierPath bezierPathWithOvalInRect:CGRectMake(0, 0, 100, 100)].CGPath;
            [UIView animateWithDuration:0.5 animations:^{
                blueView.alpha = 0.3;
            }];
            kDuration = 3;
            """)
        let layers = Self.layers(result)
        #expect(layers.map { $0["id"] } == [.string("redView"), .string("ringLayer"), .string("blueView")])
        #expect(layers[1]["type"] == .string("shape"))
        // Set after the first animation was added: an action, as on a device.
        guard case .object(let scene)? = result.scene, case .array(let script)? = scene["script"],
            case .object(let entry)? = script.first, case .array(let actions)? = entry["do"]
        else {
            Issue.record("no script")
            return
        }
        #expect(
            actions.contains {
                guard case .object(let action) = $0, case .object(let set)? = action["set"],
                    case .object(let ring)? = set["ringLayer"]
                else { return false }
                return ring["path"] != nil
            })
        for (name, line) in [("redView", 7), ("ringLayer", 8), ("blueView", 10)] {
            let note = try #require(result.diagnostics.first { $0.message.hasPrefix("\(name) is not declared") })
            #expect(note.severity == .note)
            #expect(note.position.line == line)
        }
        // A name that is not used as a view stays undeclared, with clang's warning at its line.
        #expect(!result.diagnostics.contains { $0.message.hasPrefix("kDuration is not declared: taken") })
        #expect(result.diagnostics.contains { $0.message.contains("kDuration") && $0.position.line == 12 })
        let timeline = try Self.timeline(result)
        #expect(
            timeline.events.contains {
                if case .animationDidStop(let layer, _, _) = $0.kind { layer == "redView" } else { false }
            })
    }

    @Test func methodsWithoutTheirImplementation() throws {
        let source = """
            - (void)viewDidLoad {
                [super viewDidLoad];
                UIView *card = [[UIView alloc] initWithFrame:CGRectMake(40, 40, 120, 80)];
                [self.view addSubview:card];
                [UIView animateWithDuration:0.8 delay:0.2 options:UIViewAnimationOptionCurveEaseOut animations:^{
                    card.transform = CGAffineTransformMakeRotation(M_PI_4);
                } completion:nil];
            }
            """
        let result = Self.run(source)
        #expect(!result.diagnostics.contains { $0.severity == .error })
        #expect(result.diagnostics.contains { $0.message.contains("methods outside an @implementation") })
        #expect(Self.layers(result).map { $0["id"] } == [.string("card")])
        #expect(result.sourceMap.contains { $0.position.line == 5 })
    }

    @Test func statementsBesideFunctionsAndConstants() throws {
        let result = Self.run(
            """
            static const CGFloat kSide = 60;
            CGFloat const kDuration = 0.4;

            static CALayer *makeDot(CGFloat x)
            {
                CALayer *dot = [CALayer layer];
                dot.frame = CGRectMake(x, 0, kSide, kSide);
                return dot;
            }

            CALayer *dot = makeDot(10);
            [self.view.layer addSublayer:dot];
            CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:@"opacity"];
            fade.toValue = @0;
            fade.duration = kDuration;
            [dot addAnimation:fade forKey:nil];
            """)
        #expect(!result.diagnostics.contains { $0.severity == .error })
        let note = try #require(result.diagnostics.first { $0.message.contains("statements at the top level") })
        #expect(note.message.contains("lines 11–16"))
        let dot = try #require(Self.layers(result).first)
        #expect(dot["frame"] == .array([.number(10), .number(0), .number(60), .number(60)]))
    }

    @Test func aFileWithItsImplementationIsNotASnippet() {
        let result = Self.run(
            """
            @interface Pulse : UIViewController
            @end
            @implementation Pulse
            - (void)viewDidLoad {
                [super viewDidLoad];
                UIView *v = [[UIView alloc] initWithFrame:CGRectMake(0, 0, 10, 10)];
                [self.view addSubview:v];
                [UIView animateWithDuration:1 animations:^{ v.alpha = 0; }];
            }
            @end
            """)
        #expect(result.scene != nil)
        #expect(!result.diagnostics.contains { $0.message.contains("as an article prints") })
    }

    @Test func aFileClangReadsAsItIsIsNotWrapped() {
        let unit = ObjCFrontEnd.lower(
            """
            UIView *sharedView;
            NSObject<NSCopying> *makeCopy(NSObject<NSCopying> *thing) {
                return thing;
            }
            """)
        #expect(!unit.diagnostics.contains { $0.message.contains("as an article prints") })
        #expect(!unit.diagnostics.contains { $0.severity == .error })
    }

    @Test func aFileReadWithTheImportedOneDoesNotStopItWithItsParseErrors() {
        let broken = "@implementation Helper\n- (void)go { [self run: ; }\n@end\n"
        let companion = ObjCFrontEnd.lower(broken, file: 1)
        #expect(!companion.diagnostics.contains { $0.severity == .error })
        #expect(companion.diagnostics.contains { $0.message.contains("the import goes on without") })
        // The imported file's own parse errors stay errors.
        #expect(ObjCFrontEnd.lower(broken).diagnostics.contains { $0.severity == .error })
    }
}
