import ArgumentParser
import CensusHTTP
import CensusStore
import Crypto
import Foundation
import Hummingbird
import MeterTables
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `meter certify`: the rule pack on a traced session, or on every traced session of an app,
/// from a census database or a running census. Exits non-zero when a rule fails, so an
/// integrator's CI can run it against the embedded census.
struct CertifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certify",
        abstract: "Certify traced SDK sessions against the rule pack (docs/certification.md); exit 1 when a rule fails.")

    @Option(help: "The trace session to certify (an SDK instance's traceSession, as `meter sessions` lists it; with --database a unique beginning of one is enough).") var session: String?
    @Option(help: "Certify every traced session of this appid.") var appid: String?
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Ask a running census instead of opening a database (e.g. http://127.0.0.1:8080).") var census: String?
    @Option(help: "The census's read token (also APPMETER_CENSUS_TOKEN).") var token: String?
    @Option(help: "Write the reports as JSON signed with the census's Ed25519 key to this file.") var export: String?
    @Option(help: ArgumentHelp(
        "Check an exported file's signature against the census's public key, and exit.",
        discussion: "The key comes from --public-key, else from --census, else from --database.")) var verify: String?
    @Option(help: "The census's public key (base64, as GET /certification/key gives it), for --verify.") var publicKey: String?

    func validate() throws {
        if verify == nil && (session == nil) == (appid == nil) {
            throw ValidationError("say which: --session <id> or --appid <id>")
        }
    }

    func run() async throws {
        if let verify {
            try await verifyExport(at: verify)
            return
        }
        let signed = try await fetchSignedReports()
        let reports = signed?.reports ?? []
        guard let signed, !reports.isEmpty else {
            print(TerminalText.escaped("no traced session \(session.map { "named \($0)" } ?? "for appid \(appid ?? "")")"))
            throw ExitCode(2)
        }
        for report in reports {
            print(CertificationTable.render(report) + "\n")
        }
        let passed = signed.passed
        if let export {
            try signed.exportBytes().write(to: URL(fileURLWithPath: export))
            print("exported to \(export), signed by \(signed.signature.publicKey)")
        }
        print(passed ? "PASS: every exercised rule passes" : "FAIL: \(reports.filter { !$0.passed }.count) of \(reports.count) session(s) fail a rule")
        if !passed { throw ExitCode.failure }
    }

    /// Checks an export against the census's public key; exits 1 when it does not verify.
    private func verifyExport(at path: String) async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let trusted = try await trustedPublicKey()
        let verification = SignedCertification.verify(exported: bytes, trustedPublicKey: trusted)
        if let export = try? JSONDecoder().decode(SignedCertification.self, from: bytes) {
            for report in export.reports {
                print("\(report.passed ? "PASS" : "FAIL") \(TerminalText.escaped(report.session)) (appid \(TerminalText.escaped(report.appid)))")
            }
        }
        switch verification {
        case .valid:
            print("verified: signed by the census's key \(trusted)")
        case .failed(let reason):
            print("NOT VERIFIED: \(TerminalText.escaped(reason))")
            throw ExitCode.failure
        }
    }

    /// The key to check against: given, published by a running census, or the database's own.
    private func trustedPublicKey() async throws -> String {
        if let publicKey { return publicKey }
        if let census {
            let (data, status) = try await get(census, path: "/certification/key")
            guard status == 200 else { throw MeterFailure(.unavailable, "the census answered \(status) for its key") }
            return try JSONDecoder().decode(CertificationKeyInfo.self, from: data).publicKey
        }
        return try await database.withExistingStore { try await $0.traces.signingKey().publicKey.rawRepresentation.base64EncodedString() }
    }

    /// The signed reports, or nil when no session matched.
    private func fetchSignedReports() async throws -> SignedCertification? {
        guard let census else {
            return try await database.withExistingStore { store in
                var resolved: String?
                if let session { resolved = try await SessionsCommand.resolve(session, in: store) }
                let session = resolved
                do {
                    return try await store.traces.signed(try await CensusServer(store: store).sessions.certify(session: session, appid: appid))
                } catch let error as HTTPError where error.status == .notFound {
                    return nil
                }
            }
        }
        let query = [session.map { URLQueryItem(name: "session", value: $0) },
                     appid.map { URLQueryItem(name: "appid", value: $0) }].compactMap { $0 }
        let (data, status) = try await get(census, path: "/api/v1/certification", query: query)
        if status == 404 { return nil }
        guard status == 200 else {
            throw MeterFailure(.unavailable, "the census answered \(status): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return try JSONDecoder().decode(SignedCertification.self, from: data)
    }

    /// GETs `path` of the census, with the read token when there is one.
    private func get(_ census: String, path: String, query: [URLQueryItem] = []) async throws -> (Data, Int) {
        var components = URLComponents(string: census.hasSuffix("/") ? String(census.dropLast()) : census)
        components?.path += path
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw MeterFailure(.usage, "--census \(census) is not a URL") }
        var request = URLRequest(url: url)
        if let token = token ?? ProcessInfo.processInfo.environment["APPMETER_CENSUS_TOKEN"] {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
