/// A decimal laid out as `Double.description` lays out a double, into a buffer: the layout
/// choreo's JSON keeps for every number that is not a small integer.
enum DecimalLayout {
    /// The longest text: a sign, 17 digits, a point and `e-308`, or `0.000` and 17 digits.
    static let capacity = 32

    /// "00", "01", … "99".
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes `digits` × 10^`exponent` (`digits` not zero, without trailing zeros) and returns
    /// the bytes written: `1.5e-05` and `1e+16` when `exponential`, otherwise `0.00012`,
    /// `123.45`, and an integer bare below 10^15 and with `.0` from there.
    @inline(__always)
    static func write(
        negative: Bool, digits: UInt64, exponent: Int, exponential: Bool, into text: UnsafeMutablePointer<UInt8>
    ) -> Int {
        write(
            negative: negative, digits: digits, count: ShortestDecimal.digitCount(digits), exponent: exponent,
            exponential: exponential, into: text)
    }

    /// ``write(negative:digits:exponent:exponential:into:)`` for `digits` of `count` digits.
    @inline(__always)
    static func write(
        negative: Bool, digits: UInt64, count: Int, exponent: Int, exponential: Bool,
        into text: UnsafeMutablePointer<UInt8>
    ) -> Int {
        // value = 0.DIGITS × 10^point
        let point = count + exponent
        var at = 0
        if negative {
            text[0] = UInt8(ascii: "-")
            at = 1
        }
        if exponential {
            // The digits one place on, then the first moved before the point.
            writeDigits(digits, count: count, to: text + at + 1)
            text[at] = text[at + 1]
            if count > 1 {
                text[at + 1] = UInt8(ascii: ".")
                at += count + 1
            } else {
                at += 1
            }
            let power = point - 1
            text[at] = UInt8(ascii: "e")
            text[at + 1] = power < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            at += 2
            let magnitude = power.magnitude
            let powerCount = magnitude >= 100 ? 3 : 2
            writeDigits(UInt64(magnitude), count: powerCount, to: text + at)
            return at + powerCount
        }
        if point <= 0 {
            text[at] = UInt8(ascii: "0")
            text[at + 1] = UInt8(ascii: ".")
            at += 2
            for _ in 0..<(-point) {
                text[at] = UInt8(ascii: "0")
                at += 1
            }
            writeDigits(digits, count: count, to: text + at)
            return at + count
        }
        if point < count {
            // 123.45: the digits one place on, then those before the point moved back (fewer
            // than those after, for the values a scene has).
            writeDigits(digits, count: count, to: text + at + 1)
            for index in 0..<point { text[at + index] = text[at + index + 1] }
            text[at + point] = UInt8(ascii: ".")
            return at + count + 1
        }
        writeDigits(digits, count: count, to: text + at)
        at += count
        for _ in 0..<(point - count) {
            text[at] = UInt8(ascii: "0")
            at += 1
        }
        if point > 15 {
            text[at] = UInt8(ascii: ".")
            text[at + 1] = UInt8(ascii: "0")
            at += 2
        }
        return at
    }

    /// Writes the last `count` decimal digits of `value`, leading zeros included: eight at a
    /// time from the end (two independent halves of four, two digits per table read), so that
    /// the divisions do not wait on each other.
    @inline(__always)
    static func writeDigits(_ value: UInt64, count: Int, to text: UnsafeMutablePointer<UInt8>) {
        let table = UnsafeRawPointer(pairs.utf8Start)
        let target = UnsafeMutableRawPointer(text)
        @inline(__always) func pair(_ value: UInt32, at offset: Int) {
            target.storeBytes(
                of: table.loadUnaligned(fromByteOffset: 2 * Int(value), as: UInt16.self), toByteOffset: offset,
                as: UInt16.self)
        }
        var rest = value
        var end = count
        while end >= 8 {
            let chunk = UInt32(truncatingIfNeeded: rest % 100_000_000)
            rest /= 100_000_000
            end -= 8
            let high = chunk / 10_000
            let low = chunk % 10_000
            pair(high / 100, at: end)
            pair(high % 100, at: end + 2)
            pair(low / 100, at: end + 4)
            pair(low % 100, at: end + 6)
        }
        var small = UInt32(truncatingIfNeeded: rest)
        while end >= 2 {
            end -= 2
            pair(small % 100, at: end)
            small /= 100
        }
        if end == 1 { text[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: small % 10) }
    }
}
