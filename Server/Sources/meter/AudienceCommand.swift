import ArgumentParser
import CensusStore
import Foundation
import MeterTables

/// `meter audience`: an app's audience over a range, as `GET /api/v1/audience` answers it
/// (docs/census.md §5, census-decisions.md S54).
struct AudienceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audience",
        abstract: "Print an app's audience over a range: reach, minutes, average minute audience and the minute curve.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "The app.") var appid: String?
    @Option(help: "Only this asset.") var asset: String?
    @Option(help: "Only this channel.") var channel: String?
    @Option(help: "Pings created at or after this: Unix seconds, a date (2026-11-26: its start) or a date and time (2026-11-26T20:00:00+01:00).")
    var from: String?
    @Option(help: "Pings created before this, at most 31 days after --from: as --from; a date is the end of that day.")
    var to: String?
    @Option(help: "The zone of dates and times without an offset, and of the curve's times: UTC, a zone name or an offset (default: UTC).")
    var tz: String?
    @Flag(help: "Leave out the sessions the session rule flags (docs/census.md §4b).") var excludeFlagged = false
    @Flag(help: "Print the API's JSON instead of tables.") var json = false

    func run() async throws {
        let query: AudienceQuery
        switch AudienceQuery.read(appid: appid, asset: asset, channel: channel, from: from, to: to, tz: tz,
                                  excludeFlagged: excludeFlagged, named: { "--" + $0 }) {
        case .success(let read): query = read
        case .failure(let problem): throw MeterFailure(.usage, problem.reason)
        }
        let audience = try await database.withExistingStore { try await $0.reports.audience(query) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(TerminalText.escapedJSON(String(decoding: try encoder.encode(audience), as: UTF8.self)))
            return
        }
        print(TextTable.render([
            ["reach", "credited minutes", "average minute audience", "seconds per device", "of which without a device"],
            [String(audience.reach), String(format: "%.1f", audience.totalMinutes), String(format: "%.2f", audience.averageMinuteAudience),
             String(format: "%.0f", audience.averageSecondsPerDevice), "\(audience.unidentifiedSeconds) s"],
        ], rightAligned: [0, 1, 2, 3, 4], rule: true))
        let zone = ReportTime.zone(tz ?? "UTC") ?? TimeZone(secondsFromGMT: 0)!
        let format = Date.ISO8601FormatStyle(timeZone: zone).year().month().day().time(includingFractionalSeconds: false)
            .timeZone(separator: .colon)
        print("\nMinute by minute (a device counts from \(AudienceRule.minuteThreshold) s of a minute)")
        print(TextTable.render([["minute", "devices", "seconds"]] + audience.minutes.map { minute in
            [Date(timeIntervalSince1970: Double(minute.start)).formatted(format), String(minute.devices), String(minute.seconds)]
        }, rightAligned: [1, 2], rule: true))
    }
}
