import ArgumentParser
import Census
import Foundation
import Hummingbird
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The JSON export: the reports, each sealed with its SHA-256.
struct CertificationExport: Codable {
    let reports: [CertificationReport]
    let passed: Bool
}

/// `meter certify`: the rule pack on a traced session, or on every traced session of an app,
/// from a census database or a running census. Exits non-zero when a rule fails, so an
/// integrator's CI can run it against the embedded census.
struct CertifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certify",
        abstract: "Certify traced SDK sessions against the rule pack (docs/certification.md); exit 1 when a rule fails.")

    @Option(help: "The trace session to certify (an SDK instance's traceSession).") var session: String?
    @Option(help: "Certify every traced session of this appid.") var appid: String?
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Ask a running census instead of opening a database (e.g. http://127.0.0.1:8080).") var census: String?
    @Option(help: "The census's read token (also APPMETER_CENSUS_TOKEN).") var token: String?
    @Option(help: "Write the reports as JSON, each with its SHA-256, to this file.") var export: String?
    @Option(help: "Check the SHA-256 of every report in an exported file, and exit.") var verify: String?

    func validate() throws {
        if verify == nil && (session == nil) == (appid == nil) {
            throw ValidationError("say which: --session <id> or --appid <id>")
        }
    }

    func run() async throws {
        if let verify {
            let export = try JSONDecoder().decode(CertificationExport.self, from: Data(contentsOf: URL(fileURLWithPath: verify)))
            let broken = export.reports.filter { !$0.isIntact }
            for report in export.reports {
                print("\(report.isIntact ? "intact  " : "ALTERED ") \(report.session) \(report.passed ? "PASS" : "FAIL")")
            }
            if !broken.isEmpty || export.reports.isEmpty { throw ExitCode.failure }
            return
        }
        let reports = try await fetchReports()
        guard !reports.isEmpty else {
            print("no traced session \(session.map { "named \($0)" } ?? "for appid \(appid ?? "")")")
            throw ExitCode(2)
        }
        for report in reports {
            print(CertificationTable.render(report) + "\n")
        }
        let passed = reports.allSatisfy(\.passed)
        if let export {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(CertificationExport(reports: reports, passed: passed)).write(to: URL(fileURLWithPath: export))
            print("exported to \(export)")
        }
        print(passed ? "PASS: every exercised rule passes" : "FAIL: \(reports.filter { !$0.passed }.count) of \(reports.count) session(s) fail a rule")
        if !passed { throw ExitCode.failure }
    }

    private func fetchReports() async throws -> [CertificationReport] {
        guard let census else {
            return try await database.withStore { store in
                do {
                    return try await CensusServer(store: store).certify(session: session, appid: appid)
                } catch let error as HTTPError where error.status == .notFound {
                    return []
                }
            }
        }
        var components = URLComponents(string: census.hasSuffix("/") ? String(census.dropLast()) : census)
        components?.path += "/api/v1/certification"
        components?.queryItems = [session.map { URLQueryItem(name: "session", value: $0) },
                                  appid.map { URLQueryItem(name: "appid", value: $0) }].compactMap { $0 }
        guard let url = components?.url else { throw ValidationError("--census is not a URL") }
        var request = URLRequest(url: url)
        if let token = token ?? ProcessInfo.processInfo.environment["APPMETER_CENSUS_TOKEN"] {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status == 404 { return [] }
        guard status == 200 else {
            throw ValidationError("the census answered \(status): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return try JSONDecoder().decode(CertificationExport.self, from: data).reports
    }
}
