import MeterContract
import NIOConcurrencyHelpers
import SQLKit

/// What an audience is asked of: one app's pings created in a range, of one asset or channel (or
/// all of the app's), under the report's scope (``ReportQuery``: flagged sessions left out when
/// the census says so).
package struct AudienceQuery: Sendable, Equatable {
    package var appid: String
    package var asset: String?
    package var channel: String?
    /// Pings created in [`from`, `to`), Unix seconds.
    package var from: Int64
    package var to: Int64
    package var excludeFlagged: Bool

    package init(appid: String, asset: String? = nil, channel: String? = nil, from: Int64, to: Int64, excludeFlagged: Bool = false) {
        self.appid = appid
        self.asset = asset
        self.channel = channel
        self.from = from
        self.to = to
        self.excludeFlagged = excludeFlagged
    }

    /// Reads an audience's query as a request or `meter audience` gives it: `appid`, `from` and
    /// `to` (at most ``AudienceRule/maxRangeSeconds`` apart, read in `tz` as the reports read them),
    /// and an `asset` or `channel` when given; the failure says which is wrong, each named as
    /// `named` writes it.
    package static func read(appid: String?, asset: String?, channel: String?, from: String?, to: String?, tz: String?,
                             excludeFlagged: Bool, named: (String) -> String = { $0 }) -> Result<AudienceQuery, ReportRangeProblem> {
        guard let appid, !appid.isEmpty else { return .failure(ReportRangeProblem(reason: "\(named("appid")) is required")) }
        switch ReportRange.read(from: from, to: to, tz: tz, by: nil, named: named) {
        case .failure(let problem): return .failure(problem)
        case .success(let range):
            guard let start = range.from, let end = range.to, start < end else {
                return .failure(ReportRangeProblem(reason: "\(named("from")) and \(named("to")) are required, \(named("from")) before \(named("to"))"))
            }
            guard end - start <= AudienceRule.maxRangeSeconds else {
                return .failure(ReportRangeProblem(reason: "an audience covers at most 31 days: narrow \(named("from")) and \(named("to"))"))
            }
            for (name, value) in [("asset", asset), ("channel", channel)] where value?.isEmpty == true {
                return .failure(ReportRangeProblem(reason: "\(named(name)) is empty: leave it out for every one"))
            }
            return .success(AudienceQuery(appid: appid, asset: asset, channel: channel, from: start, to: end, excludeFlagged: excludeFlagged))
        }
    }

    /// `select` held to the query's asset and channel, where it names them.
    @Sendable func narrowed(_ select: SQLSelectBuilder) -> SQLSelectBuilder {
        var select = select
        if let asset { select = select.where(CreditColumn.asset.name, .equal, asset) }
        if let channel { select = select.where(CreditColumn.channel.name, .equal, channel) }
        return select
    }

    /// The report of the same pings (its lines' seconds sum to the audience's).
    package var report: ReportQuery { ReportQuery(appid: appid, from: from, to: to, excludeFlagged: excludeFlagged) }
}

/// A line's audience (``AudienceRule``): the measures a broadcaster reads, and the minute curve.
package struct Audience: Sendable, Equatable, Encodable {
    /// One minute of the curve: its start (Unix seconds), the devices with at least the threshold
    /// of its seconds, and all the seconds credited in it.
    package struct Minute: Sendable, Equatable, Codable {
        package let start: Int64
        package let devices: Int64
        package let seconds: Int64
    }

    /// Distinct devices among the pings (the credit report's `devices`).
    package let reach: Int64
    /// Seconds credited, the sum of the curve's.
    package let creditedSeconds: Int64
    /// Of them, the seconds of pings without a device id (opted out).
    package let unidentifiedSeconds: Int64
    /// Credited minutes: `creditedSeconds / 60`.
    package let totalMinutes: Double
    /// Credited minutes over the range's minutes: the audience of an average minute.
    package let averageMinuteAudience: Double
    /// Seconds of identified devices per device, 0 without any.
    package let averageSecondsPerDevice: Double
    /// The minutes that were credited any seconds, earliest first; a minute may start before the
    /// range (a ping created early in it credits the seconds before).
    package let minutes: [Minute]

    init(_ tally: AudienceTally, rangeSeconds: Int64) {
        reach = tally.reach
        creditedSeconds = tally.seconds
        unidentifiedSeconds = tally.unidentifiedSeconds
        totalMinutes = Double(tally.seconds) / Double(AudienceRule.minute)
        averageMinuteAudience = rangeSeconds > 0 ? Double(tally.seconds) / Double(rangeSeconds) : 0
        averageSecondsPerDevice = tally.reach > 0 ? Double(tally.seconds - tally.unidentifiedSeconds) / Double(tally.reach) : 0
        minutes = tally.minutes.keys.sorted().map { start in
            let minute = tally.minutes[start]!
            return Minute(start: start, devices: minute.devices, seconds: minute.seconds)
        }
    }
}

