/// A cron expression of five fields — minute, hour, day of month, month, day of week — as
/// crontab(5) reads them: `*`, numbers, ranges `a-b`, lists `a,b`, steps `*/n` and `a-b/n`,
/// month and weekday names (`jan`, `mon`), 0 or 7 for Sunday; when both the day of month and
/// the day of week are restricted, a day matches either (cron's rule).
public struct CronSchedule: Sendable, Equatable {
    public let expression: String
    let minutes: Set<Int>
    let hours: Set<Int>
    let days: Set<Int>
    let months: Set<Int>
    let weekdays: Set<Int>
    let daysRestricted: Bool
    let weekdaysRestricted: Bool

    /// Parses `expression`; the reason it is not one otherwise.
    public static func parse(_ expression: String) -> Result<CronSchedule, CronError> {
        let fields = expression.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            return .failure(
                CronError(message: "must have five fields (minute hour day month weekday), not \(fields.count)"))
        }
        let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        func field(_ text: String, _ name: String, _ range: ClosedRange<Int>, names: [String] = [], offset: Int = 0)
            -> Result<Set<Int>, CronError>
        {
            var values = Set<Int>()
            func number(_ token: Substring) -> Int? {
                if let n = Int(token) { return n }
                if let index = names.firstIndex(of: token.lowercased()) { return index + offset }
                return nil
            }
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
                guard pieces.count <= 2, !pieces[0].isEmpty else {
                    return .failure(CronError(message: "the \(name) field \"\(text)\" is not a list of ranges"))
                }
                var step = 1
                if pieces.count == 2 {
                    guard let n = Int(pieces[1]), n >= 1 else {
                        return .failure(
                            CronError(message: "the \(name) field's step \"\(pieces[1])\" must be a number ≥ 1"))
                    }
                    step = n
                }
                var low = range.lowerBound
                var high = range.upperBound
                if pieces[0] != "*" {
                    let bounds = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
                    guard bounds.count <= 2, let a = number(bounds[0]),
                        let b = bounds.count == 2 ? number(bounds[1]) : a
                    else {
                        return .failure(
                            CronError(
                                message: "the \(name) field \"\(text)\" has \"\(pieces[0])\", not a number or range"))
                    }
                    low = a
                    high = pieces.count == 2 && bounds.count == 1 ? range.upperBound : b
                }
                guard range.contains(low), range.contains(high), low <= high else {
                    return .failure(
                        CronError(
                            message: "the \(name) field \"\(text)\" is outside \(range.lowerBound)–\(range.upperBound)")
                    )
                }
                values.formUnion(stride(from: low, through: high, by: step))
            }
            return .success(values)
        }
        let parsed = [
            field(fields[0], "minute", 0...59), field(fields[1], "hour", 0...23), field(fields[2], "day", 1...31),
            field(fields[3], "month", 1...12, names: monthNames, offset: 1),
            field(fields[4], "weekday", 0...7, names: dayNames),
        ]
        var sets: [Set<Int>] = []
        for result in parsed {
            switch result {
            case .success(let set): sets.append(set)
            case .failure(let error): return .failure(error)
            }
        }
        var weekdays = sets[4]
        if weekdays.remove(7) != nil { weekdays.insert(0) }
        return .success(
            CronSchedule(
                expression: expression, minutes: sets[0], hours: sets[1], days: sets[2], months: sets[3],
                weekdays: weekdays, daysRestricted: fields[2] != "*", weekdaysRestricted: fields[4] != "*"))
    }

    /// Whether the schedule fires at the minute of `time`.
    public func matches(_ time: CivilTime) -> Bool {
        guard minutes.contains(Int(time.minute)), hours.contains(Int(time.hour)), months.contains(Int(time.month))
        else { return false }
        let day = days.contains(Int(time.day))
        let weekday = weekdays.contains(Int(time.weekday))
        if daysRestricted && weekdaysRestricted { return day || weekday }
        return day && weekday
    }
}

/// Why a cron expression could not be read.
public struct CronError: Error, Sendable, Equatable {
    public let message: String
}
