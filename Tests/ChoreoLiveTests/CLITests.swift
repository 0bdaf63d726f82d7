import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

/// The real `choreo` binary as a new user meets it: --out, progress, the last frame, exit
/// codes, host names, stderr as JSON lines, storage permissions.
@Suite(.serialized) final class CLITests {
    let scratch = Scratch("choreo-cli")
    static let scene =
        #"{"layers":[{"id":"card","opacity":1}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":0,"toValue":1,"duration":1.9},"layer":"card"}]}]}"#

    func sceneFile() throws -> String { try scratch.write("scene.json", Self.scene) }

    func fileType(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & S_IFMT
    }

    /// `--precision` rounds the CLI's sampled values as the server's query does.
    @Test func precisionRoundsValues() throws {
        let scene = try sceneFile()
        let exact = try runChoreo(["render", scene, "--times", "0.7", "--properties", "opacity"])
        let rounded = try runChoreo(["render", scene, "--times", "0.7", "--properties", "opacity", "--precision", "2"])
        #expect(exact.0 == 0 && rounded.0 == 0)
        #expect(exact.1.contains(#""opacity":0.3684210526315789"#), "\(exact.1)")
        #expect(rounded.1.contains(#""opacity":0.37"#) && rounded.1.contains(#""time":0.7"#), "\(rounded.1)")
        #expect(try runChoreo(["render", scene, "--precision", "0"]).0 == 1)
    }

    /// `--out` writes through what it must not replace: a device node, a symbolic link, a
    /// file with another hard link; a regular file keeps its mode; nothing is left behind.
    @Test func outWritesInPlaceUnlessItCanReplaceSafely() throws {
        let scene = try sceneFile()
        let expected = try runChoreo(["render", scene, "--fps", "4"]).1
        #expect(!expected.isEmpty)
        if getuid() == 0 {
            // A device of our own, in the scratch directory: the same node as /dev/null.
            let device = scratch.file("null")
            #expect(mknod(device, S_IFCHR | 0o666, (1 << 8) | 3) == 0)
            let result = try runChoreo(["render", scene, "--fps", "4", "--out", device])
            #expect(result.0 == 0, "\(result.2)")
            #expect(fileType(device) == S_IFCHR)
        }
        let target = try scratch.write("target.json", "old")
        let link = scratch.file("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try runChoreo(["render", scene, "--fps", "4", "--out", link]).0 == 0)
        #expect(fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == expected)

        let linked = scratch.file("hard.json")
        #expect(Foundation.link(target, linked) == 0)
        #expect(try runChoreo(["render", scene, "--fps", "2", "--out", linked]).0 == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == String(contentsOfFile: linked, encoding: .utf8))
        #expect(try String(contentsOfFile: target, encoding: .utf8) != expected)

        let secret = try scratch.write("secret.json", "old")
        chmod(secret, 0o600)
        #expect(try runChoreo(["render", scene, "--fps", "4", "--out", secret]).0 == 0)
        var status = stat()
        stat(secret, &status)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == expected)

        let fresh = scratch.file("new.json")
        #expect(try runChoreo(["render", scene, "--fps", "4", "--out", fresh]).0 == 0)
        #expect(try String(contentsOfFile: fresh, encoding: .utf8) == expected)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains(".choreo-") }
        #expect(left.isEmpty, "\(left)")
        // A file that cannot be written is an I/O error (1), and its old content stays.
        let missing = try runChoreo(["render", scene, "--out", scratch.file("no/such/dir/out.json")])
        #expect(missing.0 == 1 && missing.2.contains("cannot write"))
    }

    /// The JSON document ends with a newline, the end time is a frame, progress goes to stderr.
    @Test func renderOutputProgressAndLastFrame() throws {
        let (status, stdout, stderr) = try runChoreo(["render", try sceneFile(), "--fps", "7", "--progress"])
        #expect(status == 0)
        #expect(stdout.hasSuffix("}\n"))
        guard case .object(let object) = try JSONParser.parse(Array(stdout.utf8)),
            case .array(let frames)? = object["frames"],
            case .object(let last)? = frames.last
        else { throw LiveError("no frames") }
        // 0, 1/7, … 13/7 = 1.857, and the end 1.9 with the card fully faded in.
        #expect(frames.count == 15)
        #expect(last["time"] == .number(1.9))
        #expect(stderr.contains("render: 15/15 frames"))
        // NDJSON already ends with a newline: no second one.
        let ndjson = try runChoreo(["render", try sceneFile(), "--fps", "7", "--format", "ndjson"]).1
        #expect(ndjson.hasSuffix("}\n") && !ndjson.hasSuffix("\n\n"))
    }

