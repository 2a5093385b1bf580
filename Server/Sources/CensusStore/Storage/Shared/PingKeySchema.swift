import SQLKit

/// Schema 14: ping keys from `<appid>/<pingid>` (schema 10) to `<pingid>/<tag of the appid>`
/// (``PingKey``), so that a ping delivered before the upgrade and again after it is still a
/// duplicate.
///
/// Every key moves in a statement whose rows are checked one at a time against the unique index,
/// and a sender chose both halves of every old key, so a new key could equal an old one still
/// waiting its turn. Each table's keys are therefore first prefixed with a marker that no key
/// contains (drawn at random and checked): a prefixed key then never equals a new one, and new
/// keys never equal each other.
enum PingKeySchema {
    static func compactPingKeys(_ db: CensusSQL) async throws {
        for table in ["census_pings", "census_viewability"] {
            let marker = try await unusedMarker(in: table, db)
            try await db.raw("UPDATE \(ident: table) SET ping_id = \(bind: marker) || ping_id").run()
            let apps = try await db.raw("SELECT DISTINCT appid FROM \(ident: table)").all()
                .map { try $0.decode(column: "appid", as: String.self) }
            // The database counts the appid's characters itself (`length`), as `substr` counts them.
            let markerLength = String(marker.utf8.count)
            for appid in apps {
                try await db.raw("""
                    UPDATE \(ident: table) SET ping_id = substr(ping_id, \(unsafeRaw: markerLength) + length(appid) + 2) || \(bind: "/" + AppTag.of(appid))
                    WHERE appid = \(bind: appid)
                      AND substr(ping_id, 1, \(unsafeRaw: markerLength) + length(appid) + 1) = \(bind: marker + appid + "/")
                    """).run()
            }
            // Keys that were not `<appid>/…` (no census stored any) keep the marker: unique still.
        }
        // As in schema 10: AMP page views forget the keys of their last replay, whose next replay
        // deletes through the session's spans once.
        try await db.raw("DELETE FROM census_amp_page_views").run()
    }

    /// A string of 14 characters found in no key of `table`.
    private static func unusedMarker(in table: String, _ db: CensusSQL) async throws -> String {
        let find = db.engine.findFunction
        while true {
            let marker = "~" + String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! }) + "~"
            let found = try await db.raw("""
                SELECT 1 AS found FROM \(ident: table) WHERE \(unsafeRaw: find)(ping_id, \(bind: marker)) > 0 LIMIT 1
                """).first()
            if found == nil { return marker }
        }
    }
}
