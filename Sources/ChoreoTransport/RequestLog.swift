import ChoreoJSON

/// One JSON log line per request: request id, method, path, status, bytes, duration.
/// Bodies and headers (the token among them) are never logged.
public enum RequestLog {
    /// The line, newline included, as bytes ready for one `write(2)`.
    public static func line(
        requestID: String, method: String, path: String, status: Int, bytes: Int, seconds: Double
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 160)
        writer.raw("{\"request.id\":")
        writer.string(requestID)
        writer.raw(",\"method\":")
        writer.string(method)
        writer.raw(",\"path\":")
        writer.string(path)
        writer.raw(",\"status\":")
        writer.integer(Int64(status))
        writer.raw(",\"bytes\":")
        writer.integer(Int64(bytes))
        // Milliseconds with three decimals, by integer arithmetic (cheaper than formatting a Double).
        let microseconds = Int64((max(0, seconds) * 1_000_000).rounded())
        writer.raw(",\"duration_ms\":")
        writer.integer(microseconds / 1000)
        writer.byte(UInt8(ascii: "."))
        let fraction = microseconds % 1000
        if fraction < 100 { writer.byte(UInt8(ascii: "0")) }
        if fraction < 10 { writer.byte(UInt8(ascii: "0")) }
        writer.integer(fraction)
        writer.raw("}\n")
        return writer.bytes
    }

    /// A lifecycle or server line, `{"event": name, …fields}` with the newline: every line
    /// choreo writes to stderr is one JSON object, whatever the fields hold.
    public static func event(_ name: String, _ fields: KeyValuePairs<String, JSONValue> = [:]) -> [UInt8] {
        event(name, fields.map { ($0.key, $0.value) })
    }

    /// A lifecycle event with fields in the given order.
    public static func event(_ name: String, _ fields: [(String, JSONValue)]) -> [UInt8] {
        var writer = JSONWriter(capacity: 96)
        writer.raw("{\"event\":")
        writer.string(name)
        for (key, value) in fields {
            writer.byte(UInt8(ascii: ","))
            writer.string(key)
            writer.byte(UInt8(ascii: ":"))
            writer.value(value)
        }
        writer.raw("}\n")
        return writer.bytes
    }
}
