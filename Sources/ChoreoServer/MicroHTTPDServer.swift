import CMicroHTTPD
import ChoreoHTTP
import ChoreoLibraries
import Dispatch
import Foundation
import Synchronization

/// `choreo serve`'s HTTP server on libmicrohttpd: the adapter. All libmicrohttpd calls live in
/// this file; the server's policy is in types of its own, tested without a socket
/// (``Admission``, ``BodyMemory`` and ``UploadPolicy``, ``ConnectionWatch``, ``StreamState``).
///
/// libmicrohttpd runs its own epoll thread pool. Everything but `/metrics` leaves those threads:
/// the connection is suspended, the work runs on the thread its lane admits it to
/// (``Admission``), and the connection is resumed with the response, so neither a long render
/// nor a locked database delays a health check or another connection. Streamed responses are
/// produced piece by piece into a small buffer that the connection drains (``StreamState``).
public final class MicroHTTPDServer: Sendable {
    let application: any HTTPService
    let options: Options
    /// The running daemon, set by `start` and cleared by `stop`: libmicrohttpd's handle and the
    /// context its callbacks get, kept as addresses.
    private struct Running: Sendable {
        let daemon: UInt
        let context: UInt
        let port: UInt16
    }
    private let running = Mutex<Running?>(nil)
    /// The shim's logger state (its address), alive as long as the server.
    private let logger = UInt(bitPattern: UnsafeMutablePointer<cmhd_logger>.allocate(capacity: 1))
    let inFlight = Atomic<Int>(0)
    let bodyMemory: BodyMemory
    let uploads: UploadPolicy
    let watch: ConnectionWatch
    /// The lanes' threads.
    let admission: Admission
    let requestCounter = Atomic<Int>(0)
    let instancePrefix: String
    /// Receives each request's log line (newline included).
    let log: @Sendable ([UInt8]) -> Void

    public init(application: any HTTPService, options: Options, log: @escaping @Sendable ([UInt8]) -> Void) {
        self.application = application
        self.options = options
        self.log = log
        bodyMemory = BodyMemory(limit: options.bodyMemory)
        uploads = UploadPolicy(
            maxBodyBytes: options.maxBodyBytes, headTimeout: Double(options.headTimeout),
            minimumBodyRate: Double(options.minimumBodyRate))
        watch = ConnectionWatch(headTimeout: options.headTimeout)
        admission = Admission(
            renders: RenderExecutor(threads: options.renderWorkers, queueLimit: options.renderQueue, name: "render"),
            exports: RenderExecutor(threads: options.exportWorkers, queueLimit: options.exportQueue, name: "export"),
            workers: RenderExecutor(threads: options.ioWorkers, queueLimit: options.ioQueue, name: "worker"),
            metrics: application.metrics)
        var generator = SystemRandomNumberGenerator()
        instancePrefix = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16) + "-"
    }

    /// The port actually bound (useful with port 0).
    public var boundPort: UInt16 { running.withLock { $0?.port ?? 0 } }

    public func start() throws(StartError) {
        if case .failure(let unavailable) = Self.library { throw .unavailable(unavailable.description) }
        let logger = UnsafeMutablePointer<cmhd_logger>(bitPattern: logger)!
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
                MHD_OptionItem(
                    option: .URI_LOG_CALLBACK, value: unsafeBitCast(uriLogged, to: Int.self), ptr_value: nil),
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
                withUnsafePointer(to: MHD.table) { mhd in
                    cmhd_start_daemon(mhd, flags, self.options.port, accessHandler, context, options.baseAddress)
                }
            }
        }
        guard let started else {
            Unmanaged<MicroHTTPDServer>.fromOpaque(context).release()
            throw .cannotListen("\(options.host):\(options.port)")
        }
        let port = withUnsafePointer(to: MHD.table) { cmhd_bound_port($0, started) }
        let daemon = Running(daemon: Self.key(started), context: UInt(bitPattern: Int(bitPattern: context)), port: port)
        running.withLock { $0 = daemon }
        watch.startSweeping()
    }

    /// A response the server makes itself (413, 503) with what the service adds to every
    /// answer: `nosniff`, and the CORS headers a dashboard needs to read `Retry-After`.
    func own(_ response: HTTPResponse, _ connection: OpaquePointer?, _ state: RequestState) -> HTTPResponse {
        var response = response
        let origin = MHD.MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin").map { String(cString: $0) }
        application.decorate(&response, origin: origin, method: state.method)
        return response
    }

    /// A connection's key (``ConnectionWatch``, ``StreamState``): its address.
    static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    func markHead(_ connection: OpaquePointer?, waiting: Bool) {
        guard let connection else { return }
        watch.markHead(Self.key(connection), waiting: waiting, now: DispatchTime.now().uptimeNanoseconds)
    }

    /// Graceful stop: stop accepting, let in-flight requests finish (up to `timeout` seconds),
    /// then close every connection. Returns how many requests were still running at the
    /// deadline: with any, the daemon is left as it is (libmicrohttpd cannot stop while a
    /// connection is suspended, and the worker will still resume it), for the process to exit.
    @discardableResult
    public func stop(timeout: Double = 30) -> Int {
        guard let daemon = running.withLock({ $0 }), let pointer = OpaquePointer(bitPattern: daemon.daemon) else {
            return 0
        }
        let listenSocket = MHD.MHD_quiesce_daemon(pointer)
        if listenSocket >= 0 { Foundation.close(listenSocket) }
        let stillRunning = waitForRequests(timeout: timeout)
        if stillRunning > 0 { return stillRunning }
        watch.stopSweeping()
        MHD.MHD_stop_daemon(pointer)
        running.withLock { $0 = nil }
        if let context = UnsafeMutableRawPointer(bitPattern: daemon.context) {
            Unmanaged<MicroHTTPDServer>.fromOpaque(context).release()
        }
        return 0
    }

    deinit { UnsafeMutablePointer<cmhd_logger>(bitPattern: logger)?.deallocate() }
}

