import ChoreoHTTP
import ChoreoService
import ChoreoTransport
import Foundation
import Synchronization
import Testing

@testable import ChoreoServer

/// The server's policy, without a socket: what a request's head and body chunks decide, the
/// body memory, the head deadline and hang-up sweep, admission to the lanes, a stream's
/// back-pressure, and the path decoding that keeps encoded slashes.
@Suite struct ServerPolicyTests {
    static let policy = UploadPolicy(maxBodyBytes: 1000, headTimeout: 10, minimumBodyRate: 100)

    static func head(
        conflicting: Bool = false, refusal: HTTPResponse? = nil, length: Int?, reserves: Bool = true
    ) -> UploadPolicy.HeadStep {
        policy.head(
            conflictingLengths: conflicting, refusal: { refusal }, contentLength: length, reserve: { _ in reserves },
            full: { HTTPResponse(status: 503) })
    }

    @Test func aHeadIsAnsweredBeforeItsBody() {
        func answer(_ step: UploadPolicy.HeadStep) -> (Int, Bool, Bool)? {
            if case .answer(let response, let answered, let tooLarge) = step {
                return (response.status, answered, tooLarge)
            }
            return nil
        }
        #expect(
            answer(Self.head(conflicting: true, refusal: HTTPResponse(status: 401), length: 5))! == (400, true, false))
        #expect(answer(Self.head(refusal: HTTPResponse(status: 401), length: 5))! == (401, true, false))
        #expect(answer(Self.head(length: 1001))! == (413, false, true))
        #expect(answer(Self.head(length: 500, reserves: false))! == (503, false, false))
        guard case .read(let capacity) = Self.head(length: 500) else {
            Issue.record("an announced body that fits is read")
            return
        }
        #expect(capacity == 500)
        guard case .read(0) = Self.head(length: nil) else {
            Issue.record("a chunked body is read")
            return
        }
    }

    @Test func bodyChunksAreKeptDroppedOrCut() {
        func step(
            count: Int = 100, received: Int, seconds: Double = 1, tooLarge: Bool = false, answered: Bool = false,
            kept: Int = 0, reserved: Int = 0, reserves: Bool = true
        ) -> UploadPolicy.Step {
            Self.policy.step(
                count: count, received: received, seconds: seconds, tooLarge: tooLarge, answered: answered, kept: kept,
                reserved: reserved, reserve: { _ in reserves })
        }
        // Reserved already, or reserved now.
        #expect(step(received: 100, kept: 0, reserved: 1000) == .keep)
        #expect(step(received: 600, kept: 500, reserved: 500) == .keep)
        // A chunked body the body memory cannot hold: cut, logged as 503.
        #expect(step(received: 600, kept: 500, reserved: 500, reserves: false) == .close(status: 503))
        // Past the limit: thrown away, answered 413 at the end; drained up to twice the limit.
        #expect(step(received: 1001, kept: 950, reserved: 1000) == .tooLarge)
        #expect(step(received: 1500, tooLarge: true) == .tooLarge)
        #expect(step(received: 2001, tooLarge: true) == .close(status: 413))
        // Below the minimum rate once the grace has passed: 408; not before.
        #expect(step(received: 500, seconds: 11) == .close(status: 408))
        #expect(step(received: 500, seconds: 9, reserved: 1000) == .keep)
        // Answered from its head: dropped, up to the limit.
        #expect(step(received: 900, answered: true) == .drop)
        #expect(step(received: 1001, answered: true) == .close(status: nil))
    }

    @Test func bodyMemoryIsReservedAndReleased() {
        let memory = BodyMemory(limit: 100)
        #expect(memory.reserve(60))
        #expect(!memory.reserve(41))
        #expect(memory.bytes == 60)
        #expect(memory.reserve(40))
        memory.release(100)
        #expect(memory.bytes == 0)
        #expect(memory.fullAnswer().status == 503)
        #expect(memory.fullAnswer().headers.contains { $0 == ("Retry-After", "1") })
    }

    @Test func overdueHeadsAndGoneClientsAreSwept() {
        let watch = ConnectionWatch(headTimeout: 10)
        let second: UInt64 = 1_000_000_000
        watch.opened(1, socket: 11, now: 0)
        watch.opened(2, socket: 12, now: 5 * second)
        watch.opened(3, socket: 13, now: 0)
        watch.markHead(3, waiting: false, now: 1)
        let running = Cancellation()
        watch.watch(3, running: running)
        var shut: [Int32] = []
        watch.sweep(now: 12 * second, shutdown: { shut.append($0) }, hungUp: { $0 == 13 })
        // Connection 1 has waited 12 s for a head, 2 only 7 s; 3 is being answered.
        #expect(shut == [11])
        #expect(running.isCancelled)
        // A kept-alive connection waits from its last response; a closed one is forgotten.
        watch.markHead(3, waiting: true, now: 12 * second)
        watch.closed(1)
        shut = []
        watch.sweep(now: 21 * second, shutdown: { shut.append($0) }, hungUp: { _ in false })
        #expect(shut.sorted() == [12])
    }

    @Test func lanesAdmitUpToTheirQueues() throws {
        let metrics = Metrics(routes: [])
        let gate = DispatchSemaphore(value: 0)
        let admission = Admission(
            renders: RenderExecutor(threads: 1, queueLimit: 1), exports: RenderExecutor(threads: 1, queueLimit: 0),
            workers: RenderExecutor(threads: 1, queueLimit: 0),
            metrics: metrics)
        let ran = Atomic<Int>(0)
        // One render runs (held at the gate), one waits; the third is refused.
        #expect(admission.submit(.render) { gate.wait() } == nil)
        var second: HTTPResponse?
        for _ in 0..<500 {
            if admission.renders.queued == 0 {
                second = admission.submit(.render) { ran.add(1, ordering: .relaxed) }
                break
            }
            usleep(2_000)
        }
        #expect(second == nil)
        let refused = try #require(admission.submit(.render) {})
        #expect(refused.status == 503)
        #expect(refused.headers.contains { $0 == ("Retry-After", "1") })
        #expect(metrics.render().contains("choreo_renders_refused_total 1"))
        // Health checks run on a queue of their own.
        let health = DispatchSemaphore(value: 0)
        #expect(admission.submit(.health) { health.signal() } == nil)
        #expect(health.wait(timeout: .now() + 10) == .success)
        gate.signal()
        for _ in 0..<500 where ran.load(ordering: .relaxed) == 0 { usleep(2_000) }
        #expect(ran.load(ordering: .relaxed) == 1)
    }

    /// A stream's buffer fills from its producer, drains into the connection, suspends it while
    /// a push stream has nothing, and resumes it when it has.
    @Test func aStreamSuspendsAndResumesItsConnection() {
        let pieces = Mutex<[BodyStream.Piece]>([.bytes([1, 2, 3]), .later])
        let source = BodyStream(
            pushing: { pieces.withLock { $0.isEmpty ? .later : $0.removeFirst() } }, onClose: {})
        let resumed = Atomic<Int>(0)
        // The worker runs at once, on the caller's thread.
        let stream = StreamState(
            source: source, connection: 7, run: { $0() }, resume: { resumed.add(1, ordering: .relaxed) })
        stream.start()
        var target = [UInt8](repeating: 0, count: 8)
        var suspended = 0
        func read() -> StreamState.ReadStep {
            target.withUnsafeMutableBytes { buffer in
                stream.read(into: buffer.baseAddress!, max: 2, peerClosed: { false }, suspend: { suspended += 1 })
            }
        }
        #expect(read() == .copied(2))
        #expect(Array(target[0..<2]) == [1, 2])
        #expect(read() == .copied(1))
        #expect(target[0] == 3)
        // Nothing now: the connection is suspended until the producer says it has more.
        #expect(read() == .wait)
        #expect(suspended == 1)
        pieces.withLock { $0 = [.bytes([9]), .end] }
        source.ready()
        #expect(resumed.load(ordering: .relaxed) == 1)
        #expect(read() == .copied(1))
        #expect(target[0] == 9)
        #expect(read() == .end)
        #expect(stream.sent == 4)
        #expect(stream.close() == false)
    }

    @Test func aGoneClientEndsItsStream() {
        let source = BodyStream(pushing: { .later }, onClose: {})
        let stream = StreamState(source: source, connection: 1, run: { $0() }, resume: {})
        stream.start()
        var byte: UInt8 = 0
        #expect(stream.read(into: &byte, max: 1, peerClosed: { true }, suspend: {}) == .hungUp)
    }

    @Test func anOverlongQueryIsCutOffBeforeItIsParsed() {
        func cut(_ target: String) -> (Bool, String) {
            var bytes = Array(target.utf8CString)
            return bytes.withUnsafeMutableBufferPointer { buffer in
                let done = cutOverlongQuery(buffer.baseAddress!)
                return (done, String(cString: buffer.baseAddress!))
            }
        }
        let allowed = "/v1/scenes?" + (0..<256).map { "p\($0)=1" }.joined(separator: "&")
        #expect(cut(allowed) == (false, allowed))
        #expect(cut("/v1/scenes") == (false, "/v1/scenes"))
        let over = "/v1/scenes?" + (0..<257).map { "p\($0)=1" }.joined(separator: "&")
        #expect(cut(over) == (true, "/v1/scenes?"))
        guard
            case .answer(let response, let answered, _) = Self.policy.head(
                overlongQuery: true, conflictingLengths: false, refusal: { nil }, contentLength: 10,
                reserve: { _ in true },
                full: { HTTPResponse(status: 503) })
        else {
            Issue.record("an overlong query is answered from the head")
            return
        }
        #expect(response.status == 400 && answered)
    }

    @Test func encodedSlashesStayInPathSegments() {
        func unescaped(_ text: String) -> String {
            var bytes = Array(text.utf8CString)
            return bytes.withUnsafeMutableBufferPointer { buffer in
                let count = unescapeKeepingSlashes(buffer.baseAddress!)
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
            }
        }
        #expect(unescaped("/v1/scenes/a%2Fb%20c") == "/v1/scenes/a%2Fb c")
        #expect(unescaped("%41%2f%zz%4") == "A%2f%zz%4")
        #expect(decodedSlashes("a%2Fb%2fc") == "a/b/c")
    }
}
