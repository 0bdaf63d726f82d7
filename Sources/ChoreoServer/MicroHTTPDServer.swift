import CMicroHTTPD
import ChoreoHTTP
import ChoreoLibraries
import ChoreoService
import Dispatch
import Foundation
import Synchronization

/// `choreo serve`'s HTTP server on libmicrohttpd. All libmicrohttpd calls live in this file.
///
/// libmicrohttpd runs its own epoll thread pool. Everything but `/metrics` leaves those threads:
/// the connection is suspended, the work runs on a Dispatch worker (on the server's own health
/// queue for `/healthz`), and the connection is resumed with the response, so neither a long
/// render nor a locked database delays a health check or another connection.
/// NDJSON responses are produced piece by piece into a small buffer that the connection drains.
public final class MicroHTTPDServer: @unchecked Sendable {
    /// Limits and addresses. Documented in docs/limits.md.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port: UInt16 = 8080
        public var threads = 2
        /// Seconds of inactivity before a connection is closed (a stalled upload included).
        public var connectionTimeout = 15
        /// Per-connection memory for headers and the read buffer; larger headers get 431.
        public var connectionMemoryLimit = 64 * 1024
        public var connectionLimit = 1000
        public var maxBodyBytes = 8 * 1024 * 1024
        /// Seconds a connection has to send a whole request head, from its opening or from its
        /// previous response; also the grace before the body's minimum rate applies.
        public var headTimeout = 10
        /// Bytes a second a body must average once `headTimeout` seconds of it have passed.
        public var minimumBodyRate = 1024
        /// Connections one client address may hold at once.
        public var connectionsPerClient = 256
        /// Bytes of request bodies all connections may hold at once (announced or received);
        /// a body that would pass it gets 503 with Retry-After.
        public var bodyMemory = 256 * 1024 * 1024
        /// Threads of the render executor: requests that run a scene at once.
        public var renderWorkers = max(2, ProcessInfo.processInfo.activeProcessorCount)
        /// Requests that run a scene that may wait for a render thread; beyond, 503.
        public var renderQueue = 64
        /// Threads for the other requests (storage, sessions, the arena): they mostly wait for
        /// the database, so more of them than cores.
        public var ioWorkers = 16
        /// Those requests that may wait for a worker thread; beyond, 503.
        public var ioQueue = 1024
        /// Seconds a stop waits for running requests before the process exits without them.
        public var shutdownTimeout = 30.0

