import ChoreoJSON
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// Swift's rules for the code's own declarations, as the language core applies them: default
/// arguments, variadic parameters beside an array overload, and property observers that do not
/// run in the declaring type's own initializer.
@Suite struct CoreLanguageTests {
    static func scene(_ source: String) throws -> JSONValue {
        let result = Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
        return try #require(result.scene, "\(result.diagnostics.map(\.message))")
    }

    static func text(_ value: JSONValue) -> String {
        sceneText(value)
    }

    /// The ids of every layer, depth first.
    static func ids(_ scene: JSONValue) -> [String] {
        func walk(_ layers: JSONValue?) -> [String] {
            guard case .array(let list)? = layers else { return [] }
            return list.flatMap { layer -> [String] in
                guard case .object(let object) = layer, case .string(let id)? = object["id"] else { return [] }
                return [id] + walk(object["sublayers"])
            }
        }
        guard case .object(let object) = scene else { return [] }
        return walk(object["layers"])
    }

    /// A call that leaves out defaulted parameters binds the rest by label, and the left-out
    /// ones take their defaults (it used to bind by position: `delay` landed in `scale`).
    @Test func aLeftOutParameterTakesItsDefault() throws {
        let scene = try Self.scene(
            """
            import UIKit
            class V: UIViewController {
                func pop(_ box: UIView, scale: CGFloat = 1.5, duration: TimeInterval = 0.4, delay: TimeInterval) {
                    UIView.animate(withDuration: duration, delay: delay, options: [], animations: {
                        box.transform = CGAffineTransform(scaleX: scale, y: scale)
                    })
                }
                override func viewDidLoad() {
                    let box = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                    view.addSubview(box)
                    pop(box, delay: 0.2)
                }
            }
            """)
        let text = Self.text(scene)
        #expect(text.contains(#""duration":0.4,"delay":0.2"#), "\(text)")
        #expect(text.contains(#""scale":[1.5,1.5,1]"#), "\(text)")
    }

    /// `tint(box, colors: .red, .blue)` calls the variadic overload (its colours an array), and
    /// `tint(box, colors: [.green])` the array one.
    @Test func variadicAndArrayOverloadsAreToldApart() throws {
        let source = """
            import UIKit
            class V: UIViewController {
                func tint(_ box: UIView, colors: UIColor...) { box.backgroundColor = colors[1] }
                func tint(_ box: UIView, colors: [UIColor]) { box.backgroundColor = colors[0] }
                override func viewDidLoad() {
                    let box = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                    view.addSubview(box)
                    CALL
                    UIView.animate(withDuration: 1) { box.alpha = 0 }
                }
            }
            """
        let variadic = Self.text(
            try Self.scene(source.replacingOccurrences(of: "CALL", with: "tint(box, colors: .red, .blue)")))
        #expect(variadic.contains(#""backgroundColor":"blue""#), "\(variadic)")
        let array = Self.text(
            try Self.scene(source.replacingOccurrences(of: "CALL", with: "tint(box, colors: [.green])")))
        #expect(array.contains(#""backgroundColor":"green""#), "\(array)")
    }

    /// A property set in its own type's initializer runs no `didSet`; set afterwards, it does
    /// (the ring got a dot from its initializer too).
    @Test func observersDoNotRunInTheDeclaringInitializer() throws {
        let scene = try Self.scene(
            """
            import UIKit
            class Ring: UIView {
                var count: Int = 0 { didSet { addDot() } }
                init(count: Int) {
                    super.init(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
                    self.count = count
                }
                func addDot() {
                    let dot = CALayer()
                    dot.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
                    dot.backgroundColor = UIColor.red.cgColor
                    layer.addSublayer(dot)
                }
            }
            class V: UIViewController {
                override func viewDidLoad() {
                    let ring = Ring(count: 3)
                    view.addSubview(ring)
                    ring.count = 4
                    UIView.animate(withDuration: 1) { ring.alpha = 0 }
                }
            }
            """)
        #expect(Self.ids(scene) == ["ring", "dot"])
    }
}
