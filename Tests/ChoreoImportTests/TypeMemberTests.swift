import ChoreoJSON
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// The members of the code's own types as Swift defines them: nested types, type properties,
/// inherited stored properties, type aliases, and a module's global variables in its other files.
@Suite struct TypeMemberTests {
    /// The scene of `files` imported together, the first the one imported.
    static func scene(_ files: String...) throws -> JSONValue {
        var unit = SwiftFrontEnd.lower(files[0])
        for (index, file) in files.enumerated().dropFirst() { unit.join(SwiftFrontEnd.lower(file, file: index)) }
        let result = Importer.run(unit, options: ImportOptions())
        return try #require(result.scene, "\(result.diagnostics.map(\.message))")
    }

    static func text(_ value: JSONValue) -> String { sceneText(value) }

    /// A base class in another file nests `Constants.Keys` and stores `duration`; its subclass
    /// reads both by their short names, as Swift's member lookup finds them.
    @Test func aSubclassSeesItsSuperclassesNestedTypesAndStoredProperties() throws {
        let base = """
            import UIKit
            open class ItemAnimation: NSObject {
                struct Constants {
                    struct Keys {
                        static let scale = "transform.scale"
                    }
                }
                open var duration: CGFloat = 0.5
                open func play(_ icon: UIView) {}
            }
            """
        let bounce = """
            import UIKit
            class Bounce: ItemAnimation {
                override func play(_ icon: UIView) {
                    let bounce = CAKeyframeAnimation(keyPath: Constants.Keys.scale)
                    bounce.values = [1.0, 1.4, 1.0]
                    bounce.duration = TimeInterval(duration)
                    icon.layer.add(bounce, forKey: nil)
                }
            }
            let icon = UIView(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
            view.addSubview(icon)
            Bounce().play(icon)
            """
        let text = Self.text(try Self.scene(bounce, base))
        #expect(text.contains(#""keyPath":"transform.scale""#), "\(text)")
        #expect(text.contains(#""duration":0.5"#), "\(text)")
    }

