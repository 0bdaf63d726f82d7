/// Core Animation's C functions (`CATransform3D.h`, `CABase.h`): 3-D transforms, and the media
/// clock, which an import reads as scene time.
enum CoreAnimationFramework {
    /// A C function whose first argument is the transform it returns changed.
    private static func changing(_ name: String, _ count: Int, _ method: String) -> FrameworkFunction {
        CoreGraphicsFramework.transformFunction(name, count, method)
    }

    static let functions: [FrameworkFunction] = [
        FrameworkFunction(c: "CATransform3DMakeScale", 3) { e, c throws(ImportStop) in
            .transform(.scale(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2)))
        },
        FrameworkFunction(c: "CATransform3DMakeTranslation", 3) { e, c throws(ImportStop) in
            .transform(.translation(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2)))
        },
        FrameworkFunction(c: "CATransform3DMakeRotation", 4) { e, c throws(ImportStop) in
            .transform(.rotation(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2), try c.number(e, 3)))
        },
        changing("CATransform3DScale", 4, "scaledBy"),
        changing("CATransform3DTranslate", 4, "translatedBy"),
        changing("CATransform3DRotate", 5, "rotated"),
        changing("CATransform3DConcat", 2, "concatenating"),
        // A 2-D transform is the 3-D one it stands for.
        FrameworkFunction(c: "CATransform3DMakeAffineTransform", 1, pure: false) { _, c in c.values[0] },
        FrameworkFunction(c: "CATransform3DGetAffineTransform", 1, pure: false) { _, c in c.values[0] },
        FrameworkFunction(c: "CATransform3DIsIdentity", 1, pure: false) { _, c in
            if case .transform(let t) = c.values[0] { return .bool(t.isIdentity) }
            return .bool(false)
        },
        FrameworkFunction(c: "CACurrentMediaTime", 0, pure: false) { e, c in
            e.warn(c.position, "CACurrentMediaTime() reads the wall clock; the import counts scene time from 0")
            return .number(e.now)
        },
    ]
}
