import ChoreoStorage
import ChoreoTestSupport
import Dispatch
import Foundation

/// The scale-out figures (docs/scale-out.md), with `choreo-bench --scale-out --database URL`:
///
/// - storage: store and read p50/p99 of a 2 KB scene on SQLite and on PostgreSQL, in
///   alternating blocks so both see the same machine;
/// - failover: two replicas and a probed target; the leader is killed with SIGKILL ten times,
///   and each time the other's `GET /v1/arena` is polled every 10 ms until it says it leads,
///   and the target until it is probed again;
/// - throughput: renders per second from four concurrent clients against one replica, and
///   against two behind HAProxy, alternately.
///
/// The database must be one this benchmark may fill and empty (a throwaway one:
/// Tests/postgres/cluster.sh); the replicas are `choreo` from the benchmark's own directory.
enum ScaleOutBenchmark {
    static let storageBlocks = 10
    static let storageBlock = 200
    static let kills = 10
    static let throughputSeconds = 5.0
    static let clients = 4

    static func run(database: String) throws -> [(String, String)] {
        var figures: [(String, String)] = []
        figures += try storage(database: database)
        figures += try failover(database: database, lease: false)
        figures += try failover(database: database, lease: true)
        figures += try throughput(database: database)
        return figures
    }

    // MARK: Storage

    static func storage(database: String) throws -> [(String, String)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-scaleout-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores: [(String, any Storage)] = [
            ("sqlite", try SQLiteStore(directory: directory.path)), ("postgresql", try PostgresStore(url: database)),
        ]
        defer { stores.forEach { $0.1.close() } }
        let document = Array(
            ("{\"layers\":[" + (0..<40).map { "{\"id\":\"l\($0)\",\"frame\":[0,0,10,10]}" }.joined(separator: ",")
                + "]}").utf8)
        var writes: [String: [Double]] = [:]
        var reads: [String: [Double]] = [:]
        for _ in 0..<storageBlocks {
            for (name, store) in stores {
                var ids: [String] = []
                for _ in 0..<storageBlock {
                    var id = ""
                    writes[name, default: []].append(
                        try SessionBenchmark.nanoseconds { id = try store.insert(name: nil, document: document).id })
                    ids.append(id)
                }
                for id in ids {
                    reads[name, default: []].append(try SessionBenchmark.nanoseconds { _ = try store.get(id) })
                }
            }
        }
        var figures: [(String, String)] = [("storage_document_bytes", "\(document.count)")]
        for (name, _) in stores {
            for (kind, samples) in [("store", writes[name]!), ("read", reads[name]!)] {
                let sorted = samples.sorted()
                figures.append(("\(name)_\(kind)_p50_ms", String(format: "%.3f", sorted[sorted.count / 2] / 1e6)))
                figures.append(
                    (
                        "\(name)_\(kind)_p99_ms",
                        String(format: "%.3f", sorted[Int(Double(sorted.count - 1) * 0.99)] / 1e6)
                    ))
            }
        }
        return figures
    }

    // MARK: Failover

