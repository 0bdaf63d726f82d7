import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// Untrusted code sent to `POST /v1/import` on a live server touches nothing (docs/security.md,
/// "The import helper"): no spelling of `#include` reaches a file of the machine, no question
/// about a file is answered, the import's memory is bounded and counted, a client that hangs up
/// stops its helper, and one client cannot hold every helper.
@Suite struct ImportSandboxLiveTests {
    /// A directory every user may read, outside the test's own scratch directory (which may sit
    /// where other users cannot enter): a file there is what a careless server would read.
    final class Secret {
        let directory = "/tmp/choreo-secret-\(UUID().uuidString)"
        var header: String { directory + "/secret.h" }
        /// The value the header defines: it must never come back in an answer.
        static let value = "393659"

        init() throws {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try "#define SECRET_WIDTH \(Self.value)\n".write(toFile: header, atomically: false, encoding: .utf8)
            chmod(header, 0o644)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// A view controller whose view's width is `width`, after `prologue`.
    static func controller(_ prologue: String, width: String = "SECRET_WIDTH") -> String {
        """
        \(prologue)
        @implementation Probe : UIViewController
        - (void)viewDidLoad {
            UIView *box = [[UIView alloc] initWithFrame:CGRectMake(0, 0, \(width), 10)];
            [self.view addSubview:box];
            [UIView animateWithDuration:1 animations:^{ box.alpha = 0; }];
        }
        @end
        """
    }

    static func importObjC(_ http: RawHTTP, _ source: String) throws -> RawHTTP.Response {
        try http.request("POST", "/v1/import", body: source, contentType: "text/x-objective-c", timeout: 30)
    }

    /// Each spelling that once reached libclang past the text filter: a space after `#`, a
    /// comment before it, the digraph `%:`, a macro naming the path, a line splice.
    @Test func noSpellingOfIncludeReachesAFile() throws {
        let secret = try Secret()
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let path = secret.header
        let spellings = [
            "# include \"\(path)\"",
            "/**/#include \"\(path)\"",
            "%:include \"\(path)\"",
            "#define P \"\(path)\"\n#include P",
            "#inc\\\nlude \"\(path)\"",
        ]
        for spelling in spellings {
            let response = try Self.importObjC(http, Self.controller(spelling))
            #expect(!response.text.contains(Secret.value), "\(spelling): \(response.text.prefix(600))")
            #expect(response.status == 422, "\(spelling): \(response.status)")
            #expect(response.text.contains("not one of the import's"), "\(spelling): \(response.text.prefix(600))")
        }
        // The plain spelling is read without the file, with a note, and without its value.
        let plain = try Self.importObjC(http, Self.controller("#include \"\(path)\"", width: "20"))
        #expect(plain.status == 200 && !plain.text.contains(Secret.value), "\(plain.text.prefix(600))")
    }

    /// `__has_include` would tell whether any path exists: refused at its line and column,
    /// however spelled.
    @Test func noQuestionAboutAFileIsAnswered() throws {
        let secret = try Secret()
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        for probe in ["#if __has_include(\"\(secret.header)\")", "#if __has_inc\\\nlude(\"/etc/shadow\")"] {
            let response = try Self.importObjC(http, Self.controller(probe + "\n#define W 1\n#endif", width: "10"))
            #expect(response.status == 422, "\(probe): \(response.text.prefix(400))")
            #expect(response.text.contains("__has_include asks whether a file exists"), "\(response.text.prefix(400))")
            #expect(response.text.contains("\"line\":1,\"column\":5"), "\(response.text.prefix(400))")
        }
    }

    /// A device named by an inclusion (`/dev/zero` held a helper for seconds) is not opened.
    @Test func aDeviceIsNotOpened() throws {
        let server = try ServerProcess()
        let response = try Self.importObjC(
            RawHTTP(port: server.port), Self.controller("#inc\\\nlude \"/dev/zero\"", width: "10"))
        #expect(response.status == 422 && response.text.contains("not one of the import's"), "\(response.text)")
    }

    /// The helper stands behind its walls whoever starts it: root becomes nobody in an empty
    /// root, another user takes an empty root in a user namespace of its own.
    @Test(.enabled(if: getuid() == 0)) func theHelperIsWalledOffAsRootAndAsAnotherUser() throws {
        let helper = URL(fileURLWithPath: ServerProcess.binary).deletingLastPathComponent()
            .appendingPathComponent("choreo-import").path
        let source = "let x = 1\n"
        let (status, _, errors) = try runProgram(helper, ["--language", "swift"], input: source)
        #expect(status == 0 && errors.contains("walls: an empty root, as nobody; no capabilities; seccomp filter"))
        // Another user runs a copy it may read (the build directory may be closed to it).
        let scratch = "/tmp/choreo-helper-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.copyItem(atPath: helper, toPath: scratch + "/choreo-import")
        let (otherStatus, _, otherErrors) = try runProgram(
            "/usr/sbin/runuser", ["-u", "nobody", "--", scratch + "/choreo-import", "--language", "swift"],
            input: source)
        #expect(otherStatus == 0, "\(otherErrors)")
        #expect(otherErrors.contains("walls: an empty root in a user namespace"), "\(otherErrors)")
    }

    /// A string that doubles sixty times stops at the value limit, at its line; a macro bomb
    /// stops at the helper's memory budget, named with the stage.
    @Test func theImportsMemoryIsBounded() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let doubling = """
            import UIKit
            class Doubling: UIViewController {
                override func viewDidLoad() {
                    var s = "ab"
                    for _ in 0..<60 { s = s + s }
                }
            }
            """
        let strings = try http.request("POST", "/v1/import", body: doubling, contentType: "text/x-swift", timeout: 30)
        #expect(strings.status == 422, "\(strings.text.prefix(400))")
        #expect(strings.text.contains("a string of more than 1048576 bytes"), "\(strings.text.prefix(400))")
        #expect(strings.text.contains("\"line\":5"), "\(strings.text.prefix(400))")
        var macros = ["#define A0 1+"]
        for level in 1..<40 { macros.append("#define A\(level) A\(level - 1) A\(level - 1)") }
        macros.append("int bomb = A39 1;")
        let bomb = try Self.importObjC(http, Self.controller(macros.joined(separator: "\n"), width: "10"))
        #expect(bomb.status == 422, "\(bomb.text.prefix(400))")
        #expect(
            bomb.text.contains("used more than 256 MiB of memory while parsing the Objective-C source"),
            "\(bomb.text.prefix(400))")
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// A parser that crashes on hostile input (200,000 nested unary minuses overflow libclang's
    /// stack) is contained in its helper, and the answer says that it crashed and where.
    @Test func aCrashInTheParserIsContainedAndSaidSo() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let deep = Self.controller("", width: String(repeating: "-", count: 200_000) + "1")
        let response = try Self.importObjC(http, deep)
        #expect(response.status == 422, "\(response.text.prefix(400))")
        #expect(
            response.text.contains("crashed (signal 11, SIGSEGV) while parsing the Objective-C source")
                && response.text.contains("contained"), "\(response.text.prefix(400))")
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    /// A helper holds its memory budget from the server's render memory: a server whose
    /// render memory cannot hold one refuses imports instead of running them uncounted.
    @Test func helpersAreCountedInTheServersMemory() throws {
        let server = try ServerProcess(arguments: ["--max-render-memory", "100000000"])
        let response = try RawHTTP(port: server.port).request(
            "POST", "/v1/import", body: "let x = 1\n", contentType: "text/x-swift")
        #expect(response.status == 503, "\(response.text)")
        #expect(response.text.contains("--max-render-memory"), "\(response.text)")
    }

