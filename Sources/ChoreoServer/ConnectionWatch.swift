import ChoreoTransport
import Dispatch
import Foundation
import Synchronization

/// The open connections as the server's sweeper sees them: each one's socket, since when it has
/// waited for a request head, and the render running for it. Keyed by the connection's address.
///
/// libmicrohttpd's own timeout is an idle timeout, which a client sending a header byte now and
/// then never reaches; and a suspended connection is not polled, so a client that hangs up
/// while its render runs would go unnoticed. ``sweep(now:shutdown:hungUp:)`` handles both.
final class ConnectionWatch: Sendable {
    struct Watched {
        let socket: Int32
        /// Since when it waits for a request head (nil while a request is read or answered).
        var headSince: UInt64?
        /// The running request's cancellation, set while a render runs for it.
        var running: Cancellation?
    }

    private let connections = Mutex<[UInt: Watched]>([:])
    /// The timer that sweeps, while one runs.
    private let sweeper = Mutex<(any DispatchSourceTimer)?>(nil)
    /// Nanoseconds a connection has to send a whole request head (`Options.headTimeout`).
    let headLimit: UInt64

    init(headTimeout seconds: Int) { headLimit = UInt64(max(0, seconds)) * 1_000_000_000 }

    /// A connection opened at `now`: it waits for its first head.
    func opened(_ key: UInt, socket: Int32, now: UInt64) {
        connections.withLock { $0[key] = Watched(socket: socket, headSince: now) }
    }

    func closed(_ key: UInt) { _ = connections.withLock { $0.removeValue(forKey: key) } }

    /// A head arrived (`waiting` false), or a response completed and a kept-alive connection
    /// waits for its next head from `now`.
    func markHead(_ key: UInt, waiting: Bool, now: UInt64) {
        connections.withLock { $0[key]?.headSince = waiting ? now : nil }
    }

    /// Registers (or, with nil, clears) the cancellation of the render running for a connection.
    func watch(_ key: UInt, running: Cancellation?) {
        connections.withLock { $0[key]?.running = running }
    }

    /// Shuts down (`shutdown`) the sockets whose request head is overdue at `now`, and cancels
    /// the render of a connection whose client has hung up (`hungUp`).
    ///
    /// Under the lock: libmicrohttpd closes a socket only after its closed notification
    /// (``closed(_:)``), which waits for this lock, so no socket here has been closed and reused.
    func sweep(now: UInt64, shutdown: (Int32) -> Void, hungUp: (Int32) -> Bool) {
        connections.withLock { connections in
            for (_, entry) in connections {
                // A head marked after `now` was read is newer, not overdue (no unsigned underflow).
                if let since = entry.headSince, now > since, now - since > headLimit { shutdown(entry.socket) }
                if let running = entry.running, !running.isCancelled, hungUp(entry.socket) { running.cancel() }
            }
        }
    }

    /// Sweeps four times a second: shuts down the sockets of connections whose request head is
    /// overdue (libmicrohttpd then closes the connection), and cancels the render of a
    /// connection whose client has hung up (a zero-byte peek: the peer closed).
    func startSweeping() {
        sweeper.withLock { slot in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
            timer.setEventHandler { [weak self] in
                guard let self else { return }
                var probe: UInt8 = 0
                sweep(
                    now: DispatchTime.now().uptimeNanoseconds,
                    shutdown: { _ = Foundation.shutdown($0, Int32(SHUT_RDWR)) },
                    hungUp: { recv($0, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0 })
            }
            timer.resume()
            slot = timer
        }
    }

    func stopSweeping() { sweeper.withLock { $0?.cancel() } }
}
