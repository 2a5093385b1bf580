import SQLKit

/// One device's data, for the GDPR's access and erasure rights (`meter privacy export|delete`):
/// its pings (`device_id`, which is `c9`'s device id or a browser's `nuid`), the viewability
/// pings and session spans of its sessions, and the refused requests and call-trace entries whose
/// text carries its id. Pings have no index by device: each call scans the table once (about a
/// second per million pings on SQLite), which an operator's rare request can afford and ingest's
/// rate could not. A ``PingStore``'s ``PingStore/privacy``.
package struct PrivacyStore: Sendable {
    /// The database.
    let database: any CensusDatabase

    /// The shortest device id taken: a shorter one, matched inside refused requests' and traces'
    /// text, could name other devices' data.
    package static let minimumDeviceIDLength = 8

    /// What the census holds of one device.
    package struct DeviceData: Sendable, Codable, Equatable {
        /// The device id asked for.
        package var device: String
        /// Its pings, oldest first.
        package var pings: [StoredPing]
        /// The viewability pings of its sessions (their bodies, as received).
        package var viewability: [String]
        /// Refused requests whose text carries the id (the reason, then the request as received).
        package var rejects: [String]
        /// Call-trace entries whose text carries the id (JSON, as received).
        package var traceEntries: [String]
    }

    /// How many rows of each kind a deletion removed.
    package struct DeviceDeletion: Sendable, Codable, Equatable {
        /// Pings.
        package var pings = 0
        /// Viewability pings of the device's sessions.
        package var viewability = 0
        /// Session spans left without a ping.
        package var sessionSpans = 0
        /// Refused requests carrying the id.
        package var rejects = 0
        /// Call-trace entries carrying the id.
        package var traceEntries = 0
    }

    /// Everything stored of `device`.
    package func deviceData(_ device: String) async throws -> DeviceData {
        try await database.withSQL { db in
            let find = db.engine.findFunction
            let pings = try await db.select().columns(StoredPing.columns)
                .from("census_pings").where("device_id", .equal, device).orderBy("created_at").all()
                .map(StoredPing.init(reading:))
            var viewability: [String] = []
            for session in try await Self.sessions(of: device, db) {
                viewability += try await db.select().column("body").from("census_viewability")
                    .where("session_id", .equal, session.session).where("appid", .equal, session.appid).all()
                    .map { try $0.decode(column: "body", as: String.self) }
            }
            let rejects = try await db.select().columns("reason", "raw_request").from("census_rejects")
                .where(SQLFunction(find, args: SQLColumn("raw_request"), SQLBind(device)), .greaterThan, SQLLiteral.numeric("0"))
                .orderBy("received_at").all()
                .map { try $0.decode(column: "reason", as: String.self) + "\n" + $0.decode(column: "raw_request", as: String.self) }
            let traces = try await db.select().column("entry").from("census_trace")
                .where(SQLFunction(find, args: SQLColumn("entry"), SQLBind(device)), .greaterThan, SQLLiteral.numeric("0"))
                .orderBy("call_time").all()
                .map { try $0.decode(column: "entry", as: String.self) }
            return DeviceData(device: device, pings: pings, viewability: viewability, rejects: rejects, traceEntries: traces)
        }
    }

    /// Deletes everything stored of `device`, each kind in its own statement, pings last, in one
    /// transaction on PostgreSQL; on SQLite, stopped half-way, a second run finishes it.
    package func deleteDevice(_ device: String) async throws -> DeviceDeletion {
        try await database.withCommittedSQL { db in
            let find = db.engine.findFunction
            var deleted = DeviceDeletion()
            let sessions = try await Self.sessions(of: device, db)
            for session in sessions {
                deleted.viewability += try await db.delete(from: "census_viewability")
                    .where("session_id", .equal, session.session).where("appid", .equal, session.appid)
                    .returning("ping_id").all().count
            }
            deleted.rejects = try await db.delete(from: "census_rejects")
                .where(SQLFunction(find, args: SQLColumn("raw_request"), SQLBind(device)), .greaterThan, SQLLiteral.numeric("0"))
                .returning("reject_id").all().count
            deleted.traceEntries = try await db.delete(from: "census_trace")
                .where(SQLFunction(find, args: SQLColumn("entry"), SQLBind(device)), .greaterThan, SQLLiteral.numeric("0"))
                .returning("seq").all().count
            let rows = try await db.delete(from: "census_pings").where("device_id", .equal, device)
                .returning("ping_id", "received_at").all()
                .map { (key: try $0.decode(column: "ping_id", as: String.self), receipt: try $0.decode(column: "received_at", as: Int64.self)) }
            try await db.engine.pings.release(rows, db)
            deleted.pings = rows.count
            // A session's span goes with its last ping (another device's pings in it keep it).
            for session in sessions {
                let left = try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_pings")
                    .where("session_id", .equal, session.session).where("appid", .equal, session.appid).first()?
                    .decode(column: "n", as: Int64.self) ?? 0
                guard left == 0 else { continue }
                deleted.sessionSpans += try await db.delete(from: "census_sessions")
                    .where("session_id", .equal, session.session).where("appid", .equal, session.appid)
                    .returning("session_id").all().count
            }
            return deleted
        }
    }

    /// The (session, app) pairs of `device`'s pings.
    private static func sessions(of device: String, _ db: CensusSQL) async throws -> [(session: String, appid: String)] {
        try await db.select().distinct().columns("session_id", "appid").from("census_pings")
            .where("device_id", .equal, device).where("session_id", .notEqual, "").all()
            .map { (try $0.decode(column: "session_id", as: String.self), try $0.decode(column: "appid", as: String.self)) }
    }
}
