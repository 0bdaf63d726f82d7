import CClang
import ChoreoImport
import ChoreoLibraries
import Glibc
import Synchronization

/// Objective-C source to the importer's intermediate form, through Debian's libclang
/// (`clang-c/Index.h`): the file is parsed as Objective-C with ARC and blocks against the
/// declarations of ``Declarations`` (no SDK here), and its cursors are lowered. Messages are
/// lowered in Swift's spelling where UIKit's Swift names differ (`[[UIView alloc]
/// initWithFrame:r]` is `UIView(frame: r)`, `[UIColor redColor]` is `UIColor.red`); other
/// messages keep their selector's pieces as labels (`[self move:b to:p]` calls `move` with
/// labels `move`, `to`, as the method it names is declared).
package enum ObjCFrontEnd {
    static let library = SharedLibrary.load("libclang-14.so.1", package: "libclang1-14", bind: cclang_bind)

    /// Loads libclang now (it is otherwise loaded at the first parse): the import helper does
    /// so before it walls itself off from the file system, where no library can be opened.
    package static func loadLibrary() { _ = library }

    /// The virtual directory the declarations live in.
    static let sdkDirectory = "/choreo-sdk"
    /// Parses made in this process: each parse's file has a path of its own, so that parses
    /// running at once (tests do) never share a remapped file's name.
    static let parses = Atomic<Int>(0)

    /// `source` lowered. `file` is its index among the import's files (0 for the file imported);
    /// `headers` are the headers read with it (by file name), which its `#import "…"` finds.
    package static func lower(_ source: String, file: Int = 0, headers: [(name: String, text: String)] = [])
        -> SourceUnit
    {
        let unit = lowerOnce(source, file: file, headers: headers)
        // A page that lost its spaces in print (``LostSpaces``): read as it was written, with a
        // warning at each line so read, when so read those lines are Objective-C clang accepts.
        guard let repair = LostSpaces.repair(unit.diagnostics, source: source, file: file) else { return unit }
        var repaired = lowerOnce(repair.source, file: file, headers: headers, inserted: repair.inserted)
        // What clang still refuses there (a macro the code does not define is not the spaces').
        let stillRefused = repaired.diagnostics.contains { diagnostic in
            diagnostic.severity == .error && diagnostic.position.file == file
                && repair.inserted[diagnostic.position.line] != nil
                && !diagnostic.message.contains("is not defined: the code uses it as a macro")
        }
        guard !stillRefused else {
            var said = unit
            said.diagnostics = LostSpaces.said(unit.diagnostics, repair: repair)
            return said
        }
        repaired.diagnostics += repair.warnings
        return repaired
    }

    /// `source` lowered as it is; `inserted` are the spaces put back in its lines (by line, the
    /// columns they take in the line as parsed), which positions are mapped back across.
    static func lowerOnce(
        _ source: String, file: Int, headers: [(name: String, text: String)], inserted: [Int: [Int]] = [:]
    ) -> SourceUnit {
        var unit = SourceUnit()
        let clang: BoundFunctions<cclang_functions>
        switch library {
        case .success(let functions): clang = functions
        case .failure(let unavailable):
            unit.diagnostics.append(
                ImportDiagnostic(
                    .error, SourcePosition(line: 1, column: 1), "Objective-C cannot be read here: \(unavailable)"))
            return unit
        }
        // A file's existence is no business of an import: `__has_include` is refused outright.
        var probes = existenceProbes(source, file: file)
        for header in headers {
            probes += existenceProbes(header.text, file: file).map { probe in
                var probe = probe
                probe.message = "in \(header.name), line \(probe.position.line): " + probe.message
                return probe
            }
        }
        guard probes.isEmpty else {
            unit.diagnostics += probes
            return unit
        }
        let available = Set(headers.map { baseName($0.name) })
        let (prepared, skipped) = prepare(source, available: available, file: file)
        unit.diagnostics += skipped
        var parser = ClangParser(clang: clang)
        parser.file = file
        parser.inserted = inserted
        parser.headers = headers.map { (baseName($0.name), prepare($0.text, available: available, file: file).0) }
        if var snippet = ObjCSnippet.wrap(prepared, file: file) {
            // A file that clang reads as it is, is not a snippet (methods outside an
            // `@implementation` always are).
            if !snippet.hasMethods {
                var plain = unit
                parser.parse(prepared, into: &plain)
                if !plain.diagnostics.contains(where: { $0.severity == .error }) {
                    return companion(plain, file: file)
                }
            }
            // Statements at the top level: read as a view controller's; a first parse finds the
            // views they use and do not declare.
            var probe = SourceUnit()
            parser.lines = snippet.lines
            parser.parse(snippet.text, into: &probe)
            let undeclared = undeclaredNames(probe.diagnostics, source: prepared)
            if !undeclared.isEmpty, let declared = ObjCSnippet.wrap(prepared, file: file, undeclared: undeclared) {
                snippet = declared
            }
            parser.lines = snippet.lines
            unit.diagnostics += snippet.notes
            parser.parse(snippet.text, into: &unit)
            return companion(unit, file: file)
        }
        parser.parse(prepared, into: &unit)
        return companion(unit, file: file)
    }

    /// A file read with the imported one (a header's implementation, found by its `#import`):
    /// what clang cannot parse there is a warning, and the import goes on without it — the
    /// imported file's own parse errors stay errors.
    static func companion(_ unit: SourceUnit, file: Int) -> SourceUnit {
        guard file != 0 else { return unit }
        var unit = unit
        for index in unit.diagnostics.indices where unit.diagnostics[index].severity == .error {
            unit.diagnostics[index].severity = .warning
            unit.diagnostics[index].message +=
                "; the import goes on without what this part of a file read with it declares"
        }
        return unit
    }

    /// The names a snippet uses as views without declaring them, from clang's diagnostics:
    /// `self.name` (no such property), `_name` and `name` as a receiver (undeclared).
    static func undeclaredNames(_ diagnostics: [ImportDiagnostic], source: String) -> [String] {
        var names: [String] = []
        func quoted(_ message: String, after prefix: String) -> String? {
            guard message.hasPrefix(prefix) else { return nil }
            return String(message.dropFirst(prefix.count).prefix { $0 != "'" })
        }
        for diagnostic in diagnostics {
            let message = diagnostic.message
            if let name = quoted(message, after: "property '"),
                message.contains("not found on object of type '\(ObjCSnippet.className) *'")
                    || message.contains("not found on object of type '\(ObjCSnippet.viewClassName) *'")
            {
                names.append(name)
            } else if var name = quoted(message, after: "use of undeclared identifier '") {
                if name.hasPrefix("_") {
                    name.removeFirst()
                } else if !(source.contains("[\(name) ") || source.contains("\(name)."))
                    || name.first?.isUppercase == true
                {
                    // Not a receiver (a constant, a function), or a class: not a view.
                    continue
                } else {
                    name = ObjCSnippet.bareMarker + name
                }
                guard !name.isEmpty else { continue }
                names.append(name)
            }
        }
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The preprocessor's questions about the file system (`__has_include`, `__has_include_next`,
    /// `__has_embed`) in `source`, however spelled: a line splice (`\\` and a newline) inside the
    /// name is undone first, as translation phase 2 does (C17 5.1.1.2). Each is an error at its
    /// line and column.
    static func existenceProbes(_ source: String, file: Int) -> [ImportDiagnostic] {
        // The spliced text's bytes, each with the line and column it came from.
        var bytes: [UInt8] = []
        var origins: [(line: Int, column: Int)] = []
        let raw = Array(source.utf8)
        var line = 1
        var column = 1
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "\\") {
                var next = index + 1
                if next < raw.count && raw[next] == UInt8(ascii: "\r") { next += 1 }
                if next < raw.count && raw[next] == UInt8(ascii: "\n") {
                    index = next + 1
                    line += 1
                    column = 1
                    continue
                }
            }
            bytes.append(raw[index])
            origins.append((line, column))
            if raw[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        var found: [ImportDiagnostic] = []
        let names = ["__has_include_next", "__has_include", "__has_embed"].map { Array($0.utf8) }
        func isIdentifier(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 48 && byte <= 57) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 122)
                || byte >= 0x80
        }
        var at = 0
        while at < bytes.count {
            guard bytes[at] == UInt8(ascii: "_"), at == 0 || !isIdentifier(bytes[at - 1]),
                let name = names.first(where: { name in
                    at + name.count <= bytes.count && Array(bytes[at..<(at + name.count)]) == name
                        && (at + name.count == bytes.count || !isIdentifier(bytes[at + name.count]))
                })
            else {
                at += 1
                continue
            }
            let spelled = String(decoding: name, as: UTF8.self)
            found.append(
                ImportDiagnostic(
                    .error, SourcePosition(line: origins[at].line, column: origins[at].column, file: file),
                    "\(spelled) asks whether a file exists; an import reads only the files sent with it and answers no such question (remove the check, or #define what it guards)"
                ))
            at += name.count
        }
        return found
    }

    /// What an inclusion of a file that is not one of the import's is told, whatever clang said
    /// of it (not found, not readable): the same words either way, so that the answer says
    /// nothing of what exists on the server.
    static func refusedInclusion(_ name: String) -> String {
        "#include \"\(name)\" names a file that is not one of the import's; an import reads only the files sent with it (send the file with the request, or remove the line)"
    }

    /// The last component of a path.
    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Blanks out imports neither the declarations nor the headers read with the file provide,
    /// keeping every line where it was; a header read with it is included by its file name.
    static func prepare(_ source: String, available: Set<String> = [], file: Int = 0) -> (String, [ImportDiagnostic]) {
        var diagnostics: [ImportDiagnostic] = []
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            // `...` alone on a line is an article's: code it leaves out, which is read as nothing.
            if ["...", "…", "......"].contains(trimmed.filter { $0 != " " && $0 != "\t" && $0 != "\r" }) {
                diagnostics.append(
                    ImportDiagnostic(
                        .note, SourcePosition(line: index + 1, column: line.count - trimmed.count + 1, file: file),
                        "\(trimmed.filter { $0 == "." || $0 == "…" }) stands for code the article leaves out: "
                            + "it is read as nothing"))
                lines[index] = String(repeating: " ", count: line.utf8.count)
                continue
            }
            guard trimmed.hasPrefix("#import") || trimmed.hasPrefix("#include") else { continue }
            let rest = trimmed.drop { $0 != "<" && $0 != "\"" }
            guard let open = rest.first else { continue }
            let close: Character = open == "<" ? ">" : "\""
            let name = String(rest.dropFirst().prefix { $0 != close })
            if open == "<", Declarations.headers[name] != nil {
                // The declarations are files of no directory: named by their absolute path.
                let indent = String(line.prefix(line.count - trimmed.count))
                lines[index] = indent + "#import \"\(sdkDirectory)/\(name)\""
                continue
            }
            if open == "\"", available.contains(baseName(name)) {
                let indent = String(line.prefix(line.count - trimmed.count))
                lines[index] = indent + "#import \"\(baseName(name))\""
                continue
            }
            let column = line.count - trimmed.count + 1
            diagnostics.append(
                ImportDiagnostic(
                    .note, SourcePosition(line: index + 1, column: column, file: file),
                    "\(name) is not available here; the import reads this file without it, with UIKit's declarations"))
            lines[index] = String(repeating: " ", count: line.utf8.count)
        }
        return (lines.joined(separator: "\n"), diagnostics)
    }
}

