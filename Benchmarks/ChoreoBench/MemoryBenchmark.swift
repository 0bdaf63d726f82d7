import ChoreoTestSupport
import Foundation

/// `--memory`: peak resident memory of real `choreo` processes rendering the benchmark's scene
/// with 10,000 layers (the most a scene may have) as one JSON document, 121 frames at 60 fps
/// (about 251.6 MB): the memory figures of docs/limits.md and docs/benchmarks.md.
///
/// - `choreo render`: the peak of the process (`ru_maxrss` from `wait4`). It runs first, while
///   this process is small, because Linux starts a spawned child's peak at its parent's; the
///   benchmark fails if that would hide the render's.
/// - `choreo serve`: resident at rest (`VmRSS` after its first `/healthz`), then its peak
///   (`VmHWM`) after one render, then after four at once; the responses are read and dropped.
enum MemoryBenchmark {
    static let layers = 10_000
    static let query = "fps=60&end=2"

    static func run() throws -> [(String, String)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-memory-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The scene is written by a child (`--scene-json`), so that this process stays small.
        let scene = directory.appendingPathComponent("scene.json")
        let written = try run(CommandLine.arguments[0], ["--scene-json", "\(layers)"], output: scene.path)
        guard written.status == 0 else { throw BenchError("choreo-bench --scene-json exited \(written.status)") }
        let render = try run(choreo, ["render", scene.path, "--fps", "60", "--end", "2"])
        guard render.status == 0 else { throw BenchError("choreo render exited \(render.status)") }
        let parent = try status(getpid(), "VmHWM")
        guard render.peakKiB > parent else {
            throw BenchError("this process's peak (\(parent) KiB) hides the render's (\(render.peakKiB) KiB)")
        }

        let server = try ChoreoChild(["serve", "--port", "0", "--data", directory.appendingPathComponent("data").path])
        defer { server.stop() }
        let pid = server.process.processIdentifier
        guard try ScaleOutBenchmark.request(server.port, "GET", "/healthz").0 == 200 else {
            throw BenchError("/healthz did not answer 200")
        }
        let idle = try status(pid, "VmRSS")
        let body = try [UInt8](Data(contentsOf: scene))
        let port = server.port
        let one = try drain(server.port, body)
        let afterOne = try status(pid, "VmHWM")
        let results = BenchResults(count: 4)
        // A thread each: concurrentPerform would run only as many at once as there are cores.
        let finished = DispatchGroup()
        for index in 0..<4 {
            finished.enter()
            Thread.detachNewThread {
                results.set(index, Result { try drain(port, body) })
                finished.leave()
            }
        }
        finished.wait()
        for result in results.values {
            let (status, bytes) = try result.get()
            guard status == 200, bytes == one.bytes else { throw BenchError("a concurrent render answered \(status)") }
        }
        let afterFour = try status(pid, "VmHWM")
        guard one.status == 200, one.bytes + 1 == render.bytes else {
            throw BenchError("the served render (\(one.status), \(one.bytes) bytes) is not the CLI's (\(render.bytes))")
        }
        func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
        return [
            ("memory_scene", "\"\(layers) layers x 3 animations, 121 frames as one JSON document\""),
            ("memory_document_bytes", "\(one.bytes)"),
            ("bench_peak_resident_mib", mib(parent)),
            ("cli_render_peak_resident_mib", mib(render.peakKiB)),
            ("serve_idle_resident_mib", mib(idle)),
            ("serve_render_peak_resident_mib", mib(afterOne)),
            ("serve_four_renders_peak_resident_mib", mib(afterFour)),
        ]
    }

