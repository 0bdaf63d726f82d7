import ChoreoJSON

/// Compact JSON of a value, for searching a scene's text.
struct ChoreoJSONWriterBox {
    var writer = JSONWriter()
    mutating func write(_ value: JSONValue) { writer.value(value) }
    var bytes: [UInt8] { writer.bytes }
}
