import ChoreoImport

/// Objective-C as articles print it: statements at the top level of a `.m` (and methods without
/// their `@implementation`), which clang refuses ("expected identifier or '('"). They are read
/// as a view controller's code: the methods go into a `UIViewController` subclass, the
/// statements into its `viewDidLoad`, and the views the code uses without declaring them
/// (`self.redView`, `_redView`) are declared and made, each said in a note.
///
/// Lines are moved whole and never changed, so a line of the wrapped text is a line of the
/// source (``lines`` maps it back) with the same columns; the lines the wrapper adds map to the
/// first statement's.
struct ObjCSnippet {
    /// The wrapped source.
    var text: String
    /// For each line of ``text`` (0-based), the source's line number (1-based).
    var lines: [Int]
    /// What was assumed, at the lines concerned.
    var notes: [ImportDiagnostic]
    /// It has methods outside an `@implementation`, which no Objective-C file may have.
    var hasMethods = false

    /// The class the statements are a method of, when they are a view controller's.
    static let className = "SnippetViewController"
    /// The class they are a method of when they are a view's (they send `addSubview:` to self).
    static let viewClassName = "SnippetView"
    /// The method of ``viewClassName`` the statements are.
    static let viewSetUp = "choreoSnippetSetUp"

    /// What `self` is in the statements, from what they send to it: a view when they add
    /// subviews to it or read its geometry or layer (`[self addSubview:ball]`, `self.bounds`),
    /// else a view controller.
    enum Host: Equatable {
        case controller, view

        init(body: String) {
            let viewUses = [
                "[self addSubview:", "[self insertSubview:", "[self bringSubviewToFront:", "self.bounds", "self.frame",
                "self.layer", "[self.layer", "self.center", "[self setNeedsLayout]", "[self layoutIfNeeded]",
            ]
            self = viewUses.contains { body.contains($0) } && !body.contains("self.view") ? .view : .controller
        }
    }
    /// Marks an undeclared name used bare (`redView`, not `self.redView`): its property's
    /// instance variable is named so.
    static let bareMarker = "="

    /// What a piece of the top level is.
    enum Kind: Equatable {
        /// Blank lines and comments.
        case neutral
        /// Preprocessor lines, declarations, C functions, `@interface … @end`: kept where they are.
        case outside
        /// `- (void)name { … }` outside an `@implementation`.
        case method
        /// Anything else: a statement.
        case statement
    }