/// One parse: the translation unit and the walk over its cursors.
struct ClangParser {
    let clang: BoundFunctions<cclang_functions>
    /// The file's index among the import's files.
    var file = 0
    /// The headers read with the file, by file name, beside it.
    var headers: [(String, String)] = []
    /// The virtual directory the file and its headers are parsed in.
    var directory = ""
    /// For a wrapped snippet, the source line of each line parsed.
    var lines: [Int]?
    /// The spaces put back in lines that lost them in print: by source line, the 1-based
    /// columns (bytes) they take in the line as parsed (``LostSpaces``).
    var inserted: [Int: [Int]] = [:]
    var translationUnit: CXTranslationUnit?
    /// The main file's tokens in order, with their offsets: a cursor's tokens are those within
    /// its extent as the file has it (a range that starts inside a macro is tokenized wrongly
    /// by libclang, so ranges are never tokenized themselves).
    var fileTokens: [(text: String, offset: Int, kind: CXTokenKind)] = []

    init(clang: BoundFunctions<cclang_functions>) { self.clang = clang }

    mutating func parse(_ source: String, into unit: inout SourceUnit) {
        guard let index = clang.clang_createIndex(0, 0) else { return }
        defer { clang.clang_disposeIndex(index) }
        directory = "/choreo-source/\(ObjCFrontEnd.parses.add(1, ordering: .relaxed).newValue)"
        let mainFile = "\(directory)/input.m"
        var files: [(String, String)] = [(mainFile, source)]
        for (name, text) in headers { files.append(("\(directory)/\(name)", text)) }
        for (name, text) in Declarations.headers { files.append(("\(ObjCFrontEnd.sdkDirectory)/\(name)", text)) }
        let arguments = [
            "-x", "objective-c", "-fobjc-runtime=ios-17.0", "-fobjc-arc", "-fblocks", "-nostdinc", "-nostdlibinc", "-I",
            ObjCFrontEnd.sdkDirectory,
            // UIKit's declarations are always there, as a prefix header puts them: a snippet
            // pasted without its `#import <UIKit/UIKit.h>` reads as it does in an app.
            "-include", "\(ObjCFrontEnd.sdkDirectory)/choreo-sdk.h",
            "-w", "-ferror-limit=100",
        ]
        var cStrings: [UnsafeMutablePointer<CChar>?] = []
        defer { for pointer in cStrings { free(pointer) } }
        /// `text`'s bytes, all of them (a NUL inside too: `strdup` would stop there while the
        /// length given to libclang does not, and clang read past the copy), then a NUL.
        func keep(_ text: String) -> UnsafeMutablePointer<CChar>? {
            let bytes = Array(text.utf8)
            guard let pointer = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress {
                    UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: source.count)
                }
            }
            pointer[bytes.count] = 0
            cStrings.append(pointer)
            return pointer
        }
        var unsaved = files.map { file in
            CXUnsavedFile(
                Filename: UnsafePointer(keep(file.0)), Contents: UnsafePointer(keep(file.1)),
                Length: UInt(file.1.utf8.count))
        }
        var argv: [UnsafePointer<CChar>?] = arguments.map { UnsafePointer(keep($0)) }
        var tu: CXTranslationUnit?
        let options = UInt32(CXTranslationUnit_KeepGoing.rawValue)
        let status = clang.clang_parseTranslationUnit2(
            index, mainFile, &argv, Int32(argv.count), &unsaved, UInt32(unsaved.count), options, &tu)
        guard status == CXError_Success, let tu else {
            // libclang runs a parse under its crash recovery: a crash (deep nesting overflows
            // its stack) comes back as CXError_Crashed, contained.
            let reason =
                status == CXError_Crashed
                ? "libclang crashed while parsing the file (its crash was contained; code that nests very deep, as thousands of brackets, overflows its stack)"
                : "libclang could not parse the file (error \(status.rawValue))"
            unit.diagnostics.append(ImportDiagnostic(.error, SourcePosition(line: 1, column: 1, file: file), reason))
            return
        }
        translationUnit = tu
        defer { clang.clang_disposeTranslationUnit(tu) }
        // The second wall, behind the helper's empty root: a file read that is not one of the
        // import's stops the import, whatever spelling of `#include` reached it.
        let foreign = foreignInclusions(tu, allowed: Set(files.map(\.0)))
        guard foreign.isEmpty else {
            unit.diagnostics += foreign
            return
        }
        unit.diagnostics += diagnostics(tu)
        fileTokens = tokenize(clang.clang_getTranslationUnitCursor(tu))
        var lowering = ObjCLowering(parser: self)
        lowering.lowerTranslationUnit(clang.clang_getTranslationUnitCursor(tu), into: &unit)
    }

    /// The files the translation unit read that are none of `allowed` (the file, its headers,
    /// the declarations), each an error at the inclusion that read it.
    func foreignInclusions(_ tu: CXTranslationUnit, allowed: Set<String>) -> [ImportDiagnostic] {
        var list = withUnsafePointer(to: clang.table) { cclang_inclusions_of($0, tu) }
        defer { free(list.items) }
        guard let items = list.items else { return [] }
        list.items = nil
        defer { free(items) }
        var refused: [ImportDiagnostic] = []
        for item in UnsafeBufferPointer(start: items, count: Int(list.count)) {
            guard let included = item.file else { continue }
            let name = string(clang.clang_getFileName(included))
            guard !allowed.contains(name) else { continue }
            let at = item.depth > 0 ? position(item.location) : SourcePosition(line: 1, column: 1, file: file)
            refused.append(ImportDiagnostic(.error, at, ObjCFrontEnd.refusedInclusion(name)))
        }
        return refused
    }

    /// The name in clang's "use of undeclared identifier 'NAME'" when it is spelled as C's
    /// macros are (capitals, digits and underscores, two or more, not a `k…` constant).
    static func undefinedMacro(_ message: String) -> String? {
        let prefix = "use of undeclared identifier '"
        guard message.hasPrefix(prefix), message.hasSuffix("'") else { return nil }
        let name = message.dropFirst(prefix.count).dropLast()
        guard name.count >= 2, name.first?.isUppercase == true,
            name.allSatisfy({ ($0.isUppercase && $0.isASCII) || $0.isNumber || $0 == "_" })
        else { return nil }
        return String(name)
    }

    /// The file name in clang's "'NAME' file not found" and "cannot open file 'NAME': …".
    static func unreadInclusion(_ message: String) -> String? {
        if message.hasSuffix("' file not found"), message.hasPrefix("'") {
            return String(message.dropFirst().dropLast("' file not found".count))
        }
        if message.hasPrefix("cannot open file '") {
            return String(message.dropFirst("cannot open file '".count).prefix { $0 != "'" })
        }
        return nil
    }

    /// clang's diagnostics in the file: parse issues are errors (no scene), semantic ones
    /// (a name the declarations lack) warnings, as the code around them still imports.
    func diagnostics(_ tu: CXTranslationUnit) -> [ImportDiagnostic] {
        var result: [ImportDiagnostic] = []
        for i in 0..<clang.clang_getNumDiagnostics(tu) {
            guard let diagnostic = clang.clang_getDiagnostic(tu, i) else { continue }
            defer { clang.clang_disposeDiagnostic(diagnostic) }
            let severity = clang.clang_getDiagnosticSeverity(diagnostic)
            guard severity.rawValue >= CXDiagnostic_Warning.rawValue else { continue }
            let location = clang.clang_getDiagnosticLocation(diagnostic)
            let message = string(clang.clang_getDiagnosticSpelling(diagnostic))
            if let name = Self.unreadInclusion(message) {
                // Wherever it is (a file name from a macro is spelled in clang's scratch space,
                // not the main file), one error an inclusion, in the same words whether the
                // file is missing or walled off; at the line that includes it.
                var included: CXFile?
                clang.clang_getFileLocation(location, &included, nil, nil, nil)
                let inMain = included.map { string(clang.clang_getFileName($0)) == "\(directory)/input.m" } ?? false
                let position = inMain ? self.position(location) : SourcePosition(line: 1, column: 1, file: file)
                if !result.contains(where: { $0.position == position && $0.severity == .error }) {
                    result.append(ImportDiagnostic(.error, position, ObjCFrontEnd.refusedInclusion(name)))
                }
                continue
            }
            guard clang.clang_Location_isFromMainFile(location) != 0 else { continue }
            let category = string(clang.clang_getDiagnosticCategoryText(diagnostic))
            let position = self.position(location)
            if let macro = Self.undefinedMacro(message) {
                // A macro an article defines elsewhere (`HEIGHT`, `BALL_RADIUS`): named as such,
                // once, at its first use.
                if !result.contains(where: { $0.message.hasPrefix("\(macro) is not defined") }) {
                    result.append(
                        ImportDiagnostic(
                            .error, position,
                            "\(macro) is not defined: the code uses it as a macro that it does not define",
                            fix: "add #define \(macro) … (its value) above the code"))
                }
                continue
            }
            if severity.rawValue >= CXDiagnostic_Error.rawValue
                && (category.contains("Parse") || category.contains("Lexical"))
            {
                result.append(ImportDiagnostic(.error, position, message))
            } else if severity.rawValue >= CXDiagnostic_Error.rawValue {
                result.append(ImportDiagnostic(.warning, position, "\(message); the code there is skipped"))
            }
        }
        return result
    }

    func string(_ text: CXString) -> String {
        defer { clang.clang_disposeString(text) }
        guard let c = clang.clang_getCString(text) else { return "" }
        return String(cString: c)
    }

    func position(_ location: CXSourceLocation) -> SourcePosition {
        var line: UInt32 = 0
        var column: UInt32 = 0
        clang.clang_getFileLocation(location, nil, &line, &column, nil)
        // A wrapped snippet's line is a line of the source, moved (``ObjCSnippet``).
        var sourceLine = Int(line)
        if let lines, line >= 1, Int(line) <= lines.count { sourceLine = lines[Int(line) - 1] }
        // A column after a space put back is the column of the line as printed.
        let shift = inserted[sourceLine]?.filter { $0 < Int(column) }.count ?? 0
        return SourcePosition(line: sourceLine, column: Int(column) - shift, file: file)
    }

    func offset(_ location: CXSourceLocation) -> Int {
        var offset: UInt32 = 0
        clang.clang_getFileLocation(location, nil, nil, nil, &offset)
        return Int(offset)
    }

    func position(_ cursor: CXCursor) -> SourcePosition { position(clang.clang_getCursorLocation(cursor)) }

    /// Whether a cursor is in one of the headers read with the file (not UIKit's declarations).
    func isInProjectHeader(_ cursor: CXCursor) -> Bool {
        var file: CXFile?
        clang.clang_getFileLocation(clang.clang_getCursorLocation(cursor), &file, nil, nil, nil)
        guard let file else { return false }
        return string(clang.clang_getFileName(file)).hasPrefix(directory + "/")
    }

    func isInMainFile(_ cursor: CXCursor) -> Bool {
        clang.clang_Location_isFromMainFile(clang.clang_getCursorLocation(cursor)) != 0
    }

    func children(_ cursor: CXCursor) -> [CXCursor] {
        var list = withUnsafePointer(to: clang.table) { cclang_children_of($0, cursor) }
        defer { free(list.cursors) }
        guard let cursors = list.cursors else { return [] }
        list.cursors = nil
        defer { free(cursors) }
        return Array(UnsafeBufferPointer(start: cursors, count: Int(list.count)))
    }

    func spelling(_ cursor: CXCursor) -> String { string(clang.clang_getCursorSpelling(cursor)) }

    /// The tokens of a cursor's extent in the file, with their offsets.
    func tokens(_ cursor: CXCursor) -> [(text: String, offset: Int, kind: CXTokenKind)] {
        let (start, end) = extent(cursor)
        var low = 0
        var high = fileTokens.count
        while low < high {
            let middle = (low + high) / 2
            if fileTokens[middle].offset < start { low = middle + 1 } else { high = middle }
        }
        var result: [(text: String, offset: Int, kind: CXTokenKind)] = []
        var index = low
        while index < fileTokens.count, fileTokens[index].offset < end {
            result.append(fileTokens[index])
            index += 1
        }
        return result
    }

    /// The tokens of a cursor's extent, as libclang tokenizes it.
    func tokenize(_ cursor: CXCursor) -> [(text: String, offset: Int, kind: CXTokenKind)] {
        guard let translationUnit else { return [] }
        var tokens: UnsafeMutablePointer<CXToken>?
        var count: UInt32 = 0
        clang.clang_tokenize(translationUnit, clang.clang_getCursorExtent(cursor), &tokens, &count)
        guard let tokens else { return [] }
        defer { clang.clang_disposeTokens(translationUnit, tokens, count) }
        // Clang reads Unicode white space (the no-break space web pages put in copied code) as
        // white space, but its tokenizer hands each back as a token of its own: not one here.
        return (0..<Int(count)).map { i in
            (
                string(clang.clang_getTokenSpelling(translationUnit, tokens[i])),
                offset(clang.clang_getRangeStart(clang.clang_getTokenExtent(translationUnit, tokens[i]))),
                clang.clang_getTokenKind(tokens[i])
            )
        }.filter { !$0.0.isEmpty && !$0.0.allSatisfy(\.isWhitespace) }
    }

    /// The value of a literal, as clang evaluates it.
    func literal(_ cursor: CXCursor) -> Literal? {
        guard let result = clang.clang_Cursor_Evaluate(cursor) else { return nil }
        defer { clang.clang_EvalResult_dispose(result) }
        switch clang.clang_EvalResult_getKind(result) {
        case CXEval_Int: return .integer(Int(clang.clang_EvalResult_getAsLongLong(result)))
        case CXEval_Float: return .number(clang.clang_EvalResult_getAsDouble(result))
        case CXEval_StrLiteral, CXEval_ObjCStrLiteral, CXEval_CFStr:
            return clang.clang_EvalResult_getAsStr(result).map { .string(String(cString: $0)) }
        default: return nil
        }
    }

    func extent(_ cursor: CXCursor) -> (start: Int, end: Int) {
        let range = clang.clang_getCursorExtent(cursor)
        return (offset(clang.clang_getRangeStart(range)), offset(clang.clang_getRangeEnd(range)))
    }
}
