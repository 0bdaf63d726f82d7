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

    /// The earliest moment the API takes or writes: 1970-01-01T00:00:00Z, Unix milliseconds.
    public static let earliestMs: Int64 = 0
    /// The latest: 9999-12-31T23:59:59.999Z (RFC 3339 writes four digits of year).
    public static let latestMs: Int64 = 253_402_300_799_999

    /// Why a text is not a time or month the API takes, as a field error's message says it.
    public struct Refusal: Error, Sendable, Equatable {
        public let message: String
    }

    /// The days of `month` (1…12) in `year`, leap years counted (Gregorian).
    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// An RFC 3339 time (`2026-12-01T10:00:00Z`, `2026-12-01T10:00:00.5+01:00`) as Unix
    /// milliseconds; nil when it is not one, or not one the API takes (``parse(rfc3339:)``).
    public static func milliseconds(rfc3339 text: String) -> Int64? {
        try? parse(rfc3339: text).get()
    }

    /// An RFC 3339 time as Unix milliseconds: every time the arena's API reads (maintenance
    /// windows' `start`, `history?since=`, `uptime` and response times' `from` and `to`) goes
    /// through here. Refused, with the reason: a text that is not RFC 3339, a date the calendar
    /// does not have (`2026-02-30`, `2026-04-31`, `2025-02-29`), and a moment, once its offset is
    /// applied, before ``earliestMs`` or after ``latestMs``.
    public static func parse(rfc3339 text: String) -> Result<Int64, Refusal> {
        let shape = Refusal(message: "must be an RFC 3339 time, as 2026-12-01T10:00:00Z")
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 64 else { return .failure(shape) }
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
            (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 61
        else { return .failure(shape) }
        let length = daysIn(month: month, year: year)
        guard day <= length else {
            let date = String(decoding: bytes[0..<10], as: UTF8.self)
            return .failure(
                Refusal(
                    message:
                        "\(date) is not a date: \(monthNames[Int(month) - 1]) \(year) has \(length) days (an RFC 3339 time, as 2026-12-01T10:00:00Z)"
                ))
        }
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
            guard index > first else { return .failure(shape) }
        }
        guard index < bytes.count else { return .failure(shape) }
        var offset: Int64 = 0
        switch bytes[index] {
        case 90, 122:  // Z
            guard index + 1 == bytes.count else { return .failure(shape) }
        case 43, 45:  // + or -
            guard index + 6 == bytes.count, let hours = digits(index + 1, 2), bytes[index + 3] == 58,
                let minutes = digits(index + 4, 2), hours < 24, minutes < 60
            else { return .failure(shape) }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
        default:
            return .failure(shape)
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let ms = seconds * 1000 + fraction
        guard ms >= earliestMs, ms <= latestMs else { return .failure(rangeRefusal) }
        return .success(ms)
    }

    /// A time outside ``earliestMs``…``latestMs``.
    static let rangeRefusal = Refusal(
        message: "must be a time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z (an RFC 3339 time)")

    /// A month written `2026-11` as its UTC bounds in Unix milliseconds, the first day's start
    /// and the next month's, and its days' count; nil when it is not one (``parse(month:)``).
    public static func month(_ text: String) -> (fromMs: Int64, toMs: Int64, days: Int)? {
        try? parse(month: text).get()
    }

    /// A month written `2026-11`, from 1970-01 to 9999-11: the next month's start, its end,
    /// must be a time the API writes (9999-12 would end at 10000-01-01).
    public static func parse(month text: String) -> Result<(fromMs: Int64, toMs: Int64, days: Int), Refusal> {
        let refusal = Refusal(message: "must be a month from 1970-01 to 9999-11, as 2026-11")
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let year = Int64(parts[0]), let month = Int64(parts[1]), (1...12).contains(month)
        else { return .failure(refusal) }
        guard year >= 1970, year < 9999 || month < 12 else { return .failure(refusal) }
        let first = days(year: year, month: month, day: 1)
        let next = month == 12 ? days(year: year + 1, month: 1, day: 1) : days(year: year, month: month + 1, day: 1)
        return .success((first * 86_400_000, next * 86_400_000, Int(next - first)))
    }

    /// Unix milliseconds as RFC 3339 in UTC with milliseconds (`2026-12-01T10:00:03.512Z`), the
    /// year in four digits (`0001`); the one writer of the arena's times.
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = milliseconds - seconds * 1000
        let time = CivilTime(seconds: seconds)
        func padded(_ n: Int64, _ width: Int) -> String {
            let text = String(n.magnitude)
            return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(padded(time.year, 4))-\(padded(time.month, 2))-\(padded(time.day, 2))T\(padded(time.hour, 2)):\(padded(time.minute, 2)):\(padded(time.second, 2)).\(padded(millis, 3))Z"
    }
}
