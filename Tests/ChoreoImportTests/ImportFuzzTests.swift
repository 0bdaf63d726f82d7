import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import ChoreoTestSupport
import Foundation
import Testing

/// The importer meets broken code: Swift and Objective-C sources mutated from examples/code/ (cut, duplicated,
/// swapped lines, stray punctuation, extreme numbers, truncation) never crash it or hang it,
/// every diagnostic has a real position, and every scene it makes is a valid scene or is
/// rejected by the scene decoder with an error (never a crash there either).
@Suite struct ImportFuzzTests {
    /// The restored sources, with their languages.
    static let seeds: [(text: String, language: SourceLanguage)] = {
        let directory = ImportEquivalenceTests.root.appendingPathComponent("examples/code")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            guard let language = SourceLanguage(fileName: name),
                let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            else { return nil }
            return (text, language)
        }
    }()

    static let fragments = [
        "{", "}", "(", ")", "[", "]", ",", ":", ".", "?", "!", "=", "+", "-", "*", "/", "&&", "||", "\"", "\\",
        "$0", "self", "in", "_", "let", "var", "func", "if", "else", "for", "while", "return", "nil", "true",
        "UIView.animate(withDuration: ", "CATransaction.begin()", "CATransaction.commit()", ".identity",
        "1e308", "-1e308", "0.0 / 0.0", "Int.max", "9999999999999999999", "🦆", "\u{0}", "\n",
        "DispatchQueue.main.asyncAfter(deadline: .now() + 1) {",
        "layer.add(CABasicAnimation(keyPath: \"opacity\"), forKey: nil)",
        "while true {", "for _ in 0..<1000000 {", "func f() { f() }; f()",
    ]

    static func mutate(_ source: String, _ random: inout SplitMix64) -> String {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<(1 + random.below(4)) where !lines.isEmpty {
            let at = random.below(lines.count)
            switch random.below(7) {
            case 0: lines.remove(at: at)
            case 1: lines.insert(lines[at], at: at)
            case 2:
                let other = random.below(lines.count)
                lines.swapAt(at, other)
            case 3:
                var line = Array(lines[at])
                let position = line.isEmpty ? 0 : random.below(line.count + 1)
                line.insert(contentsOf: fragments[random.below(fragments.count)], at: position)
                lines[at] = String(line)
            case 4:
                var line = Array(lines[at])
                if !line.isEmpty {
                    let start = random.below(line.count)
                    line.removeSubrange(start..<min(line.count, start + 1 + random.below(8)))
                }
                lines[at] = String(line)
            case 5:
                lines[at] = lines[at].replacingOccurrences(of: "0.", with: ["1e308", "-0.", "99999."][random.below(3)])
            default:
                lines = Array(lines.prefix(at))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func mutatedSourcesNeverCrashOrHang() throws {
        #expect(Set(Self.seeds.map(\.language)) == [.swift, .objc])
        var random = SplitMix64(seed: 29)
        var limits = ImportLimits()
        limits.steps = 100_000
        var scenes = 0
        var errors = 0
        for case_ in 0..<400 {
            let seed = Self.seeds[case_ % Self.seeds.count]
            let source = Self.mutate(seed.text, &random)
            let unit = seed.language == .swift ? SwiftFrontEnd.lower(source) : ObjCFrontEnd.lower(source)
            let result = Importer.run(unit, options: ImportOptions(limits: limits))
            let lineCount = source.split(separator: "\n", omittingEmptySubsequences: false).count
            for diagnostic in result.diagnostics {
                #expect(diagnostic.position.line >= 1 && diagnostic.position.line <= lineCount + 1, "\(diagnostic)")
                #expect(diagnostic.position.column >= 1, "\(diagnostic)")
            }
            if let scene = result.scene {
                scenes += 1
                var writer = JSONWriter()
                writer.value(scene)
                // The decoder either takes it or says why; it never crashes.
                _ = try? SceneDecoder.decode(bytes: writer.bytes)
            } else {
                errors += 1
                #expect(result.diagnostics.contains { $0.severity == .error })
            }
        }
        // Both outcomes occur: the mutations are neither all harmless nor all fatal.
        #expect(scenes > 20 && errors > 20, "scenes \(scenes), errors \(errors)")
    }
}
