import ChoreoTestSupport
import Testing

@testable import ChoreoJSON

/// The writer's own digits (``ShortestDecimal``, Ryu) and layout give the bytes of
/// `Double.description`, which choreo's JSON has always written.
@Suite struct ShortestDecimalTests {
    /// Every binary exponent with awkward mantissas (0 makes the lower neighbour closer),
    /// random bit patterns (subnormals among them), and decimals a scene writes.
    static var values: [Double] {
        var values: [Double] = []
        for exponent in 0..<2047 {
            for mantissa: UInt64 in [0, 1, 2, 3, (1 << 52) - 1, (1 << 52) - 2, 1 << 51, 12_345, 0x80_0000_0001] {
                values.append(Double(bitPattern: UInt64(exponent) << 52 | mantissa))
            }
        }
        var generator = SplitMix64(seed: 0xD16175)
        for index in 0..<150_000 {
            var bits = generator.next()
            if index % 3 == 1 { bits = bits & 0x800F_FFFF_FFFF_FFFF | (generator.next() % 120 + 963) << 52 }
            if index % 7 == 2 { bits &= 0xFFF0_0000_0000_FFFF }
            values.append(Double(bitPattern: bits))
        }
        for k in 1...20_000 {
            values += [Double(k) / 1000, Double(k) * 0.001, Double(k) / 60, Double(k) * 1e-7, Double(k) * 123_456_789]
        }
        values += [
            Double.leastNonzeroMagnitude, 2.225_073_858_507_201_4e-308, 1.797_693_134_862_315_7e308, 1e23, 1e22, 0.3,
            9_007_199_254_740_992, 9_007_199_254_740_994, 1e15, 1e15 + 0.5, 1e16, 0.0001, 0.000_099_99, 1e-5,
        ]
        return values.filter { $0.isFinite && $0 != 0 }
    }

    /// The digits and power of ten of `description`'s text, trailing zeros removed.
    static func describedDigits(_ value: Double) -> (UInt64, Int) {
        let text = "\(value)"
        var mantissa = Substring(text)
        var power = 0
        if let e = text.firstIndex(of: "e") {
            mantissa = text[..<e]
            power = Int(text[text.index(after: e)...])!
        }
        var digits: UInt64 = 0
        var afterPoint = 0
        var seenPoint = false
        for character in mantissa {
            if character == "." {
                seenPoint = true
                continue
            }
            digits = digits * 10 + UInt64(character.wholeNumberValue!)
            if seenPoint { afterPoint += 1 }
        }
        power -= afterPoint
        while digits % 10 == 0 {
            digits /= 10
            power += 1
        }
        return (digits, power)
    }

    @Test func theDigitsAreDescriptionsDigits() {
        var mismatches: [String] = []
        for value in Self.values {
            let decimal = ShortestDecimal(abs(value))
            let (digits, power) = Self.describedDigits(abs(value))
            if (decimal.digits, decimal.exponent) != (digits, power) && mismatches.count < 10 {
                mismatches.append("\(value): \(decimal.digits)e\(decimal.exponent)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The JSON bytes are `description`'s, but for integers below 10^15, written bare.
    @Test func theBytesAreDescriptionsBytes() {
        var mismatches: [String] = []
        for value in Self.values + Self.values.map({ -$0 }) + [1, -7, 123_456, 999_999_999_999_999] {
            var writer = JSONWriter()
            writer.number(value)
            let expected = value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
            if writer.text != expected && mismatches.count < 10 {
                mismatches.append("\(writer.text) against \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The tables are Ryu's: their first entries as published (5^0 and 5^1 to 125 bits, and the
    /// inverse of 5^0), and a wrong entry changes digits (checked by the tests above).
    @Test func theTablesStartAsPublished() {
        let tables = RyuTables.shared
        #expect(tables.power(0) == (0, 1_152_921_504_606_846_976))
        #expect(tables.power(1) == (0, 1_441_151_880_758_558_720))
        #expect(tables.inverse(0) == (1, 2_305_843_009_213_693_952))
    }
}

extension ShortestDecimalTests {
    @Test func digitsAreCounted() {
        var power: UInt64 = 1
        for digits in 1...20 {
            #expect(ShortestDecimal.digitCount(power) == digits)
            #expect(ShortestDecimal.digitCount(power - 1) == max(digits - 1, 1))
            if digits < 20 { power *= 10 }
        }
        #expect(ShortestDecimal.digitCount(0) == 1)
        #expect(ShortestDecimal.digitCount(.max) == 20)
    }
}

/// Strings: those that need no escape are appended whole, the others byte by byte with
/// RFC 8259's escapes; both give the same bytes as the escaping loop.
@Suite struct JSONStringTests {
    @Test func stringsAreEscapedAsBefore() {
        let cases: [(String, String)] = [
            ("plain", #""plain""#), ("", #""""#), ("é😀 ünïcode", "\"é😀 ünïcode\""),
            ("q\"uote", #""q\"uote""#), ("back\\slash", #""back\\slash""#), ("line\nfeed\r\t", #""line\nfeed\r\t""#),
            ("\u{1}\u{1f}", #""\u0001\u001f""#), ("layer-42", #""layer-42""#),
        ]
        for (value, expected) in cases {
            var writer = JSONWriter()
            writer.string(value)
            #expect(writer.text == expected)
        }
    }
}
