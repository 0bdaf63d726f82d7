import ChoreoImport
import ChoreoObjCImport
import Testing

/// `--entry` as an Objective-C programmer writes it: a selector with its colons, a method
/// reference `-[Type selector:]`; and the nearest method suggested when none has the name.
@Suite struct ImportEntrySelectorTests {
    static let source = """
        #import <UIKit/UIKit.h>
        @interface ViewController : UIViewController
        @property (nonatomic, strong) UIView *box;
        @end
        @implementation ViewController
        - (void)viewDidLoad {
            [super viewDidLoad];
            self.box = [[UIView alloc] initWithFrame:CGRectMake(20, 20, 100, 100)];
            [self.view addSubview:self.box];
        }
        - (void)btnClick:(UIButton *)sender {
            [UIView animateWithDuration:0.5 animations:^{ self.box.alpha = 0; }];
        }
        - (void)move:(CGFloat)x to:(CGFloat)y {
            [UIView animateWithDuration:0.5 animations:^{ self.box.alpha = 0.5; }];
        }
        @end
        """

    static func run(_ entry: String) -> ImportResult {
        Importer.run(ObjCFrontEnd.lower(source), options: ImportOptions(entry: entry))
    }

    @Test(arguments: [
        "btnClick:", "btnClick", "ViewController.btnClick:", "-[ViewController btnClick:]", "move:to:",
        "ViewController.move:to:",
    ])
    func aSelectorAsWrittenNamesItsMethod(_ entry: String) {
        let result = Self.run(entry)
        #expect(result.scene != nil, "\(entry): \(result.diagnostics.map(\.message))")
        #expect(!result.diagnostics.contains { $0.severity == .error })
    }

    @Test func aMisspeltSelectorGetsTheNearestMethod() {
        for (entry, meant) in [
            ("btnClik:", "ViewController.btnClick"), ("ViewController.btnClik:", "ViewController.btnClick"),
            ("moov", "ViewController.move"),
        ] {
            let result = Self.run(entry)
            #expect(result.scene == nil)
            let error = result.diagnostics.first { $0.severity == .error }
            #expect(error?.message == "no method \(entry) in this file")
            #expect(error?.fix == "did you mean \(meant)?")
        }
    }
}