    /// The source wrapped, or `nil` when it has no statement at its top level (or has an
    /// `@implementation` of its own: then it is a file, not a snippet). `undeclared` are the
    /// names a first parse found used and not declared (`self.name`, `_name`, a receiver).
    static func wrap(_ source: String, file: Int, undeclared: [String] = []) -> ObjCSnippet? {
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let kinds = classify(sourceLines),
            let firstStatement = kinds.firstIndex(of: .statement) ?? kinds.firstIndex(of: .method)
        else { return nil }
        let hasStatements = kinds.contains(.statement)
        let statementLine = firstStatement + 1
        var text: [String] = []
        var map: [Int] = []
        func add(_ line: String, _ source: Int) {
            text.append(line)
            map.append(source)
        }
        for (index, kind) in kinds.enumerated() where kind == .outside || kind == .neutral {
            add(sourceLines[index], index + 1)
        }
        // What the statements do, read with the no-break spaces of code copied from a web page
        // as the spaces clang reads them as.
        let body = String(
            kinds.indices.filter { kinds[$0] == .statement }.map { sourceLines[$0] }.joined(separator: "\n")
                .map { $0 == "\u{00A0}" ? " " : $0 })
        let methods = kinds.indices.filter { kinds[$0] == .method }.map { sourceLines[$0] }.joined(separator: "\n")
        var notes: [ImportDiagnostic] = []
        // The names used and not declared: views, or layers when their name says so.
        var declared: [(name: String, type: String, made: Bool, line: Int, bare: Bool)] = []
        for raw in undeclared {
            let bare = raw.hasPrefix(bareMarker)
            let name = bare ? String(raw.dropFirst(bareMarker.count)) : raw
            guard !declared.contains(where: { $0.name == name }) else { continue }
            let assigned =
                [" = ", "= "].contains { body.contains("self.\(name)" + $0) || body.contains("_\(name)" + $0) }
                || (bare && body.contains("\(name) = "))
            let use = firstUse(of: name, in: sourceLines) ?? statementLine
            let type = name.hasSuffix("Color") ? "UIColor" : layerType(name, in: body) ?? "UIView"
            declared.append((name, type, !assigned, use, bare))
        }
        let host = Host(body: body)
        let hostClass = host == .view ? viewClassName : className
        // Where the views made go: the view controller's view, or the view itself.
        let container = host == .view ? "self" : "self.view"
        let containerName = host == .view ? "the view" : "the view controller's view"
        add("@interface \(hostClass) : \(host == .view ? "UIView" : "UIViewController")", statementLine)
        for item in declared { add("@property (nonatomic, strong) \(item.type) *\(item.name);", item.line) }
        add("@end", statementLine)
        add("@implementation \(hostClass)", statementLine)
        // A name used bare is the property's instance variable.
        for item in declared where item.bare { add("@synthesize \(item.name) = \(item.name);", item.line) }
        for (index, kind) in kinds.enumerated() where kind == .method { add(sourceLines[index], index + 1) }
        // The statements run where a view controller sets its views up; when the snippet has
        // its own viewDidLoad, once the view is on screen.
        let hasSetup = methods.contains("viewDidLoad")
        if hasStatements || declared.contains(where: \.made) {
            add(
                host == .view
                    ? "- (void)\(viewSetUp) {"
                    : hasSetup ? "- (void)viewDidAppear:(BOOL)animated {" : "- (void)viewDidLoad {", statementLine)
        }
        var made = 0
        for item in declared where item.made && item.type == "UIColor" {
            add("self.\(item.name) = [UIColor systemBlueColor];", item.line)
            notes.append(
                ImportDiagnostic(
                    .note, SourcePosition(line: item.line, column: 1, file: file),
                    "\(item.name) is not declared: taken as a colour, systemBlue"))
        }
        for item in declared where item.made && item.type != "UIColor" {
            let x = 20 + 120 * (made % 3)
            let y = 100 + 120 * (made / 3)
            made += 1
            let frame = "CGRectMake(\(x), \(y), 100, 100)"
            if item.type == "UIView" {
                add(
                    "self.\(item.name) = [[UIView alloc] initWithFrame:\(frame)]; "
                        + "self.\(item.name).backgroundColor = [UIColor systemBlueColor]; "
                        + "[\(container) addSubview:self.\(item.name)];", item.line)
                notes.append(
                    ImportDiagnostic(
                        .note, SourcePosition(line: item.line, column: 1, file: file),
                        "\(item.name) is not declared: taken as a 100 × 100 view at (\(x), \(y)) in \(containerName)"
                    ))
            } else {
                let fill =
                    item.type == "CAShapeLayer"
                    ? "self.\(item.name).fillColor = [UIColor systemBlueColor].CGColor; "
                    : "self.\(item.name).backgroundColor = [UIColor systemBlueColor].CGColor; "
                add(
                    "self.\(item.name) = [\(item.type) layer]; self.\(item.name).frame = \(frame); " + fill
                        + "[\(container).layer addSublayer:self.\(item.name)];", item.line)
                notes.append(
                    ImportDiagnostic(
                        .note, SourcePosition(line: item.line, column: 1, file: file),
                        "\(item.name) is not declared: taken as a 100 × 100 \(item.type) at (\(x), \(y)) in \(containerName)"
                    ))
            }
        }
        for item in declared where !item.made {
            notes.append(
                ImportDiagnostic(
                    .note, SourcePosition(line: item.line, column: 1, file: file),
                    "\(item.name) is not declared: taken as a property of \(host == .view ? "the view" : "the view controller") (\(item.type))"
                ))
        }
        for (index, kind) in kinds.enumerated() where kind == .statement { add(sourceLines[index], index + 1) }
        if hasStatements || declared.contains(where: \.made) { add("}", statementLine) }
        // A snippet that is only a control's action (`- (void)btnClick:(id)sender`) is what a
        // tap runs: it runs once, as a tap, when the view is on screen.
        if host == .controller, !hasStatements, !hasSetup, !methods.contains("viewDidAppear"),
            let action = action(in: sourceLines, kinds: kinds)
        {
            add(
                "- (void)viewDidAppear:(BOOL)animated { [self \(action.selector)\(action.selector.hasSuffix(":") ? "nil" : "")]; }",
                action.line)
            notes.append(
                ImportDiagnostic(
                    .note, SourcePosition(line: action.line, column: 1, file: file),
                    "\(action.selector) is a control's action: it runs once, as a tap, when the view is on screen "
                        + "(name another method with --entry)"))
        }
        add("@end", statementLine)
        if host == .view {
            // The view, on screen: a view controller shows it filling its view, then sets it up.
            add("@interface \(className) : UIViewController", statementLine)
            add("@end", statementLine)
            add("@implementation \(className)", statementLine)
            add(
                "- (void)viewDidLoad { \(viewClassName) *host = [[\(viewClassName) alloc] initWithFrame:self.view.bounds]; "
                    + "[self.view addSubview:host]; [host \(viewSetUp)]; }", statementLine)
            add("@end", statementLine)
        }
        let note: String
        if host == .view {
            let lastStatement = (kinds.lastIndex(of: .statement) ?? firstStatement) + 1
            note =
                "the statements at the top level (lines \(statementLine)–\(lastStatement)) are read as a view's, a "
                + "UIView subclass's (they send addSubview: or the view's geometry to self): self is that view, "
                + "on screen filling a view controller's view"
                + (kinds.contains(.method) ? "; the methods are that view's" : "")
        } else if hasStatements {
            let lastStatement = (kinds.lastIndex(of: .statement) ?? firstStatement) + 1
            note =
                "the statements at the top level (lines \(statementLine)–\(lastStatement)) are read as a view "
                + "controller's \(hasSetup ? "viewDidAppear:" : "viewDidLoad"), as an article prints them: self is "
                + "that view controller, self.view its view on screen"
                + (kinds.contains(.method) ? "; the methods are that view controller's" : "")
        } else {
            note =
                "the methods outside an @implementation are read as a view controller's, as an article prints "
                + "them: self is that view controller, self.view its view on screen"
        }
        notes.insert(ImportDiagnostic(.note, SourcePosition(line: statementLine, column: 1, file: file), note), at: 0)
        return ObjCSnippet(
            text: text.joined(separator: "\n"), lines: map, notes: notes, hasMethods: kinds.contains(.method))
    }

