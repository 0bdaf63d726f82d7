import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import ChoreoTransport
import Dispatch
import Foundation
import Synchronization

/// `GET /v1/arena/events`: health changes and round events, as typed events that the edge
/// encodes (Server-Sent Events over HTTP).
///
/// Push-based: a subscriber's events wait in its outbox, and its stream answers "later" when
/// the outbox is empty, so no thread waits for an event. One timer (``keepAlive()``, every
/// ``keepAliveInterval`` seconds) writes the keep-alive comments; writing one is also how a
/// client that hung up during a quiet spell is noticed, and its slot freed.
extension ArenaRuntime {
    /// Seconds between keep-alive comments.
    static let keepAliveInterval = 15.0
    /// A subscriber that has not read for this long is dropped (nanoseconds).
    static let staleAfter: UInt64 = 60_000_000_000
    /// Bytes an outbox holds at most; a subscriber this far behind is dropped.
    static let maxQueuedBytes = 1 << 20

    /// Events kept for clients that reconnect (`Last-Event-ID`): about a round's worth.
    static let eventsKept = 512

    /// One `GET /v1/arena/events` client, with the encoding its connection speaks.
    final class Subscriber: Sendable {
        /// Encodes an event with its id (nil for the keep-alive).
        let encoding: any ArenaEventEncoding
        /// Events after which the stream ends (the snapshot counts), or nil: for ever.
        let limit: Int?

        init(limit: Int?, encoding: any ArenaEventEncoding) {
            self.limit = limit
            self.encoding = encoding
        }

        struct Outbox {
            var bytes: [UInt8] = []
            var ended = false
            var stream: BodyStream?
            /// Events queued so far, the keep-alive aside.
            var delivered = 0
        }

        let outbox = Mutex(Outbox())
        let lastRead = Mutex(DispatchTime.now().uptimeNanoseconds)

        /// Queues an event (ends the stream when the client is too far behind, or after its
        /// limit); the stream to wake, if any.
        func deliver(_ event: ArenaEvent, id: String?) -> BodyStream? {
            let message = encoding.encode(event, id: id)
            return outbox.withLock { outbox -> BodyStream? in
                guard !outbox.ended else { return nil }
                if outbox.bytes.count + message.count > ArenaRuntime.maxQueuedBytes {
                    outbox.ended = true
                    outbox.bytes = []
                } else {
                    outbox.bytes += message
                    if case .keepAlive = event {} else { outbox.delivered += 1 }
                    if let limit, outbox.delivered >= limit { outbox.ended = true }
                }
                return outbox.stream
            }
        }

        /// Ends the stream after what is queued.
        func end() {
            outbox.withLock { outbox -> BodyStream? in
                outbox.ended = true
                return outbox.stream
            }?.ready()
        }

        /// The stream's next piece: what is queued, else the end, else nothing yet.
        func take() -> BodyStream.Piece {
            lastRead.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            return outbox.withLock { outbox in
                if !outbox.bytes.isEmpty {
                    defer { outbox.bytes = [] }
                    return .bytes(outbox.bytes)
                }
                return outbox.ended ? .end : .later
            }
        }
    }

    /// Numbers an event, keeps it for reconnecting clients, and queues it for every live
    /// subscriber, all under the runtime's lock: every stream has the events in the order of
    /// their numbers.
    func broadcast(_ event: ArenaEvent) {
        let now = DispatchTime.now().uptimeNanoseconds
        let (wake, stale) = state.withLock { state -> ([BodyStream], [Subscriber]) in
            state.eventSequence += 1
            state.recentEvents.append((state.eventSequence, event))
            if state.recentEvents.count > Self.eventsKept {
                state.recentEvents.removeFirst(state.recentEvents.count - Self.eventsKept)
            }
            let stale = Self.dropStale(&state, now: now)
            let id = "\(eventStream)-\(state.eventSequence)"
            return (state.subscribers.compactMap { $0.deliver(event, id: id) }, stale)
        }
        for subscriber in stale { subscriber.end() }
        for stream in wake { stream.ready() }
    }

