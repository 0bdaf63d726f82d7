import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import Testing

/// The Objective-C runtime as the language defines it ("The Objective-C Programming Language",
/// Defining a Class: "Class objects"; "Objective-C Runtime" and NSObject's reference): class
/// objects as values, class factories whose `self` is the class the message went to, `+load` and
/// `+initialize` as the runtime sends them, function-scope statics, introspection answered from
/// the declarations, and a header's constants seen by the files that import it.
@Suite struct ObjCRuntimeTests {
    /// `files[0]` imported with the rest read with it, each header (`*.h`) visible to all.
    static func run(_ files: [(name: String, text: String)], entry: String? = nil) -> ImportResult {
        let headers = files.filter { $0.name.hasSuffix(".h") }
        let sources = files.filter { !$0.name.hasSuffix(".h") }
        var unit = ObjCFrontEnd.lower(sources[0].text, headers: headers)
        for (index, file) in sources.enumerated().dropFirst() {
            unit.join(ObjCFrontEnd.lower(file.text, file: index, headers: headers))
        }
        return Importer.run(unit, options: ImportOptions(entry: entry))
    }

    static func layers(_ result: ImportResult) -> [String: JSONObject] { ImportAccessorTests.layers(result) }

    static func number(_ value: JSONValue?) -> Double? {
        if case .number(let n)? = value { return n }
        return nil
    }

    /// The layer's width, from its bounds or frame.
    static func width(_ layer: JSONObject?) -> Double? {
        for key in ["bounds", "frame", "size"] {
            if case .array(let parts)? = layer?[key], let last = parts.dropLast().last, parts.count == 4 {
                return number(last)
            }
            if case .array(let parts)? = layer?[key], parts.count == 2 { return number(parts[0]) }
        }
        return nil
    }

    static let boxes = """
        #import <UIKit/UIKit.h>
        @protocol Levelled <NSObject>
        - (void)setLevel:(CGFloat)level;
        @end
        @interface Box : UIView <Levelled>
        @property (nonatomic) CGFloat level;
        + (instancetype)boxIn:(UIView *)view;
        @end
        @interface Faded : Box
        @end
        @implementation Box
        + (instancetype)boxIn:(UIView *)view {
            Box *box = [[self alloc] initWithFrame:CGRectMake(0, 0, 40, 40)];
            [view addSubview:box];
            return box;
        }
        @end
        @implementation Faded
        - (instancetype)initWithFrame:(CGRect)frame {
            self = [super initWithFrame:frame];
            if (self) { self.alpha = 0.5; }
            return self;
        }
        @end
        """

    /// `self` in a class method is the class the message was sent to: `[Faded boxIn:]`, a
    /// factory Faded inherits, makes a Faded (its initializer runs), `[Box boxIn:]` a Box.
    @Test func aClassFactoryMakesTheClassItWasSentTo() throws {
        let result = Self.run([
            (
                "main.m",
                Self.boxes + """

                    @interface ViewController : UIViewController
                    @end
                    @implementation ViewController
                    - (void)viewDidLoad {
                        [super viewDidLoad];
                        Box *plain = [Box boxIn:self.view];
                        Faded *faded = [Faded boxIn:self.view];
                        [UIView animateWithDuration:1 animations:^{ plain.center = CGPointMake(100, 100); faded.center = CGPointMake(200, 200); }];
                    }
                    @end
                    """
            )
        ])
        let layers = Self.layers(result)
        // Both are named after the factory's `box`, where each is first bound.
        #expect(layers["box-2"]?["opacity"] == .number(0.5), "\(result.diagnostics.map(\.message))")
        #expect(layers["box"] != nil && layers["box"]?["opacity"] == nil, "\(layers)")
        #expect(!result.diagnostics.contains { $0.message.contains("known only at run time") })
    }