    /// `CAShapeLayer` for a name whose uses set a shape layer's properties (`ring.path`),
    /// `CALayer` for another name that ends in `Layer`, else `nil` (a view).
    static func layerType(_ name: String, in body: String) -> String? {
        let shaped = ["path", "strokeEnd", "strokeStart", "strokeColor", "fillColor", "lineWidth", "lineDashPhase"]
            .contains { uses(name, "\(name).\($0)", in: body) }
        if shaped || name.lowercased().contains("shape") { return "CAShapeLayer" }
        return name.hasSuffix("Layer") ? "CALayer" : nil
    }

    /// The one method of a snippet that reads as a control's action — `- (void)name:(id)sender`,
    /// `- (IBAction)name:(id)sender` or `- (void)name` — with its line; nil when there is not
    /// exactly one.
    static func action(in lines: [String], kinds: [Kind]) -> (selector: String, line: Int)? {
        var found: [(String, Int)] = []
        for index in kinds.indices where kinds[index] == .method {
            var text = Substring(lines[index].trimmingCharacters())
            guard text.hasPrefix("-") else { continue }
            text = text.dropFirst().drop { $0 == " " }
            guard text.hasPrefix("(void)") || text.hasPrefix("(IBAction)") else { continue }
            text = text.drop { $0 != ")" }.dropFirst().drop { $0 == " " }
            let name = String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            guard !name.isEmpty else { continue }
            let rest = text.dropFirst(name.count).drop { $0 == " " }
            if rest.isEmpty || rest.hasPrefix("{") {
                found.append((name, index + 1))
            } else if rest.hasPrefix(":"),
                rest.dropFirst().drop(while: { $0 == " " }).replacingSpaces().hasPrefix("(id)sender")
                    || rest.dropFirst().drop(while: { $0 == " " }).replacingSpaces().hasPrefix("(UIButton*)sender")
            {
                found.append((name + ":", index + 1))
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// `body` has `text`, which begins with the name `name` itself, not with a longer name that
    /// ends in it (`animation_ball_1.path` is not `ball_1.path`); `_name`, its instance
    /// variable, is it.
    static func uses(_ name: String, _ text: String, in body: String) -> Bool {
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
                || byte >= 0x80
        }
        let haystack = Array(body.utf8)
        let needle = Array(text.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            var before = start - 1
            if before >= 0, haystack[before] == 0x5F { before -= 1 }
            if before < 0 || !isIdentifier(haystack[before]) { return true }
        }
        return false
    }

    /// The line where `name` is first used as `self.name`, `_name` or `name`.
    static func firstUse(of name: String, in lines: [String]) -> Int? {
        lines.firstIndex { $0.contains("self.\(name)") || $0.contains("_\(name)") || $0.contains(name) }.map { $0 + 1 }
    }

    /// What each line of the source is, or `nil` when the source has an `@implementation`.
    static func classify(_ lines: [String]) -> [Kind]? {
        var kinds = [Kind](repeating: .neutral, count: lines.count)
        let scanner = Scanner(lines)
        var line = 0
        while line < lines.count {
            guard let first = scanner.firstToken(line) else {
                // Blank, or only a comment (a block comment's lines are skipped with it).
                let end = scanner.endOfComment(from: line)
                line = end + 1
                continue
            }
            let kind: Kind
            let end: Int
            if first.hasPrefix("#") {
                kind = .outside
                end = scanner.endOfDirective(from: line)
            } else if first == "@implementation" {
                return nil
            } else if first == "@interface" || first == "@protocol" {
                kind = .outside
                end = scanner.lineOfEnd(from: line)
            } else {
                let piece = scanner.piece(from: line)
                end = piece.endLine
                if first == "-" || first == "+", piece.tokens.dropFirst().first == "(" {
                    kind = .method
                } else if Self.declarationWords.contains(first) || first.hasPrefix("@")
                    || piece.tokens.prefix(while: { $0 != "=" }).contains("const")
                {
                    // A declaration, a constant (`CGFloat const kDuration = 0.5;`).
                    kind = .outside
                } else if piece.opensBlock, isFunctionHead(piece.tokens) {
                    kind = .outside
                } else {
                    kind = .statement
                }
            }
            for index in line...min(end, lines.count - 1) { kinds[index] = kind }
            line = end + 1
        }
        return kinds
    }

    static let declarationWords: Set<String> = [
        "typedef", "struct", "enum", "union", "static", "extern", "const", "inline", "NS_ENUM", "NS_OPTIONS",
        "NS_ASSUME_NONNULL_BEGIN", "NS_ASSUME_NONNULL_END", "__attribute__",
    ]

    /// `CGFloat f(…) {`, `UIColor *tint(void) {`, `NSObject<P> *make(…) {`: at least two words
    /// before the first `(` (pointers and protocol or generic brackets aside), no `=`.
    static func isFunctionHead(_ tokens: [String]) -> Bool {
        guard let open = tokens.firstIndex(of: "("), !tokens[..<open].contains("=") else { return false }
        let words = tokens[..<open].filter { !["*", "<", ">", ","].contains($0) }
        return words.count >= 2 && words.allSatisfy { $0.first.map { $0.isLetter || $0 == "_" } ?? false }
    }
}

/// A small lexer over the source's lines: comments, string and character literals, and the
/// depth of brackets, enough to find where a top-level piece ends.
private struct Scanner {
    let lines: [[Character]]

    init(_ lines: [String]) { self.lines = lines.map(Array.init) }

    /// The first token of a line that does not begin inside a comment, or `nil` for a blank
    /// line or one that holds only a comment.
    func firstToken(_ line: Int) -> String? {
        let characters = lines[line]
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == " " || c == "\t" || c == "\r" {
                i += 1
                continue
            }
            if c == "/", i + 1 < characters.count, characters[i + 1] == "/" { return nil }
            if c == "/", i + 1 < characters.count, characters[i + 1] == "*" {
                // A comment that closes on this line: the token after it.
                var j = i + 2
                while j + 1 < characters.count, !(characters[j] == "*" && characters[j + 1] == "/") { j += 1 }
                guard j + 1 < characters.count else { return nil }
                i = j + 2
                continue
            }
            if c == "#" { return "#" }
            if c.isLetter || c == "_" || c == "@" {
                var j = i + 1
                while j < characters.count, characters[j].isLetter || characters[j].isNumber || characters[j] == "_" {
                    j += 1
                }
                return String(characters[i..<j])
            }
            return String(c)
        }
        return nil
    }

    /// The last line of a comment that starts on `line` (the line itself unless a block comment
    /// opens there and closes later).
    func endOfComment(from line: Int) -> Int {
        var inBlock = false
        var current = line
        while current < lines.count {
            let characters = lines[current]
            var i = 0
            while i < characters.count {
                if inBlock {
                    if characters[i] == "*", i + 1 < characters.count, characters[i + 1] == "/" {
                        inBlock = false
                        i += 2
                        continue
                    }
                } else if characters[i] == "/", i + 1 < characters.count {
                    if characters[i + 1] == "/" { break }
                    if characters[i + 1] == "*" {
                        inBlock = true
                        i += 2
                        continue
                    }
                }
                i += 1
            }
            if !inBlock { return current }
            current += 1
        }
        return lines.count - 1
    }

    /// A preprocessor line and the lines it continues onto with `\`.
    func endOfDirective(from line: Int) -> Int {
        var current = line
        while current < lines.count - 1, lines[current].last == "\\" { current += 1 }
        return current
    }

    /// The line of the `@end` that closes an `@interface` or `@protocol`.
    func lineOfEnd(from line: Int) -> Int {
        var current = line
        while current < lines.count {
            if String(lines[current]).contains("@end") { return current }
            current += 1
        }
        return lines.count - 1
    }

    /// A piece from the start of `line`: its tokens up to where it ends (a `;` outside every
    /// bracket, or the `}` that closes a `{` opened outside every bracket), its last line, and
    /// whether it opened a block.
    func piece(from line: Int) -> (tokens: [String], endLine: Int, opensBlock: Bool) {
        var tokens: [String] = []
        var depth = 0
        var blockOpenedAtTop = false
        var inBlockComment = false
        var current = line
        while current < lines.count {
            let characters = lines[current]
            var i = 0
            lineLoop: while i < characters.count {
                let c = characters[i]
                if inBlockComment {
                    if c == "*", i + 1 < characters.count, characters[i + 1] == "/" {
                        inBlockComment = false
                        i += 2
                    } else {
                        i += 1
                    }
                    continue
                }
                switch c {
                case "/" where i + 1 < characters.count && characters[i + 1] == "/":
                    break lineLoop
                case "/" where i + 1 < characters.count && characters[i + 1] == "*":
                    inBlockComment = true
                    i += 2
                    continue
                case "\"", "'":
                    // A string or character literal, with its escapes.
                    var j = i + 1
                    while j < characters.count, characters[j] != c {
                        j += characters[j] == "\\" ? 2 : 1
                    }
                    tokens.append("literal")
                    i = j + 1
                    continue
                case "(", "[", "{":
                    if c == "{", depth == 0 { blockOpenedAtTop = true }
                    depth += 1
                    if depth == 1 || c != "{" { tokens.append(String(c)) }
                case ")", "]", "}":
                    depth = max(0, depth - 1)
                    if c == "}", depth == 0, blockOpenedAtTop {
                        // The block ends the piece, with what follows on its line (`} else {`
                        // reopens it; a trailing `;` belongs to it).
                        let rest = String(characters[(i + 1)...]).trimmingCharacters()
                        if rest.hasPrefix("else") || rest.hasPrefix("while") {
                            blockOpenedAtTop = false
                        } else {
                            return (tokens, current, true)
                        }
                    }
                case ";" where depth == 0:
                    return (tokens, current, blockOpenedAtTop)
                case "=" where depth == 0:
                    tokens.append("=")
                case "*":
                    if depth == 0 { tokens.append("*") }
                default:
                    if depth == 0, c.isLetter || c == "_" || c == "@" {
                        var j = i + 1
                        while j < characters.count,
                            characters[j].isLetter || characters[j].isNumber || characters[j] == "_"
                        {
                            j += 1
                        }
                        tokens.append(String(characters[i..<j]))
                        i = j
                        continue
                    } else if depth == 0, c != " ", c != "\t", c != "\r" {
                        tokens.append(String(c))
                    }
                }
                i += 1
            }
            current += 1
        }
        return (tokens, lines.count - 1, blockOpenedAtTop)
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" })
    }
}

/// Objective-C's message syntax, `[receiver selector:argument piece:argument]`: the receiver,
/// each argument and the selector piece after it are separate tokens, which only spaces (or
/// other punctuation) tell apart. A page that lost its spaces in print runs them together —
/// `[CAKeyframeAnimationanimationWithKeyPath:@"position"]`, `addArcWithCenter:centerPointradius:`
/// — and clang reads one undeclared name where the code had two. Where a name on a line clang
/// complains of ends in a selector piece or property that UIKit and Core Animation declare and
/// begins with something else, the line is taken as having lost its spaces and is read with
/// them put back: a warning at the first such name says so, with the line as it was written.
/// When clang refuses the line so read too, it is an error at that name instead, with the line
/// as the fix, in place of clang's errors there (which follow from it).
enum LostSpaces {
    /// The selector pieces and properties of the declarations (`animationWithKeyPath`,
    /// `addArcWithCenter`, `radius`, `bezierPath`, `layer`), which a run-together name ends in.
    static let pieces: Set<String> = {
        var names: Set<String> = []
        var word = ""
        for character in Declarations.sdk {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            // A selector piece (`name:`), a method without arguments or a property (`name;`).
            if word.first?.isLowercase == true, word.count >= 4, character == ":" || character == ";" {
                names.insert(word)
            }
            word = ""
        }
        return names
    }()

