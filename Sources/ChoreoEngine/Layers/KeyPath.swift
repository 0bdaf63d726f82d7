import Glibc

/// An animatable key path: a layer property and optionally one component of it, such as
/// `position.x`, `bounds.size.width` or `transform.rotation.z`.
public struct KeyPath: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let property: LayerProperty
    public let component: Component?

    /// The sub-paths Core Animation's key-value coding understands.
    public enum Component: String, Sendable, Equatable, Hashable, CaseIterable {
        case x, y, width, height
        case origin, size, originX = "origin.x", originY = "origin.y"
        case sizeWidth = "size.width", sizeHeight = "size.height"
        case scale, scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z"
        /// `transform.scale.xy`: the x and y scale together, z left as it is. Core Animation's
        /// key-value coding takes axis letters combined (`xy`, `yx`) though its guide lists them
        /// one at a time; shipped code (pulse and ripple loaders) animates this path.
        case scaleXY = "scale.xy"
        case rotation, rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z"
        case translation, translationX = "translation.x", translationY = "translation.y"
        case translationZ = "translation.z"

        /// The kind of value the component holds.
        var kind: ValueKind {
            switch self {
            case .origin: .point
            case .size, .translation: .size
            default: .number
            }
        }

        /// Whether the component exists on a property of the given kind.
        func applies(to kind: ValueKind) -> Bool {
            switch self {
            case .x, .y: kind == .point
            case .width, .height: kind == .size
            case .origin, .size, .originX, .originY, .sizeWidth, .sizeHeight: kind == .rect
            default: kind == .transform
            }
        }
    }

    public init(_ property: LayerProperty, _ component: Component? = nil) {
        self.property = property
        self.component = component
    }

    /// Parses a key path string; `nil` for a path Core Animation would not animate.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        guard let property = LayerProperty(rawValue: parts[0]) else { return nil }
        if parts.count == 1 {
            self.init(property)
            return
        }
        let written = parts[1] == "scale.yx" ? "scale.xy" : parts[1]
        guard let component = Component(rawValue: written), component.applies(to: property.kind) else { return nil }
        self.init(property, component)
    }

    /// The kind of value this key path reads and writes.
    public var kind: ValueKind { component?.kind ?? property.kind }

    public var description: String {
        guard let component else { return property.rawValue }
        return "\(property.rawValue).\(component.rawValue)"
    }

    /// Reads this key path's part of a whole property value.
    @inline(__always)
    public func extract(from value: Value) -> Value {
        guard let component else { return value }
        switch (value, component) {
        case (.point(let p), .x): return .number(p.x)
        case (.point(let p), .y): return .number(p.y)
        case (.size(let s), .width): return .number(s.x)
        case (.size(let s), .height): return .number(s.y)
        case (.rect(let r), .origin): return .point(r.origin)
        case (.rect(let r), .size): return .size(r.size)
        case (.rect(let r), .originX): return .number(r.origin.x)
        case (.rect(let r), .originY): return .number(r.origin.y)
        case (.rect(let r), .sizeWidth): return .number(r.size.x)
        case (.rect(let r), .sizeHeight): return .number(r.size.y)
        case (.transform(let m), _): return Self.extractTransform(m, component)
        default: return value
        }
    }

    /// Writes this key path's part into a whole property value, leaving the rest as it was.
    @inline(__always)
    public func insert(_ part: Value, into value: Value) -> Value {
        guard let component else { return part }
        switch (value, component, part) {
        case (.point(var p), .x, .number(let n)):
            p.x = n
            return .point(p)
        case (.point(var p), .y, .number(let n)):
            p.y = n
            return .point(p)
        case (.size(var s), .width, .number(let n)):
            s.x = n
            return .size(s)
        case (.size(var s), .height, .number(let n)):
            s.y = n
            return .size(s)
        case (.rect(var r), .origin, .point(let p)):
            r.origin = p
            return .rect(r)
        case (.rect(var r), .size, .size(let s)):
            r.size = s
            return .rect(r)
        case (.rect(var r), .originX, .number(let n)):
            r.origin.x = n
            return .rect(r)
        case (.rect(var r), .originY, .number(let n)):
            r.origin.y = n
            return .rect(r)
        case (.rect(var r), .sizeWidth, .number(let n)):
            r.size.x = n
            return .rect(r)
        case (.rect(var r), .sizeHeight, .number(let n)):
            r.size.y = n
            return .rect(r)
        case (.transform(let m), _, _):
            return .transform(Self.insertTransform(part, component, into: m))
        default: return value
        }
    }

    private static func extractTransform(_ m: Transform3D, _ component: Component) -> Value {
        // Fast paths for translation, which does not need a decomposition.
        switch component {
        case .translation: return .size(Point(m.m41 / m.m44, m.m42 / m.m44))
        case .translationX: return .number(m.m41 / m.m44)
        case .translationY: return .number(m.m42 / m.m44)
        case .translationZ: return .number(m.m43 / m.m44)
        default: break
        }
        let rotation: Bool
        switch component {
        case .rotation, .rotationX, .rotationY, .rotationZ: rotation = true
        default: rotation = false
        }
        let c = TransformComponents(m, rotation: rotation) ?? TransformComponents()
        switch component {
        case .scale: return .number((c.scale.x + c.scale.y + c.scale.z) / 3)
        case .scaleX: return .number(c.scale.x)
        case .scaleXY: return .number((c.scale.x + c.scale.y) / 2)
        case .scaleY: return .number(c.scale.y)
        case .scaleZ: return .number(c.scale.z)
        case .rotation, .rotationZ: return .number(c.eulerAngles.z)
        case .rotationX: return .number(c.eulerAngles.x)
        case .rotationY: return .number(c.eulerAngles.y)
        default: return .number(0)
        }
    }

    private static func insertTransform(_ part: Value, _ component: Component, into m: Transform3D) -> Transform3D {
        if m.isIdentity, let matrix = insertTransformIntoIdentity(part, component) { return matrix }
        return insertTransform(part, component, baseIsIdentity: false, base: TransformComponents(m))
    }

    /// Writes a `transform.*` part into a transform given by its decomposition (`nil` when it
    /// is singular); compiled sampling decomposes a constant base once and calls this per sample.
    @inline(__always)
    static func insertTransform(
        _ part: Value, _ component: Component, baseIsIdentity: Bool, base: TransformComponents?
    ) -> Transform3D {
        if baseIsIdentity, let matrix = insertTransformIntoIdentity(part, component) { return matrix }
        var c = base ?? TransformComponents()
        switch (component, part) {
        case (.scale, .number(let n)): c.scale = (n, n, n)
        case (.scaleX, .number(let n)): c.scale.x = n
        case (.scaleXY, .number(let n)):
            c.scale.x = n
            c.scale.y = n
        case (.scaleY, .number(let n)): c.scale.y = n
        case (.scaleZ, .number(let n)): c.scale.z = n
        case (.rotation, .number(let n)), (.rotationZ, .number(let n)):
            var e = c.eulerAngles
            e.z = n
            c.eulerAngles = e
        case (.rotationX, .number(let n)):
            var e = c.eulerAngles
            e.x = n
            c.eulerAngles = e
        case (.rotationY, .number(let n)):
            var e = c.eulerAngles
            e.y = n
            c.eulerAngles = e
        case (.translation, .size(let s)):
            c.translation.x = s.x
            c.translation.y = s.y
        case (.translationX, .number(let n)): c.translation.x = n
        case (.translationY, .number(let n)): c.translation.y = n
        case (.translationZ, .number(let n)): c.translation.z = n
        default: break
        }
        return c.transform
    }

    /// A `transform.*` number part written into the identity transform, without decomposing;
    /// `nil` for parts that need the general path.
    @inline(__always)
    static func insertTransformIntoIdentity(_ part: Value, _ component: Component) -> Transform3D? {
        guard case .number(let n) = part else { return nil }
        switch component {
        case .scale: return .scale(n, n, n)
        case .scaleX: return .scale(n, 1, 1)
        case .scaleXY: return .scale(n, n, 1)
        case .scaleY: return .scale(1, n, 1)
        case .scaleZ: return .scale(1, 1, n)
        case .rotation, .rotationZ: return .rotation(n, x: 0, y: 0, z: 1)
        case .rotationX: return .rotation(n, x: 1, y: 0, z: 0)
        case .rotationY: return .rotation(n, x: 0, y: 1, z: 0)
        case .translationX: return .translation(n, 0, 0)
        case .translationY: return .translation(0, n, 0)
        case .translationZ: return .translation(0, 0, n)
        default: return nil
        }
    }
}
