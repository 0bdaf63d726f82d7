/// The stored properties of a layer that a scene can set, animate or read: the animatable
/// properties of `CALayer`, `CAShapeLayer`, `CATextLayer`, `CAEmitterLayer` and
/// `CAReplicatorLayer`.
public enum LayerProperty: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
    case position, bounds, anchorPoint, zPosition, opacity, hidden, transform, sublayerTransform
    case backgroundColor, borderColor, borderWidth, cornerRadius, masksToBounds
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius
    // CAShapeLayer
    case path, fillColor, strokeColor, lineWidth, strokeStart, strokeEnd, lineCap, lineJoin
    // CATextLayer
    case string, fontSize, foregroundColor, alignmentMode
    /// A Gaussian blur of the layer and its sublayers, its radius in points: SwiftUI's
    /// `blur(radius:)` (Core Animation's `filters` with a `CIGaussianBlur`, which iOS does not
    /// draw on a layer; a choreo addition).
    case blurRadius
    // CAEmitterLayer
    case emitterPosition, emitterZPosition, emitterSize, birthRate, lifetime, velocity, scale, spin
    // CAReplicatorLayer
    case instanceCount, instanceDelay, instanceTransform, instanceColor
    case instanceRedOffset, instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset, preservesDepth

    /// The order properties are listed in responses: the order of this declaration.
    public static func < (a: LayerProperty, b: LayerProperty) -> Bool { a.ordinal < b.ordinal }

    /// The property's position in declaration order (indexes per-property tables; no hashing).
    @inline(__always)
    public var ordinal: Int {
        switch self {
        case .position: 0
        case .bounds: 1
        case .anchorPoint: 2
        case .zPosition: 3
        case .opacity: 4
        case .hidden: 5
        case .transform: 6
        case .sublayerTransform: 7
        case .backgroundColor: 8
        case .borderColor: 9
        case .borderWidth: 10
        case .cornerRadius: 11
        case .masksToBounds: 12
        case .shadowColor: 13
        case .shadowOpacity: 14
        case .shadowOffset: 15
        case .shadowRadius: 16
        case .path: 17
        case .fillColor: 18
        case .strokeColor: 19
        case .lineWidth: 20
        case .strokeStart: 21
        case .strokeEnd: 22
        case .lineCap: 23
        case .lineJoin: 24
        case .string: 25
        case .fontSize: 26
        case .foregroundColor: 27
        case .alignmentMode: 28
        case .blurRadius: 29
        case .emitterPosition: 30
        case .emitterZPosition: 31
        case .emitterSize: 32
        case .birthRate: 33
        case .lifetime: 34
        case .velocity: 35
        case .scale: 36
        case .spin: 37
        case .instanceCount: 38
        case .instanceDelay: 39
        case .instanceTransform: 40
        case .instanceColor: 41
        case .instanceRedOffset: 42
        case .instanceGreenOffset: 43
        case .instanceBlueOffset: 44
        case .instanceAlphaOffset: 45
        case .preservesDepth: 46
        }
    }

    /// The kind of value the property holds.
    public var kind: ValueKind {
        switch self {
        case .position, .anchorPoint, .emitterPosition: .point
        case .bounds: .rect
        case .shadowOffset, .emitterSize: .size
        case .transform, .sublayerTransform, .instanceTransform: .transform
        case .hidden, .masksToBounds, .preservesDepth: .bool
        case .backgroundColor, .borderColor, .shadowColor, .fillColor, .strokeColor, .foregroundColor, .instanceColor:
            .color
        case .path: .path
        case .lineCap, .lineJoin, .string, .alignmentMode: .string
        default: .number
        }
    }

    /// Core Animation's default for the property on a new layer.
    public var defaultValue: Value {
        switch self {
        case .position, .emitterPosition: .point(.zero)
        case .anchorPoint: .point(Point(0.5, 0.5))
        case .bounds: .rect(.zero)
        case .opacity, .lineWidth, .strokeEnd, .birthRate, .lifetime, .velocity, .scale, .spin, .instanceCount:
            .number(1)
        case .hidden, .masksToBounds, .preservesDepth: .bool(false)
        case .transform, .sublayerTransform, .instanceTransform: .transform(.identity)
        case .instanceColor: .color(Color(red: 1, green: 1, blue: 1, alpha: 1))
        case .backgroundColor, .strokeColor: .color(.clear)
        case .borderColor, .shadowColor, .fillColor: .color(.black)
        case .foregroundColor: .color(Color(red: 1, green: 1, blue: 1, alpha: 1))
        case .shadowOffset: .size(Point(0, -3))
        case .shadowRadius: .number(3)
        case .emitterSize: .size(.zero)
        case .path: .path(BezierPath())
        case .lineCap: .string("butt")
        case .lineJoin: .string("miter")
        case .string: .string("")
        case .alignmentMode: .string("natural")
        case .fontSize: .number(36)
        default: .number(0)
        }
    }

    /// Which layer types have the property.
    public func belongs(to type: LayerType) -> Bool {
        switch self {
        case .path, .fillColor, .strokeColor, .lineWidth, .strokeStart, .strokeEnd, .lineCap, .lineJoin:
            type == .shape
        case .string, .fontSize, .foregroundColor, .alignmentMode: type == .text
        case .emitterPosition, .emitterZPosition, .emitterSize, .birthRate, .lifetime, .velocity, .scale, .spin:
            type == .emitter
        case .instanceCount, .instanceDelay, .instanceTransform, .instanceColor, .instanceRedOffset,
            .instanceGreenOffset, .instanceBlueOffset, .instanceAlphaOffset, .preservesDepth:
            type == .replicator
        default: true
        }
    }

    /// Whether the render server reads the property to draw a layer: geometry, content and
    /// the shape and text properties; an emitter's own properties only shape its particles,
    /// and a replicator's only its copies (which are layers of their own in the timeline).
    public var isDrawn: Bool { ordinal < LayerProperty.emitterPosition.ordinal }

    /// Whether Core Animation can animate the property.
    public var isAnimatable: Bool {
        switch self {
        // `instanceCount` and `preservesDepth` are not marked animatable in CAReplicatorLayer.h.
        case .lineCap, .lineJoin, .alignmentMode, .string, .instanceCount, .preservesDepth: false
        default: true
        }
    }
}

/// `CALayer`'s subclasses a scene can use.
public enum LayerType: String, Sendable, Equatable, Hashable {
    /// `replicator`: a `CAReplicatorLayer`, whose sublayers are drawn `instanceCount` times.
    case layer, shape, text, emitter, replicator

    /// The properties the render server reads to draw a layer of this type, in declaration
    /// order: a `CALayer`'s geometry and content, and a `CAShapeLayer`'s path and stroke or a
    /// `CATextLayer`'s string and font.
    public var drawnProperties: [LayerProperty] {
        LayerProperty.allCases.filter { $0.isDrawn && $0.belongs(to: self) }
    }
}

/// Whether a model change animates by itself.
public enum ActionPolicy: String, Sendable, Equatable, Hashable {
    /// A view's backing layer: `actionForLayer:forKey:` returns `NSNull`, changes are instant.
    case none
    /// A standalone `CALayer`: an animatable change gets the implicit animation.
    case implicit
}
