import ChoreoEngine
import ChoreoJSON
import Glibc

/// A value while the importer evaluates code. Numbers keep Swift's split between integers and
/// floating point (`7 / 2` is 3); geometry, colours and transforms are the CoreGraphics / UIKit
/// values; views, layers, animations and instances of the file's classes live in the
/// evaluator's heap and are referred to by ``object``.
package indirect enum Value {
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case string(String)
    case null
    /// `CGPoint`.
    case point(Double, Double)
    /// `CGSize`.
    case size(Double, Double)
    /// `CGRect`.
    case rect(Double, Double, Double, Double)
    /// `UIEdgeInsets` (top, left, bottom, right).
    case insets(Double, Double, Double, Double)
    /// `CGAffineTransform` or `CATransform3D`.
    case transform(TransformValue)
    /// `UIColor` / `CGColor`: a scene colour (a system colour's name, or `[r, g, b, a]`).
    case color(JSONValue)
    /// `CAMediaTimingFunction`: a scene timing function (a name or control points).
    case timing(JSONValue)
    /// `UIBezierPath` / `CGPath`: scene path commands.
    case path([JSONValue])
    case array([Value])
    case dictionary([(Value, Value)])
    /// A view, layer, animation, animator or instance of the file's classes.
    case object(Int)
    case closure(ClosureValue)
    /// A type used as a value (`UIView`, `CABasicAnimation`).
    case typeName(String)
    /// An enumeration case or constant by its canonical name (`curveEaseOut`, `forwards`).
    case enumCase(String)
    /// A case of an enum the code declares: its type and case (`Shape.circle`), whose methods run.
    case enumValue(String, String)
    /// An option set (`[.curveEaseOut, .beginFromCurrentState]`).
    case options([String])
    /// A method of an object, as a value (`self.tick`, `#selector(tick)`).
    case method(Value, String)
    /// A value known only while the animation runs.
    case runtime(RuntimeValue)

    package var number: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    package var isRuntime: Bool {
        if case .runtime = self { return true }
        return false
    }

    /// A short description for diagnostics.
    package var kindName: String {
        switch self {
        case .integer: "Int"
        case .number: "Double"
        case .bool: "Bool"
        case .string: "String"
        case .null: "nil"
        case .point: "CGPoint"
        case .size: "CGSize"
        case .rect: "CGRect"
        case .insets: "UIEdgeInsets"
        case .transform: "transform"
        case .color: "UIColor"
        case .timing: "CAMediaTimingFunction"
        case .path: "UIBezierPath"
        case .array: "Array"
        case .dictionary: "Dictionary"
        case .object: "object"
        case .closure: "closure"
        case .typeName(let name): name
        case .enumCase(let name): ".\(name)"
        case .enumValue(let type, let name): "\(type).\(name)"
        case .options: "options"
        case .method: "method"
        case .runtime(let r): r.description
        }
    }
}

/// What a value known only at run time is.
package enum RuntimeValue: Sendable, Equatable {
    /// A completion's or `animationDidStop`'s `finished` (negated: `!finished`).
    case finished(negated: Bool)
    /// `transitionContext.transitionWasCancelled` (negated: `!…`).
    case transitionWasCancelled(negated: Bool)
    /// A property animator completion's `UIViewAnimatingPosition`.
    case animatorPosition
    /// `position == .end` in an animator's completion.
    case positionIs(String, negated: Bool)
    /// A transition context (`UIViewControllerContextTransitioning`).
    case transitionContext
    /// Anything else: what it is, in words.
    case unknown(String)
    /// A string made from a value the scene can test (`"card in: \(finished)"`): what it reads
    /// when the value holds, and when it does not.
    indirect case text(RuntimeValue, whenTrue: String, whenFalse: String)

    package var description: String {
        switch self {
        case .finished(let negated): negated ? "!finished" : "finished"
        case .transitionWasCancelled(let negated): negated ? "!transitionWasCancelled" : "transitionWasCancelled"
        case .animatorPosition: "the animator's final position"
        case .positionIs(let p, let negated): "position \(negated ? "!=" : "==") .\(p)"
        case .transitionContext: "the transition context"
        case .unknown(let what): what
        case .text(let value, _, _): "a string that depends on \(value.description)"
        }
    }

    /// The scene format's `if` condition for it, when it has one.
    package var condition: String? {
        switch self {
        case .finished(let negated): negated ? "!finished" : "finished"
        case .transitionWasCancelled(let negated): negated ? "!transitionWasCancelled" : "transitionWasCancelled"
        case .positionIs(let p, let negated): "position \(negated ? "!=" : "==") \(p)"
        default: nil
        }
    }

    package var negated: RuntimeValue? {
        switch self {
        case .finished(let n): .finished(negated: !n)
        case .transitionWasCancelled(let n): .transitionWasCancelled(negated: !n)
        case .positionIs(let p, let n): .positionIs(p, negated: !n)
        default: nil
        }
    }
}

