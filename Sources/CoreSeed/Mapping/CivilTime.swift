/// Proleptic Gregorian calendar arithmetic on plain integers, with no time zone and no Foundation.
enum CivilTime {
    /// Seconds from 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z, Core Data's reference date.
    static let referenceOffset: Int64 = 978_307_200

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Days in `month` (1…12) of `year`.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date (negative before), after Howard Hinnant's `days_from_civil`.
    /// The caller has checked that month and day are valid.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 = Sunday … 6 = Saturday, for days since 1970-01-01 (a Thursday).
    static func weekday(daysSinceEpoch days: Int64) -> Int {
        let weekday = (days + 4) % 7
        return Int(weekday < 0 ? weekday + 7 : weekday)
    }
}
