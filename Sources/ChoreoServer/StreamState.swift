import ChoreoTransport
import Synchronization

/// A streamed body's buffer between the worker that produces it and the connection that drains
/// it: the server's back-pressure.
///
/// A worker runs only while there is something to produce: when the buffer is full, or when a
/// push stream answers "later", it stops; the connection draining the buffer, or the stream's
/// ``BodyStream/ready()``, starts it again. An idle event stream holds no thread.
///
/// The connection is reached through what the adapter gives: `resume` here, and a peer check
/// and a suspension for each ``read(into:max:peerClosed:suspend:)``, so these rules are tested
/// without a socket.
final class StreamState: Sendable {
    struct Buffer {
        /// The pieces not yet sent, oldest first, each as the stream gave it (kept, not copied);
        /// a piece is let go as soon as its last byte is sent, so the buffer never holds bytes
        /// the connection has already written.
        var pieces: [[UInt8]] = []
        /// Where the next byte to send is in `pieces[0]`.
        var offset = 0
        /// Bytes in `pieces` not yet sent.
        var buffered = 0
        /// Bytes sent, for the request log.
        var sent = 0
        var finished = false
        var producing = false
        var waiting = false
        var cancelled = false
        /// The stream said it has more since the worker last asked (no wake-up is lost).
        var woken = false
        /// Its source has been closed, and the producer (a render's plan) let go.
        var closed = false
        /// The request held a large reservation: trim the heap once the source is closed.
        var trimWhenClosed = false
    }

    /// What the connection's reader does after a ``read(into:max:peerClosed:suspend:)``.
    enum ReadStep: Equatable {
        /// Bytes copied into its buffer.
        case copied(Int)
        /// The stream ended: the response is complete.
        case end
        /// The client has gone: the response ends with an error.
        case hungUp
        /// Nothing yet: the connection was suspended until the worker resumes it.
        case wait
    }

    let lock = Mutex(Buffer())
    let source: BodyStream
    /// The adapter's key for the connection it answers (its address).
    let connection: UInt
    /// Where the worker runs: the render executor for a render's stream, else Dispatch.
    let run: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Resumes the connection, suspended while it waited for bytes.
    let resume: @Sendable () -> Void
    /// Refill when fewer than this many bytes are buffered.
    static let lowWater = 256 * 1024

    init(
        source: BodyStream, connection: UInt, run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        resume: @escaping @Sendable () -> Void
    ) {
        self.source = source
        self.connection = connection
        self.run = run
        self.resume = resume
        source.whenReady { [weak self] in self?.wake() }
    }

    /// Starts producing the first bytes.
    func start() {
        lock.withLock { $0.producing = true }
        produce()
    }

    /// The push stream has more: start the worker unless it runs, the buffer is full, or the
    /// connection has ended.
    private func wake() {
        let start = lock.withLock { buffer -> Bool in
            buffer.woken = true
            guard !buffer.producing, !buffer.cancelled, !buffer.finished, buffer.buffered < StreamState.lowWater
            else { return false }
            buffer.producing = true
            return true
        }
        if start { produce() }
    }

    /// Starts the worker (call with `producing` just set).
    private func produce() {
        run { [self] in
            while true {
                lock.withLock { $0.woken = false }
                let piece = source.next()
                let action: (resume: Bool, again: Bool) = lock.withLock { buffer in
                    if buffer.cancelled {
                        buffer.producing = false
                        return (false, false)
                    }
                    switch piece {
                    case .bytes(let bytes):
                        if !bytes.isEmpty {
                            buffer.pieces.append(bytes)
                            buffer.buffered += bytes.count
                        }
                    case .end:
                        buffer.finished = true
                    case .later:
                        if buffer.woken { return (false, true) }
                        buffer.producing = false
                        return (false, false)
                    }
                    let again = !buffer.finished && buffer.buffered < StreamState.lowWater
                    if !again { buffer.producing = false }
                    let resume = buffer.waiting && (buffer.finished || buffer.buffered > 0)
                    if resume { buffer.waiting = false }
                    return (resume, again)
                }
                if action.resume { resume() }
                if !action.again { return }
            }
        }
    }

    /// The connection asks for up to `max` bytes at `target`. With none buffered and the
    /// stream not ended, it is suspended (`suspend`, under the lock, so the worker's resume
    /// cannot come first) unless `peerClosed` says the client has gone: a suspended
    /// connection is not polled, and a client that hung up would keep its slot until a write
    /// failed. The worker starts again whenever the buffer runs low.
    func read(
        into target: UnsafeMutableRawPointer, max: Int, peerClosed: () -> Bool, suspend: () -> Void
    ) -> ReadStep {
        let (step, start): (ReadStep, Bool) = lock.withLock { state in
            if state.buffered > 0 {
                var count = 0
                while count < max, let piece = state.pieces.first {
                    let take = min(piece.count - state.offset, max - count)
                    piece.withUnsafeBytes { source in
                        (target + count).copyMemory(from: source.baseAddress! + state.offset, byteCount: take)
                    }
                    count += take
                    state.offset += take
                    if state.offset == piece.count {
                        state.pieces.removeFirst()
                        state.offset = 0
                    }
                }
                state.buffered -= count
                state.sent += count
                let start = !state.producing && !state.finished && state.buffered < StreamState.lowWater
                if start { state.producing = true }
                return (.copied(count), start)
            }
            if state.finished { return (.end, false) }
            if peerClosed() { return (.hungUp, false) }
            state.waiting = true
            let start = !state.producing
            if start { state.producing = true }
            suspend()
            return (.wait, start)
        }
        if start { produce() }
        return step
    }

    /// The connection is done with the stream: the worker stops and the source is closed (a
    /// render lets go of its plan). Whether the heap is to be trimmed now.
    func close() -> Bool {
        lock.withLock { $0.cancelled = true }
        source.close()
        return lock.withLock { buffer in
            buffer.closed = true
            return buffer.trimWhenClosed
        }
    }

    /// The request completes holding a large reservation: whether the heap can be trimmed now
    /// (the source is closed); if not, ``close()`` says so when it is.
    func trimOnClose() -> Bool {
        lock.withLock { buffer in
            buffer.trimWhenClosed = !buffer.closed
            return buffer.closed
        }
    }

    /// Bytes sent so far.
    var sent: Int { lock.withLock { $0.sent } }
}
