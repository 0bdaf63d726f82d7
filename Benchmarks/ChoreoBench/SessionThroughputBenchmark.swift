import ChoreoTestSupport
import Dispatch
import Foundation
import Synchronization

/// Session inputs per second against one replica whose PostgreSQL is 10 ms away, with
/// `choreo-bench --session-throughput --database URL`: a TCP proxy on loopback holds each chunk
/// 5 ms in each direction (a managed database in another zone), and `choreo serve` talks to the
/// database through it. Measured alternately: one session driven on one connection, and eight
/// sessions driven at once, each on a connection of its own; each client sends its next input
/// once the last is answered. Reported: inputs per second of each, and their ratio.
enum SessionThroughputBenchmark {
    static let rounds = 3
    static let inputsPerSession = 120
    static let sessions = 8

    static func run(database: String) throws -> [(String, String)] {
        guard let url = URLComponents(string: database), let port = url.port else {
            throw BenchError("--database needs a postgres:// URL with a port")
        }
        let proxy = try DelayProxy(target: UInt16(port), delay: 0.005)
        defer { proxy.stop() }
        var proxied = url
        proxied.host = "127.0.0.1"
        proxied.port = Int(proxy.port)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-session-throughput-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ChoreoChild(["serve", "--port", "0", "--data", directory.path, "--database", proxied.string!])
        defer { server.stop() }
        var one: [Double] = []
        var eight: [Double] = []
        var next = 0
        for _ in 0..<rounds {
            one.append(try drive(server.port, sessions: 1, first: &next))
            eight.append(try drive(server.port, sessions: sessions, first: &next))
        }
        let ratios = zip(one, eight).map { $1 / $0 }
        func list(_ values: [Double]) -> String {
            "\"" + values.map { String(format: "%.1f", $0) }.joined(separator: ", ") + "\""
        }
        return [
            ("session_throughput_database_delay_ms", "10"),
            ("session_throughput_inputs_per_session", "\(inputsPerSession)"),
            ("session_throughput_1_session_inputs_per_s", list(one)),
            ("session_throughput_8_sessions_inputs_per_s", list(eight)),
            ("session_throughput_8_to_1_ratio", list(ratios)),
        ]
    }

    /// Creates `sessions` sessions and drives them at once, each on its own connection;
    /// inputs per second over all of them.
    static func drive(_ port: UInt16, sessions: Int, first: inout Int) throws -> Double {
        var ids: [String] = []
        for _ in 0..<sessions {
            let created = try KeepAliveConnection(port: port).post("/v1/sessions", Array(SessionBenchmark.scene.utf8))
            guard created.status == 201, let id = created.text.split(separator: "\"").dropFirst(3).first else {
                throw BenchError("cannot create a session: \(created.status) \(created.text)")
            }
            ids.append(String(id))
        }
        first += sessions
        let sessionIDs = ids
        let failures = Mutex<[String]>([])
        // A thread per client: concurrentPerform would run only as many at once as there are
        // cores, and the clients mostly wait.
        let done = DispatchSemaphore(value: 0)
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<sessions {
            Thread.detachNewThread {
                defer { done.signal() }
                do {
                    let connection = try KeepAliveConnection(port: port)
                    for number in 0..<inputsPerSession {
                        let answer = try connection.post(
                            "/v1/sessions/\(sessionIDs[index])/inputs", Array(SessionBenchmark.input(number).utf8))
                        guard answer.status == 200 else { throw BenchError("input answered \(answer.status)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        for _ in 0..<sessions { done.wait() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let failure = failures.withLock({ $0.first }) { throw BenchError(failure) }
        return Double(sessions * inputsPerSession) / seconds
    }
}

/// A TCP proxy on loopback that holds each chunk `delay` seconds in each direction before
/// passing it on: the round trip of a database `2 × delay` away. A thread per direction and
/// connection, for a benchmark's few connections.
final class DelayProxy: Sendable {
    let port: UInt16
    private let listener: Int32

    init(target: UInt16, delay: Double) throws {
        let (listener, port) = try loopbackSocket(listening: 64)
        self.listener = listener
        self.port = port
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                guard let server = try? loopbackConnection(target) else {
                    close(client)
                    continue
                }
                for (from, to) in [(client, server), (server, client)] {
                    Thread.detachNewThread { Self.pump(from, to, delay: delay) }
                }
            }
        }
    }

    /// Copies `from` to `to`, each chunk after `delay`; at the end, shuts down `to`'s writes.
    private static func pump(_ from: Int32, _ to: Int32, delay: Double) {
        var one: Int32 = 1
        setsockopt(to, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            usleep(UInt32(delay * 1_000_000))
            if (try? sendAll(to, Array(buffer[0..<count]))) == nil { break }
        }
        shutdown(to, Int32(SHUT_WR))
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
