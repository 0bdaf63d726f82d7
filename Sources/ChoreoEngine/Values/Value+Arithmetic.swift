/// The arithmetic Core Animation applies to property values: interpolation, addition for
/// `additive` and `cumulative` animations, and differences for UIKit's additive blocks.
///
/// Transforms add by concatenation (`CATransform3DConcat`) and interpolate through their
/// decomposition; booleans and strings are discrete; paths interpolate point by point when
/// their element structure matches and are discrete otherwise.
extension Value {
    /// The value a fraction `t` of the way from `a` to `b` (`t` may leave 0…1 for overshoot).
    @inline(__always)
    public static func interpolate(_ a: Value, _ b: Value, _ t: Double) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.point(let x), .point(let y)): return .point(Point(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t))
        case (.size(let x), .size(let y)): return .size(Point(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t))
        case (.rect(let x), .rect(let y)):
            return .rect(
                Rect(
                    x: x.origin.x + (y.origin.x - x.origin.x) * t, y: x.origin.y + (y.origin.y - x.origin.y) * t,
                    width: x.size.x + (y.size.x - x.size.x) * t, height: x.size.y + (y.size.y - x.size.y) * t))
        case (.color(let x), .color(let y)):
            return .color(
                Color(
                    red: x.red + (y.red - x.red) * t, green: x.green + (y.green - x.green) * t,
                    blue: x.blue + (y.blue - x.blue) * t, alpha: x.alpha + (y.alpha - x.alpha) * t))
        case (.transform(let x), .transform(let y)):
            return .transform(interpolateTransforms(x, y, t))
        case (.path(let x), .path(let y)):
            if let mixed = interpolatePaths(x, y, t) { return .path(mixed) }
            return t < 0.5 ? a : b
        default:
            return t < 0.5 ? a : b
        }
    }

    static func interpolateTransforms(_ x: Transform3D, _ y: Transform3D, _ t: Double) -> Transform3D {
        if t == 0 { return x }
        if t == 1 { return y }
        guard let cx = TransformComponents(x), let cy = TransformComponents(y) else { return t < 0.5 ? x : y }
        return TransformComponents.interpolate(cx, cy, t).transform
    }

    static func interpolatePaths(_ x: BezierPath, _ y: BezierPath, _ t: Double) -> BezierPath? {
        guard x.elements.count == y.elements.count else { return nil }
        func mix(_ p: Point, _ q: Point) -> Point { p + (q - p) * t }
        var elements: [BezierPath.Element] = []
        elements.reserveCapacity(x.elements.count)
        for (a, b) in zip(x.elements, y.elements) {
            switch (a, b) {
            case (.move(let p), .move(let q)): elements.append(.move(mix(p, q)))
            case (.line(let p), .line(let q)): elements.append(.line(mix(p, q)))
            case (.quad(let c, let p), .quad(let d, let q)): elements.append(.quad(mix(c, d), mix(p, q)))
            case (.cubic(let c1, let c2, let p), .cubic(let d1, let d2, let q)):
                elements.append(.cubic(mix(c1, d1), mix(c2, d2), mix(p, q)))
            case (.close, .close): elements.append(.close)
            default: return nil
            }
        }
        return BezierPath(elements: elements)
    }

    /// `a + b`: what an additive animation does to the value beneath it.
    @inline(__always)
    public static func add(_ a: Value, _ b: Value) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + y)
        case (.point(let x), .point(let y)): return .point(x + y)
        case (.size(let x), .size(let y)): return .size(x + y)
        case (.rect(let x), .rect(let y)): return .rect(Rect(origin: x.origin + y.origin, size: x.size + y.size))
        case (.color(let x), .color(let y)):
            return .color(
                Color(red: x.red + y.red, green: x.green + y.green, blue: x.blue + y.blue, alpha: x.alpha + y.alpha))
        case (.transform(let x), .transform(let y)): return .transform(y.concatenating(x))
        default: return b
        }
    }

    /// `a − b`: the offset that, added to `b`, gives `a`.
    public static func subtract(_ a: Value, _ b: Value) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x - y)
        case (.point(let x), .point(let y)): return .point(x - y)
        case (.size(let x), .size(let y)): return .size(x - y)
        case (.rect(let x), .rect(let y)): return .rect(Rect(origin: x.origin - y.origin, size: x.size - y.size))
        case (.color(let x), .color(let y)):
            return .color(
                Color(red: x.red - y.red, green: x.green - y.green, blue: x.blue - y.blue, alpha: x.alpha - y.alpha))
        case (.transform(let x), .transform(let y)): return .transform(y.inverted.concatenating(x))
        default: return a
        }
    }

    /// The additive offset that, applied over `base` as an additive animation applies
    /// (`add(base, offset)`), shows `shown`: UIKit's (old − new) for its additive blocks.
    /// For transforms that is `shown · base⁻¹`, since an additive transform is applied before
    /// the value beneath it.
    public static func offset(showing shown: Value, over base: Value) -> Value {
        if case .transform(let x) = shown, case .transform(let y) = base {
            return .transform(x.concatenating(y.inverted))
        }
        return subtract(shown, base)
    }

    /// `a · k`: used by `cumulative` (k whole repeats) and by velocities.
    public static func scale(_ a: Value, _ k: Double) -> Value {
        switch a {
        case .number(let x): return .number(x * k)
        case .point(let x): return .point(x * k)
        case .size(let x): return .size(x * k)
        case .rect(let x): return .rect(Rect(origin: x.origin * k, size: x.size * k))
        case .color(let x):
            return .color(Color(red: x.red * k, green: x.green * k, blue: x.blue * k, alpha: x.alpha * k))
        case .transform(let x):
            if k == 0 { return .transform(.identity) }
            var result = Transform3D.identity
            var remaining = k
            while remaining >= 1 {
                result = result.concatenating(x)
                remaining -= 1
            }
            if remaining > 0 { result = result.concatenating(interpolateTransforms(.identity, x, remaining)) }
            return .transform(result)
        default: return a
        }
    }

    /// The Euclidean distance between two values, for paced keyframes (0 for discrete kinds).
    public static func distance(_ a: Value, _ b: Value) -> Double {
        switch (a, b) {
        case (.number(let x), .number(let y)): return abs(y - x)
        case (.point(let x), .point(let y)), (.size(let x), .size(let y)): return (y - x).length
        case (.rect(let x), .rect(let y)):
            let d = [y.origin.x - x.origin.x, y.origin.y - x.origin.y, y.size.x - x.size.x, y.size.y - x.size.y]
            return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
        case (.color(let x), .color(let y)):
            let d = [y.red - x.red, y.green - x.green, y.blue - x.blue, y.alpha - x.alpha]
            return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
        case (.transform(let x), .transform(let y)):
            return zip(x.elements, y.elements).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }.squareRoot()
        default: return a == b ? 0 : 1
        }
    }

    /// Kochanek–Bartels Hermite interpolation between `p1` and `p2` with tangents `m1`, `m2`.
    static func hermite(_ p1: Value, _ p2: Value, _ m1: Value, _ m2: Value, _ s: Double) -> Value {
        let (h00, h10, h01, h11) = hermiteBasis(s)
        switch (p1, p2, m1, m2) {
        case (.number(let a), .number(let b), .number(let ma), .number(let mb)):
            return .number(h00 * a + h10 * ma + h01 * b + h11 * mb)
        case (.point(let a), .point(let b), .point(let ma), .point(let mb)):
            return .point(a * h00 + ma * h10 + b * h01 + mb * h11)
        case (.size(let a), .size(let b), .size(let ma), .size(let mb)):
            return .size(a * h00 + ma * h10 + b * h01 + mb * h11)
        default:
            return add(add(scale(p1, h00), scale(m1, h10)), add(scale(p2, h01), scale(m2, h11)))
        }
    }
}
