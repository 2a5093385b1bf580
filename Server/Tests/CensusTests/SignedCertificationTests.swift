@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import Testing
import NIOFoundationEssentialsCompat

/// The certification export is signed with the census's Ed25519 key, published at
/// `/certification/key`, and no byte of it can change without failing verification.
@Suite struct SignedCertificationTests {
    static func report(session: String = "s-1", failing: Bool = false) -> CertificationReport {
        CertificationReport(
            session: session, appid: "P00000000-0000-4000-8000-000000000001", sdk: "al.1.0.0", calls: 12,
            evaluatedAt: 1_790_000_000,
            results: [RuleResult(id: "play.before.playhead", title: "play before playhead", explanation: "why",
                                 source: "DCR guide §3", status: failing ? .fail : .pass,
                                 evidence: [RuleEvidence(seq: 3, text: "play at 0")])])
    }

    static let rawKey = Data((1...32).map { UInt8($0) })
    static var key: Curve25519.Signing.PrivateKey { try! Curve25519.Signing.PrivateKey(rawRepresentation: rawKey) }
    static var publicKey: String { key.publicKey.rawRepresentation.base64EncodedString() }

    @Test func anExportVerifiesAgainstTheSignersKeyOnly() throws {
        let bytes = try SignedCertification(reports: [Self.report()], key: Self.key, signedAt: 1_790_000_100).exportBytes()
        #expect(SignedCertification.verify(exported: bytes, trustedPublicKey: Self.publicKey) == .valid)
        let other = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation.base64EncodedString()
        #expect(SignedCertification.verify(exported: bytes, trustedPublicKey: other) != .valid)
    }

    @Test func changingAnyByteFailsVerification() throws {
        let bytes = try SignedCertification(reports: [Self.report(), Self.report(session: "s-2", failing: true)],
                                            key: Self.key, signedAt: 1_790_000_100).exportBytes()
        var survivors: [Int] = []
        for index in bytes.indices {
            var edited = bytes
            // Every byte changed to another printable one, as an editor would.
            edited[index] = bytes[index] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            if SignedCertification.verify(exported: edited, trustedPublicKey: Self.publicKey) == .valid {
                survivors.append(index)
            }
        }
        #expect(survivors.isEmpty)
    }

    @Test func aResignedForgeryFailsAgainstTheCensussKey() throws {
        var export = try SignedCertification(reports: [Self.report(failing: true)], key: Self.key, signedAt: 1_790_000_100)
        #expect(!export.passed)
        // The forger flips the verdict and re-signs with a key of their own.
        export.reports[0].results[0].status = .pass
        let forged = try SignedCertification(reports: export.reports, key: Curve25519.Signing.PrivateKey(), signedAt: 1_790_000_100)
        #expect(SignedCertification.verify(exported: try forged.exportBytes(), trustedPublicKey: Self.publicKey) != .valid)
        // Or keeps the census's key in the file, but cannot sign for it.
        var relabelled = forged
        relabelled.signature.publicKey = Self.publicKey
        #expect(SignedCertification.verify(exported: try relabelled.exportBytes(), trustedPublicKey: Self.publicKey)
                == .failed("the signature does not match the reports"))
    }

    @Test(arguments: Backend.available)
    func theCensusSignsWithOneKeyItPublishes(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store, access: CensusAccess(token: "secret"))
            let batch = CertificationRouteTests.batch()
            let app = Application(router: server.router())
            try await app.test(.router) { client in
                // In parts of 150 entries, as the SDK sends a trace.
                for start in stride(from: 0, to: batch.entries.count, by: 150) {
                    let part = CallTraceBatch(session: batch.session, appid: batch.appid, sdk: batch.sdk,
                                              entries: Array(batch.entries[start..<min(start + 150, batch.entries.count)]))
                    try await client.execute(uri: WireRoute.trace, method: .post, body: CertificationRouteTests.body(part)) { response in
                        #expect(response.status == .ok)
                    }
                }
                // The key is open: whoever is handed an export can check it.
                let published = try await client.execute(uri: "/certification/key", method: .get) { response in
                    #expect(response.status == .ok)
                    return try JSONDecoder().decode(CertificationKeyInfo.self, from: Data(buffer: response.body))
                }
                #expect(published.algorithm == "Ed25519")
                #expect(published.publicKey == (try await store.traces.signingKey().publicKey.rawRepresentation.base64EncodedString()))
                try await client.execute(uri: "/api/v1/certification?session=s-1", method: .get,
                                         headers: [.authorization: "Bearer secret"]) { response in
                    #expect(response.status == .ok)
                    let signed = try JSONDecoder().decode(SignedCertification.self, from: Data(buffer: response.body))
                    #expect(signed.passed)
                    #expect(signed.verify(trustedPublicKey: published.publicKey) == .valid)
                    #expect(SignedCertification.verify(exported: try signed.exportBytes(), trustedPublicKey: published.publicKey) == .valid)
                }
            }
            // The same key after a restart (a second server on the same database).
            let again = try await CensusServer(store: store).store.traces.signingKey()
            #expect(again.rawRepresentation == (try await store.traces.signingKey().rawRepresentation))
        }
    }
}
