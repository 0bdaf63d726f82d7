/// Any value a layer property can hold: what `CALayer`'s animatable properties store.
public enum Value: Sendable, Equatable {
    case number(Double)
    case point(Point)
    case size(Point)
    indirect case rect(Rect)
    indirect case color(Color)
    /// Boxed: a 4×4 matrix would make every value 129 bytes to copy.
    indirect case transform(Transform3D)
    case bool(Bool)
    case string(String)
    indirect case path(BezierPath)

    /// The kind of the value, used to check that animation values fit their key path.
    public var kind: ValueKind {
        switch self {
        case .number: .number
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .bool: .bool
        case .string: .string
        case .path: .path
        }
    }
}

/// The kinds of ``Value``, as the scene format names them.
public enum ValueKind: String, Sendable, Equatable, CaseIterable {
    case number, point, size, rect, color, transform, bool, string, path

    /// Whether values of this kind change continuously (others switch at the halfway point).
    public var isContinuous: Bool {
        switch self {
        case .bool, .string: false
        default: true
        }
    }

    /// The additive identity: what "no change" is for this kind.
    public var zero: Value {
        switch self {
        case .number: .number(0)
        case .point: .point(.zero)
        case .size: .size(.zero)
        case .rect: .rect(.zero)
        case .color: .color(.clear)
        case .transform: .transform(.identity)
        case .bool: .bool(false)
        case .string: .string("")
        case .path: .path(BezierPath())
        }
    }
}