    /// A render to JSON maps none of the libraries loaded when first used (Cairo, Pango,
    /// libcurl, libpq, libmicrohttpd, nor what they bring: GLib, GnuTLS, OpenSSL), checked in
    /// the running process's maps while it waits for its scene on standard input; a PNG render
    /// maps Cairo and Pango once it draws.
    @Test func aRenderMapsOnlyWhatItUses() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        process.arguments = ["render", "-", "--fps", "4"]
        let input = Pipe()
        let output = scratch.file("mapped.json")
        #expect(FileManager.default.createFile(atPath: output, contents: nil))
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        // Until the process has mapped its program and started reading, its maps are partial.
        var maps = ""
        for _ in 0..<400 {
            maps = Self.maps(process.processIdentifier)
            if maps.contains("libz.so") && maps.contains("libsqlite3") { break }
            usleep(5_000)
        }
        #expect(maps.contains("libc.so"), "no maps read")
        for library in ["libcairo", "libpango", "libglib", "libcurl", "libpq", "libmicrohttpd", "libgnutls", "libssl"] {
            #expect(!maps.contains(library), "\(library) is mapped by a JSON render")
        }
        input.fileHandleForWriting.write(Data(Self.scene.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasSuffix("}\n"))

        let png = scratch.file("frame.png")
        #expect(try runChoreo(["render", try sceneFile(), "--format", "png", "--time", "1", "--out", png]).0 == 0)
        #expect(FileManager.default.contents(atPath: png)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    /// The binary's relative relocations are packed (`DT_RELR`, Package.swift's
    /// `compactLinking`): read from its ELF section headers, a `SHT_RELR` section holds them
    /// and the `SHT_RELA` sections keep only the few that name a symbol.
    @Test func theBinaryPacksItsRelativeRelocations() throws {
        let elf = try Data(contentsOf: URL(fileURLWithPath: ServerProcess.binary))
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            elf[offset..<offset + MemoryLayout<T>.size].reversed().reduce(T.zero) { $0 << 8 | T($1) }
        }
        #expect(elf.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2]), "not a 64-bit ELF file")
        let headers = Int(integer(0x28, UInt64.self))
        let size = Int(integer(0x3A, UInt16.self))
        let count = Int(integer(0x3C, UInt16.self))
        var bytesByType: [UInt32: Int] = [:]
        for index in 0..<count {
            let header = headers + index * size
            bytesByType[integer(header + 4, UInt32.self), default: 0] += Int(integer(header + 0x20, UInt64.self))
        }
        let relr: UInt32 = 19
        let rela: UInt32 = 4
        #expect(bytesByType[relr, default: 0] > 0, "no packed relative relocations")
        #expect(bytesByType[rela, default: 0] < 1 << 20, "\(bytesByType[rela, default: 0]) bytes of RELA")
    }

