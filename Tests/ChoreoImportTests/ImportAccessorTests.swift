import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

/// Properties with code of their own (getters, setters, observers, lazy getters), literals typed
/// from their context, and the callbacks UIKit sends a view as it comes on screen.
@Suite struct ImportAccessorTests {
    static func swift(_ source: String, entry: String? = nil) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions(entry: entry))
    }

    static func objc(_ source: String, entry: String? = nil) -> ImportResult {
        Importer.run(ObjCFrontEnd.lower(source), options: ImportOptions(entry: entry))
    }

    /// Every layer of the scene, nested ones too, by id.
    static func layers(_ result: ImportResult) -> [String: JSONObject] {
        var found: [String: JSONObject] = [:]
        func walk(_ value: JSONValue?) {
            guard case .array(let items)? = value else { return }
            for case .object(let layer) in items {
                if case .string(let id)? = layer["id"] { found[id] = layer }
                walk(layer["sublayers"])
            }
        }
        if case .object(let scene)? = result.scene { walk(scene["layers"]) }
        return found
    }

    static func script(_ result: ImportResult) -> String {
        guard case .object(let scene)? = result.scene, let script = scene["script"] else { return "" }
        var writer = JSONWriter()
        writer.value(script)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func anObjectiveCLazyGetterRunsWhenThePropertyIsRead() throws {
        let result = Self.objc(
            """
            @interface Spinner : UIView
            @property (nonatomic, strong) CALayer *dot;
            @property (nonatomic, strong) UIColor *tint;
            @end
            @implementation Spinner
            - (CALayer *)dot {
                if (!_dot) {
                    _dot = [CALayer layer];
                    _dot.frame = CGRectMake(0, 0, 10, 10);
                    [self.layer addSublayer:_dot];
                }
                return _dot;
            }
            - (void)setTint:(UIColor *)tint {
                self.dot.backgroundColor = tint.CGColor;
            }
            - (void)start {
                self.tint = [UIColor redColor];
                CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:@"opacity"];
                fade.toValue = @0;
                fade.duration = 1;
                [self.dot addAnimation:fade forKey:@"fade"];
            }
            @end
            """, entry: "Spinner.start")
        #expect(!result.diagnostics.contains { $0.severity == .error })
        let layers = Self.layers(result)
        // The view whose method runs is on screen, in a host view; its getter made one dot.
        #expect(layers["spinner"]?["frame"] == .array([.number(0), .number(0), .number(120), .number(120)]))
        #expect(layers["dot"] != nil)
        // The setter ran: the tint reached the dot (set as the view is on screen: an action).
        #expect(Self.script(result).contains("\"backgroundColor\":\"red\""))
        #expect(layers.count == 2)
        #expect(Self.script(result).contains("\"layer\":\"dot\""))
        #expect(result.diagnostics.contains { $0.message.contains("Spinner is on screen while Spinner.start runs") })
    }

    @Test func swiftComputedPropertiesAndObservers() throws {
        let result = Self.swift(
            """
            class Ring: UIView {
                lazy var track: CAShapeLayer = {
                    let l = CAShapeLayer()
                    l.frame = CGRect(origin: .zero, size: CGSize(width: 60, height: 60))
                    l.fillColor = ringColor.cgColor
                    return l
                }()
                var ringColor: UIColor { return .red }
                var progress: CGFloat {
                    get { return track.strokeEnd }
                    set { track.strokeEnd = newValue }
                }
                var on = false
                var level: CGFloat = 0 {
                    didSet { track.lineWidth = level * 10 + oldValue }
                }
                func start() {
                    layer.addSublayer(track)
                    var parts = [CALayer]()
                    parts.append(track)
                    on.toggle()
                    progress = on ? 0.25 : 0.75
                    self.level = 1
                    UIView.animate(withDuration: 1) {
                        self.alpha = 0.5
                    }
                }
            }
            """, entry: "Ring.start")
        #expect(!result.diagnostics.contains { $0.severity != .note })
        let track = try #require(Self.layers(result)["track"])
        #expect(track["fillColor"] == .string("red"))
        #expect(track["frame"] == .array([.number(0), .number(0), .number(60), .number(60)]))
        let script = Self.script(result)
        #expect(script.contains("\"strokeEnd\":0.25"))
        #expect(script.contains("\"lineWidth\":10"))
    }

    @Test func integerLiteralsTakeAFloatingTypeFromTheirContext() throws {
        let result = Self.swift(
            """
            let card = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
            card.backgroundColor = UIColor(red: 253/255, green: 128 / 255, blue: 0, alpha: 1)
            view.addSubview(card)
            let half: CGFloat = 1 / 2
            let columns = 7 / 2
            UIView.animate(withDuration: 1/4) {
                card.alpha = half
                card.layer.cornerRadius = 3 / 2
                card.frame.origin.x = CGFloat(columns)
            }
            """)
        let card = try #require(Self.layers(result)["card"])
        guard case .array(let color)? = card["backgroundColor"], color.count == 4,
            case .number(let red) = color[0], case .number(let green) = color[1]
        else {
            Issue.record("no colour: \(card)")
            return
        }
        #expect(abs(red - 253.0 / 255) < 1e-12)
        #expect(abs(green - 128.0 / 255) < 1e-12)
        let script = Self.script(result)
        #expect(script.contains("\"duration\":0.25"))
        #expect(script.contains("\"opacity\":0.5"))
        #expect(script.contains("\"cornerRadius\":1.5"))
        // Without a floating context an integer division stays integral, as Swift has it.
        #expect(script.contains("\"frame\":[3,0,100,50]"))
    }

    @Test func aViewComingOnScreenIsToldAndLaidOut() throws {
        let result = Self.swift(
            """
            class PulseView: UIView {
                let dot = CALayer()
                override func didMoveToWindow() {
                    super.didMoveToWindow()
                    dot.backgroundColor = UIColor.red.cgColor
                    layer.addSublayer(dot)
                }
                override func layoutSubviews() {
                    super.layoutSubviews()
                    dot.frame = CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height / 2)
                }
            }
            class ViewController: UIViewController {
                let pulse = PulseView(frame: CGRect(x: 20, y: 20, width: 80, height: 40))
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(pulse)
                }
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    UIView.animate(withDuration: 1) {
                        self.pulse.frame = CGRect(x: 20, y: 20, width: 200, height: 100)
                        self.pulse.layoutIfNeeded()
                    }
                }
            }
            """)
        let dot = try #require(Self.layers(result)["dot"])
        #expect(dot["frame"] == .array([.number(0), .number(0), .number(40), .number(20)]))
        #expect(Self.script(result).contains("\"dot\":{\"frame\":[0,0,100,50]}"))
    }
}