    /// A `Class` variable holds a class object: `[X class]` and `NSClassFromString(@"X")` are
    /// the class, `[[cls alloc] initWithFrame:]` an instance of it, `[obj class]` its class.
    @Test func classObjectsAreValues() throws {
        let result = Self.run([
            (
                "main.m",
                Self.boxes + """

                    @interface ViewController : UIViewController
                    @end
                    @implementation ViewController
                    - (void)viewDidLoad {
                        Class named = NSClassFromString(@"Faded");
                        UIView *first = [[named alloc] initWithFrame:CGRectMake(0, 0, 10, 10)];
                        [self.view addSubview:first];
                        Class same = [first class];
                        UIView *second = [[same alloc] initWithFrame:CGRectMake(0, 0, 20, 20)];
                        [self.view addSubview:second];
                        Class missing = NSClassFromString(@"NoSuchClass");
                        UIView *third = [[UIView alloc] initWithFrame:CGRectMake(0, 0, missing == nil ? 30 : 5, 30)];
                        [self.view addSubview:third];
                        third.alpha = [NSStringFromClass([Faded class]) isEqualToString:@"Faded"] ? 0.25 : 1;
                    }
                    @end
                    """
            )
        ])
        let layers = Self.layers(result)
        #expect(layers["first"]?["opacity"] == .number(0.5), "\(result.diagnostics.map(\.message))")
        #expect(layers["second"]?["opacity"] == .number(0.5), "\(layers)")
        #expect(Self.width(layers["third"]) == 30, "\(layers["third"].map { "\($0)" } ?? "none")")
    }

    /// `isKindOfClass:`, `isMemberOfClass:`, `respondsToSelector:` (a method, a property's
    /// setter) and `conformsToProtocol:` are answered from the declarations.
    @Test func introspectionIsAnsweredFromTheDeclarations() throws {
        let result = Self.run([
            (
                "main.m",
                Self.boxes + """

                    @interface ViewController : UIViewController
                    @end
                    @implementation ViewController
                    - (void)viewDidLoad {
                        Faded *box = [Faded boxIn:self.view];
                        CGFloat w = 0;
                        if ([box isKindOfClass:[Box class]]) w += 1;
                        if ([box isKindOfClass:[UIView class]]) w += 2;
                        if ([box isMemberOfClass:[Box class]]) w += 4;
                        if ([box respondsToSelector:@selector(setLevel:)]) w += 8;
                        if ([box respondsToSelector:@selector(fly)]) w += 16;
                        if ([box conformsToProtocol:@protocol(Levelled)]) w += 32;
                        if ([Faded instancesRespondToSelector:@selector(level)]) w += 64;
                        if ([Faded respondsToSelector:@selector(boxIn:)]) w += 128;
                        if ([box isKindOfClass:[UILabel class]]) w += 256;
                        box.frame = CGRectMake(0, 0, w, 10);
                    }
                    @end
                    """
            )
        ])
        #expect(Self.width(Self.layers(result)["box"]) == 235, "\(result.diagnostics.map(\.message))")
    }

    /// `+load` runs for each class before the entry point, superclass first; a class registers
    /// itself in a static dictionary and `[registry[key] new]` makes one.
    @Test func loadRegistersClassesBeforeTheEntryPoint() throws {
        let result = Self.run([
            (
                "main.m",
                """
                #import <UIKit/UIKit.h>
                static NSMutableDictionary *registry;
                static NSInteger loads = 0;
                @interface Dot : UIView
                @end
                @interface RedDot : Dot
                @end
                @implementation RedDot
                + (void)load { registry[@"red"] = self; loads = loads * 10 + 2; }
                - (instancetype)init {
                    self = [super initWithFrame:CGRectMake(0, 0, 12, 12)];
                    self.alpha = 0.75;
                    return self;
                }
                @end
                @implementation Dot
                + (void)load { registry = [NSMutableDictionary dictionary]; loads = loads * 10 + 1; }
                @end
                @interface ViewController : UIViewController
                @end
                @implementation ViewController
                - (void)viewDidLoad {
                    UIView *dot = [registry[@"red"] new];
                    [self.view addSubview:dot];
                    UIView *count = [[UIView alloc] initWithFrame:CGRectMake(0, 0, loads, 5)];
                    [self.view addSubview:count];
                }
                @end
                """
            )
        ])
        let layers = Self.layers(result)
        #expect(layers["dot"]?["opacity"] == .number(0.75), "\(result.diagnostics.map(\.message))")
        #expect(Self.width(layers["count"]) == 12, "\(layers["count"].map { "\($0)" } ?? "none")")
    }