        public init() {}
    }

    let application: any HTTPService
    let options: Options
    private var daemon: OpaquePointer?
    private var contextPointer: UnsafeMutableRawPointer?
    /// The shim's logger state, alive as long as the daemon.
    private let logger: UnsafeMutablePointer<cmhd_logger> = .allocate(capacity: 1)
    let inFlight = Atomic<Int>(0)
    /// Body bytes reserved by the requests in flight (see `Options.bodyMemory`).
    let bodyBytes = Atomic<Int>(0)
    /// Health checks, one at a time, apart from the render workers and the I/O threads.
    let healthQueue = DispatchQueue(label: "choreo.health")
    /// Requests that run a scene, and the streams they answer with (created by `start`).
    private(set) var renders: RenderExecutor?
    /// Every other request but `/healthz` and `/metrics` (created by `start`).
    private(set) var workers: RenderExecutor?
    /// Responses holding this much render memory return it to the system when they end.
    static let trimAfterBytes = 32 << 20
    let requestCounter = Atomic<Int>(0)
    let instancePrefix: String
    /// Receives each request's log line (newline included).
    let log: @Sendable ([UInt8]) -> Void

    /// `@unchecked Sendable`: `daemon` and `contextPointer` are written only by `start` and `stop`,
    /// which the owner calls from one thread; request callbacks read only immutable state.
    public init(application: any HTTPService, options: Options, log: @escaping @Sendable ([UInt8]) -> Void) {
        self.application = application
        self.options = options
        self.log = log
        var generator = SystemRandomNumberGenerator()
        instancePrefix = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16) + "-"
    }

    /// The address to bind: an IPv4 or IPv6 literal, or a host name such as `localhost`,
    /// resolved with getaddrinfo (its first IPv4 address, else its first IPv6 one).
    static func resolve(_ host: String, port: UInt16) -> sockaddr_storage? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var chosen: UnsafeMutablePointer<addrinfo>?
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if entry.pointee.ai_family == AF_INET {
                chosen = entry
                break
            }
            if entry.pointee.ai_family == AF_INET6 && chosen == nil { chosen = entry }
            cursor = entry.pointee.ai_next
        }
        guard let chosen, let address = chosen.pointee.ai_addr else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(chosen.pointee.ai_addrlen)))
        }
        withUnsafeMutablePointer(to: &storage) { pointer in
            if chosen.pointee.ai_family == AF_INET {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = port.bigEndian }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = port.bigEndian }
            }
        }
        return storage
    }

    /// The port actually bound (useful with port 0).
    public private(set) var boundPort: UInt16 = 0

    public enum StartError: Error, CustomStringConvertible {
        case badHost(String)
        case cannotListen(String)
        /// libmicrohttpd could not be loaded.
        case unavailable(String)

        public var description: String {
            switch self {
            case .unavailable(let reason): "cannot serve HTTP: \(reason)"
            case .badHost(let host): "cannot resolve --host \(host) to an IPv4 or IPv6 address"
            case .cannotListen(let address): "cannot listen on \(address) (in use, or not permitted)"
            }
        }
    }

    public func start() throws(StartError) {
        if case .failure(let unavailable) = Self.library { throw .unavailable(unavailable.description) }
        renders = RenderExecutor(threads: options.renderWorkers, queueLimit: options.renderQueue, name: "render")
        workers = RenderExecutor(threads: options.ioWorkers, queueLimit: options.ioQueue, name: "worker")
        let context = Unmanaged.passRetained(self).toOpaque()
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        guard var storage = Self.resolve(options.host, port: options.port) else {
            Unmanaged<MicroHTTPDServer>.fromOpaque(context).release()
            throw .badHost(options.host)
        }
        if Int32(storage.ss_family) == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        logger.pointee = cmhd_logger(sink: libraryMessage, cls: context)
        let started = withUnsafeMutablePointer(to: &storage) { addressPointer -> OpaquePointer? in
            var items: [MHD_OptionItem] = [
                // libmicrohttpd's own messages become JSON lines like every other.
                MHD_OptionItem(option: .EXTERNAL_LOGGER, value: cmhd_format_log_pointer(), ptr_value: logger),
                MHD_OptionItem(
                    option: .NOTIFY_COMPLETED, value: unsafeBitCast(requestCompleted, to: Int.self), ptr_value: context),
                MHD_OptionItem(
                    option: .UNESCAPE_CALLBACK, value: unsafeBitCast(unescape, to: Int.self), ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: options.connectionTimeout, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: options.connectionMemoryLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: options.connectionLimit, ptr_value: nil),
                MHD_OptionItem(
                    option: .PER_IP_CONNECTION_LIMIT, value: options.connectionsPerClient, ptr_value: nil),
                MHD_OptionItem(
                    option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotified, to: Int.self),
                    ptr_value: context),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(addressPointer)),
            ]
            if options.threads > 1 {
                items.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: options.threads, ptr_value: nil))
            }
            items.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return items.withUnsafeMutableBufferPointer { options in
                withUnsafePointer(to: MHD) { mhd in
                    cmhd_start_daemon(mhd, flags, self.options.port, accessHandler, context, options.baseAddress)
                }
            }
        }
        guard let started else {
            Unmanaged<MicroHTTPDServer>.fromOpaque(context).release()
            throw .cannotListen("\(options.host):\(options.port)")
        }
        daemon = started
        contextPointer = context
        boundPort = withUnsafePointer(to: MHD) { cmhd_bound_port($0, started) }
        startHeadSweeper()
    }

    // MARK: Request-head deadline

    /// Each open connection's socket, and since when it has been waiting for a request head
    /// (nil while a request is read or answered). Keyed by the connection's address.
    let connections = Mutex<[UInt: Watched]>([:])

    /// An open connection as the sweeper sees it.
    struct Watched {
        let socket: Int32
        /// Since when it waits for a request head (nil while a request is read or answered).
        var headSince: UInt64?
        /// The running request's cancellation, set while a render runs for it.
        var running: Cancellation?
    }
    private var sweeper: (any DispatchSourceTimer)?

    /// Four times a second: shuts down the sockets of connections whose request head is
    /// overdue (a slow-headers client: libmicrohttpd's own timeout is an idle timeout, which a
    /// client sending a byte now and then never reaches; libmicrohttpd then closes the
    /// connection), and cancels the render of a connection whose client has hung up (a
    /// suspended connection is not polled, so libmicrohttpd would not notice).
    private func startHeadSweeper() {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        let limit = UInt64(options.headTimeout) * 1_000_000_000
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            // Under the lock: libmicrohttpd closes a socket only after the CLOSED notification,
            // which waits for this lock, so no socket here has been closed and reused.
            connections.withLock { connections in
                var probe: UInt8 = 0
                for (_, entry) in connections {
                    // A head marked after `now` was read is newer, not overdue (no unsigned underflow).
                    if let since = entry.headSince, now > since, now - since > limit {
                        shutdown(entry.socket, Int32(SHUT_RDWR))
                    }
                    if let running = entry.running, !running.isCancelled,
                        recv(entry.socket, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
                    {
                        running.cancel()
                    }
                }
            }
        }
        timer.resume()
        sweeper = timer
    }

    /// Reserves `count` more body bytes for a request; false (nothing reserved) when all the
    /// bodies in flight would pass `Options.bodyMemory`.
    func reserveBody(_ state: RequestState, _ count: Int) -> Bool {
        let total = bodyBytes.add(count, ordering: .relaxed).newValue
        if total > options.bodyMemory {
            bodyBytes.subtract(count, ordering: .relaxed)
            return false
        }
        state.reserved += count
        return true
    }

    /// The answer when request bodies already hold the memory allowed them.
    func bodyMemoryFull() -> HTTPResponse {
        var problem = Problem.unavailable(
            "Request bodies in flight hold the \(options.bodyMemory) bytes allowed them. Try again shortly.")
        problem.headers = [("Retry-After", "1"), ("Connection", "close")]
        return problem.response
    }

    /// A response the server makes itself (413, 503) with what the service adds to every
    /// answer: `nosniff`, and the CORS headers a dashboard needs to read `Retry-After`.
    func own(_ response: HTTPResponse, _ connection: OpaquePointer?, _ state: RequestState) -> HTTPResponse {
        var response = response
        let origin = MHD.MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin").map { String(cString: $0) }
        application.decorate(&response, origin: origin, method: state.method)
        return response
    }

    /// A connection's key in ``connections``: its address.
    static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    /// Registers (or, with nil, clears) the cancellation of the render running for a connection.
    func watch(_ connection: OpaquePointer, running: Cancellation?) {
        let key = MicroHTTPDServer.key(connection)
        connections.withLock { $0[key]?.running = running }
    }

    func markHead(_ connection: OpaquePointer?, waiting: Bool) {
        guard let connection else { return }
        let key = MicroHTTPDServer.key(connection)
        let now = DispatchTime.now().uptimeNanoseconds
        connections.withLock { $0[key]?.headSince = waiting ? now : nil }
    }

    /// Graceful stop: stop accepting, let in-flight requests finish (up to `timeout` seconds),
    /// then close every connection. Returns how many requests were still running at the
    /// deadline: with any, the daemon is left as it is (libmicrohttpd cannot stop while a
    /// connection is suspended, and the worker will still resume it), for the process to exit.
    @discardableResult
    public func stop(timeout: Double = 30) -> Int {
        guard let daemon else { return 0 }
        let pointer = daemon
        let listenSocket = MHD.MHD_quiesce_daemon(pointer)
        if listenSocket >= 0 { Foundation.close(listenSocket) }
        var waited = 0.0
        while inFlight.load(ordering: .acquiring) > 0 && waited < timeout {
            usleep(10_000)
            waited += 0.01
        }
        let running = inFlight.load(ordering: .acquiring)
        if running > 0 { return running }
        sweeper?.cancel()
        MHD.MHD_stop_daemon(pointer)
        self.daemon = nil
        if let contextPointer {
            Unmanaged<MicroHTTPDServer>.fromOpaque(contextPointer).release()
            self.contextPointer = nil
        }
        return 0
    }

    deinit { logger.deallocate() }

    func nextRequestID() -> String {
        let number = requestCounter.add(1, ordering: .relaxed).newValue
        return instancePrefix + String(number, radix: 16)
    }
}

