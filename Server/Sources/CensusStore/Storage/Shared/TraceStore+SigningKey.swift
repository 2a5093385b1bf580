package import Crypto
import Foundation
import SQLKit

extension TraceStore {
    /// The census's Ed25519 key for certification exports, made on first use and kept in the
    /// database, so that exports stay verifiable across restarts and every server of one
    /// PostgreSQL census signs with one key.
    package func signingKey() async throws -> Curve25519.Signing.PrivateKey {
        let fresh = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
        let now = clock.seconds()
        let stored: Data = try await database.withSQL { db in
            // Two servers starting together: the first insert wins, both read what it wrote. Never
            // signed with before it is committed (census-decisions.md S48).
            try await db.inTransaction {
                try await db.insert(into: "census_signing_key").columns("id", "private_key", "created_at")
                    .values(1, fresh, now)
                    .ignoringConflicts(with: "id")
                    .run()
            }
            guard let row = try await db.select().column("private_key").from("census_signing_key")
                .where("id", .equal, 1).first(),
                let raw = Data(base64Encoded: try row.decode(column: "private_key", as: String.self)) else {
                throw CensusError.signingKeyUnreadable
            }
            return raw
        }
        do {
            return try Curve25519.Signing.PrivateKey(rawRepresentation: stored)
        } catch {
            throw CensusError.signingKeyUnreadable
        }
    }

    /// Signs `reports` with the census's key, dated `now` (Unix seconds; by default the store's clock).
    package func signed(_ reports: [CertificationReport], at now: Int64? = nil) async throws -> SignedCertification {
        try SignedCertification(reports: reports, key: try await signingKey(), signedAt: now ?? clock.seconds())
    }

    /// The table of migration 13.
    static func createSigningKeyTable(_ db: CensusSQL) async throws {
        try await db.create(table: "census_signing_key").ifNotExists()
            .column("id", type: .bigint, .primaryKey(autoIncrement: false))
            .column("private_key", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        // Every text column compares as bytes on PostgreSQL too (census-decisions.md S18).
        try await db.engine.makeTextByteOrdered(db)
    }
}
