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

    /// The one-line form of `value` if it has at most `limit` characters, else nil: written
    /// only as far as the limit, so a large container is not written out at every level it
    /// is nested in.
    private static func inline(_ value: JSONValue, limit: Int) -> String? {
        var out = ""
        return appendInline(value, to: &out, limit: limit) ? out : nil
    }

    private static func appendInline(_ value: JSONValue, to out: inout String, limit: Int) -> Bool {
        switch value {
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                guard appendInline(element, to: &out, limit: limit) else { return false }
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { out += ", " }
                out += scalar(.string(member.key)) + ": "
                guard out.count <= limit, appendInline(member.value, to: &out, limit: limit) else { return false }
            }
            out += "}"
        default:
            out += scalar(value)
        }
        return out.count <= limit
    }

    private static func scalar(_ value: JSONValue) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.value(value)
        return writer.text
    }

    /// Writes `value` starting at `column`, its members indented under `indent`.
    private static func pretty(_ value: JSONValue, indent: Int, column: Int, width: Int, into out: inout String) {
        if let one = inline(value, limit: width - column) {
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
            out += scalar(value)
        }
    }
}
