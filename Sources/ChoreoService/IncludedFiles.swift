import Foundation

/// The files an Objective-C source includes with `#import "…"` / `#include "…"`, as a project
/// finds them: beside the including file, or one directory up, or in the `include` directory of
/// either (a Swift package's C-family target keeps its public headers there and puts that
/// directory on its sources' header search path: SwiftPM's `publicHeadersPath`, default
/// `include`); and for each header found, the implementation beside it (`X.h` → `X.m`), or, for a
/// header in an `include` directory, in the target's directory above it — which holds the methods
/// the header declares.
package enum IncludedFiles {
    /// At most this many files are read for one import.
    package static let limit = 64

    package static func find(from path: String, source: [UInt8], skipping given: Set<String>) -> [(String, [UInt8])] {
        var found: [(String, [UInt8])] = []
        var seen = given.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var pending: [(includer: String, text: [UInt8])] = [(path, source)]
        while let (includer, text) = pending.popLast(), found.count < limit {
            let directory = URL(fileURLWithPath: includer).deletingLastPathComponent()
            for name in quotedIncludes(text) {
                let candidates = [directory, directory.deletingLastPathComponent()].flatMap {
                    [$0, $0.appendingPathComponent("include")]
                }.map { $0.appendingPathComponent(name).standardizedFileURL }
                guard let header = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }),
                    !seen.contains(header.path), let data = FileManager.default.contents(atPath: header.path)
                else { continue }
                seen.append(header.path)
                found.append((relative(header.path), Array(data)))
                pending.append((header.path, Array(data)))
                let beside = header.deletingPathExtension().appendingPathExtension("m")
                let headerDirectory = header.deletingLastPathComponent()
                let target =
                    headerDirectory.lastPathComponent == "include"
                    ? headerDirectory.deletingLastPathComponent().appendingPathComponent(beside.lastPathComponent)
                    : beside
                let implementation =
                    FileManager.default.fileExists(atPath: beside.path) ? beside : target.standardizedFileURL
                if !seen.contains(implementation.path),
                    let code = FileManager.default.contents(atPath: implementation.path)
                {
                    seen.append(implementation.path)
                    found.append((relative(implementation.path), Array(code)))
                    pending.append((implementation.path, Array(code)))
                }
            }
        }
        return found
    }

    /// The names in `#import "…"` and `#include "…"` lines.
    static func quotedIncludes(_ text: [UInt8]) -> [String] {
        String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("#import") || trimmed.hasPrefix("#include") else { return nil }
            let rest = trimmed.drop { $0 != "\"" && $0 != "<" }
            guard rest.first == "\"" else { return nil }
            let name = rest.dropFirst().prefix { $0 != "\"" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// A path relative to the working directory when it is inside it, as diagnostics name it.
    static func relative(_ path: String) -> String {
        let base = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
