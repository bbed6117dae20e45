/// Calendar arithmetic on plain integers, with no time zone and no Foundation: the Gregorian calendar,
/// and (``foundationDaysSinceEpoch(year:month:day:)``) the one Foundation's `.gregorian` calendar is:
/// Julian up to 1582-10-04, Gregorian from 1582-10-15, the ten days between not in it.
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

    /// The first year wholly Gregorian in Foundation's calendar; earlier dates take ``foundationDaysSinceEpoch(year:month:day:)``.
    static let firstGregorianYear = 1583
    /// Days from 1970-01-01 to 1582-10-15, the Gregorian calendar's first day (Julian 1582-10-05).
    static let gregorianStartDay: Int64 = -141_427

    /// Days from 1970-01-01 to a date of Foundation's calendar before ``firstGregorianYear``: Julian up to
    /// 1582-10-04 (every fourth year leap, year 0 = 1 BC included), Gregorian from 1582-10-15; nil for a
    /// day that calendar does not have (29 February of a year that is not leap, 1582-10-05 … 1582-10-14).
    /// The caller has checked the month (1…12) and that the day is at least 1.
    static func foundationDaysSinceEpoch(year: Int, month: Int, day: Int) -> Int64? {
        if (year, month, day) >= (1582, 10, 15) {
            guard day <= daysInMonth(month, year: year) else { return nil }
            return daysSinceEpoch(year: year, month: month, day: day)
        }
        if (year, month, day) > (1582, 10, 4) { return nil }
        guard day <= (month == 2 ? (floorMod(Int64(year), 4) == 0 ? 29 : 28) : daysInMonth(month, year: year)) else { return nil }
        // The Julian day number (Fliegel and Van Flandern's formula, with floor division), then from 1970.
        let a = Int64((14 - month) / 12)
        let y = Int64(year) + 4800 - a
        let m = Int64(month) + 12 * a - 3
        let julianDay = Int64(day) + (153 * m + 2) / 5 + 365 * y + floorDiv(y, 4) - 32_083
        return julianDay - 2_440_588
    }

    /// The date of Foundation's calendar for a day count since 1970-01-01 (the inverse of
    /// ``foundationDaysSinceEpoch(year:month:day:)`` before 1582-10-15, of ``daysSinceEpoch(year:month:day:)`` after).
    static func foundationCivil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64)? {
        guard count < gregorianStartDay else { return nil }
        let c = count + 2_440_588 + 32_082
        let d = floorDiv(4 * c + 3, 1461)
        let e = c - floorDiv(1461 * d, 4)
        let m = (5 * e + 2) / 153
        return (d - 4800 + m / 10, m + 3 - 12 * (m / 10), e - (153 * m + 2) / 5 + 1)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }

    /// 0 = Sunday … 6 = Saturday, for days since 1970-01-01 (a Thursday).
    static func weekday(daysSinceEpoch days: Int64) -> Int {
        let weekday = (days + 4) % 7
        return Int(weekday < 0 ? weekday + 7 : weekday)
    }
}