    /// `+initialize` runs once a class, superclasses first, before the class's first message;
    /// a subclass that does not implement it runs its superclass's again, with `self` the
    /// subclass.
    @Test func initializeRunsBeforeTheFirstMessage() throws {
        let result = Self.run([
            (
                "main.m",
                """
                #import <UIKit/UIKit.h>
                static NSInteger trace = 0;
                @interface Base : NSObject
                + (CGFloat)size;
                @end
                @interface Sub : Base
                @end
                @implementation Base
                + (void)initialize { trace = trace * 10 + (self == [Base class] ? 1 : 2); }
                + (CGFloat)size { return 1; }
                @end
                @implementation Sub
                @end
                @interface ViewController : UIViewController
                @end
                @implementation ViewController
                - (void)viewDidLoad {
                    NSInteger before = trace;
                    [Sub size];
                    [Sub size];
                    [Base size];
                    UIView *marks = [[UIView alloc] initWithFrame:CGRectMake(0, 0, before * 100 + trace, 5)];
                    [self.view addSubview:marks];
                }
                @end
                """
            )
        ])
        #expect(Self.width(Self.layers(result)["marks"]) == 12, "\(result.diagnostics.map(\.message))")
    }

    /// A `static` variable in a method is one for the program, initialised once: a shared
    /// instance is made at the first call only.
    @Test func aFunctionScopeStaticIsInitialisedOnce() throws {
        let result = Self.run([
            (
                "main.m",
                """
                #import <UIKit/UIKit.h>
                static NSInteger made = 0;
                @interface Shared : NSObject
                + (instancetype)shared;
                @end
                @implementation Shared
                + (instancetype)shared {
                    static Shared *instance = nil;
                    if (instance == nil) { instance = [[self alloc] init]; made += 1; }
                    return instance;
                }
                @end
                @interface ViewController : UIViewController
                @end
                @implementation ViewController
                - (void)viewDidLoad {
                    Shared *a = [Shared shared];
                    Shared *b = [Shared shared];
                    UIView *marks = [[UIView alloc] initWithFrame:CGRectMake(0, 0, made * 10 + (a == b ? 1 : 0), 5)];
                    [self.view addSubview:marks];
                }
                @end
                """
            )
        ])
        #expect(Self.width(Self.layers(result)["marks"]) == 11, "\(result.diagnostics.map(\.message))")
    }

    /// `static NSString *const K = @"…";` in a header is declared in every file that imports it.
    @Test func aHeadersConstantIsSeenByTheFilesThatImportIt() throws {
        let result = Self.run([
            (
                "main.m",
                """
                #import "Keys.h"
                @interface ViewController : UIViewController
                @end
                @implementation ViewController
                - (void)viewDidLoad {
                    UIView *card = [[UIView alloc] initWithFrame:CGRectMake(0, 0, 50, 50)];
                    [self.view addSubview:card];
                    CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:kFadeKey];
                    fade.toValue = @0;
                    fade.duration = 1;
                    [card.layer addAnimation:fade forKey:kFadeKey];
                }
                @end
                """
            ),
            ("Keys.h", "#import <UIKit/UIKit.h>\nstatic NSString *const kFadeKey = @\"opacity\";\n"),
        ])
        let text = sceneText(result.scene)
        #expect(text.contains(#""keyPath":"opacity""#), "\(result.diagnostics.map(\.message))")
        #expect(!result.diagnostics.contains { $0.message.contains("kFadeKey") })
    }
}