    /// A line read with its lost spaces put back.
    struct Line {
        /// The line as it was written.
        var text: String
        /// The 1-based columns (bytes) of the spaces put back, in `text`.
        var inserted: [Int]
        /// The column (1-based, bytes, in the line as printed) of the first name that lost one.
        var column: Int
        /// That name, and the two it is.
        var name: String
        var parts: (String, String)
    }

    /// `line` with its lost spaces put back; nil when no name on it lost one.
    static func repaired(_ line: String) -> Line? {
        var output = ""
        var first: (column: Int, name: String, parts: (String, String))?
        var inserted: [Int] = []
        var byte = 0
        var token = ""
        var tokenStart = 0
        let characters = Array(line)
        func flush(next: Character?) {
            defer { token = "" }
            guard !token.isEmpty else { return }
            guard let split = split(token, next: next) else {
                output += token
                return
            }
            output += split.0
            inserted.append(output.utf8.count + 1)
            output += " " + split.1
            if first == nil { first = (tokenStart + 1, token, split) }
        }
        for (index, character) in characters.enumerated() {
            if character.isLetter || character.isNumber || character == "_" {
                if token.isEmpty { tokenStart = byte }
                token.append(character)
            } else {
                // What comes after the name: a selector piece is followed by ":" or ends the
                // message ("]").
                var next: Character? = character
                var look = index
                while next == " ", look + 1 < characters.count {
                    look += 1
                    next = characters[look]
                }
                flush(next: next)
                output.append(character)
            }
            byte += String(character).utf8.count
        }
        flush(next: nil)
        guard let first, output != line else { return nil }
        return Line(text: output, inserted: inserted, column: first.column, name: first.name, parts: first.parts)
    }

