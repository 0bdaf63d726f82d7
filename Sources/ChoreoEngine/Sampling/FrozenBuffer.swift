/// An immutable array whose elements are read in place.
///
/// Sampling reads single fields of large elements (an op holds several ``Lanes``); through an
/// `Array` the optimizer may copy the whole element first. The subscript here addresses the
/// element, so `buffer[i].field` loads only the field, and reading never touches a reference
/// count (threads reading one shared array would contend on it). The owner frees it with ``free()``.
public struct FrozenBuffer<Element>: @unchecked Sendable {
    fileprivate let base: UnsafeMutablePointer<Element>
    public let count: Int

    public init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: Swift.max(elements.count, 1))
        elements.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.initialize(from: address, count: source.count) }
        }
    }

    @inline(__always)
    public subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(index >= 0 && index < count, "FrozenBuffer index out of range")
            return UnsafePointer(base + index)
        }
    }

    /// The element at an index its owner has already checked (a compiled program checks its
    /// cross-references once when it is built): no bounds check in release builds, where the
    /// sampling loop reads a dozen elements per sample.
    @inline(__always)
    public subscript(unchecked index: Int) -> Element {
        unsafeAddress {
            assert(index >= 0 && index < count, "FrozenBuffer index out of range")
            return UnsafePointer(base + index)
        }
    }

    /// A copy of `elements`, which are released (the array left empty) once copied.
    public init(taking elements: inout [Element]) {
        self.init(elements)
        elements = []
    }

    /// The address of an element its owner has already checked, to read several in a row.
    @inline(__always)
    public func pointer(_ index: Int) -> UnsafePointer<Element> {
        assert(index >= 0 && index < count, "FrozenBuffer index out of range")
        return UnsafePointer(base + index)
    }

    /// Releases the storage; the buffer must not be read afterwards.
    public func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

extension FrozenBuffer where Element == UInt8 {
    /// The bytes `range` as a buffer, for appending without copying them out first.
    @inline(__always)
    public func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "FrozenBuffer range out of bounds")
        return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}