    static var choreo: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("choreo")
            .path
    }

    /// Runs `binary` with `arguments` to its end, its standard output written to `output` or
    /// counted; its exit status and peak resident memory in KiB, from `wait4` (Foundation's
    /// `Process` reaps its children itself, so this spawns with `posix_spawn`).
    static func run(_ binary: String, _ arguments: [String], output: String? = nil) throws -> (
        status: Int32, bytes: Int, peakKiB: Int
    ) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        }
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw BenchError("cannot start \(binary): \(String(cString: strerror(spawned)))") }
        var bytes = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += count
        }
        var waitStatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &waitStatus, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed") }
        }
        let exitStatus = (waitStatus & 0x7F) == 0 ? (waitStatus >> 8) & 0xFF : 128 + (waitStatus & 0x7F)
        return (exitStatus, bytes, usage.ru_maxrss)
    }

    /// A field of /proc/PID/status, in KiB.
    static func status(_ pid: Int32, _ field: String) throws -> Int {
        guard let kib = processStatusKiB(pid, field) else { throw BenchError("no \(field) in /proc/\(pid)/status") }
        return kib
    }

    /// POSTs the scene to `/v1/render` and reads the response to its end, keeping none of it:
    /// the status and the number of bytes of the body.
    static func drain(_ port: UInt16, _ body: [UInt8]) throws -> (status: Int, bytes: Int) {
        let fd = try loopbackConnection(port, receiveTimeout: 120)
        defer { close(fd) }
        let head =
            "POST /v1/render?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        try sendAll(fd, Array(head.utf8) + body)
        // The head, then the body counted as it comes (`BodyCounter`).
        var headBytes: [UInt8] = []
        var counter: BodyCounter?
        var status = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if let counter {
                counter.count(chunk[0..<count])
            } else {
                headBytes += chunk[0..<count]
                guard
                    let end = headBytes.indices.dropLast(3).first(where: {
                        headBytes[$0] == 13 && headBytes[$0 + 1] == 10 && headBytes[$0 + 2] == 13
                            && headBytes[$0 + 3] == 10
                    })
                else { continue }
                let head = String(decoding: headBytes[0..<end], as: UTF8.self)
                status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                let started = BodyCounter(chunked: head.lowercased().contains("transfer-encoding: chunked"))
                started.count(headBytes[(end + 4)...])
                counter = started
            }
        }
        guard let counter else { throw BenchError("no response head") }
        return (status, counter.bytes)
    }
}

/// Counts the bytes of an HTTP/1.1 body as it arrives, without its chunked framing (RFC 9112
/// §7.1: a hexadecimal size line, the data, CRLF; a size of zero ends it).
final class BodyCounter {
    private(set) var bytes = 0
    private let chunked: Bool
    private var left = 0
    private var size = 0
    private enum State { case size, extensions, sizeEnd, data, dataEnd, done }
    private var state = State.size

    init(chunked: Bool) { self.chunked = chunked }

    func count(_ data: ArraySlice<UInt8>) {
        guard chunked else { return bytes += data.count }
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            switch state {
            case .size:
                if let digit = hexDigit(byte) {
                    size = size * 16 + digit
                } else {
                    state = byte == 13 ? .sizeEnd : .extensions
                }
            case .extensions:
                if byte == 13 { state = .sizeEnd }
            case .sizeEnd:
                // The LF after the size line.
                left = size
                size = 0
                state = left == 0 ? .done : .data
            case .data:
                let take = min(left, data.endIndex - index)
                bytes += take
                left -= take
                index += take
                if left == 0 { state = .dataEnd }
                continue
            case .dataEnd:
                if byte == 10 { state = .size }
            case .done:
                return
            }
            index += 1
        }
    }

    private func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 97...102: Int(byte - 87)
        case 65...70: Int(byte - 55)
        default: nil
        }
    }
}

/// Results that concurrent iterations set, each its own index.
final class BenchResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<(status: Int, bytes: Int), any Error>?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<(status: Int, bytes: Int), any Error>) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }
    var values: [Result<(status: Int, bytes: Int), any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return results.map { $0 ?? .failure(BenchError("a concurrent render did not finish")) }
    }
}
