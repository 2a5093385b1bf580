/// A week of receipts, Monday 00:00 UTC to the next, as `census_pings` is partitioned
/// (``WeeklyPingPartitions``): its first millisecond, and the partition's name after its Monday,
/// `census_pings_w20261130`.
struct PingWeek: Hashable, Comparable, Sendable {
    static let milliseconds: Int64 = 7 * millisecondsPerDay
    private static let millisecondsPerDay: Int64 = 86_400_000
    /// 1970-01-05, the first Monday after the epoch.
    private static let firstMonday: Int64 = 4 * millisecondsPerDay
    /// Receipts are read within years 1 to 9999 (a stored value is never trusted to stay in range
    /// of the arithmetic: census-decisions.md S53).
    private static let earliest: Int64 = -62_135_596_800_000
    private static let latest: Int64 = 253_402_300_799_999

    /// The week's first millisecond since 1970.
    let start: Int64

    /// The week holding `milliseconds` (held within years 1 to 9999).
    init(containing milliseconds: Int64) {
        let held = min(max(milliseconds, Self.earliest), Self.latest) - Self.firstMonday
        let weeks = held >= 0 ? held / Self.milliseconds : -((-held + Self.milliseconds - 1) / Self.milliseconds)
        start = Self.firstMonday + weeks * Self.milliseconds
    }

    /// The week `count` weeks after this one.
    func advanced(by count: Int) -> PingWeek {
        PingWeek(containing: start + Int64(count) * Self.milliseconds)
    }

    /// The week's first millisecond after it.
    var end: Int64 { start + Self.milliseconds }

    /// `census_pings_w` and the Monday as `yyyymmdd`.
    var partitionName: String {
        let (year, month, day) = Self.civil(days: Self.floorDays(start))
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return Self.namePrefix + pad(year, 4) + pad(month, 2) + pad(day, 2)
    }

    static let namePrefix = "census_pings_w"

    /// The week a partition's name stands for, or nil for any other name.
    init?(partitionName name: String) {
        guard name.hasPrefix(Self.namePrefix) else { return nil }
        let digits = name.dropFirst(Self.namePrefix.count)
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let year = Int64(digits.prefix(4)), let month = Int64(digits.dropFirst(4).prefix(2)),
              let day = Int64(digits.suffix(2)), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let week = PingWeek(containing: Self.days(year: year, month: month, day: day) * Self.millisecondsPerDay)
        guard week.partitionName == name else { return nil }
        self = week
    }

    static func < (lhs: PingWeek, rhs: PingWeek) -> Bool { lhs.start < rhs.start }

    private static func floorDays(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / millisecondsPerDay
            : -((-milliseconds + millisecondsPerDay - 1) / millisecondsPerDay)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
