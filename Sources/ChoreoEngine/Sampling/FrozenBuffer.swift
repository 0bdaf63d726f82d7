/// An immutable array whose elements are read in place.
///
/// Sampling reads single fields of large elements (an op holds several ``Lanes``); through an
/// `Array` the optimizer may copy the whole element first. The subscript here addresses the
/// element, so `buffer[i].field` loads only the field, and reading never touches a reference
/// count (threads reading one shared array would contend on it). The owner frees it with ``free()``.
///
/// `@unchecked Sendable`: the elements are written once, in `init`, before the buffer is
/// shared, and only read after; the owner calls ``free()`` once no thread reads it any more
/// (the compiled program that holds it is released after its last sampling job).
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

extension FrozenBuffer {
    /// Takes storage that `elements` initialized, to be freed by ``free()``.
    fileprivate init(adopting base: UnsafeMutablePointer<Element>, count: Int) {
        self.base = base
        self.count = count
    }
}

/// An array a builder appends to and then hands whole to a ``FrozenBuffer``, which takes its
/// storage instead of a copy: a large program's ops (4.8 MB at 10,000 layers) are not held
/// twice at the moment it is frozen. A class, so the storage has one owner; what was never
/// frozen is freed with it.
final class GrowableBuffer<Element> {
    /// Storage this large or larger is not cut to size (``freeze()``).
    static var mappedBytes: Int { 256 << 10 }
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init() {
        capacity = 1
        base = .allocate(capacity: 1)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Room for at least `minimum` elements, so appends up to it do not move them.
    func reserveCapacity(_ minimum: Int) {
        guard minimum > capacity else { return }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: minimum)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = minimum
    }

    /// Where the elements are now (moved by growth and by ``freeze()``'s cut to size).
    var baseAddress: UnsafeRawPointer { UnsafeRawPointer(base) }

    func append(_ element: Element) {
        if count == capacity { reserveCapacity(capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `elements` in order.
    func append(contentsOf elements: [Element]) {
        if count + elements.count > capacity { reserveCapacity(Swift.max(capacity * 2, count + elements.count)) }
        elements.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { (base + count).initialize(from: address, count: source.count) }
        }
        count += elements.count
    }

    /// Drops the elements from `index` on.
    func removeLast(from index: Int) {
        precondition(index >= 0 && index <= count, "GrowableBuffer index out of range")
        (base + index).deinitialize(count: count - index)
        count = index
    }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
            base[index] = newValue
        }
    }

    /// The elements as a frozen buffer, in this storage; this buffer is left empty. Storage more
    /// than a quarter unused (appends went past the reserved capacity, or a bound reserved was
    /// not reached) is first cut to size when it is small. Large storage is a mapping of its
    /// own (choreo's allocator maps blocks of 256 KiB or more), whose pages never written take
    /// no memory: a copy would only hold it twice for a moment.
    func freeze() -> FrozenBuffer<Element> {
        if capacity - count > count / 4 && capacity * MemoryLayout<Element>.stride < Self.mappedBytes {
            let exact = UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(count, 1))
            exact.moveInitialize(from: base, count: count)
            base.deallocate()
            base = exact
        }
        let frozen = FrozenBuffer(adopting: base, count: count)
        base = .allocate(capacity: 1)
        capacity = 1
        count = 0
        return frozen
    }
}

/// The elements in order, read and changed in place, as the builder's arrays were.
extension GrowableBuffer: RandomAccessCollection, MutableCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }
}
