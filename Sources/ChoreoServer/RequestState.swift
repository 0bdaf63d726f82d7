import CMicroHTTPD
import ChoreoHTTP
import ChoreoLibraries
import ChoreoTransport
import Dispatch
import Foundation

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

extension RequestState {
    /// The request a handler is given once its body is read: on the health lane its method and
    /// path only (a health check reads neither headers, query nor body), else its query
    /// (`query`), headers (`headers`, names in lower case, the first of each) and body, which
    /// the state lets go of. The state is marked dispatched in its lane.
    func request(
        lane: RequestLane, query: () -> [(String, String)], headers: () -> [(String, String)]
    ) -> HTTPRequest {
        let request =
            lane == .health
            ? HTTPRequest(method: method, path: path)
            : HTTPRequest(
                method: method, path: path, query: query(),
                headers: Dictionary(
                    headers().map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { first, _ in first }),
                body: body)
        body = []
        dispatched = true
        self.lane = lane
        return request
    }
}

extension MicroHTTPDServer {
    /// Responses holding this much render memory return it to the system when they end.
    static let trimAfterBytes = 32 << 20

    /// The next request's id: the instance's prefix and a counter, in hexadecimal.
    func nextRequestID() -> String {
        let number = requestCounter.add(1, ordering: .relaxed).newValue
        return instancePrefix + String(number, radix: 16)
    }

    /// Runs a request on its lane's threads (``Admission``), watched for its client hanging up
    /// (a render stops between frames, an import kills its helper). The handler's response goes
    /// to `state`, then `resume` hands it to the connection. Not admitted: the answer to send
    /// at once.
    func dispatch(
        _ request: HTTPRequest, _ match: RouteMatch, _ state: RequestState, key: UInt,
        resume: @escaping @Sendable () -> Void
    ) -> HTTPResponse? {
        var request = request
        if match.lane != .health {
            let cancellation = Cancellation()
            request.cancellation = cancellation
            watch.watch(key, running: cancellation)
        }
        let job = request
        return admission.submit(match.lane) { [self] in
            let response = application.handle(job, match)
            if job.cancellation != nil { watch.watch(key, running: nil) }
            state.response = response
            resume()
        }
    }

    /// Waits up to `timeout` seconds for the requests in flight to finish; how many still run.
    func waitForRequests(timeout: Double) -> Int {
        var waited = 0.0
        while inFlight.load(ordering: .acquiring) > 0 && waited < timeout {
            usleep(10_000)
            waited += 0.01
        }
        return inFlight.load(ordering: .acquiring)
    }

    /// A request completed (libmicrohttpd's `NOTIFY_COMPLETED`): its metrics and log line, its
    /// body memory released, and a large response's memory given back to the system, not only
    /// to the allocator (glibc keeps freed heap in its arenas, and a server that drew one
    /// 200 MB document would hold it for good). A stream's plan is let go when its source is
    /// closed, which libmicrohttpd may do after this callback: then the trim waits for it.
    ///
    /// A response made but never queued (the client left while its request ran, and
    /// libmicrohttpd closed the connection as it was resumed) is logged with the response's
    /// status: a cancelled render says 499, not 0.
    func finish(_ state: RequestState) {
        if state.status == 0, let response = state.response { state.status = response.status }
        if let stream = state.stream { state.bytesSent = stream.sent }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started) / 1e9
        application.metrics.requestFinished(route: state.route, status: state.status, seconds: seconds)
        log(
            RequestLog.line(
                requestID: state.id, method: state.method, path: state.path, status: state.status,
                bytes: state.bytesSent, seconds: seconds))
        if state.reserved > 0 { bodyMemory.release(state.reserved) }
        if let held = state.renderMemory?.bytes, held >= Self.trimAfterBytes {
            state.renderMemory = nil
            if state.stream?.trimOnClose() ?? true { Self.trimHeap() }
        }
        inFlight.subtract(1, ordering: .releasing)
    }

    /// Hands the heap's free memory back to the system, off the I/O thread.
    static func trimHeap() {
        DispatchQueue.global(qos: .utility).async { Allocator.releaseFreePages() }
    }
}

/// libmicrohttpd's messages, formatted by the shim: `{"event": "libmicrohttpd", "message": …}`.
let libraryMessage: cmhd_message_sink = { context, message in
    guard let context, let message else { return }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(context).takeUnretainedValue()
    let text = String(decoding: UnsafeRawBufferPointer(start: message, count: strlen(message)), as: UTF8.self)
    server.log(
        RequestLog.event("libmicrohttpd", ["message": .string(text.trimmingCharacters(in: .whitespacesAndNewlines))]))
}
