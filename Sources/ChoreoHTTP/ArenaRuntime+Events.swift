import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import Dispatch
import Foundation
import Synchronization

/// `GET /v1/arena/events`: Server-Sent Events of health changes and round events.
extension ArenaRuntime {
    /// One `GET /v1/arena/events` client.
    final class Subscriber: @unchecked Sendable {
        let queue = Mutex<[UInt8]>([])
        let signal = DispatchSemaphore(value: 0)
        let lastRead = Mutex(DispatchTime.now().uptimeNanoseconds)
    }

    func broadcast(event: String, data: [UInt8]) {
        let message = Array("event: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
        let now = DispatchTime.now().uptimeNanoseconds
        let subscribers = state.withLock { state -> [Subscriber] in
            // A client that stopped reading for a minute has gone away.
            state.subscribers.removeAll { now - $0.lastRead.withLock { $0 } > 60_000_000_000 }
            return state.subscribers
        }
        for subscriber in subscribers {
            subscriber.queue.withLock { $0 += message }
            subscriber.signal.signal()
        }
    }

    /// Ends every event stream (the server is stopping: they would otherwise hold it open).
    public func closeStreams() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.closing = true
            defer { state.subscribers = [] }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.signal.signal() }
    }

    /// A stream of events: health changes and round events as they happen, a comment every
    /// 15 s to keep the connection open. Nil when there are too many subscribers.
    public func subscribe() -> BodyStream? {
        let subscriber = Subscriber()
        let accepted = state.withLock { state -> Bool in
            guard !state.closing, state.subscribers.count < Self.maxSubscribers else { return false }
            state.subscribers.append(subscriber)
            return true
        }
        guard accepted else { return nil }
        var first = true
        return BodyStream {
            if first {
                first = false
                return Array(": choreo arena events\n\n".utf8)
            }
            subscriber.lastRead.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            _ = subscriber.signal.wait(timeout: .now() + 15)
            subscriber.lastRead.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            if self.state.withLock({ $0.closing }) { return nil }
            let pending = subscriber.queue.withLock { queue -> [UInt8] in
                defer { queue = [] }
                return queue
            }
            return pending.isEmpty ? Array(": keep-alive\n\n".utf8) : pending
        }
    }
}