    /// `token` as a receiver, an argument or a property followed by a declared piece.
    static func split(_ token: String, next: Character?) -> (String, String)? {
        guard next == ":" || next == "]", !pieces.contains(token) else { return nil }
        let characters = Array(token)
        // The longest declared piece the name ends in, after at least one character.
        for start in 1..<max(1, characters.count) {
            let piece = String(characters[start...])
            guard piece.first?.isLowercase == true, pieces.contains(piece) else { continue }
            let head = String(characters[..<start])
            // A receiver or an argument ends in a letter, a digit or an underscore, and a piece
            // begins after it: `CAKeyframeAnimation|animationWithKeyPath`, `centerPoint|radius`,
            // `0|endAngle`, `layer|addAnimation`.
            guard let last = head.last, last.isLetter || last.isNumber || last == "_" else { continue }
            return (head, piece)
        }
        return nil
    }

    /// The lines of a source that lost their spaces, read as written.
    struct Repair {
        /// The source with those lines as written (every other line as it is).
        var source: String
        /// By line, the columns of the spaces put back (``Line/inserted``).
        var inserted: [Int: [Int]]
        /// By line, what was put back.
        var lines: [Int: Line]
        var file: Int

        /// A warning at each line read so, naming the first name that had lost a space.
        var warnings: [ImportDiagnostic] {
            lines.keys.sorted().map { number in
                let line = lines[number]!
                return ImportDiagnostic(
                    .warning, SourcePosition(line: number, column: line.column, file: file),
                    "\(line.name) is \(line.parts.0) and \(line.parts.1) run together: the spaces of this line "
                        + "were lost in print; it is read as \(line.text.trimmingCharacters())",
                    fix: "write the line with its spaces, as it is read")
            }
        }