// MARK: - Per-request state

/// One request's state, owned by libmicrohttpd's `*con_cls` from the first callback to
/// `NOTIFY_COMPLETED`.
///
/// `@unchecked Sendable`: libmicrohttpd calls one connection's callbacks on one thread at a
/// time; the worker that computes the response writes `response` before resuming the
/// connection, and libmicrohttpd reads it only after the resume.
final class RequestState: @unchecked Sendable {
    let id: String
    let started: UInt64
    var method = ""
    var path = ""
    /// The request's route, matched once on the first callback: its name for metrics and
    /// logs, its lane, and what the handler needs.
    var match: RouteMatch?
    var route: String { match?.name ?? "" }
    var body: [UInt8] = []
    var tooLarge = false
    /// Answered from its head (a refused token, conflicting lengths): a body is dropped.
    var answered = false
    var dispatched = false
    var response: HTTPResponse?
    var status = 0
    var bytesSent = 0
    var stream: StreamState?
    var lane = RequestLane.worker
    /// Body bytes reserved against `Options.bodyMemory`, released when the request completes.
    var reserved = 0
    /// The response's render memory, returned when the request completes.
    var renderMemory: RenderMemory.Reservation?
    /// Body bytes received, kept or not.
    var received = 0

    init(id: String) {
        self.id = id
        started = DispatchTime.now().uptimeNanoseconds
    }
}

