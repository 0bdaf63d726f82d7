import ChoreoJSON

/// One JSON log line per request: request id, method, path, status, bytes, duration.
/// Bodies and headers (the token among them) are never logged.
public enum RequestLog {
    public static func line(
        requestID: String, method: String, path: String, status: Int, bytes: Int, seconds: Double
    ) -> String {
        var writer = JSONWriter()
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
        writer.raw(",\"duration_ms\":")
        writer.number((seconds * 1_000_000).rounded() / 1000)
        writer.raw("}")
        return writer.text
    }
}