    /// `static let` and `static var` are one value of the type: read as `Type.name`, set once
    /// and seen by every later read, and initialised when first read.
    @Test func typePropertiesAreOneValueOfTheType() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                enum Timing {
                    static let base: TimeInterval = 0.25
                    static var scale: Double = 1
                    static var doubled: TimeInterval { base * 2 * scale }
                }
                let box = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                view.addSubview(box)
                Timing.scale = 3
                UIView.animate(withDuration: Timing.doubled) { box.alpha = 0 }
                """))
        #expect(text.contains(#""duration":1.5"#), "\(text)")
    }

    /// `typealias Color = UIColor` names UIColor, its initializers and its colours.
    @Test func aTypeAliasNamesItsType() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                typealias Color = UIColor
                let box = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                box.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
                view.addSubview(box)
                UIView.animate(withDuration: 1) { box.backgroundColor = Color.blue }
                """))
        #expect(text.contains(#""backgroundColor":[1,0,0,1]"#), "\(text)")
        #expect(text.contains(#""blue""#), "\(text)")
    }

    /// Another file's top-level `let` is a global variable the imported file's code reads (it is
    /// not that file's top-level code).
    @Test func anotherFilesTopLevelLetIsAGlobal() throws {
        let keys = """
            import QuartzCore
            internal let kPulseKey = "pulse"
            internal let kPulseDuration: CFTimeInterval = 0.8
            """
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                let dot = CALayer()
                dot.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
                view.layer.addSublayer(dot)
                let pulse = CABasicAnimation(keyPath: "opacity")
                pulse.toValue = 0
                pulse.duration = kPulseDuration
                dot.add(pulse, forKey: kPulseKey)
                """, keys))
        #expect(text.contains(#""duration":0.8"#), "\(text)")
        #expect(text.contains(#""pulse""#), "\(text)")
    }

    /// A type nested in a type nested in another: `Outer.Inner.Leaf(…)` constructs it, its own
    /// code names its sibling types by their short names.
    @Test func nestedTypesAreConstructedByQualifiedAndShortNames() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                struct Style {
                    struct Metrics {
                        var side: CGFloat = 30
                        static let standard = Metrics(side: 50)
                    }
                    static func box() -> UIView {
                        let side = Metrics.standard.side
                        return UIView(frame: CGRect(x: 0, y: 0, width: side, height: side))
                    }
                }
                let box = Style.box()
                view.addSubview(box)
                let small = Style.Metrics()
                UIView.animate(withDuration: 1) { box.frame.size.width = small.side }
                """))
        #expect(text.contains(#""frame":[0,0,50,50]"#), "\(text)")
        #expect(text.contains(#""frame":[0,0,30,50]"#), "\(text)")
    }
    /// Swift assigns a property by storing it (or running its `set`/observers); a method that
    /// happens to be named `setView(completion:)` is not `view`'s setter, as Objective-C's
    /// `setView:` would be.
    @Test func aSwiftMethodNamedLikeASetterIsNotTheSetter() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                final class Driver: NSObject {
                    private unowned var view: UIView
                    init(_ view: UIView) {
                        self.view = view
                        super.init()
                    }
                    func setView(completion: @escaping () -> Void) {
                        UIView.animate(withDuration: 0.6) { self.view.alpha = 0.25 }
                    }
                }
                let box = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                view.addSubview(box)
                Driver(box).setView {}
                """))
        #expect(text.contains(#""duration":0.6,"changes":{"box":{"opacity":0.25}}"#), "\(text)")
    }
    /// An enum's raw values, written or implied (a String case's name, an Int case one more
    /// than the one before), `init(rawValue:)` finding the case or nil, and `.rawValue`.
    @Test func enumRawValuesAreWrittenOrImplied() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                enum Preset: String { case pop, slideUp = "up", fade }
                enum Step: Int { case first, second, fifth = 5, sixth }
                let box = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                view.addSubview(box)
                var duration = 0.0
                if let preset = Preset(rawValue: "up") {
                    switch preset {
                    case .pop: duration = 1
                    case .slideUp: duration = Double(Step.sixth.rawValue) / 10
                    case .fade: duration = 3
                    }
                }
                if Preset(rawValue: "slideUp") != nil { duration = 9 }
                print(Preset.fade.rawValue, Step.second.rawValue)
                UIView.animate(withDuration: duration) { box.alpha = 0 }
                """))
        #expect(text.contains(#""duration":0.6"#), "\(text)")
        #expect(text.contains(#""mark":"fade 1""#), "\(text)")
    }
    /// A `lazy var`'s initial value runs when the property is first read: here after the view is
    /// named `card` and its duration set, so the helper it makes sees both.
    @Test func aLazyPropertyIsMadeWhenFirstRead() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                final class Fader {
                    unowned let view: Card
                    let duration: TimeInterval
                    init(_ view: Card) {
                        self.view = view
                        duration = view.duration
                    }
                    func run() { UIView.animate(withDuration: duration) { self.view.alpha = 0 } }
                }
                final class Card: UIView {
                    var duration: TimeInterval = 0.3
                    lazy var fader = Fader(self)
                    func fade() { fader.run() }
                }
                let card = Card(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                view.addSubview(card)
                card.duration = 0.9
                card.fade()
                """))
        #expect(text.contains(#""duration":0.9,"changes":{"card":{"opacity":0}}"#), "\(text)")
    }
    /// An extension of a framework type adds members to its values and leaves its initializers
    /// as they are: `CGRect(x:y:width:height:)` is still Core Graphics' rectangle, and its
    /// `center` and `insetAll(by:)` are the extension's.
    @Test func anExtensionOfAFrameworkTypeAddsMembersToItsValues() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                let frame = CGRect(x: 20, y: 40, width: 100, height: 60)
                let box = UIView(frame: frame.insetAll(by: 10))
                view.addSubview(box)
                UIView.animate(withDuration: 1) { box.center = frame.center.offset(5) }
                """,
                """
                import UIKit
                extension CGRect {
                    var center: CGPoint { CGPoint(x: self.midX, y: self.midY) }
                    func insetAll(by amount: CGFloat) -> CGRect { insetBy(dx: amount, dy: amount) }
                }
                extension CGPoint {
                    func offset(_ d: CGFloat) -> CGPoint { CGPoint(x: self.x + d, y: self.y + d) }
                }
                """))
        #expect(text.contains(#""frame":[30,50,80,40]"#), "\(text)")
        #expect(text.contains(#""position":[75,75]"#), "\(text)")
    }
    /// A framework's nested type through its owner, in a file that also extends the owner:
    /// `UIView.AnimationOptions.curveEaseIn` is the option, `UIView.AnimationOptions()` none.
    @Test func aFrameworkTypesNestedTypeIsReachedThroughItsOwner() throws {
        let text = Self.text(
            try Self.scene(
                """
                import UIKit
                extension UIView { func fadeOut(_ options: UIView.AnimationOptions) {
                    UIView.animate(withDuration: 0.4, delay: 0, options: options, animations: { self.alpha = 0 })
                } }
                let box = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                view.addSubview(box)
                var none = UIView.AnimationOptions()
                UIView.transition(with: box, duration: 0.5, options: none, animations: {})
                box.fadeOut([UIView.AnimationOptions.curveEaseIn])
                """))
        #expect(text.contains(#""options":["curveEaseIn"]"#), "\(text)")
        #expect(text.contains(#""transition":{"layer":"box","duration":0.5,"changes""#), "\(text)")
    }
}
