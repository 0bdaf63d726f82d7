import ChoreoJSON

/// An imported scene as its JSON text (empty for none), for expectations on what it holds.
func sceneText(_ scene: JSONValue?) -> String {
    guard let scene else { return "" }
    var writer = JSONWriter()
    writer.value(scene)
    return String(decoding: writer.bytes, as: UTF8.self)
}
