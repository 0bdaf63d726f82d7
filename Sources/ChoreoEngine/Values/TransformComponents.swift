import Glibc

/// A transform split into the parts Core Animation's `transform.*` key paths name.
///
/// `transform.translation`, `transform.scale` and `transform.rotation` read and write one part
/// while the others stay; interpolating two transforms interpolates their parts (rotation by
/// spherical interpolation along the shorter arc, as Core Animation does for matrices).
/// Composition applies, to a row vector: scale, then skew, then rotation, then translation,
/// then perspective. The split follows the CSS Transforms 2 decomposition.
public struct TransformComponents: Sendable, Equatable {
    public var translation: (x: Double, y: Double, z: Double) = (0, 0, 0)
    public var scale: (x: Double, y: Double, z: Double) = (1, 1, 1)
    /// Shear factors xy, xz, yz.
    public var skew: (xy: Double, xz: Double, yz: Double) = (0, 0, 0)
    /// The perspective column `(m14, m24, m34, m44)` of the perspective part.
    public var perspective: (Double, Double, Double, Double) = (0, 0, 0, 1)
    /// The rotation as a unit quaternion (x, y, z, w).
    public var quaternion: (x: Double, y: Double, z: Double, w: Double) = (0, 0, 0, 1)

    public init() {}

    public static func == (a: TransformComponents, b: TransformComponents) -> Bool {
        a.translation == b.translation && a.scale == b.scale && a.skew == b.skew && a.perspective == b.perspective
            && a.quaternion == b.quaternion
    }

    /// A row of a 3×3 matrix, on the stack (the decomposition runs for every sample of a
    /// `transform.*` sub-key-path).
    struct Row: Equatable {
        var x: Double
        var y: Double
        var z: Double

        init(_ x: Double, _ y: Double, _ z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }

        subscript(index: Int) -> Double {
            get { index == 0 ? x : index == 1 ? y : z }
            set {
                switch index {
                case 0: x = newValue
                case 1: y = newValue
                default: z = newValue
                }
            }
        }

        var length: Double { (x * x + y * y + z * z).squareRoot() }
        func dot(_ b: Row) -> Double { x * b.x + y * b.y + z * b.z }
        /// `self − k·b`.
        func minus(_ b: Row, times k: Double) -> Row { Row(x - k * b.x, y - k * b.y, z - k * b.z) }
        func divided(by d: Double) -> Row { Row(x / d, y / d, z / d) }
        static prefix func - (row: Row) -> Row { Row(-row.x, -row.y, -row.z) }
    }

    /// Decomposes a transform; `nil` for a singular one (it has no such parts).
    public init?(_ m: Transform3D) {
        self.init(m, rotation: true)
    }

    /// Decomposes a transform, its rotation only when `rotation` (reading `transform.scale`
    /// needs no quaternion; the other parts are the same to the bit either way).
    public init?(_ m: Transform3D, rotation: Bool) {
        self.init(m, rotation: rotation, diagonal: true)
    }

