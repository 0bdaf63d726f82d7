/// A moment as a calendar reads it: year, month, day, hour, minute, second and weekday, from
/// seconds since 1970 in some time zone (the caller adds the zone's offset). Computed here, as
/// the arena's pure logic does without Foundation (Howard Hinnant's civil-from-days).
public struct CivilTime: Sendable, Equatable {
    public let year: Int64
    /// 1…12.
    public let month: Int64
    /// 1…31.
    public let day: Int64
    public let hour: Int64
    public let minute: Int64
    public let second: Int64
    /// 0 Sunday … 6 Saturday.
    public let weekday: Int64

    /// The calendar time of `seconds` since 1970-01-01 00:00 (local seconds: UTC plus the
    /// zone's offset).
    public init(seconds: Int64) {
        var days = seconds / 86_400
        var rest = seconds - days * 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
        // 1970-01-01 was a Thursday.
        weekday = ((days % 7) + 7 + 4) % 7
    }

    /// Days since 1970-01-01 of a calendar date (days-from-civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// An RFC 3339 time (`2026-12-01T10:00:00Z`, `2026-12-01T10:00:00.5+01:00`) as Unix
    /// milliseconds; nil when it is not one.
    public static func milliseconds(rfc3339 text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int64? {
            guard at + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[at..<(at + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard let year = digits(0, 4), bytes[4] == 45, let month = digits(5, 2), bytes[7] == 45,
            let day = digits(8, 2), bytes[10] == 84 || bytes[10] == 116, let hour = digits(11, 2), bytes[13] == 58,
            let minute = digits(14, 2), bytes[16] == 58, let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction: Int64 = 0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale: Int64 = 100
            let first = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Int64(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset: Int64 = 0
        switch bytes[index] {
        case 90, 122:  // Z
            guard index + 1 == bytes.count else { return nil }
        case 43, 45:  // + or -
            guard index + 6 == bytes.count, let hours = digits(index + 1, 2), bytes[index + 3] == 58,
                let minutes = digits(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
        default:
            return nil
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return seconds * 1000 + fraction
    }

    /// A month written `2026-11` as its UTC bounds in Unix milliseconds, the first day's start
    /// and the next month's, and its days' count; nil when it is not one.
    public static func month(_ text: String) -> (fromMs: Int64, toMs: Int64, days: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int64(parts[0]),
            let month = Int64(parts[1]), (1...12).contains(month), year >= 1970
        else { return nil }
        let first = days(year: year, month: month, day: 1)
        let next = month == 12 ? days(year: year + 1, month: 1, day: 1) : days(year: year, month: month + 1, day: 1)
        return (first * 86_400_000, next * 86_400_000, Int(next - first))
    }
}
