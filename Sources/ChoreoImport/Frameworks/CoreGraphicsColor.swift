import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// Core Graphics' colour functions (`CGColor.h`: `CGColorGetAlpha`, `CGColorGetComponents`,
/// `CGColorGetNumberOfComponents`, `CGColorCreateCopyWithAlpha`, `CGColorEqualToColor`, the
/// retain and release calls ARC leaves to the code) and the geometry tests and combinations of
/// `CGGeometry.h` and `CGAffineTransform.h` (`CGRectIsEmpty`, `CGRectEqualToRect`,
/// `CGRectContainsPoint`, `CGRectUnion`, `CGPointApplyAffineTransform`, …), as Apple's headers
/// declare them. A colour's components are its RGB colour space's: red, green, blue, alpha.
enum CoreGraphicsColorFramework {
    /// A colour's red, green, blue and alpha (a named system colour's from its table).
    static func components(_ value: Value) -> [Double]? {
        guard case .color(let color) = value else { return nil }
        switch color {
        case .array(let parts):
            let numbers = parts.compactMap { part -> Double? in
                if case .number(let n) = part { return n }
                return nil
            }
            return numbers.count == 4 ? numbers : nil
        case .string(let name):
            guard let hex = NamedColors.table[name], let rgba = NamedColors.components(hex), rgba.count >= 3 else {
                return nil
            }
            return rgba.count == 4 ? rgba : Array(rgba.prefix(3)) + [1]
        default:
            return nil
        }
    }

    private static func rect(_ value: Value) -> (x: Double, y: Double, w: Double, h: Double)? {
        guard case .rect(let x, let y, let w, let h) = value else { return nil }
        // CGRectStandardize: a negative width or height measured the other way.
        return (w < 0 ? x + w : x, h < 0 ? y + h : y, abs(w), abs(h))
    }

    private static func point(_ value: Value) -> (Double, Double)? {
        if case .point(let x, let y) = value { return (x, y) }
        return nil
    }

    static let functions: [FrameworkFunction] = colour + geometry

    static let colour: [FrameworkFunction] = [
        FrameworkFunction(c: "CGColorGetAlpha", 1) { e, c throws(ImportStop) in
            guard let rgba = components(c.values[0]) else { return try e.unknownAPI("CGColorGetAlpha", c.position) }
            return .number(rgba[3])
        },
        FrameworkFunction(c: "CGColorGetComponents", 1) { e, c throws(ImportStop) in
            guard let rgba = components(c.values[0]) else {
                return try e.unknownAPI("CGColorGetComponents", c.position)
            }
            return .array(rgba.map(Value.number))
        },
        FrameworkFunction(c: "CGColorGetNumberOfComponents", 1) { _, _ in .integer(4) },
        FrameworkFunction(c: "CGColorCreateCopyWithAlpha", 2) { e, c throws(ImportStop) in
            guard let rgba = components(c.values[0]) else {
                return try e.unknownAPI("CGColorCreateCopyWithAlpha", c.position)
            }
            let alpha = try c.number(e, 1)
            return .color(.array(rgba.prefix(3).map(JSONValue.number) + [.number(alpha)]))
        },
        FrameworkFunction(c: "CGColorEqualToColor", 2) { _, c in
            .bool(components(c.values[0]) != nil && components(c.values[0]) == components(c.values[1]))
        },
        FrameworkFunction(c: "CGColorRetain", 1) { _, c in c.values[0] },
        FrameworkFunction(c: "CGColorRelease", 1) { _, _ in .null },
    ]

