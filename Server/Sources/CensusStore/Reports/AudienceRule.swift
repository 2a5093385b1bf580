/// How the census turns a line's credited pings into an audience: reach, minutes and the minute
/// curve (census-decisions.md S54).
///
/// A ping credits its seconds (``CreditRule/secondsColumn``) to the seconds just before its
/// creation, `[created − seconds, created)`: a duration ping reports the viewing up to the moment
/// it was built. Each minute of the clock (`[m, m + 60)`, Unix seconds) gets the seconds of that
/// span it holds, so a curve's seconds sum to the report's exactly. A device is in a minute's
/// audience with at least ``minuteThreshold`` of its seconds in it, as broadcast ratings count a
/// minute; pings without a device id (opted out) add their seconds to the minute and to the
/// totals, never to a device count.
package enum AudienceRule {
    /// A minute, in seconds.
    package static let minute: Int64 = 60
    /// The seconds of a minute a device must be credited to count in its audience.
    package static let minuteThreshold: Int64 = 30
    /// The longest range an audience is asked over: 31 days.
    package static let maxRangeSeconds: Int64 = 31 * 86_400

    /// Calls `body` with each minute's start and the seconds of `seconds` (credited by a ping
    /// created at `createdAt`) it holds, earliest first; nothing for no seconds.
    package static func spread(seconds: Int64, endingAt createdAt: Int64, _ body: (Int64, Int64) -> Void) {
        guard seconds > 0 else { return }
        // Stored values are bounded at intake (a ping over a day is refused); held here anyway so
        // that no stored value traps the arithmetic.
        let end = min(max(createdAt, -(1 << 40)), 1 << 40)
        var start = end - min(seconds, 1 << 20)
        while start < end {
            let minuteStart = floorMinute(start)
            let upTo = min(end, minuteStart + minute)
            body(minuteStart, upTo - start)
            start = upTo
        }
    }

    /// The start of the minute holding `second`.
    package static func floorMinute(_ second: Int64) -> Int64 {
        second >= 0 ? second - second % minute : second - ((second % minute) + minute) % minute
    }
}

/// A line's audience as its pings are read, one device's pings after another
/// (``ReportStore/audience(_:)``): the minutes' seconds and audiences, the reach and totals.
package struct AudienceTally: Sendable {
    /// Per minute start: the seconds credited, and the devices with at least the threshold.
    package private(set) var minutes: [Int64: (seconds: Int64, devices: Int64)] = [:]
    /// Distinct device ids.
    package private(set) var reach: Int64 = 0
    /// All the seconds credited.
    package private(set) var seconds: Int64 = 0
    /// The seconds of pings without a device id.
    package private(set) var unidentifiedSeconds: Int64 = 0

    private var device: String?
    private var deviceMinutes: [Int64: Int64] = [:]

    package init() {}

    /// Takes a ping of `device` ("" when it carries none); a device's pings come together.
    package mutating func add(device: String, createdAt: Int64, seconds credited: Int64) {
        if device != self.device { closeDevice(); self.device = device; if !device.isEmpty { reach += 1 } }
        AudienceRule.spread(seconds: credited, endingAt: createdAt) { minute, part in
            minutes[minute, default: (0, 0)].seconds += part
            seconds += part
            if device.isEmpty { unidentifiedSeconds += part } else { deviceMinutes[minute, default: 0] += part }
        }
    }

    /// Ends the last device's pings.
    package mutating func finish() { closeDevice(); device = nil }

    private mutating func closeDevice() {
        for (minute, part) in deviceMinutes where part >= AudienceRule.minuteThreshold {
            minutes[minute, default: (0, 0)].devices += 1
        }
        deviceMinutes.removeAll(keepingCapacity: true)
    }
}