// MARK: - libmicrohttpd callbacks (C function pointers: no captures, context through `cls`)

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let method, let uploadDataSize, let conCls else { return .NO }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    guard let raw = conCls.pointee, UInt(bitPattern: raw) != overlongQueryMark else {
        // First call: headers only.
        let overlongQuery = conCls.pointee != nil
        server.markHead(connection, waiting: false)
        let state = RequestState(id: server.nextRequestID())
        state.method = String(cString: method)
        state.path = url.map { String(cString: $0) } ?? "/"
        state.match = server.application.match(method: state.method, path: state.path)
        server.inFlight.add(1, ordering: .relaxed)
        server.application.metrics.requestStarted()
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        let step = server.uploads.head(
            overlongQuery: overlongQuery, conflictingLengths: conflictingLengths(connection),
            refusal: { state.match.flatMap { server.application.refuseEarly($0, header: { header(connection, $0) }) } },
            contentLength: header(connection, "Content-Length").flatMap { Int($0) },
            reserve: { server.bodyMemory.reserve($0, for: state) }, full: server.bodyMemory.fullAnswer)
        switch step {
        case .answer(let response, let answered, let tooLarge):
            state.answered = answered
            state.tooLarge = tooLarge
            return queue(server, connection, state, server.own(response, connection, state))
        case .read(let capacity):
            state.body.reserveCapacity(capacity)
            return .YES
        }
    }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    if uploadDataSize.pointee != 0 {
        let count = uploadDataSize.pointee
        state.received += count
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started) / 1e9
        switch server.uploads.step(
            count: count, received: state.received, seconds: seconds, tooLarge: state.tooLarge,
            answered: state.answered, kept: state.body.count, reserved: state.reserved,
            reserve: { server.bodyMemory.reserve($0, for: state) })
        {
        case .close(let status):
            // Returning NO closes the connection; the log line says why.
            if let status { state.status = status }
            return .NO
        case .drop:
            break
        case .tooLarge:
            state.tooLarge = true
            state.body = []
        case .keep:
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
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
    var request = state.request(
        lane: lane, query: { values(connection, .GET_ARGUMENT_KIND) }, headers: { values(connection, .HEADER_KIND) })
    request.client = clientAddress(connection)
    // Everything else leaves libmicrohttpd's threads: suspend, compute, resume.
    MHD.MHD_suspend_connection(connection)
    let key = MicroHTTPDServer.key(connection)
    if let refusal = server.dispatch(
        request, match, state, key: key, resume: { MHD.MHD_resume_connection(OpaquePointer(bitPattern: key)) })
    {
        // Not admitted: the connection is resumed with the 503 at once.
        state.response = server.own(refusal, connection, state)
        MHD.MHD_resume_connection(connection)
    }
    return .YES
}

/// The connection's peer address as text (`127.0.0.1`, `::1`).
private func clientAddress(_ connection: OpaquePointer?) -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    let found = withUnsafePointer(to: MHD.table) {
        cmhd_client_address($0, connection, &buffer, socklen_t(buffer.count))
    }
    guard found != 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
        guard let connection else { return .NO }
        let key = MicroHTTPDServer.key(connection)
        let stream = StreamState(
            source: source, connection: key, run: server.admission.streamRunner(for: state.lane),
            resume: { MHD.MHD_resume_connection(OpaquePointer(bitPattern: key)) })
        state.stream = stream
        let context = Unmanaged.passRetained(stream).toOpaque()
        stream.start()
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
    let connection = OpaquePointer(bitPattern: stream.connection)
    let step = stream.read(
        into: UnsafeMutableRawPointer(buffer), max: max,
        peerClosed: { withUnsafePointer(to: MHD.table) { cmhd_peer_closed($0, connection) } != 0 },
        suspend: { MHD.MHD_suspend_connection(connection) })
    switch step {
    case .copied(let count): return count
    case .end: return cmhd_end_of_stream()
    case .hungUp: return cmhd_end_with_error()
    case .wait: return 0
    }
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    if Unmanaged<StreamState>.fromOpaque(cls).takeRetainedValue().close() { MicroHTTPDServer.trimHeap() }
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
    guard let cls, let conCls, let raw = conCls.pointee, UInt(bitPattern: raw) != overlongQueryMark else { return }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    // A kept-alive connection waits for its next request head from now.
    server.markHead(connection, waiting: true)
    conCls.pointee = nil
    server.finish(Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue())
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
            let socket = withUnsafePointer(to: MHD.table) { cmhd_connection_fd($0, connection) }
            server.watch.opened(key, socket: socket, now: DispatchTime.now().uptimeNanoseconds)
        } else {
            server.watch.closed(key)
        }
    }

extension MicroHTTPDServer {
    /// libmicrohttpd, loaded once, when the first server starts: the other commands never map
    /// it, nor GnuTLS and the rest it brings (``SharedLibrary``).
    static let library = SharedLibrary.load(
        "libmicrohttpd.so.12", package: "libmicrohttpd12", bind: cmhd_bind)
}

/// The functions the server calls; a daemon exists only once the library loaded
/// (``MicroHTTPDServer/start()`` checks first).
private let MHD = MicroHTTPDServer.library.functions("the server needs libmicrohttpd")
