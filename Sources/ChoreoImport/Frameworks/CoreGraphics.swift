/// Core Graphics' geometry, affine transforms and mutable paths as their headers declare them
/// (`CGGeometry.h`, `CGAffineTransform.h`, `CGPath.h`; in Swift, the initializers of `CGPoint`,
/// `CGSize`, `CGRect`, `CGVector` and `CGAffineTransform`).
enum CoreGraphicsFramework {
    private typealias P = ParameterDeclaration

    /// The arguments after the first, unlabelled: a C function's rest, as a value method takes it.
    private static func rest(_ call: FrameworkCall) -> Arguments {
        Arguments(items: call.values.dropFirst().map { (nil, $0) })
    }

    static let functions: [FrameworkFunction] =
        geometry + transforms + rectFunctions + paths

    static let geometry: [FrameworkFunction] = [
        FrameworkFunction("CGPoint", [P("x"), P("y")]) { e, c throws(ImportStop) in
            .point(try c.number(e, 0), try c.number(e, 1))
        },
        FrameworkFunction("CGPoint", []) { _, _ in .point(0, 0) },
        FrameworkFunction(c: "CGPointMake", 2) { e, c throws(ImportStop) in
            .point(try c.number(e, 0), try c.number(e, 1))
        },
        FrameworkFunction("CGVector", [P("dx"), P("dy")]) { e, c throws(ImportStop) in
            .point(try c.number(e, 0), try c.number(e, 1))
        },
        FrameworkFunction(c: "CGVectorMake", 2) { e, c throws(ImportStop) in
            .point(try c.number(e, 0), try c.number(e, 1))
        },
        FrameworkFunction("CGSize", [P("width"), P("height")]) { e, c throws(ImportStop) in
            .size(try c.number(e, 0), try c.number(e, 1))
        },
        FrameworkFunction("CGSize", []) { _, _ in .size(0, 0) },
        FrameworkFunction(c: "CGSizeMake", 2) { e, c throws(ImportStop) in .size(try c.number(e, 0), try c.number(e, 1))
        },
        FrameworkFunction("CGRect", [P("x"), P("y"), P("width"), P("height")]) { e, c throws(ImportStop) in
            .rect(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2), try c.number(e, 3))
        },
        FrameworkFunction("CGRect", [P("origin"), P("size")]) { e, c throws(ImportStop) in
            // `.zero` is the point or size its label says.
            let (x, y) =
                ImportEvaluator.isZero(c.values[0]) ? (0, 0) : try e.pair(c.values[0], "origin", c.position)
            let (w, h) = ImportEvaluator.isZero(c.values[1]) ? (0, 0) : try e.pair(c.values[1], "size", c.position)
            return .rect(x, y, w, h)
        },
        FrameworkFunction("CGRect", []) { _, _ in .rect(0, 0, 0, 0) },
        FrameworkFunction(c: "CGRectMake", 4) { e, c throws(ImportStop) in
            .rect(try c.number(e, 0), try c.number(e, 1), try c.number(e, 2), try c.number(e, 3))
        },
    ]

    static let transforms: [FrameworkFunction] = [
        FrameworkFunction("CGAffineTransform", [P("scaleX"), P("y")]) { e, c throws(ImportStop) in
            .transform(.scale(try c.number(e, 0), try c.number(e, 1)))
        },
        FrameworkFunction("CGAffineTransform", [P("translationX"), P("y")]) { e, c throws(ImportStop) in
            .transform(.translation(try c.number(e, 0), try c.number(e, 1)))
        },
        FrameworkFunction("CGAffineTransform", [P("rotationAngle")]) { e, c throws(ImportStop) in
            .transform(.rotation(try c.number(e, 0)))
        },
        FrameworkFunction("CGAffineTransform", [P("a"), P("b"), P("c"), P("d"), P("tx"), P("ty")]) {
            e, c throws(ImportStop) in
            let n = try (0..<6).map { (i: Int) throws(ImportStop) in try c.number(e, i) }
            return .transform(.affine(n[0], n[1], n[2], n[3], n[4], n[5]))
        },
        FrameworkFunction(c: "CGAffineTransformMake", 6) { e, c throws(ImportStop) in
            let n = try (0..<6).map { (i: Int) throws(ImportStop) in try c.number(e, i) }
            return .transform(.affine(n[0], n[1], n[2], n[3], n[4], n[5]))
        },
        FrameworkFunction("CGAffineTransform", []) { _, _ in .transform(.identity) },
        FrameworkFunction(c: "CGAffineTransformMakeScale", 2) { e, c throws(ImportStop) in
            .transform(.scale(try c.number(e, 0), try c.number(e, 1)))
        },
        FrameworkFunction(c: "CGAffineTransformMakeTranslation", 2) { e, c throws(ImportStop) in
            .transform(.translation(try c.number(e, 0), try c.number(e, 1)))
        },
        FrameworkFunction(c: "CGAffineTransformMakeRotation", 1) { e, c throws(ImportStop) in
            .transform(.rotation(try c.number(e, 0)))
        },
        // The transform functions that change one: the value methods Swift names them
        // (`scaledBy(x:y:)`, `translatedBy(x:y:)`, `rotated(by:)`, `concatenating(_:)`).
        transformFunction("CGAffineTransformScale", 3, "scaledBy"),
        transformFunction("CGAffineTransformTranslate", 3, "translatedBy"),
        transformFunction("CGAffineTransformRotate", 2, "rotated"),
        transformFunction("CGAffineTransformConcat", 2, "concatenating"),
        FrameworkFunction(c: "CGAffineTransformIsIdentity", 1, pure: false) { _, c in
            if case .transform(let t) = c.values[0] { return .bool(t.isIdentity) }
            return .bool(false)
        },
    ]

    /// A C function whose first argument is the transform it returns changed (`CGAffineTransformScale(t, sx, sy)`).
    static func transformFunction(_ name: String, _ count: Int, _ method: String) -> FrameworkFunction {
        FrameworkFunction(c: name, count, pure: false) { e, c throws(ImportStop) in
            guard case .transform(let base) = c.values[0] else { throw e.stop(c.position, "\(name) needs a transform") }
            return try e.valueMethod(.transform(base), method, rest(c), c.position)
        }
    }

    static let rectFunctions: [FrameworkFunction] =
        [
            ("CGRectGetWidth", "width"), ("CGRectGetHeight", "height"), ("CGRectGetMidX", "midX"),
            ("CGRectGetMidY", "midY"), ("CGRectGetMinX", "minX"), ("CGRectGetMinY", "minY"),
            ("CGRectGetMaxX", "maxX"), ("CGRectGetMaxY", "maxY"),
        ].map { name, member in
            FrameworkFunction(c: name, 1, pure: false) { e, c throws(ImportStop) in
                try e.member(c.values[0], member, c.position)
            }
        } + [
            FrameworkFunction(c: "CGRectOffset", 3, pure: false) { e, c throws(ImportStop) in
                try e.valueMethod(c.values[0], "offsetBy", rest(c), c.position)
            },
            FrameworkFunction(c: "CGRectInset", 3, pure: false) { e, c throws(ImportStop) in
                try e.valueMethod(c.values[0], "insetBy", rest(c), c.position)
            },
            FrameworkFunction(c: "CGRectApplyAffineTransform", 2, pure: false) { e, c throws(ImportStop) in
                try e.valueMethod(c.values[0], "applying", rest(c), c.position)
            },
        ]

    /// `CGMutablePath` through `CGPath…` functions, drawn as UIBezierPath's methods draw (their
    /// transform argument is not applied: code passes NULL). CGPathAddArc's `clockwise` is Core
    /// Graphics', which UIKit's flipped coordinates draw the other way round: UIBezierPath's
    /// `!clockwise`.
    static let paths: [FrameworkFunction] = [
        FrameworkFunction(c: "CGPathCreateMutable", 0, pure: false) { e, c throws(ImportStop) in
            try e.makePath(Arguments(items: []), c.position)
        },
        FrameworkFunction(c: "CGPathCreateMutableCopy", 1, pure: false) { e, c throws(ImportStop) in
            if let copied = e.path(c.values[0]) { return e.allocate(.path(PathObject(commands: copied.commands))) }
            return try e.makePath(Arguments(items: []), c.position)
        },
        FrameworkFunction(c: "CGPathRelease", 1, pure: false) { _, c in c.values[0] },
        FrameworkFunction(c: "CGPathRetain", 1, pure: false) { _, c in c.values[0] },
        FrameworkFunction(c: "CFRelease", 1, pure: false) { _, c in c.values[0] },
        FrameworkFunction(c: "CGPathMoveToPoint", 4, pure: false) { e, c throws(ImportStop) in
            try e.pathMethod(
                c.values[0], "move", Arguments(items: [("to", .point(try c.number(e, 2), try c.number(e, 3)))]),
                c.position)
        },
        FrameworkFunction(c: "CGPathAddLineToPoint", 4, pure: false) { e, c throws(ImportStop) in
            try e.pathMethod(
                c.values[0], "addLine", Arguments(items: [("to", .point(try c.number(e, 2), try c.number(e, 3)))]),
                c.position)
        },
        FrameworkFunction(c: "CGPathAddQuadCurveToPoint", 6, pure: false) { e, c throws(ImportStop) in
            try e.pathMethod(
                c.values[0], "addQuadCurve",
                Arguments(items: [
                    ("to", .point(try c.number(e, 4), try c.number(e, 5))),
                    ("controlPoint", .point(try c.number(e, 2), try c.number(e, 3))),
                ]), c.position)
        },
        FrameworkFunction(c: "CGPathAddCurveToPoint", 8, pure: false) { e, c throws(ImportStop) in
            try e.pathMethod(
                c.values[0], "addCurve",
                Arguments(items: [
                    ("to", .point(try c.number(e, 6), try c.number(e, 7))),
                    ("controlPoint1", .point(try c.number(e, 2), try c.number(e, 3))),
                    ("controlPoint2", .point(try c.number(e, 4), try c.number(e, 5))),
                ]), c.position)
        },
        FrameworkFunction(c: "CGPathAddArc", 8, pure: false) { e, c throws(ImportStop) in
            try e.pathMethod(
                c.values[0], "addArc",
                Arguments(items: [
                    ("withCenter", .point(try c.number(e, 2), try c.number(e, 3))),
                    ("radius", .number(try c.number(e, 4))), ("startAngle", .number(try c.number(e, 5))),
                    ("endAngle", .number(try c.number(e, 6))),
                    ("clockwise", .bool(!(try e.truth(c.values[7], c.position)))),
                ]), c.position)
        },
        FrameworkFunction(c: "CGPathCloseSubpath", 1, pure: false) { e, c throws(ImportStop) in
            try e.pathMethod(c.values[0], "close", Arguments(items: []), c.position)
        },
    ]
}