    /// The release link's order (`Sources/choreo/choreo.order`, written by `make order`) still
    /// names this build's functions: of the functions of choreo's own modules it lists, at least
    /// three in four are defined in the binary (`nm`). The link skips names it does not find, so
    /// a stale order still links, but no longer packs together the code that runs.
    @Test func theLinkOrderNamesThisBuildsFunctions() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let order = try String(
            contentsOf: root.appendingPathComponent("Sources/choreo/choreo.order"), encoding: .utf8)
        // A function of choreo's own modules: `$s`, the module name's length, the module name.
        let listed = Set(
            order.split(separator: "\n").filter { line in
                line.hasPrefix("$s")
                    && line.dropFirst(2).drop(while: \.isNumber).lowercased().hasPrefix("choreo")
            }.map(String.init))
        #expect(listed.count > 500, "the order lists \(listed.count) of choreo's functions")
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        nm.arguments = ["--defined-only", ServerProcess.binary]
        let output = Pipe()
        nm.standardOutput = output
        try nm.run()
        let symbols = output.fileHandleForReading.readDataToEndOfFile()
        nm.waitUntilExit()
        #expect(nm.terminationStatus == 0)
        let defined = Set(
            String(decoding: symbols, as: UTF8.self).split(separator: "\n").compactMap { line in
                line.split(separator: " ").last.map(String.init)
            })
        // The functions of the source: specializations, partial applications of closures,
        // outlined copies, thunks and other symbols the optimizer makes exist only in a release
        // build; every other function the order names must still be here, or the order is stale
        // (renamed or moved since `make order`), and the release link would spread the code a
        // start, the server and a render run over more pages again.
        let compilerMade = ["Tg5", "TA", "WO", "TR", "TQ", "TY", "TW"]
        let source = listed.filter { name in
            !compilerMade.contains { name.contains($0) }
                && name.range(of: #"Tf[0-9]|Tt[0-9]|\.[0-9]+$|Tm$|Tu$|Wl$|WL$"#, options: .regularExpression) == nil
        }
        #expect(source.count > 500, "the order names \(source.count) functions of the source")
        let missing = source.filter { !defined.contains($0) }.sorted()
        #expect(
            missing.isEmpty,
            "Sources/choreo/choreo.order is stale: \(missing.count) of its \(source.count) functions are gone (\(missing.prefix(5).joined(separator: ", "))…): run make order"
        )
    }

    /// The mapped libraries of a running process, read to the end (procfs gives its files no
    /// size, so a read by size sees one page).
    static func maps(_ pid: Int32) -> String {
        let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")
        defer { try? file?.close() }
        return String(decoding: file?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    /// A server maps libmicrohttpd, and Cairo and Pango only once it draws a picture; with no
    /// arena nodes to probe it never maps libcurl, and with SQLite storage never libpq.
    @Test func aServerMapsWhatItUses() throws {
        let server = try ServerProcess()
        let pid = server.process.processIdentifier
        let idle = Self.maps(pid)
        #expect(idle.contains("libmicrohttpd") && idle.contains("libsqlite3"), "\(idle)")
        for library in ["libcairo", "libpango", "libcurl", "libpq"] {
            #expect(!idle.contains(library), "\(library) is mapped by an idle server")
        }
        let http = RawHTTP(port: server.port)
        let picture = try http.request("POST", "/v1/render?format=png&time=1", body: Self.scene)
        #expect(picture.status == 200)
        let drawn = Self.maps(pid)
        #expect(drawn.contains("libcairo") && drawn.contains("libpangocairo"))
        #expect(!drawn.contains("libcurl") && !drawn.contains("libpq"))
    }

    @Test func exitCodesAndBareCommand() throws {
        let bare = try runChoreo([])
        #expect(bare.0 == 2 && bare.1.isEmpty && bare.2.contains("Usage: choreo COMMAND"))
        for command in [["--help"], ["render", "--help"], ["serve", "--help"]] {
            #expect(try runChoreo(command).1.contains("Exit status"), "\(command)")
        }
        #expect(try runChoreo(["render", "--bogus"]).0 == 2)
        let invalid = try scratch.write("bad.json", #"{"layers":[{"id":"a","opacty":1}]}"#)
        let result = try runChoreo(["render", invalid])
        #expect(result.0 == 1 && result.2.contains("did you mean \"opacity\"?"))
    }

    /// `--host localhost`, a data path with a quote, and a second server on a taken port:
    /// every stderr line is one JSON object, libmicrohttpd's own messages included.
    @Test func serverStderrIsJSONLines() throws {
        let data = scratch.file("a\"b")
        let server = try ServerProcess(data: data, arguments: ["--host", "localhost"])
        #expect(try RawHTTP(port: server.port).request("GET", "/healthz").status == 200)
        let taken = try runChoreo(["serve", "--port", "\(server.port)", "--host", "127.0.0.1", "--data", data])
        #expect(taken.0 == 1)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let lines = (server.drainLog() + taken.2).split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            #expect(
                (try? JSONParser.parse(Array(line.utf8))).map { if case .object = $0 { true } else { false } } == true,
                "\(line)")
        }
        #expect(taken.2.contains("\"event\":\"libmicrohttpd\""))
        #expect(taken.2.contains("\"event\":\"error\""))
        #expect(server.drainLog().contains(#""data":"\#(data.replacingOccurrences(of: "\"", with: "\\\""))""#))
    }

    /// An empty token must not turn authentication off: the server refuses to start.
    @Test func emptyTokenRefusesToStart() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        process.arguments = ["serve", "--port", "0", "--data", scratch.file("data")]
        var environment = ProcessInfo.processInfo.environment
        environment["CHOREO_API_TOKEN"] = ""
        process.environment = environment
        let log = scratch.file("stderr")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("set but empty"))
    }

    /// A data directory the server's user cannot write says so.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func storagePermissionIsNamed() throws {
        // Run as `nobody` from a directory of its own under /tmp, which any user may enter, so
        // that the test does not depend on where the checkout is (a clone under a 0700 home
        // cannot be entered by `nobody`).
        var template = Array("/tmp/choreo-permission-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        let base = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: base) }
        chmod(base, 0o755)
        let binary = base + "/choreo"
        if link(ServerProcess.binary, binary) != 0 {
            try FileManager.default.copyItem(atPath: ServerProcess.binary, toPath: binary)
        }
        func serveAsNobody(_ data: String) throws -> (Int32, String) {
            let (status, _, text) = try runProgram(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "serve", "--port", "0", "--data", data])
            return (status, text)
        }
        // A data directory the user cannot write.
        let locked = base + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(locked, 0o500)
        let (status, text) = try serveAsNobody(locked)
        #expect(status == 1)
        #expect(text.contains("Permission denied") && text.contains("\"event\":\"error\""), "\(text)")
        // One to be made inside a directory the user cannot enter: the same reason, not
        // Foundation's sentence.
        let closed = base + "/closed"
        try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: true)
        chmod(closed, 0o700)
        let (inside, insideText) = try serveAsNobody(closed + "/data")
        #expect(inside == 1)
        #expect(
            insideText.contains("cannot create data directory") && insideText.contains("Permission denied"),
            "\(insideText)")
    }
}