    /// `lease`: the replicas run with `--leader-lease 5` instead of the advisory lock.
    static func failover(database: String, lease: Bool) throws -> [(String, String)] {
        let mode = lease ? ["--leader-lease", "5"] : []
        let prefix = lease ? "failover_lease" : "failover"
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("choreo-bench-failover-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let target = try ChoreoChild(["target", "--port", "0"])
        defer { target.stop() }
        let arena = scratch.appendingPathComponent("arena.json").path
        try
            #"{"nodes":[{"name":"alpha","url":"http://127.0.0.1:\#(target.port)/health","ip":"127.0.0.1"}],"probe":{"interval":0.2,"timeout":0.15}}"#
            .write(toFile: arena, atomically: true, encoding: .utf8)
        var replicas = [
            try ChoreoChild(["serve", "--port", "0", "--database", database, "--arena", arena] + mode),
            try ChoreoChild(["serve", "--port", "0", "--database", database] + mode),
        ]
        defer { replicas.forEach { $0.stop() } }
        var leaderTimes: [Double] = []
        var probeGaps: [Double] = []
        for kill in 0..<kills {
            // Wait for one leader, and for its probes to flow.
            let deadline = Date().addingTimeInterval(20)
            var leaderIndex: Int?
            while leaderIndex == nil && Date() < deadline {
                leaderIndex = replicas.firstIndex { leads($0.port) == true }
                if leaderIndex == nil { usleep(20_000) }
            }
            guard let index = leaderIndex else { throw BenchError("no replica became the leader") }
            let other = replicas[1 - index]
            let servedBefore = try served(target.port)
            // Kill k falls k/10 of the way through the follower's campaign interval (1 s), so
            // the kills cover the whole interval rather than one phase of it.
            Thread.sleep(forTimeInterval: 0.5 + Double(kill) / Double(kills))
            guard try served(target.port) > servedBefore else { throw BenchError("the leader does not probe") }
            // Kill it, then time the takeover and the first probe after the kill.
            let killedServed = try served(target.port)
            let start = DispatchTime.now().uptimeNanoseconds
            replicas[index].kill()
            var led: Double?
            var probed: Double?
            let limit = Date().addingTimeInterval(30)
            while (led == nil || probed == nil) && Date() < limit {
                let now = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if led == nil, leads(other.port) == true { led = now }
                // The dead leader's last probe may still land: count one beyond it.
                if probed == nil, led != nil, (try? served(target.port)).map({ $0 > killedServed + 1 }) == true {
                    probed = now
                }
                usleep(10_000)
            }
            guard let led, let probed else { throw BenchError("no takeover within 30 s") }
            leaderTimes.append(led)
            probeGaps.append(probed)
            // A new replica in the dead one's place, for the next kill.
            replicas[index] = try ChoreoChild(["serve", "--port", "0", "--database", database] + mode)
        }
        func summary(_ name: String, _ values: [Double]) -> [(String, String)] {
            let sorted = values.sorted()
            return [
                ("\(name)_min_s", String(format: "%.3f", sorted.first!)),
                ("\(name)_median_s", String(format: "%.3f", sorted[sorted.count / 2])),
                ("\(name)_max_s", String(format: "%.3f", sorted.last!)),
            ]
        }
        return [("\(prefix)_kills", "\(kills)")] + summary("\(prefix)_new_leader", leaderTimes)
            + summary("\(prefix)_probing_again", probeGaps)
    }

    static func leads(_ port: UInt16) -> Bool? {
        guard let (status, body) = try? request(port, "GET", "/v1/arena"), status == 200 else { return nil }
        return body.contains("\"leader\":true")
    }

    static func served(_ port: UInt16) throws -> Int {
        let (_, body) = try request(port, "GET", "/control")
        guard let range = body.range(of: "\"served\":"),
            let value = Int(body[range.upperBound...].prefix { $0.isNumber })
        else { throw BenchError("no served count: \(body)") }
        return value
    }

    // MARK: Throughput

    /// 100 layers, each with a keyframed position and an eased opacity; sampled at 60 fps for 1 s.
    static var renderBody: [UInt8] {
        let layers = (0..<100).map { "{\"id\":\"l\($0)\",\"frame\":[0,0,10,10]}" }
        let adds = (0..<100).map { index in
            "{\"add\":{\"type\":\"keyframe\",\"keyPath\":\"position.x\",\"values\":[0,\(index),0],\"duration\":1},\"layer\":\"l\(index)\"},"
                + "{\"add\":{\"type\":\"basic\",\"keyPath\":\"opacity\",\"fromValue\":0,\"toValue\":1,\"duration\":1,\"timingFunction\":\"easeInEaseOut\"},\"layer\":\"l\(index)\"}"
        }
        return Array(
            ("{\"layers\":[" + layers.joined(separator: ",") + "],\"script\":[{\"at\":0,\"do\":["
                + adds.joined(separator: ",") + "]}]}").utf8)
    }

    static let renderPath = "/v1/render?fps=60&end=1"

    static func throughput(database: String) throws -> [(String, String)] {
        try throughput(database: database, pinned: false) + throughput(database: database, pinned: true)
    }

    /// One replica against two, behind HAProxy. `pinned`: each replica on a core of its own
    /// (`taskset`), as replicas on one-core machines would be; otherwise both share every core.
    static func throughput(database: String, pinned: Bool) throws -> [(String, String)] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("choreo-bench-haproxy-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let replicas = [
            try ChoreoChild(["serve", "--port", "0", "--database", database], core: pinned ? 0 : nil),
            try ChoreoChild(["serve", "--port", "0", "--database", database], core: pinned ? 1 : nil),
        ]
        defer { replicas.forEach { $0.stop() } }
        let prefix = pinned ? "throughput_pinned" : "throughput"
        let body = renderBody
        let (status, text) = try request(replicas[0].port, "POST", renderPath, body: body)
        guard status == 200 else { throw BenchError("the render answered \(status): \(text.prefix(300))") }
        let ready: (UInt16) -> Bool = { port in (try? request(port, "GET", "/healthz"))?.0 == 200 }
        let one = try HAProxyProcess(backends: [replicas[0].port], directory: scratch.path, ready: ready)
        defer { one.stop() }
        let two = try HAProxyProcess(backends: replicas.map(\.port), directory: scratch.path, ready: ready)
        defer { two.stop() }
        var rates: [String: [Double]] = [:]
        for _ in 0..<2 {
            for (name, proxy) in [("one_replica", one), ("two_replicas", two)] {
                rates[name, default: []].append(try load(port: proxy.port, body: body))
            }
        }
        let oneBest = rates["one_replica"]!.max()!
        let twoBest = rates["two_replicas"]!.max()!
        let figures: [(String, String)] = [
            (
                "\(prefix)_one_replica_renders_per_s",
                rates["one_replica"]!.map { String(format: "%.1f", $0) }.joined(separator: "/")
            ),
            (
                "\(prefix)_two_replicas_renders_per_s",
                rates["two_replicas"]!.map { String(format: "%.1f", $0) }.joined(separator: "/")
            ),
            ("\(prefix)_two_to_one_ratio", String(format: "%.2f", twoBest / oneBest)),
        ]
        guard !pinned else { return figures }
        return [
            ("throughput_response_bytes", "\(text.utf8.count)"), ("throughput_clients", "\(clients)"),
            ("cores", "\(ProcessInfo.processInfo.activeProcessorCount)"),
        ] + figures
    }

    /// Renders per second from ``clients`` concurrent clients for ``throughputSeconds``.
    static func load(port: UInt16, body: [UInt8]) throws -> Double {
        let counter = BenchCounter()
        let failures = BenchCounter()
        let end = Date().addingTimeInterval(throughputSeconds)
        DispatchQueue.concurrentPerform(iterations: clients) { _ in
            while Date() < end {
                if let (status, _) = try? request(port, "POST", renderPath, body: body), status == 200 {
                    counter.add()
                } else {
                    failures.add()
                }
            }
        }
        guard failures.value == 0 else { throw BenchError("\(failures.value) renders failed") }
        return Double(counter.value) / throughputSeconds
    }

    // MARK: Processes and HTTP

    /// One request on its own connection (`Connection: close`), read to its end.
    static func request(_ port: UInt16, _ method: String, _ path: String, body: [UInt8] = []) throws -> (Int, String) {
        let fd = try loopbackConnection(port, receiveTimeout: 30)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if !body.isEmpty { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        try sendAll(fd, Array((head + "\r\n").utf8) + body)
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            response += chunk[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let bodyText = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, bodyText)
    }
}

/// A counter threads add to.
final class BenchCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