/// Warnings that say what to write instead.
@Suite struct ImportFixTests {
    @Test func misspeltPropertiesSuggestTheirNames() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let v = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                view.addSubview(v)
                v.layer.cornerRadus = 4
                let a = CABasicAnimation(keyPath: "opacity")
                a.durration = 1
                v.layer.add(a, forKey: "o")
                total = 3
                for step in steps { v.alpha = step }
                """), options: ImportOptions())
        func fix(line: Int) -> String? { result.diagnostics.first { $0.position.line == line && $0.fix != nil }?.fix }
        #expect(fix(line: 3) == "did you mean cornerRadius?")
        #expect(fix(line: 5) == "did you mean duration?")
        #expect(fix(line: 7) == "declare it before the assignment (var total = …)")
        #expect(fix(line: 8) == "loop over an array or a range the code builds from constants")
    }

    @Test func whatChoreoDoesNotModelIsSaidSoAndTheRestImports() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let bar = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 10))
                view.addSubview(bar)
                let gradient = CAGradientLayer()
                gradient.colors = [UIColor.red.cgColor, UIColor.blue.cgColor]
                bar.layer.mask = gradient
                let sweep = CABasicAnimation(keyPath: "locations")
                sweep.toValue = [1.0, 1.5]
                bar.layer.add(sweep, forKey: "sweep")
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.toValue = 0
                bar.layer.add(fade, forKey: "fade")
                """), options: ImportOptions())
        let colors = try #require(result.diagnostics.first { $0.position.line == 4 })
        #expect(colors.message.contains("not modelled by choreo") && colors.fix == nil)
        let mask = try #require(result.diagnostics.first { $0.position.line == 5 })
        #expect(mask.message.contains("bar is drawn unmasked") && mask.fix?.contains("did you mean") != true)
        let sweep = try #require(result.diagnostics.first { $0.position.line == 8 })
        #expect(sweep.message.contains("the animation of locations on bar is skipped"))
        // The opacity animation imports, and the scene renders.
        guard case .object(let scene)? = result.scene, case .array(let script)? = scene["script"] else {
            Issue.record("no scene: \(result.diagnostics)")
            return
        }
        #expect(script.count == 1)
    }

    @Test func aReplicatorLoaderMadeInItsInitializer() throws {
        let result = Importer.run(
            ObjCFrontEnd.lower(
                """
                @interface PulseView : UIView
                @property (nonatomic, strong) CAReplicatorLayer *replicator;
                @property (nonatomic, strong) CALayer *dot;
                @end
                @implementation PulseView
                - (instancetype)initWithFrame:(CGRect)frame {
                    if (self = [super initWithFrame:frame]) {
                        _replicator = [CAReplicatorLayer layer];
                        _replicator.frame = self.bounds;
                        _replicator.instanceCount = 3;
                        [self.layer addSublayer:_replicator];
                        _dot = [CALayer layer];
                        _dot.bounds = CGRectMake(0, 0, 60, 60);
                        [_replicator addSublayer:_dot];
                    }
                    return self;
                }
                - (void)startAnimating {
                    CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:@"opacity"];
                    fade.toValue = @0;
                    fade.duration = 1.2;
                    [_dot addAnimation:fade forKey:@"pulse"];
                }
                @end
                """), options: ImportOptions(entry: "PulseView.startAnimating"))
        // `initWithFrame:` ran with the host's bounds (an assignment in its condition, as C has it).
        let layers = ImportAccessorTests.layers(result)
        #expect(layers["pulseView"]?["frame"] == .array([.number(0), .number(0), .number(120), .number(120)]))
        #expect(layers["replicator"]?["frame"] == .array([.number(0), .number(0), .number(120), .number(120)]))
        #expect(layers["dot"] != nil)
        #expect(layers["replicator"]?["type"] == .string("replicator"))
        #expect(ImportAccessorTests.script(result).contains("\"layer\":\"dot\""))
    }

    @Test func aSwiftUIViewWithNothingToTapIsSaidToStayStill() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                import SwiftUI

                struct ContentView: View {
                    @State private var isOn = false
                    var body: some View {
                        Circle().offset(x: isOn ? 100 : -100)
                    }
                }
                """), options: ImportOptions())
        let scene = try #require(result.scene)
        guard case .object(let document) = scene, case .object(let swiftUI)? = document["swiftui"] else {
            Issue.record("no swiftui section")
            return
        }
        #expect(swiftUI["state"] == .object(JSONObject([("isOn", .bool(false))])))
        let warning = try #require(result.diagnostics.first { $0.severity == .warning })
        #expect(warning.position.line == 3)
        #expect(warning.message.contains("nothing changes ContentView's state"))
    }

    @Test func coreGraphicsPathsAndMessagesLoadersUse() throws {
        let result = Importer.run(
            ObjCFrontEnd.lower(
                """
                @interface Arc : NSObject
                - (void)setupAnimationInLayer:(CALayer *)layer withSize:(CGSize)size color:(UIColor *)color;
                @end
                @implementation Arc
                - (void)setupAnimationInLayer:(CALayer *)layer withSize:(CGSize)size color:(UIColor *)color {
                    CAShapeLayer *ring = [CAShapeLayer layer];
                    CGMutablePathRef path = CGPathCreateMutable();
                    CGPathMoveToPoint(path, NULL, 0, 0);
                    CGPathAddLineToPoint(path, NULL, 10, 0);
                    CGPathAddArc(path, NULL, 40, 40, 30, 0, M_PI, true);
                    CGPathCloseSubpath(path);
                    ring.path = path;
                    CGPathRelease(path);
                    ring.strokeColor = [color CGColor];
                    ring.contentsScale = [[UIScreen mainScreen] scale];
                    [layer addSublayer:ring];
                    CABasicAnimation *spin = [CABasicAnimation animationWithKeyPath:@"strokeEnd"];
                    spin.fromValue = @0;
                    spin.duration = 1;
                    [ring addAnimation:spin forKey:nil];
                }
                @end
                """), options: ImportOptions())
        #expect(!result.diagnostics.contains { $0.severity != .note })
        let ring = try #require(ImportAccessorTests.layers(result)["ring"])
        #expect(ring["strokeColor"] == .string("systemBlue"))
        guard case .array(let commands)? = ring["path"], commands.count == 4,
            case .object(let arc) = commands[2], case .object(let parameters)? = arc["arc"]
        else {
            Issue.record("no path: \(ring)")
            return
        }
        // Core Graphics' clockwise is drawn the other way round in UIKit's flipped coordinates.
        #expect(parameters["clockwise"] == .bool(false))
        #expect(parameters["radius"] == .number(30))
        #expect(commands[3] == .string("close"))
    }
}
