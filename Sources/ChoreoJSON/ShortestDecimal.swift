/// A finite, non-zero double's shortest round-trip decimal: `digits` × 10^`exponent`, the fewest
/// significant digits that a correctly rounded parse reads back as the same double, and among
/// those the closest to it (ties to an even last digit). The digits `Double.description` writes.
///
/// Ryu's algorithm (Ulf Adams, "Ryū: fast float-to-string conversion", PLDI 2018): the interval
/// of decimals that read back to the double is scaled by a power of five held to 125 bits, so
/// that the digits come from 64-bit integer arithmetic with no loop over the value's bits. The
/// tables are computed when first used, from exact integers (``RyuTables``); no other library
/// on the machine gives digits without text (glibc's `printf` needs a digit count, the
/// standard library gives text), and the rounding to a precision and the JSON layout read
/// them directly.
package struct ShortestDecimal: Equatable, Sendable {
    /// The decimal significand, without trailing zeros.
    package var digits: UInt64
    /// The power of ten it is multiplied by.
    package var exponent: Int

    /// `value`'s shortest decimal, of its magnitude (the sign is the caller's). `value` must be
    /// finite and not zero.
    @inline(__always)
    package init(_ value: Double) {
        let bits = value.bitPattern
        let ieeeMantissa = bits & ((1 << 52) - 1)
        let ieeeExponent = Int((bits >> 52) & 0x7FF)
        var decimal = Self.ryu(mantissa: ieeeMantissa, exponent: ieeeExponent)
        while decimal.digits % 10 == 0 && decimal.digits != 0 {
            decimal.digits /= 10
            decimal.exponent += 1
        }
        self = decimal
    }

    /// `digits` × 10^`exponent`, as given.
    package init(digits: UInt64, exponent: Int) {
        self.digits = digits
        self.exponent = exponent
    }

    /// How many decimal digits `value` has (1 for 0), by comparisons.
    @inline(__always)
    package static func digitCount(_ value: UInt64) -> Int {
        if value < 100_000 {
            if value < 100 { return value < 10 ? 1 : 2 }
            return value < 1_000 ? 3 : value < 10_000 ? 4 : 5
        }
        if value < 10_000_000_000 {
            if value < 10_000_000 { return value < 1_000_000 ? 6 : 7 }
            return value < 100_000_000 ? 8 : value < 1_000_000_000 ? 9 : 10
        }
        if value < 1_000_000_000_000_000 {
            if value < 1_000_000_000_000 { return value < 100_000_000_000 ? 11 : 12 }
            return value < 10_000_000_000_000 ? 13 : value < 100_000_000_000_000 ? 14 : 15
        }
        if value < 100_000_000_000_000_000 { return value < 10_000_000_000_000_000 ? 16 : 17 }
        return value < 1_000_000_000_000_000_000 ? 18 : value < 10_000_000_000_000_000_000 ? 19 : 20
    }

    // MARK: Ryu's d2d

    private static func ryu(mantissa ieeeMantissa: UInt64, exponent ieeeExponent: Int) -> ShortestDecimal {
        let e2: Int
        let m2: UInt64
        if ieeeExponent == 0 {
            e2 = 1 - 1023 - 52 - 2
            m2 = ieeeMantissa
        } else {
            e2 = ieeeExponent - 1023 - 52 - 2
            m2 = (1 << 52) | ieeeMantissa
        }
        let acceptBounds = m2 & 1 == 0
        // The interval: [mv - 2 - mmShift, mv + 2] / 4 × 2^e2 (the lower neighbour is closer when
        // the mantissa is a power of two).
        let mv = 4 * m2
        let mmShift: UInt64 = ieeeMantissa != 0 || ieeeExponent <= 1 ? 1 : 0

        var vr: UInt64
        var vp: UInt64
        var vm: UInt64
        let e10: Int
        var vmIsTrailingZeros = false
        var vrIsTrailingZeros = false
        let tables = RyuTables.shared
        if e2 >= 0 {
            let q = log10Pow2(e2) - (e2 > 3 ? 1 : 0)
            e10 = q
            let k = RyuTables.inverseBits + pow5Bits(q) - 1
            let i = -e2 + q + k
            let multiplier = tables.inverse(q)
            vr = mulShift(4 * m2, multiplier, i)
            vp = mulShift(4 * m2 + 2, multiplier, i)
            vm = mulShift(4 * m2 - 1 - mmShift, multiplier, i)
            if q <= 21 {
                // Only when 5^q divides the value can the removed digits all be zeros.
                if mv % 5 == 0 {
                    vrIsTrailingZeros = isMultipleOfPowerOf5(mv, q)
                } else if acceptBounds {
                    vmIsTrailingZeros = isMultipleOfPowerOf5(mv - 1 - mmShift, q)
                } else {
                    vp -= isMultipleOfPowerOf5(mv + 2, q) ? 1 : 0
                }
            }
        } else {
            let q = log10Pow5(-e2) - (-e2 > 1 ? 1 : 0)
            e10 = q + e2
            let i = -e2 - q
            let k = pow5Bits(i) - RyuTables.powerBits
            let j = q - k
            let multiplier = tables.power(i)
            vr = mulShift(4 * m2, multiplier, j)
            vp = mulShift(4 * m2 + 2, multiplier, j)
            vm = mulShift(4 * m2 - 1 - mmShift, multiplier, j)
            if q <= 1 {
                // mv has at least q trailing zero bits: so has the exact product.
                vrIsTrailingZeros = true
                if acceptBounds {
                    vmIsTrailingZeros = mmShift == 1
                } else {
                    vp -= 1
                }
            } else if q < 63 {
                vrIsTrailingZeros = mv & ((1 << UInt64(q)) - 1) == 0
            }
        }

        // Remove digits while the interval still holds a shorter decimal.
        var removed = 0
        var lastRemovedDigit: UInt64 = 0
        let output: UInt64
        if vmIsTrailingZeros || vrIsTrailingZeros {
            // The rare case: the exact bounds matter.
            while vp / 10 > vm / 10 {
                let vmDiv10 = vm / 10
                vmIsTrailingZeros = vmIsTrailingZeros && vm - 10 * vmDiv10 == 0
                vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                let vrDiv10 = vr / 10
                lastRemovedDigit = vr - 10 * vrDiv10
                vr = vrDiv10
                vp /= 10
                vm = vmDiv10
                removed += 1
            }
            if vmIsTrailingZeros {
                while vm % 10 == 0 {
                    vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                    let vrDiv10 = vr / 10
                    lastRemovedDigit = vr - 10 * vrDiv10
                    vr = vrDiv10
                    vp /= 10
                    vm /= 10
                    removed += 1
                }
            }
            if vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0 {
                // Exactly halfway: to the even digit.
                lastRemovedDigit = 4
            }
            let outside = vr == vm && (!acceptBounds || !vmIsTrailingZeros)
            output = vr + (outside || lastRemovedDigit >= 5 ? 1 : 0)
        } else {
            // The common case: the exact bounds are not reached.
            var roundUp = false
            if vp / 100 > vm / 100 {
                let vrDiv100 = vr / 100
                roundUp = vr - 100 * vrDiv100 >= 50
                vr = vrDiv100
                vp /= 100
                vm /= 100
                removed += 2
            }
            while vp / 10 > vm / 10 {
                let vrDiv10 = vr / 10
                roundUp = vr - 10 * vrDiv10 >= 5
                vr = vrDiv10
                vp /= 10
                vm /= 10
                removed += 1
            }
            output = vr + (vr == vm || roundUp ? 1 : 0)
        }
        return ShortestDecimal(digits: output, exponent: e10 + removed)
    }

    /// ⌊log10(2^e)⌋ for 0 ≤ e ≤ 1650.
    @inline(__always)
    private static func log10Pow2(_ e: Int) -> Int { (e * 78_913) >> 18 }

    /// ⌊log10(5^e)⌋ for 0 ≤ e ≤ 2620.
    @inline(__always)
    private static func log10Pow5(_ e: Int) -> Int { (e * 732_923) >> 20 }

    /// The bits of 5^e (1 for e = 0), for 0 ≤ e ≤ 3528.
    @inline(__always)
    static func pow5Bits(_ e: Int) -> Int { ((e * 1_217_359) >> 19) + 1 }

    @inline(__always)
    private static func isMultipleOfPowerOf5(_ value: UInt64, _ power: Int) -> Bool {
        var value = value
        var count = 0
        while value != 0 && value % 5 == 0 {
            value /= 5
            count += 1
        }
        return count >= power
    }

    /// ⌊`m` × `multiplier` / 2^`shift`⌋ for a 128-bit multiplier, 64 < shift < 128, as Ryu computes
    /// it (the low product's low half dropped, which its bounds allow).
    @inline(__always)
    private static func mulShift(_ m: UInt64, _ multiplier: (low: UInt64, high: UInt64), _ shift: Int) -> UInt64 {
        let low = m.multipliedFullWidth(by: multiplier.low)
        let high = m.multipliedFullWidth(by: multiplier.high)
        let sum = UInt128(high.high) << 64 | UInt128(high.low)
        let total = sum &+ UInt128(low.high)
        return UInt64(truncatingIfNeeded: total >> UInt128(shift - 64))
    }
}

