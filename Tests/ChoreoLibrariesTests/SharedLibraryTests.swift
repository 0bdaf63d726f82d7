import ChoreoArena
import ChoreoLibraries
import ChoreoProbe
import ChoreoRaster
import Foundation
import Synchronization
import Testing

@testable import ChoreoServer
@testable import ChoreoStorage

#if canImport(Glibc)
    import Glibc
#endif

/// The libraries choreo loads when first used: each binds, and one that cannot be loaded is
/// named with the reason and its Debian package, never a crash.
@Suite struct SharedLibraryTests {
    /// Cairo and Pango, libcurl, libpq and libmicrohttpd load and bind every function their
    /// shim lists.
    @Test func theLibrariesBind() {
        #expect(throws: Never.self) { try CairoCanvas.library.get() }
        #expect(throws: Never.self) { try CurlProbeClient.library.get() }
        #expect(throws: Never.self) { try PostgresConnection.library.get() }
        #expect(throws: Never.self) { try MicroHTTPDServer.library.get() }
        #expect(throws: Never.self) { try WebhookSignature.library.get() }
    }

    /// HMAC-SHA256 through libcrypto gives RFC 4231's test vectors (cases 1, 2 and 6: a key
    /// longer than a block), and the webhook header is `sha256=` and the hex of the HMAC of
    /// `"<timestamp>.<body>"`.
    @Test func hmacSHA256MatchesRFC4231() throws {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
        let vectors: [([UInt8], [UInt8], String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ]
        for (key, message, expected) in vectors {
            #expect(hex(try WebhookSignature.hmacSHA256(key: key, message: message).get()) == expected)
        }
        let header = try WebhookSignature.header(secret: "Jefe", timestamp: 1, body: Array("x".utf8)).get()
        #expect(
            header == "sha256="
                + hex(try WebhookSignature.hmacSHA256(key: Array("Jefe".utf8), message: Array("1.x".utf8)).get()))
    }

    /// A library that is not installed: its name, the loader's reason and the package.
    @Test func aMissingLibraryIsNamedWithItsPackage() {
        let result = SharedLibrary.load("libchoreo-absent.so.9", package: "choreo-absent") {
            (_: UnsafeMutablePointer<Int>, _: UnsafeMutableRawPointer) -> UnsafePointer<CChar>? in nil
        }
        guard case .failure(let unavailable) = result else {
            Issue.record("an absent library loaded")
            return
        }
        #expect(unavailable.soname == "libchoreo-absent.so.9")
        #expect(unavailable.reason.contains("libchoreo-absent.so.9"), "\(unavailable.reason)")
        #expect(unavailable.description.contains("install the Debian package choreo-absent"))
    }

    /// A library without a function the shim lists is refused, naming the function; one with
    /// all of them is bound.
    @Test func aLibraryWithoutAFunctionIsRefused() {
        func bind(_ name: String) -> Result<BoundFunctions<Int>, LibraryUnavailable> {
            SharedLibrary.load("libz.so.1", package: "zlib1g") { (table: UnsafeMutablePointer<Int>, library) in
                guard let address = dlsym(library, name) else { return UnsafePointer(strdup(name)) }
                table.initialize(to: Int(bitPattern: address))
                return nil
            }
        }
        guard case .failure(let missing) = bind("zlib_has_no_such_function") else {
            Issue.record("a missing function was bound")
            return
        }
        #expect(missing.reason == "it has no function zlib_has_no_such_function")
        guard case .success(let address) = bind("crc32") else {
            Issue.record("crc32 was not bound")
            return
        }
        #expect(address.table != 0)
    }

    /// Without libcurl, every target of the arena's prober fails with the reason, once per
    /// interval, instead of never answering.
    @Test func probesWithoutLibcurlSayWhy() throws {
        let unavailable = LibraryUnavailable(
            soname: "libcurl.so.4", debianPackage: "libcurl4", reason: "cannot open shared object file")
        let results = Mutex<[Int: [ProbeResult]]>([:])
        let client = CurlProbeClient(library: .failure(unavailable)) { id, result in
            results.withLock { $0[id, default: []].append(result) }
        }
        client.configure(
            targets: [
                CurlProbeClient.Target(id: 1, url: "http://127.0.0.1:9/a"),
                CurlProbeClient.Target(id: 2, url: "http://127.0.0.1:9/b"),
            ],
            interval: 0.1, timeout: 0.1)
        client.start()
        defer { client.stop() }
        for _ in 0..<200 where results.withLock({ $0[1, default: []].count < 2 || $0[2] == nil }) {
            usleep(10_000)
        }
        let seen = results.withLock { $0 }
        #expect(seen[1, default: []].count >= 2 && seen[2] != nil)
        for result in seen.values.joined() {
            #expect(result.failure == .other(unavailable.description), "\(result)")
        }
    }

    /// With the allocator set, a large block has a mapping of its own (glibc puts it 16 bytes
    /// into a fresh page) even after a larger one was freed, which by default raises glibc's
    /// threshold to that size and puts the next ones in the heap. Other tests of this process
    /// may have left large free blocks, which glibc serves first: blocks are taken (and held)
    /// until one comes from a new mapping, at most eight.
    @Test func largeBlocksGetMappingsOfTheirOwn() {
        Allocator.configure()
        free(malloc(30 << 20))
        var held: [UnsafeMutableRawPointer] = []
        defer { held.forEach { free($0) } }
        var mapped = false
        for _ in 0..<8 where !mapped {
            let block = malloc(12 << 20)!
            held.append(block)
            mapped = Int(bitPattern: block) & 0xfff == 0x10
        }
        #expect(mapped, "\(held.count) blocks, none in a mapping of its own: \(held)")
    }

    /// Small blocks freed below one still in use stay in the heap, resident, until
    /// ``Allocator/releaseFreePages()`` gives their pages back.
    @Test func freePagesGoBack() throws {
        func resident() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        let blocks = (0..<40_000).map { _ in malloc(500)! }
        for block in blocks { memset(block, 1, 500) }
        let pin = malloc(500)!
        defer { free(pin) }
        for block in blocks { free(block) }
        let before = try resident()
        Allocator.releaseFreePages()
        let after = try resident()
        #expect(before - after > 10_000, "\(before) KiB resident before, \(after) after")
    }
}
