/// A numeric property value as up to 16 doubles, the form compiled sampling computes in.
///
/// Lane layout by kind: number `[n]`; point and size `[x, y]`; rect `[x, y, width, height]`;
/// colour `[r, g, b, a]`; transform the 16 `CATransform3D` elements row by row (`m11 … m44`).
/// Unused lanes are zero. Booleans, strings and paths have no lane form.
public typealias Lanes = SIMD16<Double>

extension ValueKind {
    /// How many lanes a value of this kind fills; 0 for kinds without a lane form.
    public var laneCount: Int {
        switch self {
        case .number: 1
        case .point, .size: 2
        case .rect, .color: 4
        case .transform: 16
        case .bool, .string, .path: 0
        }
    }
}

extension Value {
    /// The value in lane form; `nil` for booleans, strings and paths.
    public var lanes: Lanes? {
        var l = Lanes()
        switch self {
        case .number(let n): l[0] = n
        case .point(let p), .size(let p):
            l[0] = p.x
            l[1] = p.y
        case .rect(let r):
            l[0] = r.origin.x
            l[1] = r.origin.y
            l[2] = r.size.x
            l[3] = r.size.y
        case .color(let c):
            l[0] = c.red
            l[1] = c.green
            l[2] = c.blue
            l[3] = c.alpha
        case .transform(let m): l = Lanes(transform: m)
        case .bool, .string, .path: return nil
        }
        return l
    }

    /// The value of a kind held in lane form, from the `kind.laneCount` lanes at `lanes`.
    public init(lanes: UnsafePointer<Double>, kind: ValueKind) {
        var full = Lanes()
        for lane in 0..<kind.laneCount { full[lane] = lanes[lane] }
        self.init(lanes: full, kind: kind)
    }

    /// The value of a kind held in lane form (the inverse of ``lanes``).
    public init(lanes l: Lanes, kind: ValueKind) {
        switch kind {
        case .number: self = .number(l[0])
        case .point: self = .point(Point(l[0], l[1]))
        case .size: self = .size(Point(l[0], l[1]))
        case .rect: self = .rect(Rect(x: l[0], y: l[1], width: l[2], height: l[3]))
        case .color: self = .color(Color(red: l[0], green: l[1], blue: l[2], alpha: l[3]))
        case .transform: self = .transform(l.transform)
        case .bool, .string, .path: self = .number(l[0])
        }
    }
}

extension SIMD16 where Scalar == Double {
    /// The elements of a `CATransform3D`, row by row.
    @inline(__always)
    init(transform m: Transform3D) {
        self.init(
            m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43,
            m.m44)
    }

    /// The lanes read as a `CATransform3D`.
    var transform: Transform3D {
        Transform3D(
            self[0], self[1], self[2], self[3], self[4], self[5], self[6], self[7], self[8], self[9], self[10],
            self[11], self[12], self[13], self[14], self[15])
    }

    /// The identity transform's lanes, for the encoder's shortcut.
    public static let identityTransform = Lanes(transform: .identity)
}

extension SIMD16 where Scalar == Double {
    /// The lanes' bit patterns, to compare values exactly (−0 and 0 apart).
    var bitPatterns: SIMD16<UInt64> {
        var patterns = SIMD16<UInt64>()
        for lane in 0..<16 { patterns[lane] = self[lane].bitPattern }
        return patterns
    }
}

extension SIMD4 where Scalar == Double {
    /// The lanes' bit patterns, to compare values exactly (−0 and 0 apart).
    var bitPatterns: SIMD4<UInt64> {
        var patterns = SIMD4<UInt64>()
        for lane in 0..<4 { patterns[lane] = self[lane].bitPattern }
        return patterns
    }
}
