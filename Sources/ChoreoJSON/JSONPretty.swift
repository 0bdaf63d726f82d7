/// Indented JSON for people to read and diff: an object or array whose one-line form (with a
/// space after each comma and colon) fits in `width` columns stays on one line, a larger one
/// takes a line per member. Members keep their order and numbers their shortest round-trip
/// form, so the same value always gives the same text.
extension JSONValue {
    public func prettyPrinted(width: Int = 100) -> String {
        var out = ""
        Self.pretty(self, indent: 0, column: 0, width: width, into: &out)
        return out + "\n"
    }

    private static func inline(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements):
            return "[" + elements.map(inline).joined(separator: ", ") + "]"
        case .object(let object):
            return "{"
                + object.members.map { scalar(.string($0.key)) + ": " + inline($0.value) }.joined(separator: ", ")
                + "}"
        default:
            return scalar(value)
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.value(value)
        return writer.text
    }

    /// Writes `value` starting at `column`, its members indented under `indent`.
    private static func pretty(_ value: JSONValue, indent: Int, column: Int, width: Int, into out: inout String) {
        let one = inline(value)
        if column + one.count <= width {
            out += one
            return
        }
        let pad = String(repeating: " ", count: indent + 2)
        switch value {
        case .array(let elements):
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += pad
                pretty(element, indent: indent + 2, column: indent + 2, width: width, into: &out)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let object):
            out += "{\n"
            let members = object.members
            for (index, member) in members.enumerated() {
                let key = scalar(.string(member.key)) + ": "
                out += pad + key
                pretty(member.value, indent: indent + 2, column: indent + 2 + key.count, width: width, into: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        default:
            out += one
        }
    }
}
