import Crypto
import Foundation
import SQLKit

/// What became of an AMP cloud-API request the replay did not refuse (docs/protocol.md §2e).
package enum AMPRecording: Sendable, Equatable {
    /// Stored, and its page view's pings replaced by its replay's (`count` of them).
    case stored(pings: Int)
    /// Already stored: its page view's pings already count it (census-decisions.md AMP5).
    case duplicate
    /// New, but its page view already holds ``AMPStore/maxEventsPerPageView`` requests: neither
    /// stored nor credited (census-decisions.md AMP5).
    case notCredited
}

/// Google AMP's cloud-API requests (`census_amp_events`), each replayed with its page view's
/// (``AMPPageViewReplay``) into the page view's pings. A ``PingStore``'s ``PingStore/amp``.
package struct AMPStore: Sendable {
    /// The database.
    let database: any CensusDatabase
    /// The AMP page views' last replays, carried forward (census-decisions.md AMP8): the
    /// ``PingStore``'s, shared by its copies.
    let ampReplays: AMPReplayCache
    /// The apps' settings, which give a page view's replay its duration-ping interval.
    let apps: AppStore

    /// The most requests one AMP page view is credited from: four hours of AMP's 10 s timer
    /// (census-decisions.md AMP5).
    package static let maxEventsPerPageView = 1_440

    /// Replays `event` with its page view's stored events and, when the replay succeeds, stores
    /// it and replaces the page view's pings with the replay's: the same events always give the
    /// same pings, so retries and requests arriving out of order credit the page view once. A
    /// request already stored is not replayed again, and a new one past
    /// ``maxEventsPerPageView`` is neither stored nor replayed (census-decisions.md AMP5). A
    /// request the replay refuses is not stored, so it cannot poison the page view's later
    /// requests. The pings are replaced before the request is stored, so that a failure between
    /// the two leaves it unstored and its retry replays again. On PostgreSQL the page view is
    /// locked for the transaction, so servers sharing the database cannot interleave two replays
    /// of one page view; one server replays a page view at a time (``AMPIngest``).
    ///
    /// Each request's `utc` is read within the window around its receipt (``SenderClock``,
    /// census-decisions.md S42): the replay dates the page view's pings by it, and they widen its
    /// session's span and order the sessions list. The body keeps the `utc` as sent.
    package func recordAMP(_ sent: AMPCloudEvent, receivedAt: Int64) async throws -> Result<AMPRecording, PingRejection> {
        var held = sent
        held.utcMillis = SenderClock.held(milliseconds: sent.utcMillis, receivedAt: receivedAt)
        let event = held
        let settings = try await apps.settings(for: event.appID)
        let replays = ampReplays
        let (result, state) = try await database.withSQL { db in
            try await db.inTransactionHoldingLock(on: event.pageView) { () -> (Result<AMPRecording, PingRejection>, AMPReplayState?) in
                // Taken out until this request's writes are done: a failure leaves nothing to carry forward.
                let cached = replays.take(event.pageView)
                let eventID = Self.eventID(event)
                if try await db.select().column("event_id").from("census_amp_events")
                    .where("event_id", .equal, eventID).first() != nil {
                    return (.success(.duplicate), cached)
                }
                let held = try await db.select().column(SQLRaw("COUNT(*)"), as: "events").from("census_amp_events")
                    .where("page_view", .equal, event.pageView).first()?.decode(column: "events", as: Int64.self) ?? 0
                guard held < Self.maxEventsPerPageView else { return (.success(.notCredited), cached) }
                // Carried forward only from a state of every stored event: events are never deleted,
                // so one another server stored since shows in the count (census-decisions.md AMP8).
                if let cached, Int64(cached.events) == held,
                   let carried = AMPPageViewReplay.continuing(cached, with: event, receivedAt: receivedAt,
                                                              durationPingInterval: settings.durationPingInterval) {
                    switch carried {
                    case .failure(let rejection): return (.failure(rejection), cached)
                    case .success(let (pings, state)):
                        try await Self.replaceChangedPings(of: event.pageViewKey, appid: event.appID, with: pings,
                                                           written: cached.written, receivedAt: receivedAt,
                                                           requests: state.requests.lowerBound / 1000...state.requests.upperBound / 1000,
                                                           replays: replays, db)
                        try await Self.store(event, id: eventID, receivedAt: receivedAt, db)
                        replays.count { $0.carriedForward += 1 }
                        return (.success(.stored(pings: pings.count)), state)
                    }
                }
                let events = try await db.select()
                    .columns("apid", "visit", "utc_ms", "request_index", "hidden", "body", "received_at")
                    .from("census_amp_events").where("page_view", .equal, event.pageView).all()
                    .map { row in
                        AMPCloudEvent(
                            apid: try row.decode(column: "apid", as: String.self),
                            visit: try row.decode(column: "visit", as: String.self),
                            body: try row.decode(column: "body", as: String.self),
                            // Held again: a request stored before the window was (census-decisions.md S42).
                            utcMillis: SenderClock.held(milliseconds: try row.decode(column: "utc_ms", as: Int64.self),
                                                        receivedAt: try row.decode(column: "received_at", as: Int64.self)),
                            hidden: try row.decode(column: "hidden", as: Int64.self) == 1,
                            index: try row.decode(column: "request_index", as: Int64.self))
                    }
                let isFirst = events.isEmpty
                let all = events + [event]
                switch AMPPageViewReplay.whole(all, receivedAt: receivedAt, durationPingInterval: settings.durationPingInterval) {
                case .failure(let rejection): return (.failure(rejection), nil)
                case .success(let (pings, state)):
                    // The replay's first and last `utc` (it took at least `event`).
                    let requests = state?.requests ?? event.utcMillis...event.utcMillis
                    try await Self.replacePings(of: event.pageViewKey, appid: event.appID, with: pings, receivedAt: receivedAt,
                                                requests: requests.lowerBound / 1000...requests.upperBound / 1000,
                                                isFirst: isFirst, db)
                    try await Self.store(event, id: eventID, receivedAt: receivedAt, db)
                    replays.count {
                        $0.eventsRead += events.count
                        $0.pingsWritten += pings.count
                        $0.wholeReplays += 1
                    }
                    return (.success(.stored(pings: pings.count)), state)
                }
            }
        }
        if let state { replays.keep(state, for: event.pageView) }
        return result
    }

    /// Stores `event`, once its page view's pings are replaced.
    private static func store(_ event: AMPCloudEvent, id eventID: String, receivedAt: Int64, _ db: any SQLDatabase) async throws {
        try await db.insert(into: "census_amp_events")
            .columns("event_id", "page_view", "apid", "visit", "utc_ms", "request_index", "hidden", "body", "received_at")
            .values(eventID, event.pageView, event.apid, event.visit, event.utcMillis, event.index,
                    event.hidden ? 1 : 0, event.body, receivedAt)
            .ignoringConflicts(with: "event_id").run()
    }

    /// Replaces a page view's pings carried forward (census-decisions.md AMP8): upserts only the
    /// `pings` that differ from `written` (what the last replay stored, typically all but the last
    /// one or two the same), deletes only those it no longer builds, and records the ids.
    static func replaceChangedPings(of session: String, appid: String, with pings: [IncomingPing], written: [IncomingPing],
                                    receivedAt: Int64, requests: ClosedRange<Int64>, replays: AMPReplayCache,
                                    _ db: CensusSQL) async throws {
        var before: [String: IncomingPing] = [:]
        for ping in written { before[ping.key] = ping }
        let changed = pings.filter { before[$0.key] != $0 }
        let built = pings.map(\.key)
        let kept = Set(built)
        let stale = written.map(\.key).filter { !kept.contains($0) }
        try await SessionSpans.write(SessionSpans.needs(of: changed), db)
        try await upsert(changed, receivedAt: receivedAt, db)
        try await deleteStale(stale, of: session, db)
        try await AMPReplayedPings.record(built, of: session, appid: appid, first: requests.lowerBound,
                                          last: requests.upperBound, db)
        replays.count {
            $0.pingsWritten += changed.count
            $0.pingsDeleted += stale.count
        }
    }

    /// Inserts `pings`, or updates every column but the receipt of those stored: each key is
    /// claimed first, and a ping stored before keeps its receipt (``PingLayout/claim(_:receivedAt:_:)``).
    static func upsert(_ pings: [IncomingPing], receivedAt: Int64, _ db: CensusSQL) async throws {
        guard !pings.isEmpty else { return }
        let receipts = try await db.engine.pings.claim(pings.map(\.key), receivedAt: receivedAt, db)
        var insert = db.insert(into: "census_pings").columns(PingStore.pingColumns)
        for ping in pings { insert = insert.values(PingStore.values(of: ping, receivedAt: receipts[ping.key] ?? receivedAt)) }
        try await insert.onConflict(with: db.engine.pings.conflictTarget) { update in
            var update = update
            for column in PingStore.pingColumns where column != "ping_id" && column != "received_at" {
                update = update.set(excludedValueOf: column)
            }
            return update
        }.run()
    }

    /// Deletes the pings of `session` with these keys, a chunk at a time (``PingLayout/rows(withKeys:_:)``).
    static func deleteStale(_ stale: [String], of session: String, _ db: CensusSQL) async throws {
        for start in stride(from: 0, to: stale.count, by: 500) {
            let chunk = Array(stale[start..<min(start + 500, stale.count)])
            try await deletePings(db.delete(from: "census_pings").where(try await db.engine.pings.rows(withKeys: chunk, db))
                .where("session_id", .equal, session), db)
        }
    }

    /// Runs `delete`, a delete of pings, and releases their keys (``PingLayout/release(_:_:)``).
    static func deletePings(_ delete: SQLDeleteBuilder, _ db: CensusSQL) async throws {
        let rows = try await delete.returning("ping_id", "received_at").all()
            .map { (key: try $0.decode(column: "ping_id", as: String.self), receipt: try $0.decode(column: "received_at", as: Int64.self)) }
        try await db.engine.pings.release(rows, db)
    }

    /// Identical requests share an id: the page view and a digest of the body.
    static func eventID(_ event: AMPCloudEvent) -> String {
        event.pageViewKey + "-" + AMPPageViewReplay.hex(SHA256.hash(data: Data(event.body.utf8)).prefix(16))
    }

    /// Upserts `pings` (the page view's session, of `appid`, its requests made over `requests`,
    /// Unix seconds) and deletes the session's pings the replay no longer builds: by the ids the
    /// last replay recorded (``AMPReplayedPings``), or, for a page view last replayed before they
    /// were recorded, through the app's span of the session (widened to cover its pings first).
    /// A page view's first request (`isFirst`) has no pings to delete, and reads nothing: the
    /// session's span may be one another sender widened with pings of its own.
    static func replacePings(of session: String, appid: String, with pings: [IncomingPing], receivedAt: Int64,
                             requests: ClosedRange<Int64>, isFirst: Bool, _ db: CensusSQL) async throws {
        try await SessionSpans.write(SessionSpans.needs(of: pings), db)
        try await upsert(pings, receivedAt: receivedAt, db)
        let built = pings.map(\.key)
        if let recorded = try await AMPReplayedPings.ids(of: session, db) {
            let kept = Set(built)
            let stale = recorded.filter { !kept.contains($0) }
            try await deleteStale(stale, of: session, db)
        } else if !isFirst {
            for span in try await SessionStore.spans(of: session, appid: appid, db) {
                var stale = db.delete(from: "census_pings").where(span.pings)
                if !pings.isEmpty { stale = stale.where("ping_id", .notIn, built) }
                try await deletePings(stale, db)
            }
        }
        try await AMPReplayedPings.record(built, of: session, appid: appid, first: requests.lowerBound,
                                          last: requests.upperBound, db)
    }
}
