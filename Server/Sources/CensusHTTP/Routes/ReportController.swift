import CensusStore
import Foundation
import Hummingbird
import HTTPTypes
import MeterWire

/// `GET /api/v1/report`, `report/dtvr`, `report/viewability`: the credit, behind the read token.
struct ReportController {
    /// Where the reports are read (a replica, with `--read-database`).
    let store: PingStore
    /// The replica, whose last sampled lag the credit report carries.
    let replica: ReadReplica?
    let policy: CensusPolicy

    func addRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.get("report") { request, context in try await report(request, context) }
        api.get("report/dtvr") { request, context in try await dtvrReport(request, context) }
        api.get("report/viewability") { request, context in try await viewabilityReport(request, context) }
    }

    private func report(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch (Self.reportQuery(request), Self.format(request)) {
        case (.failure(let problem), _), (_, .failure(let problem)): return .text(.badRequest, problem.reason)
        case (.success(var query), .success(let format)):
            query.excludeFlagged = policy.excludeFlagged
            let rows = try await store.reports.report(query)
            if let format { return Self.export(rows, ReportExport.credit, as: format) }
            return try ReportResponse(rows: rows, plausibility: try await store.reports.plausibility(query),
                                      excludesFlagged: query.excludeFlagged, readReplica: replica?.status).response(from: request, context: context)
        }
    }

    private func dtvrReport(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch (Self.reportQuery(request), Self.format(request)) {
        case (.failure(let problem), _), (_, .failure(let problem)): return .text(.badRequest, problem.reason)
        case (.success(let query), .success(let format)):
            let rows = try await store.reports.dtvrReport(query)
            if let format { return Self.export(rows, ReportExport.dtvr, as: format) }
            return try DTVRReportResponse(rows: rows).response(from: request, context: context)
        }
    }

    private func viewabilityReport(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch (Self.reportQuery(request), Self.format(request)) {
        case (.failure(let problem), _), (_, .failure(let problem)): return .text(.badRequest, problem.reason)
        case (.success(var query), .success(let format)):
            query.excludeFlagged = policy.excludeFlagged
            let rows = try await store.viewability.viewabilityReport(query)
            if let format { return Self.export(rows, ReportExport.viewability, as: format) }
            return try ViewabilityReportResponse(rows: rows, excludesFlagged: query.excludeFlagged)
                .response(from: request, context: context)
        }
    }

    /// `format`: nil for the JSON answer (absent or `json`), else an export format (census-decisions.md S50).
    private static func format(_ request: Request) -> Result<ReportExport.Format?, PingRejection> {
        guard let raw = request.uri.queryParameters.get("format"), raw != "json" else { return .success(nil) }
        guard let format = ReportExport.Format(rawValue: String(raw)) else {
            return .failure(PingRejection(reason: "format must be json, csv or jsonl"))
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

    /// `appid`, `from`, `to` of a report request.
    private static func reportQuery(_ request: Request) -> Result<ReportQuery, PingRejection> {
        let parameters = request.uri.queryParameters
        var query = ReportQuery(appid: parameters.get("appid").flatMap { $0.isEmpty ? nil : $0 })
        for (name, keyPath) in [("from", \ReportQuery.from), ("to", \ReportQuery.to)] {
            // Given empty, it is no number: refused, not read as absent (the OpenAPI document's types).
            guard let raw = parameters.get(name) else { continue }
            guard let seconds = Int64(raw) else { return .failure(PingRejection(reason: "\(name) must be Unix seconds")) }
            query[keyPath: keyPath] = seconds
        }
        return .success(query)
    }
}
