/// A binary min-heap of pending delegate callbacks, ordered by scene time, then by the order
/// the animations were added, then start before stop. Entries are invalidated lazily by a
/// generation number when a layer's timing changes and they are rescheduled.
struct EventQueue {
    enum Kind: Int, Comparable {
        case start = 0
        case stop = 1
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    struct Entry {
        let time: Double
        let animation: Int
        let kind: Kind
        let generation: Int

        func precedes(_ other: Entry) -> Bool {
            if time != other.time { return time < other.time }
            if animation != other.animation { return animation < other.animation }
            return kind < other.kind
        }
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }
    var first: Entry? { heap.first }

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < heap.count && heap[left].precedes(heap[best]) { best = left }
            if right < heap.count && heap[right].precedes(heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
