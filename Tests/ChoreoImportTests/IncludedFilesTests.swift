import ChoreoService
import Foundation
import Testing

/// How `#import "…"` finds a project's headers: beside the includer, one directory up, or in the
/// `include` directory a Swift package's C-family target keeps its public headers in (SwiftPM's
/// `publicHeadersPath`, default `include`), with the implementation in the target's directory.
@Suite struct IncludedFilesTests {
    @Test func aHeaderInTheTargetsIncludeDirectoryIsFoundWithItsImplementation() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("included-\(UUID().uuidString)")
        let include = root.appendingPathComponent("include")
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "@interface Badge : UIView\n@end\n".write(
            to: include.appendingPathComponent("Badge.h"), atomically: true, encoding: .utf8)
        try "#import \"Badge.h\"\n@implementation Badge\n@end\n".write(
            to: root.appendingPathComponent("Badge.m"), atomically: true, encoding: .utf8)
        let main = root.appendingPathComponent("main.m")
        let source = Array("#import \"Badge.h\"\n".utf8)
        let found = IncludedFiles.find(from: main.path, source: source, skipping: [main.path])
        let names = found.map { URL(fileURLWithPath: $0.0).lastPathComponent }
        #expect(names == ["Badge.h", "Badge.m"])
        #expect(found.first.map { $0.0.hasSuffix("include/Badge.h") } == true)
    }
}
