import Foundation

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

    /// Decomposes a transform; `nil` for a singular one (it has no such parts).
    public init?(_ m: Transform3D) {
        if m.isIdentity { return }
        guard m.m44 != 0 else { return nil }
        let n = 1 / m.m44
        var rows = [
            [m.m11 * n, m.m12 * n, m.m13 * n],
            [m.m21 * n, m.m22 * n, m.m23 * n],
            [m.m31 * n, m.m32 * n, m.m33 * n],
        ]
        translation = (m.m41 * n, m.m42 * n, m.m43 * n)
        let lastColumn = (m.m14 * n, m.m24 * n, m.m34 * n, 1.0)
        let affine = Transform3D(
            rows[0][0], rows[0][1], rows[0][2], 0, rows[1][0], rows[1][1], rows[1][2], 0,
            rows[2][0], rows[2][1], rows[2][2], 0, translation.x, translation.y, translation.z, 1)
        let determinant3 =
            rows[0][0] * (rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1])
            - rows[0][1] * (rows[1][0] * rows[2][2] - rows[1][2] * rows[2][0])
            + rows[0][2] * (rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0])
        guard determinant3 != 0, determinant3.isFinite else { return nil }
        if lastColumn.0 != 0 || lastColumn.1 != 0 || lastColumn.2 != 0 {
            // Solve affine · p = lastColumn (p as a column vector).
            let inverse = affine.inverted
            let c = lastColumn
            perspective = (
                inverse.m11 * c.0 + inverse.m12 * c.1 + inverse.m13 * c.2 + inverse.m14 * c.3,
                inverse.m21 * c.0 + inverse.m22 * c.1 + inverse.m23 * c.2 + inverse.m24 * c.3,
                inverse.m31 * c.0 + inverse.m32 * c.1 + inverse.m33 * c.2 + inverse.m34 * c.3,
                inverse.m41 * c.0 + inverse.m42 * c.1 + inverse.m43 * c.2 + inverse.m44 * c.3
            )
        }
        func length(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [Double], _ b: [Double], _ k: Double) -> [Double] {
            [a[0] - k * b[0], a[1] - k * b[1], a[2] - k * b[2]]
        }
        var sx = length(rows[0])
        rows[0] = rows[0].map { $0 / sx }
        var kxy = dot(rows[0], rows[1])
        rows[1] = combine(rows[1], rows[0], kxy)
        var sy = length(rows[1])
        rows[1] = rows[1].map { $0 / sy }
        kxy /= sy
        var kxz = dot(rows[0], rows[2])
        rows[2] = combine(rows[2], rows[0], kxz)
        var kyz = dot(rows[1], rows[2])
        rows[2] = combine(rows[2], rows[1], kyz)
        var sz = length(rows[2])
        rows[2] = rows[2].map { $0 / sz }
        kxz /= sz
        kyz /= sz
        let cross = [
            rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1],
            rows[1][2] * rows[2][0] - rows[1][0] * rows[2][2],
            rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0],
        ]
        if dot(rows[0], cross) < 0 {
            sx = -sx
            sy = -sy
            sz = -sz
            rows = rows.map { $0.map { -$0 } }
        }
        scale = (sx, sy, sz)
        skew = (kxy, kxz, kyz)
        quaternion = Self.quaternion(fromRows: rows)
    }

    /// The transform these parts compose.
    public var transform: Transform3D {
        let r = Self.rows(fromQuaternion: quaternion)
        let (sx, sy, sz) = scale
        // Rows of the upper 3×3: scale and skew applied to the orthonormal rotation rows.
        var row0 = [r[0][0] * sx, r[0][1] * sx, r[0][2] * sx]
        var row1 = [
            (r[1][0] + skew.xy * r[0][0]) * sy, (r[1][1] + skew.xy * r[0][1]) * sy, (r[1][2] + skew.xy * r[0][2]) * sy,
        ]
        var row2 = [
            (r[2][0] + skew.xz * r[0][0] + skew.yz * r[1][0]) * sz,
            (r[2][1] + skew.xz * r[0][1] + skew.yz * r[1][1]) * sz,
            (r[2][2] + skew.xz * r[0][2] + skew.yz * r[1][2]) * sz,
        ]
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
                row0[0], row0[1], row0[2], 0, row1[0], row1[1], row1[2], 0, row2[0], row2[1], row2[2], 0, tx, ty, tz, 1)
        }
        func column(_ row: [Double], _ w: Double) -> Double { row[0] * p.0 + row[1] * p.1 + row[2] * p.2 + w * p.3 }
        return Transform3D(
            row0[0], row0[1], row0[2], column(row0, 0),
            row1[0], row1[1], row1[2], column(row1, 0),
            row2[0], row2[1], row2[2], column(row2, 0),
            tx, ty, tz, tx * p.0 + ty * p.1 + tz * p.2 + p.3)
    }

    // MARK: Rotation as Euler angles (transform.rotation.x / .y / .z)

    /// The rotation as angles about x, then y, then z (radians), Core Animation's sense of rotation.
    public var eulerAngles: (x: Double, y: Double, z: Double) {
        get {
            let r = Self.rows(fromQuaternion: quaternion)
            let sinY = max(-1, min(1, -r[0][2]))
            let y = asin(sinY)
            if abs(sinY) < 0.999_999_999 {
                return (atan2(r[1][2], r[2][2]), y, atan2(r[0][1], r[0][0]))
            }
            return (atan2(-r[2][1], r[1][1]), y, 0)
        }
        set {
            let (ca, sa) = (cos(newValue.x), sin(newValue.x))
            let (cb, sb) = (cos(newValue.y), sin(newValue.y))
            let (cg, sg) = (cos(newValue.z), sin(newValue.z))
            let rows = [
                [cb * cg, cb * sg, -sb],
                [sa * sb * cg - ca * sg, sa * sb * sg + ca * cg, sa * cb],
                [ca * sb * cg + sa * sg, ca * sb * sg - sa * cg, ca * cb],
            ]
            quaternion = Self.quaternion(fromRows: rows)
        }
    }

    // MARK: Quaternion conversions (row-vector rotation matrices)

    static func rows(fromQuaternion q: (x: Double, y: Double, z: Double, w: Double)) -> [[Double]] {
        let (x, y, z, w) = q
        // Column-vector rotation matrix, transposed for Core Animation's row vectors.
        return [
            [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
            [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
            [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
        ]
    }

    static func quaternion(fromRows r: [[Double]]) -> (x: Double, y: Double, z: Double, w: Double) {
        // c[i][j] is the column-vector matrix: the transpose of the rows.
        let c00 = r[0][0]
        let c11 = r[1][1]
        let c22 = r[2][2]
        let c01 = r[1][0]
        let c10 = r[0][1]
        let c02 = r[2][0]
        let c20 = r[0][2]
        let c12 = r[2][1]
        let c21 = r[1][2]
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