/// Ryu's tables for doubles, computed once from exact integers: 5^i to 125 bits (i < 326) and
/// ⌊2^(bits(5^q) − 1 + 125) / 5^q⌋ + 1 (q < 342), each as two 64-bit halves.
final class RyuTables: Sendable {
    static let powerBits = 125
    static let inverseBits = 125
    static let shared = RyuTables()

    private let powers: [UInt64]
    private let inverses: [UInt64]

    @inline(__always)
    func power(_ index: Int) -> (low: UInt64, high: UInt64) {
        powers.withUnsafeBufferPointer { ($0[2 * index], $0[2 * index + 1]) }
    }

    @inline(__always)
    func inverse(_ index: Int) -> (low: UInt64, high: UInt64) {
        inverses.withUnsafeBufferPointer { ($0[2 * index], $0[2 * index + 1]) }
    }

    private init() {
        // 5^i, as 32-bit limbs, least significant first.
        var powers: [UInt64] = []
        powers.reserveCapacity(2 * 326)
        var five: [UInt32] = [1]
        for index in 0..<326 {
            if index > 0 { five = Self.multiply(five, by: 5) }
            let bits = Self.bitCount(five)
            // The top 125 bits (5^i shifted up when it has fewer).
            let value =
                bits > Self.powerBits
                ? Self.shiftRight(five, bits - Self.powerBits) : Self.shiftLeft(five, Self.powerBits - bits)
            powers.append(Self.word(value, 0))
            powers.append(Self.word(value, 1))
        }
        // ⌊2^j / 5^q⌋ = ⌊⌊2^1024 / 5^q⌋ / 2^(1024 − j)⌋: a quotient of a power of two divided by
        // five q times, then shifted.
        var inverses: [UInt64] = []
        inverses.reserveCapacity(2 * 342)
        var quotient = [UInt32](repeating: 0, count: 33)
        quotient[32] = 1
        for q in 0..<342 {
            if q > 0 { quotient = Self.divide(quotient, by: 5) }
            let j = ShortestDecimal.pow5Bits(q) - 1 + Self.inverseBits
            var value = Self.shiftRight(quotient, 1024 - j)
            value = Self.add(value, 1)
            inverses.append(Self.word(value, 0))
            inverses.append(Self.word(value, 1))
        }
        self.powers = powers
        self.inverses = inverses
    }

