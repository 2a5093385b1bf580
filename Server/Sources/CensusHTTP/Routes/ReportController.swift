import CensusStore
import Foundation
import Hummingbird
import HTTPTypes
import MeterWire

/// `GET /api/v1/report`, `report/dtvr`, `report/viewability`: the credit, behind the read token;
/// over a range (`from`, `to`, read in `tz`), broken down by day or hour (`by`), as JSON or as an
/// export (`format`).
struct ReportController {
    /// Where the reports are read (a replica, with `--read-database`).
    let store: PingStore
    /// The replica, whose last sampled lag the credit report carries.
    let replica: ReadReplica?
    let policy: CensusPolicy

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.get("report") { request, context in
            try await answer(request, context, ReportExport.credit, rows: { try await store.reports.report($0) }) { query, rows in
                try ReportResponse(rows: rows, plausibility: try await store.reports.plausibility(query),
                                   excludesFlagged: query.excludeFlagged, readReplica: replica?.status)
                    .response(from: request, context: context)
            }
        }
        api.get("report/dtvr") { request, context in
            try await answer(request, context, ReportExport.dtvr, rows: { try await store.reports.dtvrReport($0) }) { _, rows in
                try DTVRReportResponse(rows: rows).response(from: request, context: context)
            }
        }
        api.get("audience") { request, context -> Response in
            let parameters = request.uri.queryParameters
            switch AudienceQuery.read(appid: parameters.get("appid"), asset: parameters.get("asset"), channel: parameters.get("channel"),
                                      from: parameters.get("from"), to: parameters.get("to"), tz: parameters.get("tz"),
                                      excludeFlagged: policy.excludeFlagged) {
            case .failure(let problem): return .text(.badRequest, problem.reason)
            case .success(let query):
                let audience = try await store.reports.audience(query)
                return try AudienceResponse(query: query, audience: audience).response(from: request, context: context)
            }
        }
        api.get("report/viewability") { request, context in
            try await answer(request, context, ReportExport.viewability, rows: { try await store.viewability.viewabilityReport($0) }) { query, rows in
                try ViewabilityReportResponse(rows: rows, excludesFlagged: query.excludeFlagged).response(from: request, context: context)
            }
        }
    }

    /// A report's answer: its rows over the request's range as `whole` answers them, or per
    /// period of its breakdown, or as an export of either.
    private func answer<Row: Encodable & Sendable>(
        _ request: Request, _ context: BasicRequestContext, _ columns: [ReportExport.Column<Row>],
        rows: (ReportQuery) async throws -> [Row], whole: (ReportQuery, [Row]) async throws -> Response
    ) async throws -> Response {
        let parameters = request.uri.queryParameters
        let read = ReportRange.read(from: parameters.get("from"), to: parameters.get("to"), tz: parameters.get("tz"), by: parameters.get("by"))
        switch (read, Self.format(request)) {
        case (.failure(let problem), _): return .text(.badRequest, problem.reason)
        case (_, .failure(let problem)): return .text(.badRequest, problem.reason)
        case (.success(let range), .success(let format)):
            let query = range.applied(to: ReportQuery(appid: parameters.get("appid").flatMap { $0.isEmpty ? nil : $0 },
                                                      excludeFlagged: policy.excludeFlagged))
            guard let (unit, periods) = range.breakdown else {
                let found = try await rows(query)
                if let format { return Self.export(found, columns, as: format) }
                return try await whole(query, found)
            }
            var broken: [PeriodRows<Row>] = []
            for period in periods {
                var part = query
                part.from = period.start
                part.to = period.end
                broken.append(PeriodRows(start: period.start, end: period.end, label: period.label, rows: try await rows(part)))
            }
            if let format {
                let labelled = broken.flatMap { period in period.rows.map { (period.label, $0) } }
                return Self.export(labelled, ReportExport.byPeriod(columns), as: format)
            }
            return try BreakdownResponse(by: unit.rawValue, timeZone: range.zone.identifier, periods: broken,
                                         excludesFlagged: query.excludeFlagged).response(from: request, context: context)
        }
    }

    /// `format`: nil for the JSON answer (absent or `json`), else an export format (census-decisions.md S50).
    private static func format(_ request: Request) -> Result<ReportExport.Format?, ReportRangeProblem> {
        guard let raw = request.uri.queryParameters.get("format"), raw != "json" else { return .success(nil) }
        guard let format = ReportExport.Format(rawValue: String(raw)) else {
            return .failure(ReportRangeProblem(reason: "format must be json, csv or jsonl"))
        }
        return .success(format)
    }

    /// `rows` as a file in `format`, with the columns' version.
    private static func export<Row>(_ rows: [Row], _ columns: [ReportExport.Column<Row>], as format: ReportExport.Format) -> Response {
        Response(status: .ok,
                 headers: [.contentType: format.contentType, Self.exportVersion: String(ReportExport.version)],
                 body: .init(byteBuffer: ByteBuffer(string: ReportExport.render(rows, columns, as: format))))
    }

    /// `AppMeter-Export-Version`: the version of an export's columns.
    static let exportVersion = HTTPField.Name("AppMeter-Export-Version")!
}

/// One period of a broken-down report.
struct PeriodRows<Row: Encodable & Sendable>: Encodable, Sendable {
    /// [`start`, `end`), Unix seconds, cut to the request's range.
    let start: Int64
    let end: Int64
    /// The period's start as its zone writes it: `2026-11-26`, `2026-11-26T20:00+01:00`.
    let label: String
    let rows: [Row]
}

/// A report broken down by day or hour (`by`).
struct BreakdownResponse<Row: Encodable & Sendable>: ResponseEncodable {
    let by: String
    let timeZone: String
    let periods: [PeriodRows<Row>]
    let excludesFlagged: Bool
}

/// `GET /api/v1/audience`: what was asked, the measures and the minute curve (census-decisions.md
/// S54), in one object.
struct AudienceResponse: ResponseEncodable {
    let query: AudienceQuery
    let audience: Audience

    private enum Key: String, CodingKey {
        case appid, asset, channel, from, to, minuteThresholdSeconds, excludesFlagged
    }

    func encode(to encoder: any Encoder) throws {
        var asked = encoder.container(keyedBy: Key.self)
        try asked.encode(query.appid, forKey: .appid)
        try asked.encodeIfPresent(query.asset, forKey: .asset)
        try asked.encodeIfPresent(query.channel, forKey: .channel)
        try asked.encode(query.from, forKey: .from)
        try asked.encode(query.to, forKey: .to)
        try asked.encode(AudienceRule.minuteThreshold, forKey: .minuteThresholdSeconds)
        try asked.encode(query.excludeFlagged, forKey: .excludesFlagged)
        try audience.encode(to: encoder)
    }
}
