import ChoreoFormat
import ChoreoImport
import ChoreoJSON

/// The two forms of `POST /v1/import` (docs/import.md): one source file as the body, its options
/// in the query; or a JSON document with several files (the rest of a Swift module, the headers
/// and implementations an Objective-C file includes) and its options as members.
extension ImportRequest {
    /// The options of either form, with their JSON path or query name in errors.
    private static let optionNames = ["language", "entry", "reduceMotion", "name", "taps", "screen"]
    /// The members of the JSON form.
    private static let memberNames = ["files"] + optionNames
    /// How many files one import reads at most (as `choreo import` follows includes).
    package static let maximumFiles = IncludedFiles.limit
    /// The largest JSON form: its sources (at most ``ImportService/sourceLimit`` together) and
    /// their escapes.
    package static let jsonBodyLimit = 2 * ImportService.sourceLimit

    /// Whether a body of this media type is the JSON form.
    package static func isJSON(mediaType: String?) -> Bool {
        mediaType.map { $0.lowercased().hasPrefix("application/json") } ?? false
    }

    /// The largest body of either form.
    package static func bodyLimit(mediaType: String?) -> Int {
        isJSON(mediaType: mediaType) ? jsonBodyLimit : ImportService.sourceLimit
    }

    /// A body of either form, by its media type (``decode(json:query:)`` or
    /// ``decode(source:query:mediaType:)``); nil when it names no language.
    package static func decode(body: [UInt8], query: [(String, String)], mediaType: String?)
        throws(ServiceError) -> ImportRequest?
    {
        if isJSON(mediaType: mediaType) { return try decode(json: body, query: query) }
        return try decode(source: body, query: query, mediaType: mediaType)
    }

    /// One source file as the body: `language` (or the media type), `entry` and `reduceMotion`
    /// from the query. `nil` language when neither the query nor `mediaType` names it (the
    /// caller answers 415).
    package static func decode(source body: [UInt8], query: [(String, String)], mediaType: String?)
        throws(ServiceError) -> ImportRequest?
    {
        var language: SourceLanguage?
        var entry: String?
        var reduceMotion = false
        var screen: (width: Double, height: Double)?
        var taps: [(title: String, time: Double)] = []
        var errors: [FieldError] = []
        for (name, value) in query {
            switch name {
            case "language":
                language = SourceLanguage(rawValue: value)
                if language == nil {
                    errors.append(FieldError(path: "query.language", message: "must be swift or objc"))
                }
            case "entry":
                entry = value
            case "reduceMotion":
                guard value == "true" || value == "false" else {
                    errors.append(FieldError(path: "query.reduceMotion", message: "must be true or false"))
                    continue
                }
                reduceMotion = value == "true"
            case "screen":
                screen = ImportScreen.parse(value)
                if screen == nil { errors.append(FieldError(path: "query.screen", message: ImportScreen.expected)) }
            case "tap":
                if let tap = ImportTap.parse(value), taps.count < ImportTap.limit {
                    taps.append(tap)
                } else {
                    errors.append(
                        FieldError(
                            path: "query.tap",
                            message: taps.count < ImportTap.limit
                                ? ImportTap.expected : "at most \(ImportTap.limit) taps"))
                }
            default:
                let suggestion = Vocabulary.suggestion(
                    for: name, among: ["language", "entry", "reduceMotion", "tap", "screen"])
                errors.append(
                    FieldError(path: "query.\(name)", message: "unknown query parameter", suggestion: suggestion))
            }
        }
        if !errors.isEmpty { throw ServiceError.invalidScene(ValidationFailure(errors)) }
        guard let language = language ?? mediaType.flatMap(SourceLanguage.init(mediaType:)) else { return nil }
        guard String(validating: body, as: UTF8.self) != nil else {
            throw ServiceError.invalidField("body", "the source is not UTF-8 text")
        }
        var request = ImportRequest(source: body, language: language, entry: entry)
        request.reduceMotion = reduceMotion
        request.screen = screen
        request.taps = taps
        return request
    }