/// A streamed body's buffer between the worker that produces it and the connection that drains it.
///
/// A worker runs only while there is something to produce: when the buffer is full, or when a
/// push stream answers "later", it stops; the connection draining the buffer, or the stream's
/// ``BodyStream/ready()``, starts it again. An idle event stream holds no thread.
///
/// `@unchecked Sendable`: every mutable field is guarded by `lock`.
final class StreamState: @unchecked Sendable {
    struct Buffer {
        var pending: [UInt8] = []
        var offset = 0
        /// Bytes sent, for the request log (`offset` starts again as `pending` is compacted).
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

    let lock = Mutex(Buffer())
    let source: BodyStream
    let connection: OpaquePointer
    /// Where the worker runs: the render executor for a render's stream, else Dispatch.
    let run: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Refill when fewer than this many bytes are buffered.
    static let lowWater = 256 * 1024

    init(
        source: BodyStream, connection: OpaquePointer,
        run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.source = source
        self.connection = connection
        self.run = run
        source.whenReady { [weak self] in self?.wake() }
    }

    /// The push stream has more: start the worker unless it runs, the buffer is full, or the
    /// connection has ended.
    private func wake() {
        let start = lock.withLock { buffer -> Bool in
            buffer.woken = true
            guard !buffer.producing, !buffer.cancelled, !buffer.finished,
                buffer.pending.count - buffer.offset < StreamState.lowWater
            else { return false }
            buffer.producing = true
            return true
        }
        if start { produce() }
    }

    /// Starts the worker (call with `producing` just set).
    func produce() {
        let transfer = UnsafeTransfer(self)
        run {
            let state = transfer.value
            while true {
                state.lock.withLock { $0.woken = false }
                let piece = state.source.next()
                let action: (resume: Bool, again: Bool) = state.lock.withLock { buffer in
                    if buffer.cancelled {
                        buffer.producing = false
                        return (false, false)
                    }
                    switch piece {
                    case .bytes(let bytes):
                        if buffer.offset > 0 {
                            buffer.pending.removeFirst(buffer.offset)
                            buffer.offset = 0
                        }
                        buffer.pending.append(contentsOf: bytes)
                    case .end:
                        buffer.finished = true
                    case .later:
                        if buffer.woken { return (false, true) }
                        buffer.producing = false
                        return (false, false)
                    }
                    let again = !buffer.finished && buffer.pending.count - buffer.offset < StreamState.lowWater
                    if !again { buffer.producing = false }
                    let resume = buffer.waiting && (buffer.finished || buffer.pending.count > buffer.offset)
                    if resume { buffer.waiting = false }
                    return (resume, again)
                }
                if action.resume { MHD.MHD_resume_connection(state.connection) }
                if !action.again { return }
            }
        }
    }
}

/// Runs request work (renders, storage) below libmicrohttpd's I/O threads, so that a long
/// render on every core still leaves health checks answered promptly. Linux schedules threads
/// as tasks, so `setpriority` on the thread id affects this worker thread only; the I/O threads
/// keep the default priority. Failure (no permission) leaves the priority as it was.
func lowerWorkerPriority() {
    let workerNice: Int32 = 10
    let thread = id_t(cmhd_thread_id())
    errno = 0
    let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
    if errno == 0 && current < workerNice {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, workerNice)
    }
}

