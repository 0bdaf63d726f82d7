import ChoreoImport
import ChoreoJSON
import ChoreoService
import Foundation

/// `choreo import`: Swift or Objective-C animation code → a scene, diagnostics compiler style.
enum ImportCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(arguments, valued: ["language", "entry", "out"], flags: ["help", "reduce-motion"])
        if parsed.flags.contains("help") {
            print(Help.importCode)
            return
        }
        guard let path = parsed.positional.first else {
            throw CLIError(message: "import takes a source file (or -), then the files read with it")
        }
        let result = try importScene(
            path, language: parsed.options["language"], entry: parsed.options["entry"],
            reduceMotion: parsed.flags.contains("reduce-motion"), with: Array(parsed.positional.dropFirst()))
        guard let scene = result.scene else {
            throw CLIError(message: "nothing could be imported from \(path)", status: 1)
        }
        try OutputFile.write(Array(scene.prettyPrinted().utf8), to: parsed.options["out"])
    }

    /// Imports `path` (or standard input for "-") with the files `others` (the rest of its Swift
    /// module, or Objective-C files), printing its diagnostics to stderr. An Objective-C file's
    /// `#import "…"` headers are read from beside the file that includes them or one directory up,
    /// and with each header the implementation beside it (`X.h` → `X.m`).
    static func importScene(
        _ path: String, language: String?, entry: String?, reduceMotion: Bool = false, with others: [String] = []
    )
        throws(CLIError) -> ImportResult
    {
        let sourceLanguage: SourceLanguage
        if let language {
            guard let chosen = SourceLanguage(rawValue: language) else {
                throw CLIError(message: "--language must be swift or objc")
            }
            sourceLanguage = chosen
        } else if let detected = SourceLanguage(fileName: path) {
            sourceLanguage = detected
        } else {
            throw CLIError(message: "cannot tell the language of \(path): name it with --language swift|objc")
        }
        let source = try readInput(path)
        let name = path == "-" ? nil : (path as NSString).lastPathComponent
        var request = ImportRequest(source: source, language: sourceLanguage, entry: entry, name: name)
        request.reduceMotion = reduceMotion
        for other in others where other != path {
            request.companions.append((other, try readInput(other)))
        }
        if sourceLanguage == .objc, path != "-" {
            let given = Set([path] + others)
            for companion in IncludedFiles.find(from: path, source: source, skipping: given) {
                request.companions.append(companion)
            }
        }
        let result: ImportResult
        do throws(ServiceError) {
            result = try ImportService.run(request, helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
        } catch {
            throw CLIError(message: RenderCommand.describe(error), status: 1)
        }
        let file = path == "-" ? "<stdin>" : path
        for diagnostic in result.diagnostics { Output.error(diagnostic.formatted(file: file)) }
        return result
    }

    /// Whether `path` names source code rather than a scene.
    static func isSource(_ path: String) -> Bool { SourceLanguage(fileName: path) != nil }

    /// A scene document from `path`: read as it is, or imported first from `.swift` / `.m`.
    static func sceneDocument(_ path: String) throws(CLIError) -> [UInt8] {
        guard isSource(path) else { return try readInput(path) }
        guard let scene = try importScene(path, language: nil, entry: nil).scene else {
            throw CLIError(message: "nothing could be imported from \(path)", status: 1)
        }
        var writer = JSONWriter(capacity: 4096)
        writer.value(scene)
        return writer.bytes
    }
}

/// The files an Objective-C source includes with `#import "…"` / `#include "…"`, as a project
/// finds them: beside the including file, or one directory up; and for each header found, the
/// implementation beside it (`X.h` → `X.m`), which holds the methods the header declares.
enum IncludedFiles {
    /// At most this many files are read for one import.
    static let limit = 64

    static func find(from path: String, source: [UInt8], skipping given: Set<String>) -> [(String, [UInt8])] {
        var found: [(String, [UInt8])] = []
        var seen = given.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var pending: [(includer: String, text: [UInt8])] = [(path, source)]
        while let (includer, text) = pending.popLast(), found.count < limit {
            let directory = URL(fileURLWithPath: includer).deletingLastPathComponent()
            for name in quotedIncludes(text) {
                let candidates = [directory, directory.deletingLastPathComponent()].map {
                    $0.appendingPathComponent(name).standardizedFileURL
                }
                guard let header = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }),
                    !seen.contains(header.path), let data = FileManager.default.contents(atPath: header.path)
                else { continue }
                seen.append(header.path)
                found.append((relative(header.path), Array(data)))
                pending.append((header.path, Array(data)))
                let implementation = header.deletingPathExtension().appendingPathExtension("m")
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
