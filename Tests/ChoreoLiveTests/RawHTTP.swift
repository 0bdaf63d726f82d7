import ChoreoTestSupport
import Foundation
import Testing

/// A minimal HTTP/1.1 client over a POSIX socket, so tests control every byte (and can stall).
struct RawHTTP {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let port: UInt16

    /// Opens a connected socket to 127.0.0.1.
    func connect(timeout: Int = 20) throws -> Int32 {
        try loopbackConnection(port, receiveTimeout: timeout)
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until the peer closes (or the receive timeout passes).
    static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            result.append(contentsOf: buffer[0..<n])
        }
        return result
    }

    /// Reads an open stream (an event stream, say) until what has come contains `marker`, the
    /// peer closes, or `seconds` pass; returns all that came.
    static func read(_ fd: Int32, until marker: String, seconds: Double) -> String {
        var stream: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && !String(decoding: stream, as: UTF8.self).contains(marker) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            stream += buffer[0..<n]
        }
        return String(decoding: stream, as: UTF8.self)
    }

    /// ``read(_:until:seconds:)`` for an event that is expected: waits up to a generous
    /// `limit` for `marker` and says how long it took, or that it did not come, for an
    /// expectation's message.
    static func awaitEvent(_ fd: Int32, _ marker: String, limit: Double = 60) -> (stream: String, awaited: Awaited) {
        let started = Date()
        let stream = read(fd, until: marker, seconds: limit)
        return (stream, Awaited(what: marker, happened: stream.contains(marker), since: started, limit: limit))
    }

    /// A scene whose render at fps 10 runs for tens of seconds or more (an emitter over an hour
    /// of scene, 36,000 frames of 30 particles, about 128 MB of JSON): a request that is still running when a test
    /// needs one.
    static let slowScene =
        #"{"layers":[{"id":"e","type":"emitter","emitterCells":[{"birthRate":30,"lifetime":1}]}],"script":[{"at":3600,"do":[{"set":{"e":{"birthRate":2}}}]}]}"#

    /// Sends a JSON `POST` on a new connection and returns the connection, the answer unread.
    func start(_ target: String, body: String) throws -> Int32 {
        let fd = try connect()
        let bytes = Array(body.utf8)
        let head =
            "POST \(target) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n"
        Self.send(fd, Array(head.utf8) + bytes)
        return fd
    }

    /// A request on a new connection; the answer read until the server closes it, each read
    /// waiting at most `timeout` seconds (longer for the heavy work of the debug build a test
    /// runs, on a machine other suites load at the same time).
    func request(
        _ method: String, _ target: String, body: String? = nil, contentType: String = "application/json",
        headers: [String: String] = [:], timeout: Int = 20
    ) throws -> Response {
        let fd = try connect(timeout: timeout)
        defer { close(fd) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let bodyBytes = Array((body ?? "").utf8)
        if body != nil { head += "Content-Type: \(contentType)\r\nContent-Length: \(bodyBytes.count)\r\n" }
        head += "\r\n"
        Self.send(fd, Array(head.utf8) + bodyBytes)
        return try Self.parse(Self.readAll(fd))
    }

    static func parse(_ raw: [UInt8]) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = raw.firstRange(of: separator) else { throw LiveError("no response head in \(raw.count) bytes") }
        let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(raw[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < data.count {
            guard let lineEnd = data[index...].firstRange(of: [13, 10]) else { break }
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            result.append(contentsOf: data[start..<min(start + size, data.count)])
            index = start + size + 2
        }
        return result
    }
}

/// How a wait for an expected event ended: when it came, or that it had not come by the limit.
struct Awaited: CustomStringConvertible {
    let what: String
    let happened: Bool
    let seconds: Double
    let limit: Double

    init(what: String, happened: Bool, since started: Date, limit: Double) {
        self.what = what
        self.happened = happened
        seconds = Date().timeIntervalSince(started)
        self.limit = limit
    }

    var description: String {
        let elapsed = (seconds * 10).rounded() / 10
        return happened ? "\(what) after \(elapsed) s" : "\(what): not within \(limit) s (waited \(elapsed) s)"
    }
}

/// Polls until `condition` holds, for at most a generous `limit` (the debug build, on a
/// machine other suites load at the same time): waits on the event, not on a window.
func waitUntil(_ what: String, limit: Double = 60, _ condition: () throws -> Bool) rethrows -> Awaited {
    let started = Date()
    let deadline = started.addingTimeInterval(limit)
    var happened = try condition()
    while !happened && Date() < deadline {
        usleep(50_000)
        happened = try condition()
    }
    return Awaited(what: what, happened: happened, since: started, limit: limit)
}

/// ``waitUntil(_:limit:_:)`` as an expectation: one that fails says what did not come, and
/// after how long.
@discardableResult
func expectEventually(
    _ what: String, limit: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) rethrows -> Awaited {
    let awaited = try waitUntil(what, limit: limit, condition)
    #expect(awaited.happened, "\(awaited)", sourceLocation: sourceLocation)
    return awaited
}