/// A closure or block and the scope it captured (Swift captures variables, not values).
package final class ClosureValue {
    let syntax: ClosureSyntax
    let scope: Scope
    let selfValue: Value?
    let position: SourcePosition

    init(syntax: ClosureSyntax, scope: Scope, selfValue: Value?, position: SourcePosition) {
        self.syntax = syntax
        self.scope = scope
        self.selfValue = selfValue
        self.position = position
    }
}

/// A lexical scope: variables, and the scope around it.
final class Scope {
    var variables: [String: Value] = [:]
    let parent: Scope?
    /// For a block's copy of the variables it captured: where each came from. A write goes
    /// there too (Objective-C only lets a block write `__block` and `static` variables, which
    /// are shared).
    var capturedFrom: [String: Scope] = [:]

    init(parent: Scope?) { self.parent = parent }

    func lookup(_ name: String) -> Value? {
        var scope: Scope? = self
        while let current = scope {
            if let value = current.variables[name] { return value }
            scope = current.parent
        }
        return nil
    }

    /// A variable of this scope or of the scopes around it up to `outer`, not `outer`'s own:
    /// the local names, which come before `self`'s members, as a file's globals come after.
    func lookup(_ name: String, inside outer: Scope) -> Value? {
        var scope: Scope? = self
        while let current = scope, current !== outer {
            if let value = current.variables[name] { return value }
            scope = current.parent
        }
        return nil
    }

    /// Assigns a variable of this scope or of those around it up to `outer`, not `outer`'s own;
    /// false when none has it.
    func assign(_ name: String, _ value: Value, inside outer: Scope) -> Bool {
        var scope: Scope? = self
        while let current = scope, current !== outer {
            if current.variables[name] != nil { return current.assign(name, value) }
            scope = current.parent
        }
        return false
    }

    /// Assigns where the variable lives; false when no scope has it.
    func assign(_ name: String, _ value: Value) -> Bool {
        var scope: Scope? = self
        while let current = scope {
            if current.variables[name] != nil {
                current.variables[name] = value
                if let origin = current.capturedFrom[name] { _ = origin.assign(name, value) }
                return true
            }
            scope = current.parent
        }
        return false
    }
}

/// A `CGAffineTransform` or `CATransform3D`: its matrix (the engine's ``Transform3D``) and, when
/// it was made by one initializer, the scene's readable form of it.
package struct TransformValue: Sendable, Equatable {
    package var matrix: Transform3D
    package var readable: JSONValue?

    package static let identity = TransformValue(matrix: .identity, readable: .string("identity"))

    package var isIdentity: Bool { matrix.isIdentity }

    package static func scale(_ x: Double, _ y: Double, _ z: Double = 1) -> TransformValue {
        TransformValue(
            matrix: .scale(x, y, z),
            readable: .object(JSONObject([("scale", .array([.number(x), .number(y), .number(z)]))])))
    }

    package static func translation(_ x: Double, _ y: Double, _ z: Double = 0) -> TransformValue {
        TransformValue(
            matrix: .translation(x, y, z),
            readable: .object(JSONObject([("translate", .array([.number(x), .number(y), .number(z)]))])))
    }

    /// A rotation by `angle` radians about (x, y, z) (`CATransform3DMakeRotation`); about z only
    /// for `CGAffineTransform(rotationAngle:)`. Readable when it is about one axis.
    package static func rotation(_ angle: Double, _ x: Double = 0, _ y: Double = 0, _ z: Double = 1)
        -> TransformValue
    {
        let matrix = Transform3D.rotation(angle, x: x, y: y, z: z)
        let axes = [x, y, z].filter { $0 != 0 }
        guard axes.count == 1, let axis = axes.first else { return TransformValue(matrix: matrix, readable: nil) }
        let signed = axis > 0 ? angle : -angle
        let readable: JSONValue =
            z != 0
            ? .object(JSONObject([("rotate", .number(signed))]))
            : .object(
                JSONObject([
                    ("rotate", .object(JSONObject([(x != 0 ? "x" : "y", .number(signed))])))
                ]))
        return TransformValue(matrix: matrix, readable: readable)
    }

    /// `CGAffineTransform(a:b:c:d:tx:ty:)`.
    package static func affine(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double)
        -> TransformValue
    {
        TransformValue(matrix: Transform3D(a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1), readable: nil)
    }

    /// `self` then `other` (`CGAffineTransform.concatenating`, `CATransform3DConcat(self, other)`).
    package func concatenating(_ other: TransformValue) -> TransformValue {
        TransformValue(matrix: matrix.concatenating(other.matrix), readable: nil)
    }

    /// The scene's JSON for it: the readable form when it has one, else the 16 numbers.
    package var json: JSONValue {
        if isIdentity { return .string("identity") }
        return readable ?? .array(matrix.elements.map { .number($0) })
    }
}

func sine(_ x: Double) -> Double { Glibc.sin(x) }
func cosine(_ x: Double) -> Double { Glibc.cos(x) }
func arcTangent(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
func power(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
func tangent(_ x: Double) -> Double { Glibc.tan(x) }
