/// Foundation's collections and strings as loader code uses them: `NSMutableArray(capacity:)`,
/// `NSMutableString(string:)` with `replaceOccurrences(of:with:options:range:)`, `NSRange`, and
/// points written as strings (`NSCoder.cgPoint(for: "{10,20}")`, `CGPointFromString`).
extension ImportEvaluator {
    /// A Foundation initializer or function, or nil when `name` is none of them.
    func foundationFunction(_ name: String, _ arguments: Arguments, _ position: SourcePosition) -> Value? {
        switch name {
        case "NSMutableArray", "NSArray":
            if case .array(let elements)? = arguments.first("array", "arrayLiteral") { return .array(elements) }
            return .array([])
        case "NSMutableString", "NSString":
            if case .string(let text)? = arguments.first("string") { return .string(text) }
            return .string("")
        default:
            return nil
        }
    }

    /// `NSCoder.cgPoint(for:)` and `NSCoder.cgSize(for:)`.
    func coderFunction(_ name: String, _ arguments: Arguments, _ position: SourcePosition) -> Value? {
        guard name == "cgPoint" || name == "cgSize", case .string(let text)? = arguments.items.first?.value else {
            return nil
        }
        return pointOrSize(text, size: name == "cgSize", position)
    }

    /// `"{x,y}"` as `NSStringFromCGPoint` writes it; an unreadable string is the zero point, as
    /// Foundation reads it, with a warning.
    func pointOrSize(_ text: String, size: Bool, _ position: SourcePosition) -> Value {
        let numbers = text.split { "{}, ".contains($0) }.compactMap { Double($0) }
        guard numbers.count == 2 else {
            warn(position, "\"\(text)\" is not a point written as {x,y}; it reads as zero")
            return size ? .size(0, 0) : .point(0, 0)
        }
        return size ? .size(numbers[0], numbers[1]) : .point(numbers[0], numbers[1])
    }

    /// A mutable string's methods that change it where it is stored, or nil for others.
    func mutatedString(_ text: String, _ name: String, _ arguments: Arguments) -> String? {
        switch name {
        case "replaceOccurrences", "replaceOccurrencesOfString":
            guard case .string(let target)? = arguments.first("of", "replaceOccurrencesOfString"),
                case .string(let replacement)? = arguments.first("with", "withString"), !target.isEmpty
            else { return nil }
            // The code's options are case-insensitive or none; its range is the whole string.
            return replacingCaseInsensitively(text, target, replacement)
        case "append", "appendString":
            guard case .string(let more)? = arguments.items.first?.value else { return nil }
            return text + more
        default:
            return nil
        }
    }

    func replacingCaseInsensitively(_ text: String, _ target: String, _ replacement: String) -> String {
        let lowered = Array(text.lowercased())
        let needle = Array(target.lowercased())
        let original = Array(text)
        guard lowered.count == original.count else { return text }
        var result = ""
        var index = 0
        while index < original.count {
            if index + needle.count <= original.count, Array(lowered[index..<(index + needle.count)]) == needle {
                result += replacement
                index += needle.count
            } else {
                result.append(original[index])
                index += 1
            }
        }
        return result
    }
}