    /// The keep-alive to every subscriber (the arena's timer calls this): not numbered.
    func keepAlive() {
        let now = DispatchTime.now().uptimeNanoseconds
        let (wake, stale) = state.withLock { state -> ([BodyStream], [Subscriber]) in
            let stale = Self.dropStale(&state, now: now)
            return (state.subscribers.compactMap { $0.deliver(.keepAlive, id: nil) }, stale)
        }
        for subscriber in stale { subscriber.end() }
        for stream in wake { stream.ready() }
    }

    /// Drops the subscribers that stopped reading a minute ago; the caller ends them.
    private static func dropStale(_ state: inout State, now: UInt64) -> [Subscriber] {
        // A read after `now` was taken is recent, not stale (no unsigned underflow).
        let stale = state.subscribers.filter { subscriber in
            let read = subscriber.lastRead.withLock { $0 }
            return now > read && now - read > staleAfter
        }
        if !stale.isEmpty { state.subscribers.removeAll { subscriber in stale.contains { $0 === subscriber } } }
        return stale
    }

    /// Ends every event stream (the server is stopping: they would otherwise hold it open).
    public func closeStreams() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.closing = true
            defer { state.subscribers = [] }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.end() }
    }

    /// The number of open event streams.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A stream of events, each written by `encoding` with its id (`<stream>-<number>`): the
    /// status first, then health changes and round events as they happen, a keep-alive every
    /// 15 s. A client that reconnects with the id of the last event it read (`Last-Event-ID`)
    /// gets the events it missed instead of the status, while this process still keeps them;
    /// otherwise the status again. With a `limit`, the stream ends after that many events.
    /// Nil when there are too many subscribers. The slot is freed when the connection ends.
    public func subscribe(
        resumingAfter lastEventID: String? = nil, limit: Int? = nil,
        encoding: any ArenaEventEncoding
    ) -> BodyStream? {
        let subscriber = Subscriber(limit: limit, encoding: encoding)
        // The status is read outside the lock (it reads the round and the prober); events
        // numbered after `seen` follow it, so none is lost in between.
        let seen = state.withLock { $0.eventSequence }
        let snapshot = status()
        let accepted = state.withLock { state -> Bool in
            guard !state.closing, state.subscribers.count < Self.maxSubscribers else { return false }
            state.subscribers.append(subscriber)
            var after = seen
            if let resumed = resumable(lastEventID, &state) {
                after = resumed
            } else {
                _ = subscriber.deliver(.snapshot(snapshot), id: "\(eventStream)-\(seen)")
            }
            for (number, event) in state.recentEvents where number > after {
                _ = subscriber.deliver(event, id: "\(eventStream)-\(number)")
            }
            return true
        }
        guard accepted else { return nil }
        let stream = BodyStream(
            pushing: { subscriber.take() },
            onClose: { [weak self] in
                subscriber.outbox.withLock {
                    $0.ended = true
                    $0.stream = nil
                }
                self?.state.withLock { $0.subscribers.removeAll { $0 === subscriber } }
            })
        subscriber.outbox.withLock { $0.stream = stream }
        return stream
    }

    /// The event number a `Last-Event-ID` resumes after, when this stream still keeps every
    /// event after it; nil when the client must start again from the status.
    private func resumable(_ lastEventID: String?, _ state: inout State) -> Int? {
        guard let lastEventID, let dash = lastEventID.lastIndex(of: "-"),
            lastEventID[..<dash] == eventStream, let number = Int(lastEventID[lastEventID.index(after: dash)...]),
            number >= 0, number <= state.eventSequence
        else { return nil }
        let oldestKept = state.recentEvents.first?.number ?? state.eventSequence + 1
        return number + 1 >= oldestKept ? number : nil
    }
}
