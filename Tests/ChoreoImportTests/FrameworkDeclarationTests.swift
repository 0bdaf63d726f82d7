import ChoreoFormat
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// The language core's argument binding and the frameworks declared through it: overloads told
/// apart by labels, defaults, variadic parameters, and a call that fits no declaration named at
/// its line with the declarations.
@Suite struct FrameworkDeclarationTests {
    typealias P = ParameterDeclaration

    static func arguments(_ items: [(String?, Value)]) -> Arguments { Arguments(items: items.map { ($0.0, $0.1) }) }

    @Test func argumentsBindInOrderByLabel() throws {
        let parameters = [P("x"), P("y")]
        let bound = try #require(
            ArgumentBinding.bind(Self.arguments([("x", .integer(1)), ("y", .integer(2))]), to: parameters))
        #expect(bound.count == 2)
        // Out of order, a missing label, an extra argument: no binding.
        #expect(ArgumentBinding.bind(Self.arguments([("y", .integer(2)), ("x", .integer(1))]), to: parameters) == nil)
        #expect(ArgumentBinding.bind(Self.arguments([(nil, .integer(1)), ("y", .integer(2))]), to: parameters) == nil)
        #expect(
            ArgumentBinding.bind(
                Self.arguments([("x", .integer(1)), ("y", .integer(2)), ("z", .integer(3))]), to: parameters) == nil)
    }

    @Test func aDefaultFillsALeftOutParameter() throws {
        let parameters = [P.rest, P("separator", default: .string(" ")), P("terminator", default: .string("\n"))]
        let bound = try #require(
            ArgumentBinding.bind(
                Self.arguments([(nil, .integer(1)), (nil, .integer(2)), ("terminator", .string(""))]), to: parameters))
        guard case .array(let items) = bound[0], case .string(let separator) = bound[1],
            case .string(let terminator) = bound[2]
        else { Issue.record("bound \(bound.map(\.kindName))"); return }
        #expect(items.count == 2 && separator == " " && terminator == "")
        // A variadic parameter given nothing is empty.
        let none = try #require(ArgumentBinding.bind(Self.arguments([]), to: parameters))
        if case .array(let empty) = none[0] { #expect(empty.isEmpty) } else { Issue.record("not an array") }
    }

    /// A scene's JSON text.
    static func text(_ scene: JSONValue) -> String {
        sceneText(scene)
    }

    static func run(_ source: String) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
    }

    static func width(_ expression: String) -> String {
        let result = run(
            """
            import UIKit
            class V: UIViewController {
                override func viewDidLoad() {
                    let box = UIView(frame: \(expression))
                    view.addSubview(box)
                    UIView.animate(withDuration: 1) { box.alpha = 0 }
                }
            }
            """)
        guard let scene = result.scene else { return result.diagnostics.map(\.message).joined(separator: "; ") }
        return text(scene)
    }

    /// `CGRect(x:y:width:height:)`, `CGRect(origin:size:)` and `.init(…)` resolved by their labels
    /// make the same frame; a label the framework does not declare is an error naming the
    /// declarations and the nearest one.
    @Test func overloadsAreToldApartByTheirLabels() throws {
        let expected = #""frame":[10,20,30,40]"#
        #expect(Self.width("CGRect(x: 10, y: 20, width: 30, height: 40)").contains(expected))
        #expect(
            Self.width("CGRect(origin: CGPoint(x: 10, y: 20), size: CGSize(width: 30, height: 40))").contains(expected))
        #expect(Self.width(".init(x: 10, y: 20, width: 30, height: 40)").contains(expected))
        let wrong = Self.run(
            """
            import UIKit
            class V: UIViewController {
                override func viewDidLoad() {
                    let box = UIView(frame: CGRect(x: 10, y: 20, w: 30, h: 40))
                    view.addSubview(box)
                }
            }
            """)
        let error = try #require(wrong.diagnostics.first { $0.severity == .error })
        #expect(error.message.hasPrefix("CGRect(x:y:w:h:) matches no declaration of CGRect"), "\(error.message)")
        #expect(error.message.contains("CGRect(x:y:width:height:)"))
        #expect(error.fix == "write CGRect(x:y:width:height:)", "\(error.fix ?? "")")
        #expect(error.position.line == 4)
    }

    /// `print(_:separator:terminator:)`: the separator joins the items (it is not an item).
    @Test func printJoinsItsItemsWithItsSeparator() throws {
        let result = Self.run(
            """
            import UIKit
            class V: UIViewController {
                override func viewDidLoad() {
                    let box = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                    view.addSubview(box)
                    print("a", "b", separator: "-")
                    UIView.animate(withDuration: 1) { box.alpha = 0 }
                }
            }
            """)
        let scene = Self.text(try #require(result.scene))
        #expect(scene.contains(#""mark":"a-b""#), "\(scene)")
    }

    /// Objective-C's C functions bind positionally: `CGRectMake`, `MIN`, `CGAffineTransformMakeScale`.
    @Test func cFunctionsBindPositionally() throws {
        let result = Importer.run(
            ObjCFrontEnd.lower(
                """
                @implementation V : UIViewController
                - (void)viewDidLoad {
                    UIView *box = [[UIView alloc] initWithFrame:CGRectMake(10, 20, fmin(30, 50), 40)];
                    [self.view addSubview:box];
                    [UIView animateWithDuration:1 animations:^{ box.transform = CGAffineTransformMakeScale(2, 2); }];
                }
                @end
                """), options: ImportOptions())
        let scene = Self.text(try #require(result.scene))
        #expect(scene.contains(#""frame":[10,20,30,40]"#), "\(scene)")
        #expect(scene.contains("scale"), "\(scene)")
    }
}
