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
        let count = ShortestDecimal.digitCount(digits)
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
        writeDigits(digits, count: count, to: text + at)
        if point < count {
            // 123.45: the digits after the point move one place on.
            var index = at + count
            while index > at + point {
                text[index] = text[index - 1]
                index -= 1
            }
            text[at + point] = UInt8(ascii: ".")
            return at + count + 1
        }
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

    /// Writes the last `count` decimal digits of `value`, leading zeros included, two at a time.
    @inline(__always)
    static func writeDigits(_ value: UInt64, count: Int, to text: UnsafeMutablePointer<UInt8>) {
        let table = pairs.utf8Start
        var rest = value
        var index = count
        while index >= 2 {
            let pair = Int(rest % 100)
            rest /= 100
            index -= 2
            text[index] = table[2 * pair]
            text[index + 1] = table[2 * pair + 1]
        }
        if index == 1 { text[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10) }
    }
}
