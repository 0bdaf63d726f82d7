import ChoreoJSON

/// The small documents of the API: problems, stored scenes' summaries and pages.
extension ResponseEncoder {
    /// An RFC 9457 problem document (`application/problem+json`), with choreo's `errors`: the
    /// fields at fault, each with its JSON path.
    public static func problem(
        type: String, title: String, status: Int, detail: String, errors: [FieldError],
        extensions: [(String, JSONValue)] = []
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"type\":")
        writer.string(type)
        writer.raw(",\"title\":")
        writer.string(title)
        writer.raw(",\"status\":")
        writer.integer(Int64(status))
        writer.raw(",\"detail\":")
        writer.string(detail)
        writer.raw(",\"errors\":")
        writeFieldErrors(errors, into: &writer)
        // RFC 9457 §3.2: members a problem type defines (an import's `diagnostics`).
        for (name, value) in extensions {
            writer.byte(UInt8(ascii: ","))
            writer.key(name)
            writer.value(value)
        }
        writer.raw("}")
        return writer.bytes
    }

    /// A stored scene: `{"id", "name" (or null), "created"}`.
    public static func sceneSummary(id: String, name: String?, created: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"id\":")
        writer.string(id)
        writer.raw(",\"name\":")
        if let name { writer.string(name) } else { writer.raw("null") }
        writer.raw(",\"created\":")
        writer.string(created)
        writer.raw("}")
        return writer.bytes
    }

    /// A page of stored scenes (each a ``sceneSummary(id:name:created:)``) and the cursor of the
    /// next page, a string, or null on the last.
    public static func scenePage(_ items: [[UInt8]], next: Int64?) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"items\":")
        writer.array(items) { $0.bytes.append(contentsOf: $1) }
        writer.raw(",\"next\":")
        if let next { writer.string(String(next)) } else { writer.raw("null") }
        writer.raw("}")
        return writer.bytes
    }
}
