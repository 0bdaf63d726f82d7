/// A large Swift source cut into pieces that parse on their own, so that its pieces can be parsed
/// at the same time (the toolchain's SwiftParser takes about 2.5 ms per kilobyte here, the bulk of
/// an import).
///
/// A cut is made only at the start of a line that begins a declaration (`func`, `var`, `init`,
/// an attribute, a modifier…) directly after a closing brace, either between top-level
/// declarations or between the members of a top-level `class`, `struct` or `extension`. The
/// scanner knows comments (nested), string literals (multi-line, raw, interpolated) and
/// brackets. A piece keeps the file's line and column numbers: it is preceded by as many line
/// breaks as the lines before it; a piece that starts among a type's members is opened by a
/// synthetic `extension ChoreoPiece {` on the first line, and one that stops among them is closed
/// by a synthetic `}` after its end. Whatever the scanner gets wrong (a regular expression
/// literal, `#if` around members) leaves a piece that does not parse cleanly, and the caller then
/// parses the whole source as one.
package struct SourcePieces: Sendable {
    /// One piece: its bytes as the parser sees them.
    package struct Piece: Sendable {
        package var bytes: [UInt8]
        /// It starts among a type's members, inside the synthetic extension.
        package var continuesType: Bool
    }

    /// A place a piece may start.
    struct Cut: Equatable {
        var offset: Int
        var line: Int
        var insideType: Bool
    }

    package var pieces: [Piece]

    /// The name of the synthetic extension a continuing piece's members are in.
    static let wrapperName = "ChoreoPiece"

    /// `source` in about `count` pieces of at least `minimumBytes` each; nil when it cannot be or
    /// need not be cut.
    package init?(_ source: [UInt8], count: Int, minimumBytes: Int) {
        guard count > 1, source.count >= 2 * minimumBytes else { return nil }
        // `#sourceLocation` renumbers the lines after it: a piece would not see it.
        guard !Self.contains(source, Array("#sourceLocation".utf8)) else { return nil }
        let candidates = Self.cuts(source)
        guard !candidates.isEmpty else { return nil }
        var chosen: [Cut] = []
        var index = 0
        for k in 1..<count {
            let target = source.count * k / count
            // The first candidate at or after the target, or the last one before it.
            while index < candidates.count && candidates[index].offset < target { index += 1 }
            var best: Cut?
            let before = index > 0 ? candidates[index - 1] : nil
            let after = index < candidates.count ? candidates[index] : nil
            for candidate in [before, after] {
                guard let candidate else { continue }
                if best == nil || abs(candidate.offset - target) < abs(best!.offset - target) { best = candidate }
            }
            guard let best else { continue }
            let previous = chosen.last?.offset ?? 0
            if best.offset - previous >= minimumBytes && source.count - best.offset >= minimumBytes {
                chosen.append(best)
            }
        }
        guard !chosen.isEmpty else { return nil }
        var pieces: [Piece] = []
        let starts = [Cut(offset: 0, line: 1, insideType: false)] + chosen
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1] : nil
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end?.offset ?? source.count) - start.offset + start.line + 32)
            if start.insideType { bytes += "extension \(Self.wrapperName) {".utf8 }
            bytes += repeatElement(UInt8(ascii: "\n"), count: start.line - 1)
            bytes += source[start.offset..<(end?.offset ?? source.count)]
            if end?.insideType == true { bytes += "\n}".utf8 }
            pieces.append(Piece(bytes: bytes, continuesType: start.insideType))
        }
        self.pieces = pieces
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Where the scanner stands.
    private enum Context {
        /// Code: the file's own (`interpolation` nil) or inside `\(…)`, which ends at the `)`
        /// that brings the bracket count back to `interpolation`.
        case code(interpolation: Int?)
        /// A string literal: its `#` count and whether it is `"""`.
        case string(hashes: Int, multiline: Bool)
    }

    static let modifiers: Set<String> = [
        "private", "fileprivate", "internal", "public", "open", "package", "final", "override", "static",
        "convenience", "required", "lazy", "weak", "unowned", "nonisolated", "dynamic", "mutating",
        "nonmutating", "optional", "indirect", "prefix", "postfix", "infix",
    ]
    static let declarations: Set<String> = [
        "func", "var", "let", "init", "deinit", "class", "struct", "extension", "enum", "protocol", "typealias",
        "subscript", "actor", "import",
    ]
    /// The declarations whose members the Swift lowering reads as a type's.
    static let types: Set<String> = ["class", "struct", "extension"]

    /// The declaration keyword a line starts with (after attributes and modifiers), "@" for a
    /// line of attributes only, nil otherwise.
    static func keyword(_ bytes: [UInt8], at start: Int) -> String? {
        var i = start
        var sawAttribute = false
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x5F || byte >= 0x80
        }
        func skipSpaces() { while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 } }
        func skipParenthesis() {
            guard i < bytes.count && bytes[i] == UInt8(ascii: "(") else { return }
            var depth = 0
            while i < bytes.count && bytes[i] != 0x0A {
                if bytes[i] == UInt8(ascii: "(") { depth += 1 }
                if bytes[i] == UInt8(ascii: ")") {
                    depth -= 1
                    if depth == 0 {
                        i += 1
                        return
                    }
                }
                i += 1
            }
        }
        while true {
            skipSpaces()
            guard i < bytes.count else { return sawAttribute ? "@" : nil }
            if bytes[i] == UInt8(ascii: "@") {
                i += 1
                while i < bytes.count && isIdentifier(bytes[i]) { i += 1 }
                skipParenthesis()
                sawAttribute = true
                continue
            }
            let wordStart = i
            while i < bytes.count && isIdentifier(bytes[i]) { i += 1 }
            if wordStart == i {
                let atEnd = bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == UInt8(ascii: "/")
                return sawAttribute && atEnd ? "@" : nil
            }
            let word = String(decoding: bytes[wordStart..<i], as: UTF8.self)
            if modifiers.contains(word) {
                skipParenthesis()  // private(set)
                continue
            }
            return declarations.contains(word) ? word : nil
        }
    }

    /// Every place a piece may start, in order.
    static func cuts(_ bytes: [UInt8]) -> [Cut] {
        var cuts: [Cut] = []
        var stack: [Context] = [.code(interpolation: nil)]
        var line = 1
        var braces = 0
        var brackets = 0
        /// The keyword of the newest top-level declaration, until its body closes.
        var header: String?
        var insideType = false
        var lastCode: UInt8 = 0
        var i = 0
        let count = bytes.count
        func at(_ j: Int) -> UInt8 { j < count ? bytes[j] : 0 }
        func lineStart(_ start: Int) {
            guard stack.count == 1, brackets == 0 else { return }
            if braces == 0 || (braces == 1 && insideType) {
                let word = keyword(bytes, at: start)
                if braces == 0, let word, word != "@" { header = word }
                if lastCode == UInt8(ascii: "}"), word != nil {
                    cuts.append(Cut(offset: start, line: line, insideType: braces == 1))
                }
            }
        }
        while i < count {
            let byte = bytes[i]
            switch stack[stack.count - 1] {
            case .code(let interpolation):
                switch byte {
                case 0x0A:
                    line += 1
                    i += 1
                    lineStart(i)
                    continue
                case 0x20, 0x09, 0x0D:
                    break
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "/"):
                    while i < count && bytes[i] != 0x0A { i += 1 }
                    continue
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                    var depth = 0
                    while i < count {
                        if bytes[i] == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") {
                            depth += 1
                            i += 2
                        } else if bytes[i] == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/") {
                            depth -= 1
                            i += 2
                            if depth == 0 { break }
                        } else {
                            if bytes[i] == 0x0A { line += 1 }
                            i += 1
                        }
                    }
                    continue
                case UInt8(ascii: "#"), UInt8(ascii: "\""):
                    var hashes = 0
                    while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
                    guard at(i + hashes) == UInt8(ascii: "\"") else {
                        lastCode = byte
                        i += max(hashes, 1)
                        continue
                    }
                    let multiline =
                        at(i + hashes + 1) == UInt8(ascii: "\"") && at(i + hashes + 2) == UInt8(ascii: "\"")
                    i += hashes + (multiline ? 3 : 1)
                    stack.append(.string(hashes: hashes, multiline: multiline))
                    continue
                case UInt8(ascii: "("), UInt8(ascii: "["):
                    brackets += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"):
                    brackets -= 1
                    if byte == UInt8(ascii: ")"), let interpolation, brackets == interpolation {
                        stack.removeLast()
                        i += 1
                        continue
                    }
                case UInt8(ascii: "{"):
                    braces += 1
                    if braces == 1 && stack.count == 1 { insideType = header.map { types.contains($0) } ?? false }
                case UInt8(ascii: "}"):
                    braces -= 1
                    if braces <= 0 && stack.count == 1 {
                        header = nil
                        insideType = false
                    }
                default:
                    break
                }
                if byte != 0x20 && byte != 0x09 && byte != 0x0D { lastCode = byte }
                i += 1
            case .string(let hashes, let multiline):
                if byte == UInt8(ascii: "\\") {
                    var matched = 0
                    while matched < hashes && at(i + 1 + matched) == UInt8(ascii: "#") { matched += 1 }
                    if matched == hashes {
                        let next = i + 1 + hashes
                        if at(next) == UInt8(ascii: "(") {
                            stack.append(.code(interpolation: brackets))
                            brackets += 1
                            i = next + 1
                            continue
                        }
                        if at(next) == 0x0A { line += 1 }
                        i = next + 1
                        continue
                    }
                    i += 1
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    let quotes = multiline ? 3 : 1
                    var closes = true
                    for q in 0..<quotes where at(i + q) != UInt8(ascii: "\"") { closes = false }
                    for h in 0..<hashes where at(i + quotes + h) != UInt8(ascii: "#") { closes = false }
                    if closes {
                        stack.removeLast()
                        lastCode = UInt8(ascii: "\"")
                        i += quotes + hashes
                        continue
                    }
                }
                if byte == 0x0A {
                    line += 1
                    // A single-line string never spans lines: the source is broken here.
                    if !multiline { stack.removeLast() }
                }
                i += 1
            }
        }
        return cuts
    }
}