    /// `diagonal`: a matrix that only scales (by positive factors) and translates is split
    /// without the general steps, which give exactly its diagonal and its last row for it
    /// (each row's length is √(s²) = s, correctly rounded, and every other term is zero);
    /// `false` takes the general steps anyway, for the tests that check this.
    init?(_ m: Transform3D, rotation: Bool, diagonal: Bool) {
        if m.isIdentity { return }
        if diagonal && Self.isPositiveScale(m) {
            translation = (m.m41, m.m42, m.m43)
            scale = (m.m11, m.m22, m.m33)
            return
        }
        guard m.m44 != 0 else { return nil }
        let n = 1 / m.m44
        var r0 = Row(m.m11 * n, m.m12 * n, m.m13 * n)
        var r1 = Row(m.m21 * n, m.m22 * n, m.m23 * n)
        var r2 = Row(m.m31 * n, m.m32 * n, m.m33 * n)
        translation = (m.m41 * n, m.m42 * n, m.m43 * n)
        let lastColumn = (m.m14 * n, m.m24 * n, m.m34 * n, 1.0)
        let determinant3 =
            r0.x * (r1.y * r2.z - r1.z * r2.y)
            - r0.y * (r1.x * r2.z - r1.z * r2.x)
            + r0.z * (r1.x * r2.y - r1.y * r2.x)
        guard determinant3 != 0, determinant3.isFinite else { return nil }
        if lastColumn.0 != 0 || lastColumn.1 != 0 || lastColumn.2 != 0 {
            // Solve affine · p = lastColumn (p as a column vector).
            let affine = Transform3D(
                r0.x, r0.y, r0.z, 0, r1.x, r1.y, r1.z, 0,
                r2.x, r2.y, r2.z, 0, translation.x, translation.y, translation.z, 1)
            let inverse = affine.inverted
            let c = lastColumn
            perspective = (
                inverse.m11 * c.0 + inverse.m12 * c.1 + inverse.m13 * c.2 + inverse.m14 * c.3,
                inverse.m21 * c.0 + inverse.m22 * c.1 + inverse.m23 * c.2 + inverse.m24 * c.3,
                inverse.m31 * c.0 + inverse.m32 * c.1 + inverse.m33 * c.2 + inverse.m34 * c.3,
                inverse.m41 * c.0 + inverse.m42 * c.1 + inverse.m43 * c.2 + inverse.m44 * c.3
            )
        }
        var sx = r0.length
        r0 = r0.divided(by: sx)
        var kxy = r0.dot(r1)
        r1 = r1.minus(r0, times: kxy)
        var sy = r1.length
        r1 = r1.divided(by: sy)
        kxy /= sy
        var kxz = r0.dot(r2)
        r2 = r2.minus(r0, times: kxz)
        var kyz = r1.dot(r2)
        r2 = r2.minus(r1, times: kyz)
        var sz = r2.length
        r2 = r2.divided(by: sz)
        kxz /= sz
        kyz /= sz
        let cross = Row(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
        if r0.dot(cross) < 0 {
            sx = -sx
            sy = -sy
            sz = -sz
            r0 = -r0
            r1 = -r1
            r2 = -r2
        }
        scale = (sx, sy, sz)
        skew = (kxy, kxz, kyz)
        if rotation { quaternion = Self.quaternion(fromRows: (r0, r1, r2)) }
    }

    /// Whether `m` only scales, by factors from 2^-300 to 2^300 (their squares and their
    /// product, the determinant, are normal doubles), and translates: every other entry +0,
    /// `m44` 1.
    @inline(__always)
    static func isPositiveScale(_ m: Transform3D) -> Bool {
        let others =
            m.m12.bitPattern | m.m13.bitPattern | m.m14.bitPattern | m.m21.bitPattern | m.m23.bitPattern
            | m.m24.bitPattern | m.m31.bitPattern | m.m32.bitPattern | m.m34.bitPattern
        guard others == 0, m.m44 == 1 else { return false }
        let low = 0x1p-300
        let high = 0x1p300
        return m.m11 >= low && m.m11 <= high && m.m22 >= low && m.m22 <= high && m.m33 >= low && m.m33 <= high
    }

    /// The transform these parts compose.
    public var transform: Transform3D {
        let r = Self.rows(fromQuaternion: quaternion)
        let (sx, sy, sz) = scale
        // Rows of the upper 3×3: scale and skew applied to the orthonormal rotation rows.
        var row0 = Row(r.0.x * sx, r.0.y * sx, r.0.z * sx)
        var row1 = Row(
            (r.1.x + skew.xy * r.0.x) * sy, (r.1.y + skew.xy * r.0.y) * sy, (r.1.z + skew.xy * r.0.z) * sy)
        var row2 = Row(
            (r.2.x + skew.xz * r.0.x + skew.yz * r.1.x) * sz,
            (r.2.y + skew.xz * r.0.y + skew.yz * r.1.y) * sz,
            (r.2.z + skew.xz * r.0.z + skew.yz * r.1.z) * sz)
        for i in 0..<3 {
            if abs(row0[i]) < 1e-15 { row0[i] = 0 }
            if abs(row1[i]) < 1e-15 { row1[i] = 0 }
            if abs(row2[i]) < 1e-15 { row2[i] = 0 }
        }
        let (tx, ty, tz) = translation
        let p = perspective
        let hasPerspective = p.0 != 0 || p.1 != 0 || p.2 != 0 || p.3 != 1
        guard hasPerspective else {
            return Transform3D(
                row0.x, row0.y, row0.z, 0, row1.x, row1.y, row1.z, 0, row2.x, row2.y, row2.z, 0, tx, ty, tz, 1)
        }
        func column(_ row: Row, _ w: Double) -> Double { row.x * p.0 + row.y * p.1 + row.z * p.2 + w * p.3 }
        return Transform3D(
            row0.x, row0.y, row0.z, column(row0, 0),
            row1.x, row1.y, row1.z, column(row1, 0),
            row2.x, row2.y, row2.z, column(row2, 0),
            tx, ty, tz, tx * p.0 + ty * p.1 + tz * p.2 + p.3)
    }

    // MARK: Rotation as Euler angles (transform.rotation.x / .y / .z)

    /// The rotation as angles about x, then y, then z (radians), Core Animation's sense of rotation.
    public var eulerAngles: (x: Double, y: Double, z: Double) {
        get {
            let r = Self.rows(fromQuaternion: quaternion)
            let sinY = max(-1, min(1, -r.0.z))
            let y = asin(sinY)
            if abs(sinY) < 0.999_999_999 {
                return (atan2(r.1.z, r.2.z), y, atan2(r.0.y, r.0.x))
            }
            return (atan2(-r.2.y, r.1.y), y, 0)
        }
        set {
            let (ca, sa) = (cos(newValue.x), sin(newValue.x))
            let (cb, sb) = (cos(newValue.y), sin(newValue.y))
            let (cg, sg) = (cos(newValue.z), sin(newValue.z))
            quaternion = Self.quaternion(
                fromRows: (
                    Row(cb * cg, cb * sg, -sb),
                    Row(sa * sb * cg - ca * sg, sa * sb * sg + ca * cg, sa * cb),
                    Row(ca * sb * cg + sa * sg, ca * sb * sg - sa * cg, ca * cb)
                ))
        }
    }

    // MARK: Quaternion conversions (row-vector rotation matrices)

    static func rows(fromQuaternion q: (x: Double, y: Double, z: Double, w: Double)) -> (Row, Row, Row) {
        let (x, y, z, w) = q
        // Column-vector rotation matrix, transposed for Core Animation's row vectors.
        return (
            Row(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            Row(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            Row(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        )
    }

    static func quaternion(fromRows r: (Row, Row, Row)) -> (x: Double, y: Double, z: Double, w: Double) {
        // c[i][j] is the column-vector matrix: the transpose of the rows.
        let c00 = r.0.x
        let c11 = r.1.y
        let c22 = r.2.z
        let c01 = r.1.x
        let c10 = r.0.y
        let c02 = r.2.x
        let c20 = r.0.z
        let c12 = r.2.y
        let c21 = r.1.z
        let trace = c00 + c11 + c22
        var q: (x: Double, y: Double, z: Double, w: Double)
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = ((c21 - c12) / s, (c02 - c20) / s, (c10 - c01) / s, 0.25 * s)
        } else if c00 > c11 && c00 > c22 {
            let s = (1 + c00 - c11 - c22).squareRoot() * 2
            q = (0.25 * s, (c01 + c10) / s, (c02 + c20) / s, (c21 - c12) / s)
        } else if c11 > c22 {
            let s = (1 + c11 - c00 - c22).squareRoot() * 2
            q = ((c01 + c10) / s, 0.25 * s, (c12 + c21) / s, (c02 - c20) / s)
        } else {
            let s = (1 + c22 - c00 - c11).squareRoot() * 2
            q = ((c02 + c20) / s, (c12 + c21) / s, 0.25 * s, (c10 - c01) / s)
        }
        let norm = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
        return (q.x / norm, q.y / norm, q.z / norm, q.w / norm)
    }

    /// Interpolates two decompositions: linear parts linearly, the rotation by slerp on the shorter arc.
    public static func interpolate(_ a: TransformComponents, _ b: TransformComponents, _ t: Double)
        -> TransformComponents
    {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        var out = TransformComponents()
        out.translation = (
            mix(a.translation.x, b.translation.x), mix(a.translation.y, b.translation.y),
            mix(a.translation.z, b.translation.z)
        )
        out.scale = (mix(a.scale.x, b.scale.x), mix(a.scale.y, b.scale.y), mix(a.scale.z, b.scale.z))
        out.skew = (mix(a.skew.xy, b.skew.xy), mix(a.skew.xz, b.skew.xz), mix(a.skew.yz, b.skew.yz))
        out.perspective = (
            mix(a.perspective.0, b.perspective.0), mix(a.perspective.1, b.perspective.1),
            mix(a.perspective.2, b.perspective.2), mix(a.perspective.3, b.perspective.3)
        )
        var qb = b.quaternion
        let qa = a.quaternion
        var product = qa.x * qb.x + qa.y * qb.y + qa.z * qb.z + qa.w * qb.w
        if product < 0 {
            qb = (-qb.x, -qb.y, -qb.z, -qb.w)
            product = -product
        }
        product = min(product, 1)
        if product > 0.999_999 {
            out.quaternion = qa
            if t >= 1 { out.quaternion = qb }
            if t > 0 && t < 1 {
                let q = (mix(qa.x, qb.x), mix(qa.y, qb.y), mix(qa.z, qb.z), mix(qa.w, qb.w))
                let n = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
                out.quaternion = (q.0 / n, q.1 / n, q.2 / n, q.3 / n)
            }
            return out
        }
        let theta = acos(product)
        let w = sin(t * theta) / sin(theta)
        let wa = cos(t * theta) - product * w
        out.quaternion = (wa * qa.x + w * qb.x, wa * qa.y + w * qb.y, wa * qa.z + w * qb.z, wa * qa.w + w * qb.w)
        return out
    }
}
