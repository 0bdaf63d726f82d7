/// A binary min-heap of pending run-loop work, ordered by scene time; at one instant the
/// delegate callbacks come first (in the order their animations were added, a start before a
/// stop), then completions and `after` blocks in the order they were scheduled. Callback
/// entries are invalidated lazily by a generation number when a layer's timing changes and
/// they are rescheduled.
struct EventQueue {
    enum Kind: Int, Comparable {
        case start = 0
        case stop = 1
        /// A completion block (`subject` is the completion group).
        case completion = 2
        /// An `after` block or a deferred `onStop` (`subject` indexes the deferred turns).
        case deferred = 3
        /// A clock's running segment ends (`subject` is the clock): an animator reaches its end,
        /// an interactive transition finishes or cancels.
        case clockEnd = 4
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        var isCallback: Bool { self == .start || self == .stop }
    }

    struct Entry {
        let time: Double
        /// The animation of a callback, the completion group, or the deferred turn.
        let subject: Int
        let kind: Kind
        let generation: Int
        /// Scheduling order, for completions and deferred turns at the same instant.
        var sequence = 0

        var animation: Int { subject }

        func precedes(_ other: Entry) -> Bool {
            if time != other.time { return time < other.time }
            if kind.isCallback != other.kind.isCallback { return kind.isCallback }
            if kind.isCallback {
                if subject != other.subject { return subject < other.subject }
                return kind < other.kind
            }
            return sequence < other.sequence
        }
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }
    var first: Entry? { heap.first }
    /// Every pending entry, in no particular order.
    var entries: [Entry] { heap }

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
