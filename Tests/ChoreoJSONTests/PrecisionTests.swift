import ChoreoTestSupport
import Testing

@testable import ChoreoJSON

/// `precision`: every number of 1 to 17 significant digits rounds as documented — the
/// shortest round-trip decimal rounded half away from zero, read back as the nearest double —
/// and the fast path gives the bits of the rounding through text.
@Suite struct PrecisionTests {
    /// A deterministic spread of doubles: every binary exponent a scene meets and far beyond,
    /// random mantissas, both signs, and the awkward ones.
    static var samples: [Double] {
        var generator = SplitMix64(seed: 0x5EED)
        var values: [Double] = [
            0.125, 0.5, 1, 9.5, 99.5, 0.999_95, 999_999.5, 1e-5, 1e-7, 123_456_789.123, Double.leastNonzeroMagnitude,
            Double.greatestFiniteMagnitude,
            0.1, 0.2, 0.3, 2.675, 1.005, 0.3684210526315789, 1e21, 1e22, 1e23, 9_007_199_254_740_992,
        ]
        // Short decimals, whose roundings fall on halves (0.125, 2.675 …), at many scales: where
        // rounding the double and rounding its shortest decimal part ways.
        for k in 1...3_000 {
            values.append(Double(k) * 0.005)
            values.append(Double(k) * 0.000_125 * pow10(k % 13 - 4))
            values.append(Double(k) / 7)
        }
        for _ in 0..<10_000 {
            let exponent = Int(generator.next() % 120) - 60
            let mantissa = Double(generator.next() >> 11) / Double(1 << 53)
            let sign: Double = generator.next() & 1 == 0 ? 1 : -1
            values.append(sign * mantissa * pow10(exponent))
        }
        return values
    }

    static func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<abs(exponent) { value *= 10 }
        return exponent < 0 ? 1 / value : value
    }

    @Test func theFastPathGivesTheBitsOfTheTextPath() {
        var mismatches: [String] = []
        for value in Self.samples {
            for digits in 1...16 {
                let fast = JSONWriter.rounded(value, significantDigits: digits)
                let text = JSONWriter.slowRounded(value, digits)
                if fast.bitPattern != text.bitPattern && mismatches.count < 10 {
                    mismatches.append("\(value) to \(digits): \(fast) against \(text)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// A number written at a precision is the bytes of its rounded double written whole (the
    /// writer lays the rounded digits out itself, formatting once).
    @Test func roundedNumbersAreWrittenAsTheirDoubles() {
        var mismatches: [String] = []
        var extra = Self.samples
        extra += [1e15, 1.2e15, 9.007199254740992e15, 9.1e15, 1e16, 123_456_789_012_345.6, 0.0001, 0.000_099_99]
        for value in extra {
            for digits in 1...17 {
                var direct = JSONWriter()
                direct.significantDigits = digits
                direct.number(value)
                // Past the largest double, the value as it is.
                let rounded = JSONWriter.rounded(value, significantDigits: digits)
                var whole = JSONWriter()
                whole.number(rounded.isFinite ? rounded : value)
                if direct.bytes != whole.bytes && mismatches.count < 10 {
                    mismatches.append(
                        "\(value) to \(digits): \(String(decoding: direct.bytes, as: UTF8.self)) against \(String(decoding: whole.bytes, as: UTF8.self))"
                    )
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func eachPrecisionRoundsAsDocumented() {
        #expect(JSONWriter.rounded(0.125, significantDigits: 2) == 0.13)
        #expect(JSONWriter.rounded(-0.125, significantDigits: 2) == -0.13)
        #expect(JSONWriter.rounded(9.96, significantDigits: 2) == 10)
        #expect(JSONWriter.rounded(0.3684210526315789, significantDigits: 2) == 0.37)
        #expect(JSONWriter.rounded(123_456.789, significantDigits: 3) == 123_000)
        #expect(JSONWriter.rounded(1.23456789e-7, significantDigits: 4) == 1.235e-7)
        // 17 digits, and values already short enough, are unchanged.
        #expect(JSONWriter.rounded(0.1, significantDigits: 17) == 0.1)
        #expect(JSONWriter.rounded(0.25, significantDigits: 5) == 0.25)
        // Each precision's own shortest form has at most that many digits.
        for value in Self.samples.prefix(2_000) {
            for digits in 1...17 {
                let rounded = JSONWriter.rounded(value, significantDigits: digits)
                // The digits from the first non-zero one to the last.
                let text = "\(abs(rounded))".split(separator: "e")[0].filter(\.isNumber)
                let significant = text.drop { $0 == "0" }.reversed().drop { $0 == "0" }
                #expect(significant.count <= digits, "\(value) to \(digits): \(rounded)")
            }
        }
    }
}
