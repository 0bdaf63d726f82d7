/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Written here rather than taken from Foundation because choreo needs, for every scene it
/// rejects, the exact line and column of a syntax error, object members in document order,
/// duplicate keys reported as errors, numbers and booleans kept apart (a number too large for
/// a `Double` reads as ±infinity, which `JSONValue` consumers must check), and a nesting limit
/// so that a hostile document cannot exhaust the stack.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Members and elements of the objects and arrays being parsed, innermost last: each is
    /// copied out at its end into an array of exactly its size (arrays grown by appending keep
    /// up to twice the room they need).
    private var memberStack: [JSONObject.Member] = []
    private var elementStack: [JSONValue] = []

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one complete JSON document; trailing content other than white space is an error.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected content after the JSON document") }
        return value
    }

    /// Parses a JSON document given as a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func error(_ reason: String, at position: Int? = nil) -> JSONParseError {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < end {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return JSONParseError(line: line, column: end - lineStart + 1, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            if bytes[index] == UInt8(ascii: "N") || bytes[index] == UInt8(ascii: "I") {
                throw error("NaN and Infinity are not JSON numbers")
            }
            throw error("unexpected character '\(Self.printable(bytes[index]))', expected a value")
        }
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let position = index
        let source = bytes
        let matches = literal.withUTF8Buffer { expected in
            position + count <= source.count && (0..<count).allSatisfy { source[position + $0] == expected[$0] }
        }
        guard matches else { throw error("invalid literal", at: start) }
        index += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        let base = memberStack.count
        // Keys seen, once the object is too large to search its members for a duplicate.
        var seen: Set<String>?
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(index < bytes.count ? "expected a string key" : "unexpected end of input in an object")
            }
            let keyStart = index
            let key = try parseString()
            let duplicate: Bool
            if memberStack.count - base < JSONObject.indexedAbove {
                duplicate = memberStack[base...].contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(memberStack[base...].map(\.key)) }
                duplicate = !seen!.insert(key).inserted
            }
            if duplicate { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after a key")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            memberStack.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                let object = JSONObject(distinct: Array(memberStack[base...]))
                memberStack.removeSubrange(base...)
                return .object(object)
            }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        let base = elementStack.count
        while true {
            skipWhitespace()
            let element = try parseValue()
            elementStack.append(element)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                let elements = Array(elementStack[base...])
                elementStack.removeSubrange(base...)
                return .array(elements)
            }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zeros are not allowed", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // The grammar allows any magnitude: beyond Double's range the value is ±infinity, and the
        // reader of the document decides (choreo's scene decoder rejects it with the field's path).
        guard let value = Double(text) else { throw error("invalid number \(text)", at: start) }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var runStart = index
        var result = ""
        /// The bytes of the run OR-ed together: below 0x80, the run is ASCII, valid as it is.
        var high: UInt8 = 0
        func flushRun(_ end: Int) throws(JSONParseError) {
            if end > runStart {
                if high < 0x80 {
                    // ASCII (nearly every key and name): made without the generic validation.
                    result += bytes.withUnsafeBufferPointer {
                        String(decoding: UnsafeBufferPointer(rebasing: $0[runStart..<end]), as: UTF8.self)
                    }
                    return
                }
                guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string", at: runStart)
                }
                result += run
            }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun(index)
                index += 1
                return result
            }
            if byte < 0x20 { throw error("control character in a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                high |= byte
                index += 1
                continue
            }
            try flushRun(index)
            high = 0
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): result += "\""
            case UInt8(ascii: "\\"): result += "\\"
            case UInt8(ascii: "/"): result += "/"
            case UInt8(ascii: "b"): result += "\u{08}"
            case UInt8(ascii: "f"): result += "\u{0C}"
            case UInt8(ascii: "n"): result += "\n"
            case UInt8(ascii: "r"): result += "\r"
            case UInt8(ascii: "t"): result += "\t"
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate in a \\u escape") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw error("unpaired surrogate in a \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                result.unicodeScalars.append(scalar)
            default:
                throw error("invalid escape '\\\(Self.printable(escape))'", at: index - 1)
            }
            runStart = index
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
