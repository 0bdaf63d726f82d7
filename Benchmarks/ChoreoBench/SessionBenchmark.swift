import ChoreoFormat
import ChoreoHTTP
import ChoreoService
import ChoreoStorage
import ChoreoTestSupport
import Dispatch
import Foundation

/// Live sessions' figures: a 50-layer scene whose property animator is scrubbed by
/// 10,000 session inputs, each timed — in process (the registry, with SQLite storage) and over
/// HTTP (a `choreo serve` child on loopback, one keep-alive connection). Reported: median and
/// p99 of the 100 inputs from the 10th, and of the last 100 up to the 10,000th.
enum SessionBenchmark {
    static let layers = 50
    static let inputs = 10_000

    static var scene: String {
        let items = (0..<layers).map { "{\"id\": \"l\($0)\", \"position\": [\($0 * 10), 0]}" }
        return "{\"layers\": [\(items.joined(separator: ", "))]}"
    }

    static func input(_ number: Int) -> String {
        if number == 0 {
            let changes = (0..<layers).map { "\"l\($0)\": {\"position\": [\($0 * 10), 300]}" }
            return
                "{\"at\": 0, \"do\": [{\"propertyAnimator\": {\"id\": \"sheet\", \"duration\": 1, \"curve\": \"easeInOut\", \"changes\": {\(changes.joined(separator: ", "))}}}, {\"fractionComplete\": 0, \"animator\": \"sheet\"}]}"
        }
        let fraction = Double(number % 100) / 100
        return
            "{\"at\": \(Double(number) / 1000), \"do\": [{\"fractionComplete\": \(fraction), \"animator\": \"sheet\"}]}"
    }

    static func nanoseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }

    /// Median and p99, in milliseconds, of the inputs numbered `range` (1-based).
    static func window(_ times: [Double], _ range: ClosedRange<Int>) -> (median: Double, p99: Double) {
        let sorted = times[(range.lowerBound - 1)..<range.upperBound].sorted()
        return (sorted[sorted.count / 2] / 1e6, sorted[Int(Double(sorted.count - 1) * 0.99)] / 1e6)
    }

    static func figures(_ prefix: String, _ times: [Double]) -> [(String, String)] {
        let early = window(times, 10...109)
        let late = window(times, (inputs - 99)...inputs)
        return [
            ("\(prefix)_10th_median_ms", String(format: "%.3f", early.median)),
            ("\(prefix)_10th_p99_ms", String(format: "%.3f", early.p99)),
            ("\(prefix)_10000th_median_ms", String(format: "%.3f", late.median)),
            ("\(prefix)_10000th_p99_ms", String(format: "%.3f", late.p99)),
            ("\(prefix)_10000th_to_10th_median_ratio", String(format: "%.2f", late.median / early.median)),
            ("\(prefix)_p99_all_ms", String(format: "%.3f", window(times, 1...inputs).p99)),
        ]
    }

    static func run() throws -> [(String, String)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-sessions-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        // In process.
        let store = try SQLiteStore(directory: directory.appendingPathComponent("in-process").path)
        let registry = SessionRegistry(store: store)
        let id = try registry.create(Array(scene.utf8)).id
        var local: [Double] = []
        for number in 0..<inputs {
            let body = Array(input(number).utf8)
            // The answer written too, as the server writes it.
            local.append(
                try nanoseconds { _ = ResponseEncoder.input(try registry.append(id, body: body, ifMatch: nil)) })
        }
        store.close()
        // Over HTTP.
        let server = try ChoreoChild(
            ["serve", "--port", "0", "--data", directory.appendingPathComponent("http").path])
        defer { server.stop() }
        let connection = try KeepAliveConnection(port: server.port)
        let created = try connection.post("/v1/sessions", Array(scene.utf8))
        guard created.status == 201, let sessionID = created.text.split(separator: "\"").dropFirst(3).first else {
            throw BenchError("cannot create a session: \(created.status) \(created.text)")
        }
        var remote: [Double] = []
        for number in 0..<inputs {
            let body = Array(input(number).utf8)
            var status = 0
            remote.append(
                try nanoseconds { status = try connection.post("/v1/sessions/\(sessionID)/inputs", body).status })
            guard status == 200 else { throw BenchError("input \(number) answered \(status)") }
        }
        return [("session_layers", "\(layers)"), ("session_inputs", "\(inputs)")] + figures("session_in_process", local)
            + figures("session_http", remote)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// HTTP/1.1 requests on one keep-alive connection to loopback.
final class KeepAliveConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        fd = try loopbackConnection(port)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    func post(_ path: String, _ body: [UInt8]) throws -> (status: Int, text: String) {
        try request("POST", path, body)
    }

    func get(_ path: String) throws -> (status: Int, text: String) { try request("GET", path, nil) }

    func request(_ method: String, _ path: String, _ body: [UInt8]?) throws -> (status: Int, text: String) {
        let head =
            body.map {
                "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \($0.count)\r\n\r\n"
            } ?? "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        try sendAll(fd, Array(head.utf8) + (body ?? []))
        // Head up to the blank line, then Content-Length bytes.
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if let found = find(separator) { headEnd = found } else { try fill() }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        let status = Int(headText.split(separator: " ").dropFirst().first ?? "") ?? 0
        var length = 0
        for line in headText.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let total = headEnd! + 4 + length
        while buffer.count < total { try fill() }
        let text = String(decoding: buffer[(headEnd! + 4)..<total], as: UTF8.self)
        buffer.removeFirst(total)
        return (status, text)
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where Array(buffer[index..<(index + pattern.count)]) == pattern
        {
            return index
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw BenchError("connection closed") }
        buffer += chunk[0..<n]
    }
}
