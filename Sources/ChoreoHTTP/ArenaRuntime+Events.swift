import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import ChoreoService
import Dispatch
import Foundation
import Synchronization

/// `GET /v1/arena/events`: Server-Sent Events of health changes and round events.
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

    /// One `GET /v1/arena/events` client.
    final class Subscriber: Sendable {
        struct Outbox {
            var bytes: [UInt8] = []
            var ended = false
            var stream: BodyStream?
        }

        let outbox = Mutex(Outbox())
        let lastRead = Mutex(DispatchTime.now().uptimeNanoseconds)

        /// Queues a message and wakes the stream (ends it when the client is too far behind).
        func deliver(_ message: [UInt8]) {
            let stream = outbox.withLock { outbox -> BodyStream? in
                guard !outbox.ended else { return nil }
                if outbox.bytes.count + message.count > ArenaRuntime.maxQueuedBytes {
                    outbox.ended = true
                    outbox.bytes = []
                } else {
                    outbox.bytes += message
                }
                return outbox.stream
            }
            stream?.ready()
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

    func broadcast(event: String, data: [UInt8]) {
        let message = Array("event: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
        for subscriber in liveSubscribers() { subscriber.deliver(message) }
    }

    /// The keep-alive comment to every subscriber (the arena's timer calls this).
    func keepAlive() {
        let message = Array(": keep-alive\n\n".utf8)
        for subscriber in liveSubscribers() { subscriber.deliver(message) }
    }

    /// The subscribers, after dropping (and ending) those that stopped reading a minute ago.
    private func liveSubscribers() -> [Subscriber] {
        let now = DispatchTime.now().uptimeNanoseconds
        let (live, stale) = state.withLock { state -> ([Subscriber], [Subscriber]) in
            // A read after `now` was taken is recent, not stale (no unsigned underflow).
            let stale = state.subscribers.filter { subscriber in
                let read = subscriber.lastRead.withLock { $0 }
                return now > read && now - read > Self.staleAfter
            }
            state.subscribers.removeAll { subscriber in stale.contains { $0 === subscriber } }
            return (state.subscribers, stale)
        }
        for subscriber in stale { subscriber.end() }
        return live
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

    /// A stream of events: health changes and round events as they happen, a comment every
    /// 15 s to keep the connection open. Nil when there are too many subscribers. The slot is
    /// freed when the connection ends.
    public func subscribe() -> BodyStream? {
        let subscriber = Subscriber()
        let accepted = state.withLock { state -> Bool in
            guard !state.closing, state.subscribers.count < Self.maxSubscribers else { return false }
            state.subscribers.append(subscriber)
            return true
        }
        guard accepted else { return nil }
        // The whole status first, so a new page needs no separate request to draw itself.
        let snapshot = Array(": choreo arena events\n\nevent: snapshot\ndata: ".utf8) + status() + Array("\n\n".utf8)
        subscriber.outbox.withLock { $0.bytes = snapshot }
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
}
