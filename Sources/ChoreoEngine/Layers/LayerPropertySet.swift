/// A set of layer properties as one bit per ``LayerProperty/ordinal``: what a layer's
/// animations target (no hashing, and nothing allocated per layer, where a `Set` was a block of
/// its own for each of a large tree's layers).
public struct LayerPropertySet: Sendable, Equatable, Sequence {
    private var bits: UInt64 = 0

    public init() {}

    public init(_ properties: some Sequence<LayerProperty>) {
        for property in properties { insert(property) }
    }

    public func contains(_ property: LayerProperty) -> Bool { bits & (1 << UInt64(property.ordinal)) != 0 }

    public mutating func insert(_ property: LayerProperty) { bits |= 1 << UInt64(property.ordinal) }

    public mutating func formUnion(_ other: some Sequence<LayerProperty>) {
        for property in other { insert(property) }
    }

    public var isEmpty: Bool { bits == 0 }

    /// The properties in declaration order (the order responses list them in).
    public func makeIterator() -> Iterator { Iterator(rest: bits) }

    public struct Iterator: IteratorProtocol {
        fileprivate var rest: UInt64

        public mutating func next() -> LayerProperty? {
            guard rest != 0 else { return nil }
            let ordinal = rest.trailingZeroBitCount
            rest &= rest - 1
            return LayerPropertySet.byOrdinal[ordinal]
        }
    }

    private static let byOrdinal: [LayerProperty] = {
        let all = LayerProperty.allCases
        precondition(all.count <= 64 && all.indices.allSatisfy { all[$0].ordinal == $0 })
        return all
    }()
}
