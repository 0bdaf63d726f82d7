import ChoreoImport
import ChoreoSwiftImport
import ChoreoTestSupport
import Foundation
import Testing

/// A Swift source parsed in pieces (SourcePieces, at the same time on several threads) lowers to
/// exactly the unit one parse of the whole file gives: same declarations, statements, positions
/// and diagnostics, in the same order; and cuts fall only between declarations.
@Suite struct SourcePiecesTests {
    /// Everything in the unit, positions included, as text.
    static func dumped(_ unit: SourceUnit) -> String {
        var text = ""
        dump(unit, to: &text)
        return text
    }

    static func whole(_ source: String) -> SourceUnit {
        SwiftFrontEnd.lower(source, pieces: 1, minimumPieceBytes: 1)
    }

    /// A source with the constructs a cut must not fall into: strings with braces and
    /// `func` in them (plain, multi-line, raw, interpolated), comments, nested types, top-level
    /// functions and statements, attributes on their own lines.
    static func mixed(_ count: Int) -> String {
        var lines = ["import UIKit", "", "/* a comment with } and", "func inComment() { */", ""]
        lines.append("final class Mixed: UIViewController {")
        for i in 0..<count { lines.append("    private let card\(i) = UIView()") }
        for i in 0..<count {
            lines += [
                "",
                "    /// Animates card \(i) } func",
                "    @objc",
                "    func animate\(i)(delay: TimeInterval) {",
                "        let label = \"}\\n\\\"func x() {\\(delay + 1)\"",
                "        let raw = #\"}\\(\"#",
                "        let block = \"\"\"",
                "        }",
                "    func fake\(i)() {",
                "        \"\"\"",
                "        UIView.animate(withDuration: 0.2 + Double(\(i)) * 0.01, delay: delay, options: [.curveEaseOut]) {",
                "            self.card\(i).alpha = 0.5 * 2 - 0.5",
                "            self.card\(i).center = CGPoint(x: 10 + \(i), y: (20 + \(i)) * 2)",
                "        } completion: { finished in",
                "            _ = (label, raw, block)",
                "        }",
                "    }",
            ]
        }
        lines += [
            "}", "", "struct Helper {", "    var scale: CGFloat = 2",
            "    func double(_ x: CGFloat) -> CGFloat { x * scale }", "}",
        ]
        for i in 0..<count {
            lines += ["", "func topLevel\(i)() -> Int {", "    return \(i) * 2 + 1", "}"]
        }
        lines += [
            "", "extension Mixed {", "    func extra() { card0.alpha = 1 }", "", "    var computed: Int { 3 }", "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func piecesLowerToTheWholeFilesUnit() throws {
        let source = Self.mixed(40)
        let bytes = Array(source.utf8)
        for count in [2, 3, 4, 7] {
            let pieces = try #require(SourcePieces(bytes, count: count, minimumBytes: 512))
            #expect(pieces.pieces.count == count)
            #expect(
                Self.dumped(SwiftFrontEnd.lower(source, pieces: count, minimumPieceBytes: 512))
                    == Self.dumped(Self.whole(source)))
        }
        let unit = Self.whole(source)
        #expect(unit.types.count == 3)
        #expect(unit.types[0].methods.count == 40)
        #expect(unit.functions.count == 40)
    }

    @Test func cutsFallBetweenDeclarationsOnly() throws {
        let source = Self.mixed(6)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let bytes = Array(source.utf8)
        let pieces = try #require(SourcePieces(bytes, count: 8, minimumBytes: 64))
        var line = 1
        for piece in pieces.pieces.dropFirst() {
            // Where the piece's own text starts: after the synthetic opening and line breaks.
            let text = String(decoding: piece.bytes, as: UTF8.self)
            let pieceLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(pieceLines[0] == (piece.continuesType ? "extension ChoreoPiece {" : ""))
            let start = try #require(pieceLines.indices.first { $0 > 0 && !pieceLines[$0].isEmpty })
            #expect(start + 1 > line)
            line = start + 1
            let original = String(lines[start])
            let word = original.trimmingCharacters(in: .whitespaces)
            #expect(
                ["func", "@objc", "struct", "extension", "private"].contains { word.hasPrefix($0) },
                "cut at line \(start + 1): \(original)")
            #expect(!original.contains("fake"), "a cut inside a string literal: \(original)")
        }
    }

    @Test func aPieceThatDoesNotParseFallsBackToTheWholeFile() {
        // A syntax error in the second half: the diagnostics are the whole file's.
        var source = Self.mixed(20)
        source = source.replacingOccurrences(of: "return 17 * 2 + 1", with: "return 17 * * 2 + (")
        let whole = Self.whole(source)
        #expect(whole.diagnostics.contains { $0.severity == .error })
        #expect(Self.dumped(SwiftFrontEnd.lower(source, pieces: 4, minimumPieceBytes: 256)) == Self.dumped(whole))
    }

    @Test func examplesAndMutatedSourcesLowerAlike() {
        let seeds = ImportFuzzTests.seeds.filter { $0.language == .swift }.map(\.text) + [Self.mixed(12)]
        #expect(seeds.count >= 4)
        var random = SplitMix64(seed: 0x5049_4543)
        var cut = 0
        for case_ in 0..<240 {
            let seed = seeds[case_ % seeds.count]
            let source = case_ < seeds.count ? seed : ImportFuzzTests.mutate(seed, &random)
            if SourcePieces(Array(source.utf8), count: 3, minimumBytes: 128) != nil { cut += 1 }
            let pieces = SwiftFrontEnd.lower(source, pieces: 3, minimumPieceBytes: 128)
            #expect(Self.dumped(pieces) == Self.dumped(Self.whole(source)), "case \(case_)")
        }
        // Most sources are cut: the comparison is not of whole-file parses with themselves.
        #expect(cut > 120, "\(cut) of 240 sources cut")
    }

    @Test func smallSourcesAreParsedWhole() {
        #expect(SourcePieces(Array(Self.mixed(2).utf8), count: 2, minimumBytes: SwiftFrontEnd.pieceBytes) == nil)
        #expect(SourcePieces(Array(Self.mixed(40).utf8), count: 1, minimumBytes: 16) == nil)
        // #sourceLocation renumbers lines: never cut.
        let renumbered = "#sourceLocation(file: \"a.swift\", line: 100)\n" + Self.mixed(40)
        #expect(SourcePieces(Array(renumbered.utf8), count: 2, minimumBytes: 64) == nil)
    }
}