        /// An error at each line read so, when clang refuses it with its spaces too.
        var errors: [ImportDiagnostic] {
            lines.keys.sorted().map { number in
                let line = lines[number]!
                return ImportDiagnostic(
                    .error, SourcePosition(line: number, column: line.column, file: file),
                    "\(line.name) is \(line.parts.0) and \(line.parts.1) run together: the spaces of this line "
                        + "were lost in print, and Objective-C tells a message's receiver, arguments and selector "
                        + "pieces apart by them",
                    fix: "write \(line.text.trimmingCharacters())")
            }
        }
    }

    /// The lines of `source` that clang complains of (in `diagnostics`) and that lost their
    /// spaces; nil when none did.
    static func repair(_ diagnostics: [ImportDiagnostic], source: String, file: Int) -> Repair? {
        let complained = Set(
            diagnostics.filter { $0.severity != .note && $0.position.file == file }.map(\.position.line))
        guard !complained.isEmpty else { return nil }
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var written: [Int: Line] = [:]
        for number in complained.sorted() where number >= 1 && number <= lines.count {
            guard let line = repaired(lines[number - 1]) else { continue }
            written[number] = line
            lines[number - 1] = line.text
        }
        guard !written.isEmpty else { return nil }
        return Repair(
            source: lines.joined(separator: "\n"), inserted: written.mapValues(\.inserted), lines: written, file: file)
    }

    /// `diagnostics` with clang's complaints at the lines that lost their spaces replaced by
    /// the repair's errors.
    static func said(_ diagnostics: [ImportDiagnostic], repair: Repair) -> [ImportDiagnostic] {
        diagnostics.filter { diagnostic in
            diagnostic.severity == .note || diagnostic.position.file != repair.file
                || repair.lines[diagnostic.position.line] == nil
        } + repair.errors
    }
}

extension Substring {
    /// Without its spaces.
    func replacingSpaces() -> String { String(filter { $0 != " " }) }
}
