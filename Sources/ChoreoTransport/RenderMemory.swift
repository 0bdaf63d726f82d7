import Synchronization

/// The bytes that render responses hold together, in all requests at once: what the server
/// admits before memory runs out, as `NSCache`'s `totalCostLimit` bounds a cache, but refusing
/// new work instead of evicting. A render reserves its estimate before it starts and the bytes
/// it writes beyond as it goes; the reservation is returned when its response has been sent.
public final class RenderMemory: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)

    public init(limit: Int) { self.limit = limit }

    /// Bytes held now.
    public var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` when they fit beside what is held; false (nothing taken) otherwise.
    func take(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            if bytes > 0 && current + bytes > limit { return false }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func give(_ bytes: Int) { used.subtract(bytes, ordering: .relaxed) }

    /// A render that holds this much or more gives the heap's free pages back once its plan is
    /// made, and again once its response has been sent (`Allocator.releaseFreePages`).
    public static let trimAfterBytes = 32 << 20

    /// A reservation of `bytes`, or nil when they do not fit now.
    public func reserve(_ bytes: Int) -> Reservation? {
        take(bytes) ? Reservation(self, bytes) : nil
    }

    /// Bytes held for one response; returned to the budget when the last reference goes (the
    /// server keeps it until the response has been sent).
    public final class Reservation: Sendable {
        private let memory: RenderMemory
        private let held: Atomic<Int>

        init(_ memory: RenderMemory, _ bytes: Int) {
            self.memory = memory
            held = Atomic(bytes)
        }

        /// Grows the reservation by `bytes`; false (nothing taken) when they do not fit.
        public func grow(_ bytes: Int) -> Bool {
            guard memory.take(bytes) else { return false }
            held.add(bytes, ordering: .relaxed)
            return true
        }

        /// Gives `bytes` back to the budget (at most what is held).
        public func shrink(_ bytes: Int) {
            let returned = min(max(bytes, 0), held.load(ordering: .relaxed))
            held.subtract(returned, ordering: .relaxed)
            memory.give(returned)
        }

        /// Takes over `other`'s bytes, which then holds none: one reservation for everything a
        /// response holds (its scene's run and its own bytes).
        public func absorb(_ other: Reservation) {
            precondition(other.memory === memory, "reservations of different budgets")
            held.add(other.held.exchange(0, ordering: .relaxed), ordering: .relaxed)
        }

        /// Bytes held.
        public var bytes: Int { held.load(ordering: .relaxed) }

        deinit { memory.give(held.load(ordering: .relaxed)) }
    }
}
