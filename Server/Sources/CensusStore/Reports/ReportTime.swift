package import Foundation

/// The times a report is asked for, as people write them (census-decisions.md S52): Unix seconds,
/// a calendar date, or an ISO 8601 date and time, read in a time zone; and the calendar days or
/// hours of that zone that break a report down.
///
/// A report counts a ping in the period that holds its creation time (`c61` held to its receipt),
/// whole: its seconds are not split at a boundary, so the periods of a range sum to the range's
/// report exactly, on either engine, with the report's own rule.
package enum ReportTime {
    /// A breakdown's period.
    package enum Unit: String, CaseIterable, Sendable {
        case day, hour
    }

    /// The most periods one breakdown holds: a year of days, a month of hours.
    package static let maxPeriods = 1_000
    /// The last second of year 9999.
    static let lastInstant: Int64 = 253_402_300_799

    /// `text` as a zone: `UTC`, an IANA name (`Europe/Rome`) or an offset (`+01:00`, `-0530`).
    package static func zone(_ text: String) -> TimeZone? {
        if let offset = offsetSeconds(Substring(text)) { return TimeZone(secondsFromGMT: offset) }
        guard text.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }) else {
            return nil
        }
        return TimeZone(identifier: text)
    }

    /// `text` as a Unix second: a whole number (Unix seconds); a date, `2026-11-26` (its first
    /// second in `zone`, or as the end of a range the first second of the next day, so that
    /// `from` and `to` of one date cover that day); or a date and time, `2026-11-26T20:00`,
    /// `…:00`, with `Z` or an offset (`+01:00`), else in `zone`. Nil for anything else, and for
    /// years outside 1970…9999.
    package static func instant(_ text: String, in zone: TimeZone, asEnd: Bool = false) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes.count <= 32,
              let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(bytes, 5, 2),
              bytes[7] == UInt8(ascii: "-"), let day = number(bytes, 8, 2), (1970...9999).contains(year)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        if bytes.count == 10 {
            guard isValid(components, calendar), let start = calendar.date(from: components) else { return nil }
            let date = asEnd ? calendar.date(byAdding: .day, value: 1, to: start) : start
            return date.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes.count >= 16,
              let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes, 14, 2)
        else { return nil }
        components.hour = hour
        components.minute = minute
        var rest = bytes[16...]
        if rest.first == UInt8(ascii: ":") {
            guard rest.count >= 3, let second = number(Array(rest), 1, 2) else { return nil }
            components.second = second
            rest = rest.dropFirst(3)
        }
        if !rest.isEmpty {
            let suffix = String(decoding: rest, as: UTF8.self)
            guard let offset = suffix == "Z" ? 0 : offsetSeconds(Substring(suffix)),
                  let fixed = TimeZone(secondsFromGMT: offset) else { return nil }
            calendar.timeZone = fixed
        }
        guard isValid(components, calendar), let date = calendar.date(from: components) else { return nil }
        return Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The days or hours of `zone` that meet [`from`, `to`), each cut to that range; nil when
    /// there would be more than ``maxPeriods``. A day is 23 or 25 hours where the zone changes its
    /// clocks; an hour the clocks repeat is two periods.
    package static func periods(_ unit: Unit, from: Int64, to: Int64, in zone: TimeZone) -> [Period]? {
        // Within years 1970…9999: no conversion between seconds and `Date` can trap.
        guard from >= 0, to <= lastInstant else { return nil }
        guard from < to else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let component: Calendar.Component = unit == .day ? .day : .hour
        guard let first = calendar.dateInterval(of: component, for: Date(timeIntervalSince1970: TimeInterval(from))) else { return nil }
        var periods: [Period] = []
        var start = first.start
        while Int64(start.timeIntervalSince1970) < to {
            guard periods.count < maxPeriods, let interval = calendar.dateInterval(of: component, for: start),
                  interval.end > start else { return nil }
            let end = Int64(interval.end.timeIntervalSince1970)
            periods.append(Period(start: max(from, Int64(interval.start.timeIntervalSince1970)), end: min(to, end),
                                  label: label(interval.start, unit, calendar)))
            start = interval.end
        }
        return periods
    }

    /// A period of a breakdown: [`start`, `end`), and its start as the zone writes it.
    package struct Period: Sendable, Equatable, Codable {
        package var start: Int64
        package var end: Int64
        /// `2026-11-26` for a day, `2026-11-26T20:00+01:00` for an hour.
        package var label: String
    }

    private static func label(_ date: Date, _ unit: Unit, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let day = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
        guard unit == .hour else { return day }
        let offset = calendar.timeZone.secondsFromGMT(for: date) / 60
        let sign = offset < 0 ? "-" : "+"
        return day + "T\(pad(parts.hour, 2)):00\(sign)\(pad(abs(offset) / 60, 2)):\(pad(abs(offset) % 60, 2))"
    }

    /// `+01:00`, `-0530`, `+01` as seconds east of UTC (at most 18 hours), else nil.
    private static func offsetSeconds(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 2 || digits.count == 4, bytes.count - 1 - digits.count <= 1,
              let hours = number(Array(digits), 0, 2), hours <= 18 else { return nil }
        let minutes = digits.count == 4 ? number(Array(digits), 2, 2) : 0
        guard let minutes, minutes < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    /// The decimal number of `count` ASCII digits at `offset`, or nil.
    private static func number(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<offset + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Whether `components` name a date and time that exist as written (not 2026-02-30, not 25:00).
    private static func isValid(_ components: DateComponents, _ calendar: Calendar) -> Bool {
        guard let month = components.month, (1...12).contains(month), let day = components.day, day >= 1,
              (components.hour ?? 0) < 24, (components.minute ?? 0) < 60, (components.second ?? 0) < 60,
              let first = calendar.date(from: DateComponents(year: components.year, month: month, day: 1)),
              let days = calendar.range(of: .day, in: .month, for: first)
        else { return false }
        return days.contains(day)
    }
}
