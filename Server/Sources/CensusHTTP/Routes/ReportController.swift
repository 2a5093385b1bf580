import CensusStore
import Foundation
import Hummingbird
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
        switch Self.reportQuery(request) {
        case .failure(let problem): return .text(.badRequest, problem.reason)
        case .success(var query):
            query.excludeFlagged = policy.excludeFlagged
            return try ReportResponse(rows: try await store.reports.report(query), plausibility: try await store.reports.plausibility(query),
                                      excludesFlagged: query.excludeFlagged, readReplica: replica?.status).response(from: request, context: context)
        }
    }

    private func dtvrReport(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch Self.reportQuery(request) {
        case .failure(let problem): return .text(.badRequest, problem.reason)
        case .success(let query):
            return try DTVRReportResponse(rows: try await store.reports.dtvrReport(query)).response(from: request, context: context)
        }
    }

    private func viewabilityReport(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        switch Self.reportQuery(request) {
        case .failure(let problem): return .text(.badRequest, problem.reason)
        case .success(var query):
            query.excludeFlagged = policy.excludeFlagged
            return try ViewabilityReportResponse(rows: try await store.viewability.viewabilityReport(query), excludesFlagged: query.excludeFlagged)
                .response(from: request, context: context)
        }
    }

    /// `appid`, `from`, `to` of a report request.
    private static func reportQuery(_ request: Request) -> Result<ReportQuery, PingRejection> {
        let parameters = request.uri.queryParameters
        var query = ReportQuery(appid: parameters.get("appid").flatMap { $0.isEmpty ? nil : $0 })
        for (name, keyPath) in [("from", \ReportQuery.from), ("to", \ReportQuery.to)] {
            guard let raw = parameters.get(name), !raw.isEmpty else { continue }
            guard let seconds = Int64(raw) else { return .failure(PingRejection(reason: "\(name) must be Unix seconds")) }
            query[keyPath: keyPath] = seconds
        }
        return .success(query)
    }
}