    /// The JSON form: `{"files": [{"name", "source"}, …], "language"?, "entry"?, "reduceMotion"?,
    /// "name"?}`. The first file is the one imported; the others are read with it. The language
    /// is the first file's (by its extension) unless named.
    package static func decode(json body: [UInt8], query: [(String, String)]) throws(ServiceError) -> ImportRequest {
        if let (name, _) = query.first {
            let suggestion = Vocabulary.suggestion(for: name, among: optionNames)
            throw ServiceError.invalidScene(
                ValidationFailure([
                    FieldError(
                        path: "query.\(name)",
                        message: "a JSON import takes its options as members of the document, not in the query",
                        suggestion: suggestion.map { "$.\($0)" })
                ]))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            throw ServiceError.malformedJSON(error)
        }
        guard case .object(let object) = document else {
            throw ServiceError.invalidField("$", "must be an object with files, not \(document.typeName)")
        }
        var errors: [FieldError] = []
        for key in object.keys where !memberNames.contains(key) {
            errors.append(
                FieldError(
                    path: "$.\(key)", message: "unknown member",
                    suggestion: Vocabulary.suggestion(for: key, among: memberNames)))
        }
        let files = decodeFiles(object["files"], errors: &errors)
        var language: SourceLanguage?
        switch object["language"] {
        case nil: language = files.first.flatMap { SourceLanguage(fileName: $0.name) }
        case .string(let name)?:
            language = SourceLanguage(rawValue: name)
            if language == nil { errors.append(FieldError(path: "$.language", message: "must be swift or objc")) }
        case let value?:
            errors.append(FieldError(path: "$.language", message: "must be a string, not \(value.typeName)"))
        }
        if language == nil, object["language"] == nil, let first = files.first {
            errors.append(
                FieldError(
                    path: "$.language",
                    message:
                        "is needed: the first file's name (\(first.name)) ends in neither .swift nor .m, .mm or .h"))
        }
        let entry = string(object["entry"], "$.entry", errors: &errors)
        let name = string(object["name"], "$.name", errors: &errors)
        var reduceMotion = false
        switch object["reduceMotion"] {
        case nil: break
        case .bool(let value)?: reduceMotion = value
        case let value?:
            errors.append(FieldError(path: "$.reduceMotion", message: "must be true or false, not \(value.typeName)"))
        }
        var screen: (width: Double, height: Double)?
        switch object["screen"] {
        case nil: break
        case .string(let text)?:
            screen = ImportScreen.parse(text)
            if screen == nil { errors.append(FieldError(path: "$.screen", message: ImportScreen.expected)) }
        case let value?:
            errors.append(
                FieldError(path: "$.screen", message: "must be a string (\"390x844\"), not \(value.typeName)"))
        }
        var taps: [(title: String, time: Double)] = []
        switch object["taps"] {
        case nil: break
        case .array(let items)? where items.count <= ImportTap.limit:
            for (index, item) in items.enumerated() {
                guard case .object(let tap) = item, tap.count == 2, case .string(let title)? = tap["title"],
                    case .number(let time)? = tap["at"], time.isFinite, time >= 0, time <= 3600
                else {
                    errors.append(
                        FieldError(
                            path: "$.taps[\(index)]",
                            message: "must be {\"title\": button title, \"at\": seconds (0 to 3600)}"))
                    continue
                }
                taps.append((title, time))
            }
        case .array?:
            errors.append(FieldError(path: "$.taps", message: "at most \(ImportTap.limit) taps"))
        case let value?:
            errors.append(FieldError(path: "$.taps", message: "must be an array, not \(value.typeName)"))
        }
        guard errors.isEmpty, let language, let first = files.first else {
            throw ServiceError.invalidScene(ValidationFailure(errors))
        }
        var request = ImportRequest(source: first.source, language: language, entry: entry, name: name ?? first.name)
        request.reduceMotion = reduceMotion
        request.screen = screen
        request.taps = taps
        request.companions = Array(files.dropFirst())
        return request
    }

    /// `files`: one to ``maximumFiles`` objects with a unique `name` and a `source`.
    private static func decodeFiles(_ value: JSONValue?, errors: inout [FieldError]) -> [(
        name: String, source: [UInt8]
    )] {
        guard let value else {
            errors.append(FieldError(path: "$.files", message: "is required: the source files, the imported one first"))
            return []
        }
        guard case .array(let items) = value else {
            errors.append(FieldError(path: "$.files", message: "must be an array of files, not \(value.typeName)"))
            return []
        }
        guard !items.isEmpty, items.count <= maximumFiles else {
            errors.append(
                FieldError(
                    path: "$.files",
                    message: "must hold 1 to \(maximumFiles) files, not \(items.count)"))
            return []
        }
        var files: [(name: String, source: [UInt8])] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let path = "$.files[\(index)]"
            guard case .object(let file) = item else {
                errors.append(
                    FieldError(path: path, message: "must be an object with name and source, not \(item.typeName)"))
                continue
            }
            for key in file.keys where key != "name" && key != "source" {
                errors.append(
                    FieldError(
                        path: "\(path).\(key)", message: "unknown member",
                        suggestion: Vocabulary.suggestion(for: key, among: ["name", "source"])))
            }
            let name = string(file["name"], "\(path).name", required: true, errors: &errors)
            let source = string(file["source"], "\(path).source", required: true, errors: &errors)
            guard let name, let source else { continue }
            guard !name.isEmpty, name.utf8.count <= 255, !name.contains(where: { $0.isNewline || $0 == "\0" }),
                !name.hasSuffix("/")
            else {
                errors.append(
                    FieldError(
                        path: "\(path).name",
                        message: "must be a file name of 1 to 255 bytes on one line, such as Loader.swift"))
                continue
            }
            guard seen.insert(name).inserted else {
                errors.append(FieldError(path: "\(path).name", message: "names another file already given (\(name))"))
                continue
            }
            files.append((name, Array(source.utf8)))
        }
        return files
    }

    private static func string(
        _ value: JSONValue?, _ path: String, required: Bool = false, errors: inout [FieldError]
    ) -> String? {
        switch value {
        case nil:
            if required { errors.append(FieldError(path: path, message: "is required")) }
            return nil
        case .string(let text)?: return text
        case let value?:
            errors.append(FieldError(path: path, message: "must be a string, not \(value.typeName)"))
            return nil
        }
    }
}
