import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

/// Auto Layout's equalities solved into frames at each layout pass, so that a constraint's
/// constant changed before `layoutIfNeeded()` in an animation block animates the frames.
@Suite struct ImportAutoLayoutTests {
    static func script(_ result: ImportResult) -> String { ImportAccessorTests.script(result) }

    static func layer(_ result: ImportResult, _ id: String) -> JSONObject? { ImportAccessorTests.layers(result)[id] }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> JSONValue {
        .array([.number(x), .number(y), .number(w), .number(h)])
    }

    @Test func anObjectiveCDrawerSlidesUpByItsConstant() throws {
        let result = Importer.run(
            ObjCFrontEnd.lower(
                """
                @interface DrawerViewController : UIViewController
                @property (nonatomic, strong) UIView *drawer;
                @property (nonatomic, strong) NSLayoutConstraint *drawerTop;
                @end
                @implementation DrawerViewController
                - (void)viewDidLoad {
                    [super viewDidLoad];
                    self.drawer = [[UIView alloc] init];
                    self.drawer.translatesAutoresizingMaskIntoConstraints = NO;
                    [self.view addSubview:self.drawer];
                    self.drawerTop = [self.drawer.topAnchor constraintEqualToAnchor:self.view.bottomAnchor constant:-80];
                    [NSLayoutConstraint activateConstraints:@[
                        self.drawerTop,
                        [self.drawer.leadingAnchor constraintEqualToAnchor:self.view.safeAreaLayoutGuide.leadingAnchor],
                        [self.drawer.trailingAnchor constraintEqualToAnchor:self.view.trailingAnchor],
                        [self.drawer.heightAnchor constraintEqualToConstant:300],
                        [self.drawer.widthAnchor constraintGreaterThanOrEqualToConstant:100],
                    ]];
                    [self.view addConstraint:[NSLayoutConstraint constraintWithItem:self.drawer
                        attribute:NSLayoutAttributeCenterX relatedBy:NSLayoutRelationEqual toItem:self.view
                        attribute:NSLayoutAttributeCenterX multiplier:1 constant:0]];
                }
                - (void)viewDidAppear:(BOOL)animated {
                    [super viewDidAppear:animated];
                    self.drawerTop.constant = -300;
                    [UIView animateWithDuration:0.4 animations:^{
                        [self.view layoutIfNeeded];
                    }];
                }
                @end
                """), options: ImportOptions())
        // Laid out before it appears: the frame the constraints give on a 375 × 667 screen.
        #expect(Self.layer(result, "drawer")?["frame"] == Self.rect(0, 587, 375, 300))
        #expect(Self.script(result).contains("\"changes\":{\"drawer\":{\"frame\":[0,367,375,300]}}"))
        let note = try #require(result.diagnostics.first { $0.message.hasPrefix("Auto Layout") })
        #expect(note.message.contains("6 constraint(s)"))
        #expect(note.message.contains("1 inequality"))
        guard case .object(let scene)? = result.scene, case .object(let canvas)? = scene["canvas"] else {
            Issue.record("no canvas")
            return
        }
        #expect(canvas["width"] == .number(375) && canvas["height"] == .number(667))
    }

    @Test func aSiblingFollowsTheViewItIsPinnedTo() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                class CardViewController: UIViewController {
                    let card = UIView()
                    let caption = UILabel()
                    var cardHeight: NSLayoutConstraint!
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        for v in [card, caption] {
                            v.translatesAutoresizingMaskIntoConstraints = false
                            view.addSubview(v)
                        }
                        cardHeight = card.heightAnchor.constraint(equalToConstant: 100)
                        NSLayoutConstraint.activate([
                            card.topAnchor.constraint(equalTo: view.topAnchor, constant: 40),
                            card.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 20),
                            card.widthAnchor.constraint(equalTo: view.widthAnchor, multiplier: 0.5),
                            cardHeight,
                            caption.topAnchor.constraint(equalTo: card.bottomAnchor, constant: 8),
                            caption.leadingAnchor.constraint(equalTo: card.leadingAnchor),
                            caption.widthAnchor.constraint(equalTo: card.widthAnchor),
                            caption.heightAnchor.constraint(equalToConstant: 20),
                        ])
                    }
                    override func viewDidAppear(_ animated: Bool) {
                        super.viewDidAppear(animated)
                        cardHeight.constant = 200
                        UIView.animate(withDuration: 0.3) {
                            self.view.layoutIfNeeded()
                        }
                    }
                }
                """), options: ImportOptions())
        #expect(Self.layer(result, "card")?["frame"] == Self.rect(20, 40, 187.5, 100))
        #expect(Self.layer(result, "caption")?["frame"] == Self.rect(20, 148, 187.5, 20))
        let script = Self.script(result)
        #expect(script.contains("\"card\":{\"frame\":[20,40,187.5,200]}"))
        #expect(script.contains("\"caption\":{\"frame\":[20,248,187.5,20]}"))
    }

    @Test func constraintsNeverLaidOutAnimateFromNothingInTheFirstPass() throws {
        // A snippet that activates its constraints and calls layoutIfNeeded() inside the
        // animation block: the first layout pass is the animated one, as on a device.
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                let card = UIView()
                card.translatesAutoresizingMaskIntoConstraints = false
                view.addSubview(card)
                NSLayoutConstraint.activate([
                    card.centerXAnchor.constraint(equalTo: view.centerXAnchor),
                    card.topAnchor.constraint(equalTo: view.topAnchor, constant: 40),
                    card.widthAnchor.constraint(equalToConstant: 100),
                    card.heightAnchor.constraint(equalToConstant: 100),
                ])
                UIView.animate(withDuration: 0.5) {
                    self.view.layoutIfNeeded()
                }
                """), options: ImportOptions())
        #expect(Self.layer(result, "card")?["frame"] == nil)
        #expect(Self.script(result).contains("\"card\":{\"frame\":[137.5,40,100,100]}"))
    }
}
