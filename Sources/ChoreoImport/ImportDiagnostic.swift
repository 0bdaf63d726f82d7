import ChoreoJSON

/// One diagnostic of an import, compiler style: `file:line:column: error: message`.
package struct ImportDiagnostic: Sendable, Equatable {
    package enum Severity: String, Sendable {
        case error, warning, note
    }

    package var severity: Severity
    package var position: SourcePosition
    package var message: String
    /// A suggested replacement or action, when there is one ("did you mean …").
    package var fix: String?
    /// The name of the file it is in, when that is not the file imported but one read with it.
    package var file: String?

    package init(_ severity: Severity, _ position: SourcePosition, _ message: String, fix: String? = nil) {
        self.severity = severity
        self.position = position
        self.message = message
        self.fix = fix
    }

    /// `file:line:column: severity: message`, as compilers print it.
    package func formatted(file main: String) -> String {
        var text = "\(file ?? main):\(position.line):\(position.column): \(severity.rawValue): \(message)"
        if let fix { text += " (\(fix))" }
        return text
    }

    /// The message with where it is, in words: `Shape.swift, line 3, column 5: …` (the file
    /// only when it is not the one imported).
    package var located: String {
        (file.map { "\($0), " } ?? "") + "line \(position.line), column \(position.column): \(message)"
    }

    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("severity", .string(severity.rawValue)), ("line", .number(Double(position.line))),
            ("column", .number(Double(position.column))), ("message", .string(message)),
        ]
        if let fix { members.append(("fix", .string(fix))) }
        if let file { members.append(("file", .string(file))) }
        return .object(JSONObject(members))
    }
}

/// Where a piece of the scene came from: the JSON path of an action or layer, and its source position.
package struct SourceMapping: Sendable, Equatable {
    package var path: String
    package var position: SourcePosition
    /// The file's name, when it is not the file imported.
    package var file: String?

    package init(path: String, position: SourcePosition, file: String? = nil) {
        self.path = path
        self.position = position
        self.file = file
    }

    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("path", .string(path)), ("line", .number(Double(position.line))),
            ("column", .number(Double(position.column))),
        ]
        if let file { members.append(("file", .string(file))) }
        return .object(JSONObject(members))
    }
}

/// What an import made: the scene (nil when none could be made), its diagnostics and source map.
package struct ImportResult: Sendable {
    package var scene: JSONValue?
    package var diagnostics: [ImportDiagnostic]
    package var sourceMap: [SourceMapping]

    package init(scene: JSONValue?, diagnostics: [ImportDiagnostic], sourceMap: [SourceMapping]) {
        self.scene = scene
        self.diagnostics = diagnostics
        self.sourceMap = sourceMap
    }

    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// `{"scene", "diagnostics", "sourceMap"}`, as `POST /v1/import` answers.
    package var json: JSONValue {
        .object(
            JSONObject([
                ("scene", scene ?? .null), ("diagnostics", .array(diagnostics.map(\.json))),
                ("sourceMap", .array(sourceMap.map(\.json))),
            ]))
    }

    /// Reads the document ``json`` writes (the helper process's answer).
    package init?(json: JSONValue) {
        guard case .object(let object) = json, case .array(let diagnostics)? = object["diagnostics"],
            case .array(let mappings)? = object["sourceMap"]
        else { return nil }
        if let scene = object["scene"], scene != .null { self.scene = scene } else { self.scene = nil }
        var read: [ImportDiagnostic] = []
        for case .object(let d) in diagnostics {
            guard case .string(let s)? = d["severity"], let severity = ImportDiagnostic.Severity(rawValue: s),
                case .number(let line)? = d["line"], case .number(let column)? = d["column"],
                case .string(let message)? = d["message"]
            else { return nil }
            var fix: String?
            if case .string(let f)? = d["fix"] { fix = f }
            var diagnostic = ImportDiagnostic(
                severity, SourcePosition(line: Int(line), column: Int(column)), message, fix: fix)
            if case .string(let f)? = d["file"] { diagnostic.file = f }
            read.append(diagnostic)
        }
        self.diagnostics = read
        var map: [SourceMapping] = []
        for case .object(let m) in mappings {
            guard case .string(let path)? = m["path"], case .number(let line)? = m["line"],
                case .number(let column)? = m["column"]
            else { return nil }
            var file: String?
            if case .string(let f)? = m["file"] { file = f }
            map.append(
                SourceMapping(path: path, position: SourcePosition(line: Int(line), column: Int(column)), file: file))
        }
        sourceMap = map
    }
}

/// The source languages.
package enum SourceLanguage: String, Sendable, CaseIterable {
    case swift
    case objc

    /// From a file name's extension: `.swift`, `.m` (and `.mm`, `.h`).
    package init?(fileName: String) {
        if fileName.hasSuffix(".swift") {
            self = .swift
        } else if fileName.hasSuffix(".m") || fileName.hasSuffix(".mm") || fileName.hasSuffix(".h") {
            self = .objc
        } else {
            return nil
        }
    }

    /// From a media type: `text/x-swift`, `text/x-objective-c`.
    package init?(mediaType: String) {
        var base = Substring(mediaType.split(separator: ";").first ?? "")
        while base.first == " " { base.removeFirst() }
        while base.last == " " { base.removeLast() }
        switch base.lowercased() {
        case "text/x-swift", "application/x-swift": self = .swift
        case "text/x-objective-c", "text/x-objc", "text/x-objcsrc": self = .objc
        default: return nil
        }
    }
}
