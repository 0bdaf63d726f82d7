import ChoreoImport
import ChoreoJSON
import ChoreoService
import Foundation

/// `choreo import`: Swift or Objective-C animation code → a scene, diagnostics compiler style.
enum ImportCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(
            arguments, valued: ["language", "entry", "out", "tap", "screen"], flags: ["help", "reduce-motion"])
        if parsed.flags.contains("help") {
            print(Help.importCode)
            return
        }
        guard let path = parsed.positional.first else {
            throw CLIError(message: "import takes a source file (or -), then the files read with it")
        }
        var taps: [(title: String, time: Double)] = []
        for text in parsed.repeated["tap"] ?? [] {
            guard let tap = ImportTap.parse(text) else { throw CLIError(message: "--tap \(ImportTap.expected)") }
            taps.append(tap)
        }
        var screen: (width: Double, height: Double)?
        if let text = parsed.options["screen"] {
            guard let given = ImportScreen.parse(text) else {
                throw CLIError(message: "--screen \(ImportScreen.expected)")
            }
            screen = given
        }
        let result = try importScene(
            path, language: parsed.options["language"], entry: parsed.options["entry"],
            reduceMotion: parsed.flags.contains("reduce-motion"), taps: taps, screen: screen,
            with: Array(parsed.positional.dropFirst()))
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
        _ path: String, language: String?, entry: String?, reduceMotion: Bool = false,
        taps: [(title: String, time: Double)] = [], screen: (width: Double, height: Double)? = nil,
        with others: [String] = []
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
        request.taps = taps
        request.screen = screen
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