/// Carries a value across a concurrency boundary whose safety the surrounding code guarantees.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

// MARK: - libmicrohttpd callbacks (C function pointers: no captures, context through `cls`)

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let method, let uploadDataSize, let conCls else { return .NO }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    guard let raw = conCls.pointee else {
        // First call: headers only.
        server.markHead(connection, waiting: false)
        let state = RequestState(id: server.nextRequestID())
        state.method = String(cString: method)
        state.path = url.map { String(cString: $0) } ?? "/"
        state.match = server.application.match(method: state.method, path: state.path)
        server.inFlight.add(1, ordering: .relaxed)
        server.application.metrics.requestStarted()
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        // Two different lengths: which one a proxy in front believed is unknown (request
        // smuggling), so neither is.
        if conflictingLengths(connection) {
            state.answered = true
            return queue(
                server, connection, state, server.own(Problem.conflictingLengths().response, connection, state))
        }
        // A request the token refuses is answered before its body is read (and before a
        // `100 Continue` would ask for it).
        if let match = state.match,
            let refusal = server.application.refuseEarly(match, header: { header(connection, $0) })
        {
            state.answered = true
            return queue(server, connection, state, server.own(refusal, connection, state))
        }
        if let length = header(connection, "Content-Length").flatMap({ Int($0) }) {
            if length > server.options.maxBodyBytes {
                state.tooLarge = true
                return queue(
                    server, connection, state,
                    server.own(Problem.tooLarge(limit: server.options.maxBodyBytes).response, connection, state))
            }
            if !server.reserveBody(state, length) {
                return queue(server, connection, state, server.own(server.bodyMemoryFull(), connection, state))
            }
            state.body.reserveCapacity(length)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    if uploadDataSize.pointee != 0 {
        let count = uploadDataSize.pointee
        state.received += count
        // A body refused as too large is drained (to answer 413) up to as much again; an
        // endless one is cut there. A body that trickles below the minimum rate is cut too.
        // Returning NO closes the connection; the log line says 413 or 408.
        if state.tooLarge && state.received > 2 * server.options.maxBodyBytes {
            state.status = 413
            return .NO
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started) / 1e9
        if seconds > Double(server.options.headTimeout)
            && Double(state.received) / seconds < Double(server.options.minimumBodyRate)
        {
            state.status = 408
            return .NO
        }
        if state.answered {
            // Its answer is queued: the body is read and dropped, up to the body limit.
            if state.received > server.options.maxBodyBytes { return .NO }
        } else if state.tooLarge || state.body.count + count > server.options.maxBodyBytes {
            state.tooLarge = true
            state.body = []
        } else if state.body.count + count > state.reserved
            && !server.reserveBody(state, state.body.count + count - state.reserved)
        {
            // A chunked body that would pass the servers' body memory: closed, logged as 503.
            state.status = 503
            return .NO
        } else if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    if let response = state.response {
        state.response = nil
        return queue(server, connection, state, response)
    }
    if state.dispatched || state.answered { return .YES }
    if state.tooLarge {
        return queue(
            server, connection, state,
            server.own(Problem.tooLarge(limit: server.options.maxBodyBytes).response, connection, state))
    }
    guard let match = state.match else { return .NO }
    let lane = match.lane
    if lane == .inline {
        return queue(
            server, connection, state,
            server.application.handle(HTTPRequest(method: state.method, path: state.path), match))
    }
    var request =
        lane == .health
        ? HTTPRequest(method: state.method, path: state.path)
        : HTTPRequest(
            method: state.method, path: state.path, query: values(connection, .GET_ARGUMENT_KIND),
            headers: Dictionary(
                values(connection, .HEADER_KIND).map { ($0.0.lowercased(), $0.1) },
                uniquingKeysWith: { first, _ in first }),
            body: state.body)
    state.body = []
    // Everything else leaves libmicrohttpd's threads: suspend, compute, resume.
    state.dispatched = true
    MHD.MHD_suspend_connection(connection)
    state.lane = lane
    if lane == .render {
        let cancellation = Cancellation()
        request.cancellation = cancellation
        server.watch(connection, running: cancellation)
    }
    let job = UnsafeTransfer((server: server, state: state, connection: connection, request: request, match: match))
    let work: @Sendable () -> Void = {
        let response = job.value.server.application.handle(job.value.request, job.value.match)
        if job.value.request.cancellation != nil { job.value.server.watch(job.value.connection, running: nil) }
        job.value.state.response = response
        MHD.MHD_resume_connection(job.value.connection)
    }
    switch lane {
    case .health: server.healthQueue.async(execute: work)
    case .render:
        let metrics = server.application.metrics
        // Counted as waiting before it can start, so the gauge never dips below zero.
        metrics.renderAdmitted()
        let admitted =
            server.renders?.submit(admit: true) {
                metrics.renderStarted()
                work()
                metrics.renderFinished()
            } == true
        if !admitted {
            metrics.renderRefused()
            // Not admitted: the connection is resumed with the 503 at once.
            var problem = Problem.unavailable(
                "The server is busy: \(server.options.renderQueue) requests that run a scene are waiting. Try again shortly."
            )
            problem.headers = [("Retry-After", "1")]
            state.response = server.own(problem.response, connection, state)
            MHD.MHD_resume_connection(connection)
        }
    case .worker, .inline:
        // Storage reads and writes, sessions and the arena wait on the database: on threads of
        // their own, not on Dispatch's pool, whose few threads (one a core) they would hold.
        let admitted = server.workers?.submit(admit: true, work) == true
        if !admitted {
            var problem = Problem.unavailable(
                "The server is busy: \(server.options.ioQueue) requests are waiting for a worker. Try again shortly.")
            problem.headers = [("Retry-After", "1")]
            state.response = server.own(problem.response, connection, state)
            MHD.MHD_resume_connection(connection)
        }
    }
    return .YES
}

/// libmicrohttpd's percent-decoding of the path and of query names and values
/// (`MHD_http_unescape`), except that a string with an encoded NUL stays as it is: decoded, the
/// NUL would end the C string there (`/v1/scenes/ID%00junk` would name `ID`). The application
/// refuses a request target that holds `%00` (400 bad-request-target).
private let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = {
    _, _, text in
    guard let text else { return 0 }
    if strstr(text, "%00") != nil { return strlen(text) }
    if strstr(text, "%2F") != nil || strstr(text, "%2f") != nil { return unescapeKeepingSlashes(text) }
    return MHD.MHD_http_unescape(text)
}

/// Percent-decodes `text` in place except `%2F`, which stays as it is: decoded, an encoded
/// slash would split a path segment (`/v1/scenes/a%2Fb` routed as `/v1/scenes/a/b`). Query
/// names and values get their slashes back when they are read (``decodedSlashes(_:)``).
private func unescapeKeepingSlashes(_ text: UnsafeMutablePointer<CChar>) -> Int {
    let count = strlen(text)
    let bytes = UnsafeMutableRawPointer(text).assumingMemoryBound(to: UInt8.self)
    func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    var read = 0
    var written = 0
    while read < count {
        if bytes[read] == UInt8(ascii: "%"), read + 2 < count, let high = hex(bytes[read + 1]),
            let low = hex(bytes[read + 2])
        {
            let value = high << 4 | low
            if value != UInt8(ascii: "/") {
                bytes[written] = value
                written += 1
                read += 3
                continue
            }
        }
        bytes[written] = bytes[read]
        written += 1
        read += 1
    }
    bytes[written] = 0
    return written
}

/// A query name or value with the `%2F` the unescape kept as a slash again.
private func decodedSlashes(_ text: String) -> String {
    guard text.contains("%2F") || text.contains("%2f") else { return text }
    return text.replacingOccurrences(of: "%2F", with: "/").replacingOccurrences(of: "%2f", with: "/")
}

private func header(_ connection: OpaquePointer?, _ name: String) -> String? {
    MHD.MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

private final class ValueCollector {
    var values: [(String, String)] = []
}

private func values(_ connection: OpaquePointer?, _ kind: MHD_ValueKind) -> [(String, String)] {
    let collector = ValueCollector()
    let pointer = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD.MHD_get_connection_values(connection, kind, collectValue, pointer)
    guard kind == .GET_ARGUMENT_KIND else { return collector.values }
    return collector.values.map { (decodedSlashes($0.0), decodedSlashes($0.1)) }
}

/// Whether the request has two `Content-Length` headers that disagree: only those headers are
/// read, every request's head passes here.
private func conflictingLengths(_ connection: OpaquePointer?) -> Bool {
    let collector = ValueCollector()
    let pointer = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD.MHD_get_connection_values(connection, .HEADER_KIND, collectLength, pointer)
    return Set(collector.values.map { $0.1.trimmingCharacters(in: .whitespaces) }).count > 1
}

private let collectLength: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key, strcasecmp(key, "Content-Length") == 0 else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.values.append(("", value.map { String(cString: $0) } ?? ""))
    return .YES
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.values.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private func queue(
    _ server: MicroHTTPDServer, _ connection: OpaquePointer?, _ state: RequestState, _ response: HTTPResponse
) -> MHD_Result {
    let mhdResponse: OpaquePointer?
    state.renderMemory = response.reservation
    switch response.body {
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes {
            MHD.MHD_create_response_from_buffer(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        state.bytesSent = bytes.count
    case .stream(let source):
        let run: @Sendable (@escaping @Sendable () -> Void) -> Void
        if state.lane == .render, let renders = server.renders {
            run = { work in _ = renders.submit(admit: false, work) }
        } else {
            run = { work in
                DispatchQueue.global().async {
                    lowerWorkerPriority()
                    work()
                }
            }
        }
        let stream = StreamState(source: source, connection: connection!, run: run)
        state.stream = stream
        let context = Unmanaged.passRetained(stream).toOpaque()
        stream.lock.withLock { $0.producing = true }
        stream.produce()
        mhdResponse = MHD.MHD_create_response_from_callback(UInt64.max, 64 * 1024, streamReader, context, streamFree)
    }
    guard let mhdResponse else { return .NO }
    let pointer = mhdResponse
    _ = MHD.MHD_add_response_header(pointer, "X-Request-Id", state.id)
    for (name, value) in response.headers { _ = MHD.MHD_add_response_header(pointer, name, value) }
    if state.tooLarge { _ = MHD.MHD_add_response_header(pointer, "Connection", "close") }
    state.status = response.status
    let result = MHD.MHD_queue_response(connection, UInt32(response.status), pointer)
    MHD.MHD_destroy_response(pointer)
    return result
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return cmhd_end_with_error() }
    let stream = Unmanaged<StreamState>.fromOpaque(cls).takeUnretainedValue()
    enum Step {
        case copied(Int, startProducer: Bool)
        case end
        case hungUp
        case wait(startProducer: Bool)
    }
    let step: Step = stream.lock.withLock { state in
        let available = state.pending.count - state.offset
        if available > 0 {
            let count = min(available, max)
            state.pending.withUnsafeBytes { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + state.offset, byteCount: count)
            }
            state.offset += count
            state.sent += count
            let start = !state.producing && !state.finished && available - count < StreamState.lowWater
            if start { state.producing = true }
            return .copied(count, startProducer: start)
        }
        if state.finished { return .end }
        // A suspended connection is not polled: a client that hung up is noticed here, before
        // suspending, or it would keep its slot until a write fails.
        let hungUp = withUnsafePointer(to: MHD) { cmhd_peer_closed($0, stream.connection) } != 0
        if hungUp { return .hungUp }
        state.waiting = true
        let start = !state.producing
        if start { state.producing = true }
        MHD.MHD_suspend_connection(stream.connection)
        return .wait(startProducer: start)
    }
    switch step {
    case .copied(let count, let start):
        if start { stream.produce() }
        return count
    case .end:
        return cmhd_end_of_stream()
    case .hungUp:
        return cmhd_end_with_error()
    case .wait(let start):
        if start { stream.produce() }
        return 0
    }
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<StreamState>.fromOpaque(cls).takeRetainedValue()
    stream.lock.withLock { $0.cancelled = true }
    stream.source.close()
    let trim = stream.lock.withLock { buffer in
        buffer.closed = true
        return buffer.trimWhenClosed
    }
    if trim { trimHeap() }
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    // A kept-alive connection waits for its next request head from now.
    server.markHead(connection, waiting: true)
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    conCls.pointee = nil
    if let stream = state.stream {
        state.bytesSent = stream.lock.withLock { $0.sent }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started) / 1e9
    server.application.metrics.requestFinished(route: state.route, status: state.status, seconds: seconds)
    server.log(
        RequestLog.line(
            requestID: state.id, method: state.method, path: state.path, status: state.status, bytes: state.bytesSent,
            seconds: seconds))
    if state.reserved > 0 { server.bodyBytes.subtract(state.reserved, ordering: .relaxed) }
    // A large response's memory goes back to the system, not only to the allocator: glibc
    // keeps freed heap in its arenas, and a server that drew one 200 MB document would hold
    // it for good. A stream's plan is let go when its source is closed, which libmicrohttpd
    // may do after this callback: then the trim waits for it.
    if let held = state.renderMemory?.bytes, held >= MicroHTTPDServer.trimAfterBytes {
        state.renderMemory = nil
        let now =
            state.stream.map { stream in
                stream.lock.withLock { buffer in
                    buffer.trimWhenClosed = !buffer.closed
                    return buffer.closed
                }
            } ?? true
        if now { trimHeap() }
    }
    server.inFlight.subtract(1, ordering: .releasing)
}

/// Hands the heap's free memory back to the system, off the I/O thread.
private func trimHeap() {
    DispatchQueue.global(qos: .utility).async { Allocator.releaseFreePages() }
}

/// A connection opened or closed: tracked for the request-head deadline.
private let connectionNotified:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_ConnectionNotificationCode
    ) -> Void = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
        let key = MicroHTTPDServer.key(connection)
        if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
            let socket = withUnsafePointer(to: MHD) { cmhd_connection_fd($0, connection) }
            let now = DispatchTime.now().uptimeNanoseconds
            server.connections.withLock { $0[key] = MicroHTTPDServer.Watched(socket: socket, headSince: now) }
        } else {
            _ = server.connections.withLock { $0.removeValue(forKey: key) }
        }
    }

/// libmicrohttpd's messages, formatted by the shim: `{"event": "libmicrohttpd", "message": …}`.
private let libraryMessage: cmhd_message_sink = { context, message in
    guard let context, let message else { return }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(context).takeUnretainedValue()
    let text = String(decoding: UnsafeRawBufferPointer(start: message, count: strlen(message)), as: UTF8.self)
    server.log(
        RequestLog.event("libmicrohttpd", ["message": .string(text.trimmingCharacters(in: .whitespacesAndNewlines))]))
}

extension MicroHTTPDServer {
    /// libmicrohttpd, loaded once, when the first server starts: the other commands never map
    /// it, nor GnuTLS and the rest it brings (``SharedLibrary``).
    static let library = SharedLibrary.load(
        "libmicrohttpd.so.12", package: "libmicrohttpd12", bind: cmhd_bind)
}

/// The table of libmicrohttpd functions: pointers bound once and never changed.
extension cmhd_functions: @retroactive @unchecked Sendable {}

/// The functions the server calls; a daemon exists only once the library loaded
/// (``MicroHTTPDServer/start()`` checks first).
private let MHD = MicroHTTPDServer.library.functions("the server needs libmicrohttpd")