extension ReportStore {
    /// The audience of `query`'s pings (``AudienceRule``): read one device after another, so the
    /// walk holds one device's minutes and the curve's, never the pings. A DTVR session that sent
    /// tags is curved by its tags, as the reports credit it (decisions.md T6): its SDK claim is
    /// left out, and each tag's step is credited to the seconds before the tag's call (none for a
    /// session the session rule flags, where the census leaves flagged sessions out).
    package func audience(_ query: AudienceQuery) async throws -> Audience {
        let tagged = try await dtvrTagsBySession(query.report, narrowing: query.narrowed)
        var walk = AudienceWalk(claimsLeftOut: Set(tagged.map(\.group)))
        for session in tagged where !(query.excludeFlagged && session.excess > 0) {
            for step in TagCredit.steps(of: session.sent.tags) {
                walk.tagSteps[session.sent.device, default: []].append((createdAt: step.time / 1000, seconds: step.seconds))
            }
        }
        let start = walk
        return try await database.withSQL { db in
            let box = NIOLockedValueBox(start)
            let pings = query.narrowed(db.select().from("census_pings").filtered(by: query.report))
            let aggregate = db.engine.pingTimesAggregate
            try await AudienceBatch.select(db, pings, aggregate: aggregate).run { row in
                box.withLockedValue { $0.take(row, aggregate: aggregate) }
            }
            var finished = box.withLockedValue { $0 }
            return Audience(try finished.finish(), rangeSeconds: query.to - query.from)
        }
    }
}

/// The batches of an audience (``AudienceBatch``), one device after another, into its
/// ``AudienceTally``: each device's tag steps with its first batch, the SDK claims of tagged DTVR
/// sessions left out.
private struct AudienceWalk {
    /// The tagged DTVR sessions, whose claims the tags replace.
    let claimsLeftOut: Set<TagGroup>
    /// The tags' steps not yet credited, by device.
    var tagSteps: [String: [(createdAt: Int64, seconds: Int64)]] = [:]
    var tally = AudienceTally()
    var device: String?
    var failure: (any Error)?

    mutating func take(_ row: any SQLRow, aggregate: PingTimesAggregate) {
        guard failure == nil else { return }
        do {
            let batch = try AudienceBatch(reading: row, aggregate: aggregate)
            if batch.device != device { device = batch.device; creditTags(of: batch.device) }
            if let claim = batch.claim, claimsLeftOut.contains(claim) { return }
            for (createdAt, seconds) in zip(batch.createdAt, batch.seconds) {
                tally.add(device: batch.device, createdAt: createdAt, seconds: seconds)
            }
        } catch {
            // A batch not read would be seconds not counted: no audience rather than a wrong one.
            failure = error
        }
    }

    mutating func finish() throws -> AudienceTally {
        if let failure { throw failure }
        // Tags whose device sent no row the walk read (none, as tag pings are rows): still counted.
        for device in tagSteps.keys.sorted() { creditTags(of: device) }
        tally.finish()
        return tally
    }

    private mutating func creditTags(of device: String) {
        for step in tagSteps.removeValue(forKey: device) ?? [] {
            tally.add(device: device, createdAt: step.createdAt, seconds: step.seconds)
        }
    }
}