    /// Swift that runs until the helper's deadline: two million steps, each copying half a
    /// megabyte.
    static let slow = """
        import UIKit
        class Slow: UIViewController {
            override func viewDidLoad() {
                var s = "a"
                for _ in 0..<19 { s = s + s }
                var n = 0
                for _ in 0..<10000 { for _ in 0..<10000 { let t = s + "b"; n += t.utf8.count } }
            }
        }
        """

    /// A request for `source` as Swift, sent on its own connection from `address` (any address
    /// of the loopback network), left open.
    static func sendImport(_ source: String, port: UInt16, from address: String = "127.0.0.1") throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LiveError("socket failed") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func sockaddress(_ text: String, _ port: UInt16) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr(text)
            return address
        }
        var local = sockaddress(address, 0)
        var remote = sockaddress("127.0.0.1", port)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            throw LiveError("cannot connect from \(address)")
        }
        let body = Array(source.utf8)
        let head =
            "POST /v1/import HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: text/x-swift\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        RawHTTP.send(fd, Array(head.utf8) + body)
        return fd
    }

    /// Waits (at most `limit` seconds) until `condition` holds; how long it took, or nil.
    static func waitUntil(_ limit: Double, _ condition: () throws -> Bool) rethrows -> Double? {
        let started = Date()
        while Date().timeIntervalSince(started) < limit {
            if try condition() { return Date().timeIntervalSince(started) }
            usleep(50_000)
        }
        return nil
    }

    /// The server's log lines for `POST /v1/import`.
    static func importLines(_ server: ServerProcess) -> [String] {
        server.drainLog().split(separator: "\n").map(String.init).filter { $0.contains("\"/v1/import\"") }
    }

    /// A client that hangs up stops its helper: the request is logged 499, not 422 at the
    /// helper's deadline (the import runs until its deadline otherwise).
    @Test func aClientThatHangsUpStopsItsHelper() throws {
        let server = try ServerProcess()
        let fd = try Self.sendImport(Self.slow, port: server.port)
        // The helper is running once the server has a child process.
        let started = Self.waitUntil(20) { !childProcesses(of: server.process.processIdentifier).isEmpty }
        #expect(started != nil, "no helper started")
        close(fd)
        let logged = Self.waitUntil(30) { Self.importLines(server).contains { $0.contains("\"status\":") } }
        let lines = Self.importLines(server)
        #expect(logged != nil, "no log line for the import in 30 s: \(server.drainLog().suffix(800))")
        #expect(lines.contains { $0.contains("\"status\":499") }, "\(lines)")
        let gone = Self.waitUntil(10) { childProcesses(of: server.process.processIdentifier).isEmpty }
        #expect(gone != nil, "the helper still runs")
    }

    /// With two helpers, one client address runs at most one import at a time: its second is
    /// refused at once, and another address is served while the first client's import runs.
    @Test func oneClientCannotHoldEveryHelper() throws {
        let server = try ServerProcess()
        let first = try Self.sendImport(Self.slow, port: server.port)
        defer { close(first) }
        let started = Self.waitUntil(20) { !childProcesses(of: server.process.processIdentifier).isEmpty }
        #expect(started != nil, "no helper started")
        let again = try Self.sendImport("let x = 1\n", port: server.port)
        let refused = try RawHTTP.parse(RawHTTP.readAll(again))
        close(again)
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.text.contains("its share"), "\(refused.text)")
        let other = try Self.sendImport(
            Self.controllerSwift, port: server.port, from: "127.0.0.2")
        let served = try RawHTTP.parse(RawHTTP.readAll(other))
        close(other)
        #expect(served.status == 200, "\(served.text.prefix(400))")
    }

    static let controllerSwift = """
        import UIKit
        class Fade: UIViewController {
            override func viewDidLoad() {
                let box = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                view.addSubview(box)
                UIView.animate(withDuration: 1) { box.alpha = 0 }
            }
        }
        """
}
