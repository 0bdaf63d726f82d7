import Foundation
import Synchronization

/// A real HTTP receiver on a loopback port, for alert deliveries: every `POST` is kept with its
/// headers and body, and answered with the status of the moment (after a delay, if set).
/// One connection at a time, each closed after its answer; a read that stalls gives up after
/// 5 s, and the accept loop ends at ``stop()``.
public final class WebhookReceiver: @unchecked Sendable {
    public struct Delivery: Sendable {
        /// Header names in lower case.
        public let headers: [String: String]
        public let body: [UInt8]
        /// When it arrived (seconds since the receiver started).
        public let at: Double

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let port: UInt16
    private let listener: Int32
    private let started = Date()
    private struct Behaviour {
        var status = 200
        var delay = 0.0
        var stopping = false
    }
    private let behaviour = Mutex(Behaviour())
    private let received = Mutex<[Delivery]>([])
    private let done = DispatchSemaphore(value: 0)

    public init() throws {
        (listener, port) = try loopbackSocket(listening: 64)
        let thread = Thread { [self] in
            acceptLoop()
            done.signal()
        }
        thread.name = "webhook-receiver"
        thread.start()
    }

    /// Ends the accept loop (within a tenth of a second) and closes the port.
    public func stop() {
        let first = behaviour.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        done.wait()
        close(listener)
    }

    /// The status the next answers have, and how long each waits before it is sent.
    public func answer(_ status: Int, after delay: Double = 0) {
        behaviour.withLock {
            $0.status = status
            $0.delay = delay
        }
    }

    public var deliveries: [Delivery] { received.withLock { $0 } }

    private func acceptLoop() {
        while !behaviour.withLock({ $0.stopping }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            serve(connection)
            close(connection)
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var contentLength = 0
        while data.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            data += buffer[..<count]
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: data) {
                headerEnd = end + 4
                let head = String(decoding: data[..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
            if let headerEnd, data.count >= headerEnd + contentLength { break }
        }
        guard let headerEnd else { return }
        var headers: [String: String] = [:]
        for line in String(decoding: data[..<(headerEnd - 4)], as: UTF8.self).split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        let body = Array(data[headerEnd..<min(data.count, headerEnd + contentLength)])
        received.withLock {
            $0.append(Delivery(headers: headers, body: body, at: Date().timeIntervalSince(started)))
        }
        let (status, delay) = behaviour.withLock { ($0.status, $0.delay) }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let answer = "HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        try? sendAll(connection, Array(answer.utf8))
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
