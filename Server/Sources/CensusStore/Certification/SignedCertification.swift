package import Crypto
package import Foundation

/// Certification reports with the census's Ed25519 signature over all of them, verdict included:
/// what `GET /api/v1/certification` answers and `meter certify --export` writes.
///
/// The per-report SHA-256 only names a report: anyone who edits a report can recompute it. The
/// signature can only be made with the census's private key, and is checked against the public
/// key the census publishes (`GET /certification/key`), never against the key in the file.
package struct SignedCertification: Sendable, Equatable, Codable {
    /// The reports, each with its SHA-256.
    package var reports: [CertificationReport]
    /// True when no report has a failing rule.
    package var passed: Bool
    /// Who signed, when, and the signature over the rest.
    package var signature: CertificationSignature

    /// Signs `reports` with `key` at `signedAt` (Unix seconds).
    package init(reports: [CertificationReport], key: Curve25519.Signing.PrivateKey, signedAt: Int64) throws {
        self.reports = reports
        self.passed = reports.allSatisfy(\.passed)
        let publicKey = key.publicKey.rawRepresentation.base64EncodedString()
        let content = SignedContent(reports: reports, passed: passed, publicKey: publicKey, signedAt: signedAt)
        let value = try key.signature(for: try Self.canonical(content)).base64EncodedString()
        signature = CertificationSignature(publicKey: publicKey, signedAt: signedAt, value: value)
    }

    /// The file `meter certify --export` writes: sorted keys, indented, one final newline. Only
    /// this form verifies, so that no byte of an export can change without failing.
    package func exportBytes() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Checks an exported file against the census's public key (raw 32 bytes, base64).
    package static func verify(exported bytes: Data, trustedPublicKey: String) -> CertificationVerification {
        guard let export = try? JSONDecoder().decode(SignedCertification.self, from: bytes) else {
            return .failed("not a certification export")
        }
        guard (try? export.exportBytes()) == bytes else {
            return .failed("the file is not as `meter certify --export` wrote it (bytes were edited)")
        }
        return export.verify(trustedPublicKey: trustedPublicKey)
    }

    /// Checks the signature and every report against the census's public key.
    package func verify(trustedPublicKey: String) -> CertificationVerification {
        guard signature.algorithm == CertificationSignature.ed25519 else {
            return .failed("signed with \(signature.algorithm), not \(CertificationSignature.ed25519)")
        }
        guard signature.publicKey == trustedPublicKey,
              let keyBytes = Data(base64Encoded: trustedPublicKey),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes) else {
            return .failed("signed by another key than the census's (\(signature.publicKey.prefix(16))…)")
        }
        let content = SignedContent(reports: reports, passed: passed, publicKey: signature.publicKey,
                                    signedAt: signature.signedAt)
        guard let signed = try? Self.canonical(content), let value = Data(base64Encoded: signature.value),
              key.isValidSignature(value, for: signed) else {
            return .failed("the signature does not match the reports")
        }
        // A valid signature already covers these; checked again so a census's own bug shows.
        if let altered = reports.first(where: { !$0.isIntact }) {
            return .failed("report of session \(altered.session) does not match its SHA-256")
        }
        guard passed == reports.allSatisfy(\.passed) else { return .failed("the verdict does not follow from the reports") }
        return .valid
    }

    /// What is signed: everything in the export but the signature value.
    private struct SignedContent: Encodable {
        let reports: [CertificationReport]
        let passed: Bool
        let publicKey: String
        let signedAt: Int64
    }

    private static func canonical(_ content: SignedContent) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(content)
    }
}

/// The signature of a ``SignedCertification``.
package struct CertificationSignature: Sendable, Equatable, Codable {
    /// The only algorithm the census signs with.
    package static let ed25519 = "Ed25519"

    /// Always ``ed25519``.
    package var algorithm: String
    /// The signer's public key: raw 32 bytes, base64.
    package var publicKey: String
    /// When it was signed, Unix seconds.
    package var signedAt: Int64
    /// The signature: 64 bytes, base64.
    package var value: String

    init(publicKey: String, signedAt: Int64, value: String) {
        self.algorithm = Self.ed25519
        self.publicKey = publicKey
        self.signedAt = signedAt
        self.value = value
    }
}

/// The outcome of checking an export.
package enum CertificationVerification: Sendable, Equatable {
    /// Signed by the trusted key, and nothing changed since.
    case valid
    /// Why it does not verify.
    case failed(String)
}

/// `GET /certification/key`: the public key certification exports are signed with.
package struct CertificationKeyInfo: Sendable, Equatable, Codable {
    /// Always ``CertificationSignature/ed25519``.
    package var algorithm: String
    /// Raw 32 bytes, base64.
    package var publicKey: String

    /// The answer for `publicKey` (raw 32 bytes, base64).
    package init(publicKey: String) {
        self.algorithm = CertificationSignature.ed25519
        self.publicKey = publicKey
    }
}
