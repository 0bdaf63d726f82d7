/// Appends JSON text to a byte buffer, deterministically.
///
/// Numbers are written in the shortest form that reads back to the same `Double`, integers
/// without a fraction, and `-0` as `0`, so the same values always give the same bytes.
public struct JSONWriter: Sendable {
    /// The JSON text written so far.
    public var bytes: [UInt8]
    /// When set (1…17), ``number(_:)`` first rounds to this many significant digits: for
    /// clients that draw pixels and need no 17 digits. nil: exact shortest round-trip digits.
    public var significantDigits: Int?

    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer into `buffer`'s storage, emptied: a buffer written before is used again
    /// instead of a new one (grown to `capacity` if it is smaller).
    public init(reusing buffer: consuming [UInt8], capacity: Int) {
        bytes = consume buffer
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Writes a finite number; non-finite values are written as `null`.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if let digits = significantDigits {
            exactNumber(Self.rounded(value, significantDigits: digits))
        } else {
            exactNumber(value)
        }
    }

    /// `value` rounded to `digits` significant digits: its shortest round-trip decimal form
    /// rounded half away from zero, read back as the double nearest to that decimal, so that
    /// its own shortest form has at most `digits` digits. Decimal, so 0.125 to two digits is
    /// 0.13 whatever its binary neighbours.
    public static func rounded(_ value: Double, significantDigits digits: Int) -> Double {
        guard value != 0, value.isFinite, digits >= 1, digits < 17 else { return value }
        let text = "\(abs(value))"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        // The digits, and how many of them stand before the decimal point.
        var decimals: [UInt8] = []
        var beforePoint = 0
        var seenPoint = false
        for byte in mantissa.utf8 {
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                decimals.append(byte - UInt8(ascii: "0"))
                if !seenPoint { beforePoint += 1 }
            }
        }
        while decimals.first == 0 && decimals.count > 1 {
            decimals.removeFirst()
            beforePoint -= 1
        }
        guard decimals.count > digits else { return value }
        let roundUp = decimals[digits] >= 5
        decimals.removeLast(decimals.count - digits)
        if roundUp {
            var index = digits - 1
            while index >= 0 && decimals[index] == 9 {
                decimals[index] = 0
                index -= 1
            }
            if index >= 0 {
                decimals[index] += 1
            } else {
                decimals.insert(1, at: 0)
                decimals.removeLast()
                beforePoint += 1
            }
        }
        let scaled = String(decoding: decimals.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        let result = Double(scaled + "e\(exponent + beforePoint - digits)") ?? abs(value)
        return value < 0 ? -result : result
    }

    @inline(__always)
    private mutating func exactNumber(_ value: Double) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
            return
        }
        // The shortest round-trip digits, the same bytes as `description`, without a String.
        var sink = DigitSink()
        swap(&sink.bytes, &bytes)
        value.write(to: &sink)
        swap(&sink.bytes, &bytes)
    }

    /// Receives a number's digits from the standard library's formatter straight into the
    /// buffer: `Double.write(to:)` hands its ASCII digits to `_writeASCII`, the text-stream
    /// entry point for them, where `description` would first build a String on the heap.
    private struct DigitSink: TextOutputStream {
        var bytes: [UInt8] = []

        mutating func write(_ string: String) {
            var text = string
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: buffer)
        }
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes a string with the escapes RFC 8259 requires.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes an object key followed by a colon.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes `[e0,e1,…]`, each element written by `element`.
    public mutating func array<Items: Sequence>(_ items: Items, _ element: (inout JSONWriter, Items.Element) -> Void) {
        byte(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        byte(UInt8(ascii: "]"))
    }

    /// Writes any parsed value, members in their stored order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            array(elements) { $0.value($1) }
        case .object(let object):
            byte(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                key(member.key)
                self.value(member.value)
            }
            byte(UInt8(ascii: "}"))
        }
    }

    /// The text written so far as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension JSONValue {
    /// The value serialized compactly.
    public var serialized: [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }
}