    private static func multiply(_ value: [UInt32], by factor: UInt32) -> [UInt32] {
        var result: [UInt32] = []
        var carry: UInt64 = 0
        for limb in value {
            let product = UInt64(limb) * UInt64(factor) + carry
            result.append(UInt32(truncatingIfNeeded: product))
            carry = product >> 32
        }
        if carry != 0 { result.append(UInt32(carry)) }
        return result
    }

    private static func divide(_ value: [UInt32], by divisor: UInt32) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: value.count)
        var remainder: UInt64 = 0
        for index in stride(from: value.count - 1, through: 0, by: -1) {
            let current = remainder << 32 | UInt64(value[index])
            result[index] = UInt32(current / UInt64(divisor))
            remainder = current % UInt64(divisor)
        }
        return result
    }

    private static func add(_ value: [UInt32], _ addend: UInt32) -> [UInt32] {
        var result = value
        var carry = UInt64(addend)
        var index = 0
        while carry != 0 {
            if index == result.count { result.append(0) }
            let sum = UInt64(result[index]) + carry
            result[index] = UInt32(truncatingIfNeeded: sum)
            carry = sum >> 32
            index += 1
        }
        return result
    }

    private static func bitCount(_ value: [UInt32]) -> Int {
        for index in stride(from: value.count - 1, through: 0, by: -1) where value[index] != 0 {
            return index * 32 + (32 - value[index].leadingZeroBitCount)
        }
        return 0
    }

    private static func bit(_ value: [UInt32], _ index: Int) -> Bool {
        let limb = index / 32
        return limb < value.count && value[limb] >> UInt32(index % 32) & 1 == 1
    }

    private static func shiftRight(_ value: [UInt32], _ count: Int) -> [UInt32] {
        let total = bitCount(value)
        guard total > count else { return [0] }
        var result = [UInt32](repeating: 0, count: (total - count + 31) / 32)
        for index in 0..<(total - count) where bit(value, index + count) {
            result[index / 32] |= 1 << UInt32(index % 32)
        }
        return result
    }

    private static func shiftLeft(_ value: [UInt32], _ count: Int) -> [UInt32] {
        let total = bitCount(value)
        var result = [UInt32](repeating: 0, count: (total + count + 31) / 32 + 1)
        for index in 0..<total where bit(value, index) {
            result[(index + count) / 32] |= 1 << UInt32((index + count) % 32)
        }
        return result
    }

    /// The 64-bit word `index` (0 low, 1 high) of a value below 2^128.
    private static func word(_ value: [UInt32], _ index: Int) -> UInt64 {
        let low = 2 * index < value.count ? UInt64(value[2 * index]) : 0
        let high = 2 * index + 1 < value.count ? UInt64(value[2 * index + 1]) : 0
        return high << 32 | low
    }
}
