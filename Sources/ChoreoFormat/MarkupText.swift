/// Text set into HTML or SVG: a badge's label, an exported page's strings and attributes.
package enum MarkupText {
    /// `text` with `&`, `<`, `>` and `"` as character references, safe in content and in a
    /// double-quoted attribute.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