    static let geometry: [FrameworkFunction] = [
        FrameworkFunction(c: "CGRectIsEmpty", 1) { _, c in
            guard let r = rect(c.values[0]) else { return .bool(true) }
            return .bool(r.w == 0 || r.h == 0 || r.x.isInfinite)
        },
        FrameworkFunction(c: "CGRectIsNull", 1) { _, c in
            guard let r = rect(c.values[0]) else { return .bool(true) }
            return .bool(r.x.isInfinite || r.y.isInfinite)
        },
        FrameworkFunction(c: "CGRectEqualToRect", 2) { _, c in
            guard let a = rect(c.values[0]), let b = rect(c.values[1]) else { return .bool(false) }
            return .bool(a == b)
        },
        FrameworkFunction(c: "CGPointEqualToPoint", 2) { _, c in
            guard let a = point(c.values[0]), let b = point(c.values[1]) else { return .bool(false) }
            return .bool(a == b)
        },
        FrameworkFunction(c: "CGSizeEqualToSize", 2) { _, c in
            guard case .size(let w1, let h1) = c.values[0], case .size(let w2, let h2) = c.values[1] else {
                return .bool(false)
            }
            return .bool(w1 == w2 && h1 == h2)
        },
        FrameworkFunction(c: "CGRectContainsPoint", 2) { _, c in
            guard let r = rect(c.values[0]), let (x, y) = point(c.values[1]) else { return .bool(false) }
            return .bool(x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h)
        },
        FrameworkFunction(c: "CGRectContainsRect", 2) { _, c in
            guard let a = rect(c.values[0]), let b = rect(c.values[1]) else { return .bool(false) }
            return .bool(b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h)
        },
        FrameworkFunction(c: "CGRectIntersectsRect", 2) { _, c in
            guard let a = rect(c.values[0]), let b = rect(c.values[1]) else { return .bool(false) }
            return .bool(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
        },
        FrameworkFunction(c: "CGRectUnion", 2) { _, c in
            guard let a = rect(c.values[0]), let b = rect(c.values[1]) else { return c.values[0] }
            let x = min(a.x, b.x)
            let y = min(a.y, b.y)
            return .rect(x, y, max(a.x + a.w, b.x + b.w) - x, max(a.y + a.h, b.y + b.h) - y)
        },
        FrameworkFunction(c: "CGRectIntersection", 2) { _, c in
            guard let a = rect(c.values[0]), let b = rect(c.values[1]) else { return c.values[0] }
            let x = max(a.x, b.x)
            let y = max(a.y, b.y)
            let w = min(a.x + a.w, b.x + b.w) - x
            let h = min(a.y + a.h, b.y + b.h) - y
            // No intersection is CGRectNull: infinite origin, zero size.
            guard w >= 0, h >= 0 else { return .rect(.infinity, .infinity, 0, 0) }
            return .rect(x, y, w, h)
        },
        FrameworkFunction(c: "CGRectIntegral", 1) { _, c in
            guard let r = rect(c.values[0]) else { return c.values[0] }
            let x = r.x.rounded(.down)
            let y = r.y.rounded(.down)
            return .rect(x, y, (r.x + r.w).rounded(.up) - x, (r.y + r.h).rounded(.up) - y)
        },
        FrameworkFunction(c: "CGRectStandardize", 1) { _, c in
            guard let r = rect(c.values[0]) else { return c.values[0] }
            return .rect(r.x, r.y, r.w, r.h)
        },
        FrameworkFunction(c: "CGPointApplyAffineTransform", 2) { e, c throws(ImportStop) in
            guard let (x, y) = point(c.values[0]), case .transform(let t) = c.values[1] else {
                return try e.unknownAPI("CGPointApplyAffineTransform", c.position)
            }
            let m = t.matrix
            return .point(m.m11 * x + m.m21 * y + m.m41, m.m12 * x + m.m22 * y + m.m42)
        },
        FrameworkFunction(c: "CGSizeApplyAffineTransform", 2) { e, c throws(ImportStop) in
            guard case .size(let w, let h) = c.values[0], case .transform(let t) = c.values[1] else {
                return try e.unknownAPI("CGSizeApplyAffineTransform", c.position)
            }
            let m = t.matrix
            return .size(m.m11 * w + m.m21 * h, m.m12 * w + m.m22 * h)
        },
    ]
}
