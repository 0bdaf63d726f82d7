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

    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable @inline(__always)
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Writes a finite number; non-finite values are written as `null`.
    public mutating func number(_ value: Double) {
        let digits = significantDigits
        appendFormatted { Self.write(value, significantDigits: digits, into: $0) }
    }

    /// Appends the bytes `format` writes into a buffer on the stack of
    /// ``maximumNumberLength`` bytes (it returns how many).
    @inline(__always)
    private mutating func appendFormatted(_ format: (UnsafeMutablePointer<UInt8>) -> Int) {
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            let text = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: format(text)))
        }
    }

    /// The most bytes ``write(_:significantDigits:into:)`` writes.
    public static let maximumNumberLength = 32

    /// Writes `value` as ``number(_:)`` does at `significantDigits` into `text`, which has room
    /// for ``maximumNumberLength`` bytes, and returns how many it wrote: for writers that lay
    /// out several values before appending them at once.
    @inline(__always)
    public static func write(_ value: Double, significantDigits: Int?, into text: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else {
            text[0] = UInt8(ascii: "n")
            text[1] = UInt8(ascii: "u")
            text[2] = UInt8(ascii: "l")
            text[3] = UInt8(ascii: "l")
            return 4
        }
        if let digits = significantDigits { return writeRounded(value, digits, into: text) }
        return writeExact(value, into: text)
    }

    /// `value` rounded to `digits` significant digits: its shortest round-trip decimal form
    /// rounded half away from zero, read back as the double nearest to that decimal, so that
    /// its own shortest form has at most `digits` digits. Decimal, so 0.125 to two digits is
    /// 0.13 whatever its binary neighbours.
    ///
    /// Without text: the shortest digits (``ShortestDecimal``) are rounded as an integer, and
    /// the decimal is read back exactly as a correctly rounded parse would (one IEEE
    /// multiplication or division of two exact doubles, Clinger's fast path; a parse of the
    /// text only where that does not apply).
    public static func rounded(_ value: Double, significantDigits digits: Int) -> Double {
        switch roundedDecimal(value, digits) {
        case .unchanged: return value
        case .decimal(let mantissa, let scale):
            guard mantissa <= 1 << 53, scale >= -22, scale <= 22 else { return slowRounded(value, digits) }
            let result =
                scale >= 0
                ? Double(mantissa) * Self.exactPowerOfTen(scale) : Double(mantissa) / Self.exactPowerOfTen(-scale)
            return value < 0 ? -result : result
        }
    }

    /// A value's shortest decimal rounded to `digits` significant digits: `mantissa` ×
    /// 10^`scale`, `mantissa` of `digits` digits at most.
    enum RoundedDecimal: Equatable {
        /// The shortest form has `digits` digits or fewer already.
        case unchanged
        case decimal(mantissa: UInt64, scale: Int)
    }

    static func roundedDecimal(_ value: Double, _ digits: Int) -> RoundedDecimal {
        guard value != 0, value.isFinite, digits >= 1, digits < 17 else { return .unchanged }
        if digits <= 12, let quick = quickRoundedDecimal(abs(value), digits) {
            return .decimal(mantissa: quick.mantissa, scale: quick.scale)
        }
        return roundedDecimal(ShortestDecimal(abs(value)), digits)
    }

    /// ``roundedDecimal(_:_:)`` by arithmetic, without the shortest digits, where that gives the
    /// same decimal: `value` (positive) scaled by an exact power of ten to `digits` digits
    /// before the point, then rounded. The shortest decimal of `value` and the scaled double
    /// differ by a few units in the last place at most, so when the scaled value's fraction is
    /// neither near a half nor near a whole number (a margin well above that error), both round
    /// to the same integer, and the shortest decimal has more than `digits` digits. Nil
    /// otherwise, for the digits' path to decide.
    @inline(__always)
    static func quickRoundedDecimal(_ value: Double, _ digits: Int) -> (mantissa: UInt64, scale: Int)? {
        guard value >= 1e-280, value <= 1e280 else { return nil }
        // ⌊log10 2^e⌋ from the binary exponent, one off at most (the shift floors negatives too).
        // The binary exponent from the bits (the value is normal here): `exponent` is a call.
        let binaryExponent = Int((value.bitPattern >> 52) & 0x7FF) - 1023
        var power = digits - 1 - ((binaryExponent * 78_913) >> 18)
        for _ in 0..<3 {
            guard power >= -22, power <= 22 else { return nil }
            let scaled = power >= 0 ? value * exactPowerOfTen(power) : value / exactPowerOfTen(-power)
            if scaled >= exactPowerOfTen(digits) {
                power -= 1
                continue
            }
            if scaled < exactPowerOfTen(digits - 1) {
                power += 1
                continue
            }
            let whole = UInt64(scaled)
            let fraction = scaled - Double(whole)
            let margin = scaled * 1e-14 + 1e-12
            guard fraction > margin, fraction < 1 - margin, abs(fraction - 0.5) > margin else { return nil }
            var mantissa = whole + (fraction > 0.5 ? 1 : 0)
            var scale = -power
            if mantissa == powerOfTen(digits) {
                mantissa /= 10
                scale += 1
            }
            return (mantissa, scale)
        }
        return nil
    }

    /// `shortest` rounded half away from zero to `digits` significant digits (1…16), by integer
    /// arithmetic on its digits.
    @inline(__always)
    static func roundedDecimal(_ shortest: ShortestDecimal, _ digits: Int) -> RoundedDecimal {
        let count = ShortestDecimal.digitCount(shortest.digits)
        guard count > digits else { return .unchanged }
        let dropped = count - digits
        let divisor = Self.powerOfTen(dropped)
        var mantissa = shortest.digits / divisor
        // The first dropped digit 5 or more: up.
        if shortest.digits - mantissa * divisor >= divisor / 2 { mantissa += 1 }
        var scale = shortest.exponent + dropped
        // 99…9 rounded up is 10…0 with one digit more: the same number, one place higher.
        if mantissa == Self.powerOfTen(digits) {
            mantissa /= 10
            scale += 1
        }
        return .decimal(mantissa: mantissa, scale: scale)
    }

    /// Writes `value` rounded to `digits` significant digits: the bytes of
    /// `exactNumber(rounded(value, significantDigits: digits))`, formatted once. Up to 15
    /// digits, a decimal's nearest double has that decimal as its shortest form, so its
    /// digits are written as they are, laid out as the standard library lays out a double
    /// (decimal from 0.0001 to 2^53, `1.5e-05` and `1e+16` beyond, integers below 10^15 bare).
    static func writeRounded(_ value: Double, _ digits: Int, into text: UnsafeMutablePointer<UInt8>) -> Int {
        guard value != 0, digits < 17 else { return writeExact(value, into: text) }
        // An integer of `digits` digits or fewer is its own rounding (a scene's positions often are).
        if isSmallInteger(value), abs(value) < exactPowerOfTen(digits) { return writeInteger(Int64(value), into: text) }
        if digits <= 12, let quick = quickRoundedDecimal(abs(value), digits) {
            return writeDecimal(value, digits, mantissa: quick.mantissa, scale: quick.scale, into: text)
        }
        let shortest = ShortestDecimal(abs(value))
        switch roundedDecimal(shortest, digits) {
        case .unchanged:
            // Already this short: the value itself (an integer below 10^15 bare).
            if isSmallInteger(value) { return writeInteger(Int64(value), into: text) }
            return DecimalLayout.write(
                negative: value < 0, digits: shortest.digits, exponent: shortest.exponent,
                exponential: isExponential(value, shortest), into: text)
        case .decimal(let mantissa, let scale):
            return writeDecimal(value, digits, mantissa: mantissa, scale: scale, into: text)
        }
    }

    /// Writes `value`'s rounding to `digits` digits, the decimal `mantissa` × 10^`scale`.
    @inline(__always)
    private static func writeDecimal(
        _ value: Double, _ digits: Int, mantissa: UInt64, scale: Int, into text: UnsafeMutablePointer<UInt8>
    ) -> Int {
        guard digits <= 15 else { return writeRoundedDouble(value, digits, into: text) }
        // The rounded mantissa has exactly `digits` digits: its count is known without counting.
        assert(ShortestDecimal.digitCount(mantissa) == digits)
        var mantissa = mantissa
        var scale = scale
        var count = digits
        while mantissa % 10 == 0 {
            mantissa /= 10
            scale += 1
            count -= 1
        }
        let point = count + scale
        // Between 10^15 and 10^16 the layout depends on 2^53, and near the ends of the
        // doubles' range the rounded decimal may have no double (or a subnormal one): the
        // double decides.
        if point == 16 || point >= 300 || point <= -300 { return writeRoundedDouble(value, digits, into: text) }
        return DecimalLayout.write(
            negative: value < 0, digits: mantissa, count: count, exponent: scale,
            exponential: point < -3 || point >= 17, into: text)
    }

    /// Whether `value` is an integer below 10^15 in magnitude (written bare), by a conversion
    /// to an integer and back rather than a call to `round`.
    @inline(__always)
    private static func isSmallInteger(_ value: Double) -> Bool {
        abs(value) < 1e15 && Double(Int64(value)) == value
    }

    /// Whether `Double.description` writes `value` (of shortest decimal `shortest`) with an
    /// exponent: below 0.0001 and above 2^53.
    @inline(__always)
    private static func isExponential(_ value: Double, _ shortest: ShortestDecimal) -> Bool {
        ShortestDecimal.digitCount(shortest.digits) + shortest.exponent < -3 || abs(value) > 9_007_199_254_740_992
    }

    /// 10^`power` for 0 ≤ power ≤ 16. A switch of constants, which the compiler makes a table
    /// in the binary: a `static let` array is reached through a one-time initialisation check
    /// on every read, which showed on every number written.
    @inline(__always)
    static func powerOfTen(_ power: Int) -> UInt64 {
        switch power {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        default: 10_000_000_000_000_000
        }
    }

    /// 10^`power` as an exact double, 0 ≤ power ≤ 22 (a table, as ``powerOfTen(_:)``).
    @inline(__always)
    static func exactPowerOfTen(_ power: Int) -> Double {
        switch power {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// The rounding through text, for the cases the fast path does not cover (a mantissa past
    /// 2^53 or a power of ten past 10^22): the same result, only slower.
    static func slowRounded(_ value: Double, _ digits: Int) -> Double {
        let text = "\(abs(value))"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
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

    /// The rounded double written whole; a value whose rounding passes the largest double
    /// (1.8e308 for 1.797…e308 to two digits) is written as it is, still a number.
    private static func writeRoundedDouble(_ value: Double, _ digits: Int, into text: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        let rounded = rounded(value, significantDigits: digits)
        return writeExact(rounded.isFinite ? rounded : value, into: text)
    }

    /// The shortest round-trip digits, the bytes of `description` (an integer below 10^15
    /// bare, `-0` as `0`).
    @inline(__always)
    static func writeExact(_ value: Double, into text: UnsafeMutablePointer<UInt8>) -> Int {
        if value == 0 {
            text[0] = UInt8(ascii: "0")
            return 1
        }
        if isSmallInteger(value) { return writeInteger(Int64(value), into: text) }
        let shortest = ShortestDecimal(abs(value))
        return DecimalLayout.write(
            negative: value < 0, digits: shortest.digits, exponent: shortest.exponent,
            exponential: isExponential(value, shortest), into: text)
    }

    /// Writes an integer's digits (with `-`), 20 bytes at most.
    @inline(__always)
    static func writeInteger(_ value: Int64, into text: UnsafeMutablePointer<UInt8>) -> Int {
        var at = 0
        if value < 0 {
            text[0] = UInt8(ascii: "-")
            at = 1
        }
        let magnitude = value.magnitude
        let count = ShortestDecimal.digitCount(magnitude)
        DecimalLayout.writeDigits(magnitude, count: count, to: text + at)
        return at + count
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int64) {
        appendFormatted { Self.writeInteger(value, into: $0) }
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes a string with the escapes RFC 8259 requires (a string that needs none, most of
    /// them, is appended at once).
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = value
        let plain = text.withUTF8 { utf8 in
            for byte in utf8 where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
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
