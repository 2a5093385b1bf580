@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Logging
import SQLKit
import Testing

/// Pings kept by week on PostgreSQL, in one table on SQLite (census-decisions.md S53): a retry is
/// a duplicate whatever week it comes in, retention takes whole weeks and leaves the kept range's
/// report as it was, and a database of schema 17 keeps every ping when partitioned.
@Suite struct PingPartitionTests {
    /// 2026-11-30, a Monday, 00:00 UTC.
    static let monday: Int64 = 1_795_996_800
    static let day: Int64 = 86_400
    static let week: Int64 = 7 * day

    static func ping(_ id: String, at seconds: Int64, device: String = "d") -> IncomingPing {
        var ping = SessionSpanTests.ping(id, "s-\(id)", at: seconds)
        ping.deviceID = device
        return ping
    }

    @Test func aWeekRunsFromMondayAndIsNamedAfterIt() {
        let week = PingWeek(containing: (Self.monday + 3 * Self.day) * 1000)
        #expect(week.start == Self.monday * 1000)
        #expect(week.end == (Self.monday + Self.week) * 1000)
        #expect(week.partitionName == "census_pings_w20261130")
        #expect(PingWeek(containing: Self.monday * 1000 - 1).partitionName == "census_pings_w20261123")
        #expect(PingWeek(containing: 0).partitionName == "census_pings_w19691229")
        #expect(PingWeek(containing: -1).start == -259_200_000)
        #expect(PingWeek(containing: .min).partitionName == "census_pings_w00010101")
        #expect(PingWeek(containing: .max).partitionName == "census_pings_w99991227")
        for name in ["census_pings_w20261130", "census_pings_w19691229", "census_pings_w00010101"] {
            #expect(PingWeek(partitionName: name)?.partitionName == name)
        }
        // Not a Monday, not a date, not a week's name.
        for name in ["census_pings_w20261201", "census_pings_w20261399", "census_pings_w2026113", "census_pings_default",
                     "census_pings_w+0261130", "census_pings_w２０２６1130"] {
            #expect(PingWeek(partitionName: name) == nil, "\(name)")
        }
    }

    /// A ping delivered again weeks later, into another partition, is still a duplicate, in a
    /// batch of new pings too (whose statement then skips it).
    @Test(arguments: Backend.available)
    func aRetryInALaterWeekIsADuplicate(_ backend: Backend) async throws {
        let clock = ManualCensusClock(seconds: Self.monday)
        try await backend.withStore(clock: clock) { (store: PingStore) async throws in
            #expect(try await store.insert([Self.ping("p1", at: Self.monday)], receivedAt: Self.monday * 1000) == [Self.ping("p1", at: 0).key])
            clock.advance(seconds: 3 * Self.week)
            await store.maintainPartitions()
            #expect(try await store.insert([Self.ping("p1", at: Self.monday)], receivedAt: clock.milliseconds()).isEmpty)
            let batch = [Self.ping("p2", at: Self.monday), Self.ping("p1", at: Self.monday), Self.ping("p2", at: Self.monday)]
            #expect(try await store.insert(batch, receivedAt: clock.milliseconds()) == [Self.ping("p2", at: 0).key])
            #expect(try await store.counts().pings == 2)
        }
    }

    /// Retention removes the weeks wholly before the cutoff's week on PostgreSQL (dropping their
    /// partitions), the pings before the cutoff on SQLite; what is kept reports as before, and a
    /// ping removed is stored again if it comes back, on both.
    @Test(arguments: Backend.available)
    func retentionTakesWholeWeeksAndLeavesTheKeptRangesReport(_ backend: Backend) async throws {
        let clock = ManualCensusClock(seconds: Self.monday)
        try await backend.withStore(clock: clock) { (store: PingStore) async throws in
            var sent: [(IncomingPing, Int64)] = []
            for offset in stride(from: 0, to: 4 * Self.week, by: Int(Self.day / 2)) {
                sent.append((Self.ping("p\(offset)", at: Self.monday + offset), Self.monday + offset))
            }
            for (ping, at) in sent {
                clock.set(seconds: at)
                await store.maintainPartitions()
                #expect(try await store.insert([ping], receivedAt: at * 1000).count == 1)
            }
            let cutoff = Self.monday + 2 * Self.week + 3 * Self.day
            let kept = ReportQuery(from: backend == .postgres ? Self.monday + 2 * Self.week : cutoff)
            let before = try await store.reports.report(kept)
            let removed = try await store.prune(before: 0, pingsBefore: cutoff * 1000)
            let expected = sent.filter { $0.1 < (backend == .postgres ? Self.monday + 2 * Self.week : cutoff) }.count
            #expect(removed == expected)
            #expect(try await store.counts().pings == Int64(sent.count - expected))
            #expect(try await store.reports.report(kept) == before)
            #expect(try await store.reports.report(ReportQuery()) == before)
            if backend == .postgres {
                let weeks = try await Self.tables(store, like: "census_pings_w")
                #expect(!weeks.contains("census_pings_w20261130") && !weeks.contains("census_pings_w20261207"), "\(weeks)")
                #expect(weeks.contains("census_pings_w20261214"), "\(weeks)")
                #expect(try await Self.count(store, "census_ping_keys") == Int64(sent.count - expected))
            }
            #expect(try await store.insert([sent[0].0], receivedAt: clock.milliseconds()).count == 1, "a removed ping's key is released")
        }
    }

    /// A week detached by a prune that stopped before dropping it is finished by the next prune:
    /// its keys are released and the table dropped.
    @Test func aWeekLeftDetachedIsFinishedByTheNextPrune() async throws {
        guard Backend.postgresURL != nil else { return }
        let clock = ManualCensusClock(seconds: Self.monday)
        try await Backend.postgres.withStore(clock: clock) { (store: PingStore) async throws in
            let pings = (0..<50).map { Self.ping("p\($0)", at: Self.monday + Int64($0)) }
            _ = try await store.insert(pings, receivedAt: Self.monday * 1000)
            try await store.database.withSQL { db in
                try await db.raw("ALTER TABLE census_pings DETACH PARTITION census_pings_w20261130").run()
            }
            #expect(try await store.counts().pings == 0)
            #expect(try await store.prune(before: 0, pingsBefore: 0) == 50)
            #expect(try await Self.tables(store, like: "census_pings_w20261130").isEmpty)
            #expect(try await Self.count(store, "census_ping_keys") == 0)
        }
    }

    /// A reader holding `census_pings` (a long report) does not make retention wait, nor the
    /// inserts queued behind it: the week's detach gives up after its lock timeout and is done at
    /// a later round.
    @Test func aReaderHoldingThePingsDefersAWeeksDetach() async throws {
        guard Backend.postgresURL != nil else { return }
        let clock = ManualCensusClock(seconds: Self.monday)
        try await Backend.postgres.withStore(clock: clock) { store in
            _ = try await store.insert([Self.ping("old", at: Self.monday)], receivedAt: Self.monday * 1000)
            let reading = Gate(), release = Gate()
            let reader = Task {
                try await store.database.withSQL { db in
                    try await db.raw("BEGIN").run()
                    _ = try await db.raw("SELECT count(*) AS n FROM census_pings").all()
                    reading.open()
                    await release.wait()
                    try await db.raw("COMMIT").run()
                }
            }
            await reading.wait()
            let started = ContinuousClock.now
            #expect(try await store.prune(before: 0, pingsBefore: (Self.monday + Self.week) * 1000) == 0)
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(try await Self.tables(store, like: "census_pings_w20261130") == ["census_pings_w20261130"])
            release.open()
            try await reader.value
            #expect(try await store.prune(before: 0, pingsBefore: (Self.monday + Self.week) * 1000) == 1)
            #expect(try await store.counts().pings == 0)
        }
    }

    /// Pings looked up by key (a trace's pings, an AMP page view's) are read through one week's
    /// primary key each, never by scanning every week.
    @Test func aPingIsLookedUpByKeyInItsWeekAlone() async throws {
        guard Backend.postgresURL != nil else { return }
        let clock = ManualCensusClock(seconds: Self.monday)
        try await Backend.postgres.withStore(clock: clock) { store in
            _ = try await store.insert([Self.ping("a", at: Self.monday)], receivedAt: Self.monday * 1000)
            clock.advance(seconds: Self.week)
            await store.maintainPartitions()
            _ = try await store.insert([Self.ping("b", at: Self.monday)], receivedAt: clock.milliseconds())
            #expect(try await store.traces.pings(ids: ["a", "b", "missing"], appid: "PAPP").map(\.pingID) == ["a", "b"])
            let plan = try await store.database.withSQL { db in
                let select = db.select().column("*").from("census_pings")
                    .where(try await db.engine.pings.rows(withKeys: [Self.ping("b", at: 0).key], db))
                // A week of one row is read whole; the question is whether an index can serve it.
                try await db.raw("SET enable_seqscan = off").run()
                let lines = try await db.raw("EXPLAIN \(select.select)").all()
                    .map { try $0.decode(column: "QUERY PLAN", as: String.self) }
                try await db.raw("RESET enable_seqscan").run()
                return lines
            }
            #expect(plan.contains { $0.contains("census_pings_w20261207_pkey") }, "\(plan)")
            #expect(!plan.contains { $0.contains("census_pings_w20261130") || $0.contains("Seq Scan") }, "\(plan)")
        }
    }

    /// A ping received in a week not made yet goes to the default partition, and moves to its
    /// week when the week is made; it stays one ping.
    @Test func aPingOutsideEveryWeekIsKeptAndMovesToItsWeek() async throws {
        guard Backend.postgresURL != nil else { return }
        let clock = ManualCensusClock(seconds: Self.monday)
        try await Backend.postgres.withStore(clock: clock) { (store: PingStore) async throws in
            let far = Self.monday + 10 * Self.week
            #expect(try await store.insert([Self.ping("far", at: far)], receivedAt: far * 1000).count == 1)
            #expect(try await Self.count(store, "census_pings_default") == 1)
            clock.set(seconds: far)
            await store.maintainPartitions()
            #expect(try await Self.count(store, "census_pings_default") == 0)
            #expect(try await Self.count(store, PingWeek(containing: far * 1000).partitionName) == 1)
            #expect(try await store.insert([Self.ping("far", at: far)], receivedAt: far * 1000 + 1).isEmpty)
            #expect(try await store.counts().pings == 1)
        }
    }

    /// A database of schema 17 (one table keyed by ping) is partitioned with every ping in its
    /// week, their keys claimed, and the same report; each ping is a duplicate of itself after.
    @Test(arguments: Backend.available)
    func theMigrationKeepsEveryPingAndItsReport(_ backend: Backend) async throws {
        let clock = ManualCensusClock(seconds: Self.monday)
        try await backend.withFreshDatabase { location in
            let database = try await location.open(logger: Logger(label: "test"))
            do {
                try await database.withSQL { try await Schema.migrate($0, through: 17) }
                let receipts: [Int64] = [Self.monday - 30 * Self.day, Self.monday - Self.day, Self.monday, Self.monday + Self.week, 0]
                var pings: [IncomingPing] = []
                for (index, receipt) in receipts.enumerated() {
                    let batch = (0..<20).map { Self.ping("m\(index)-\($0)", at: receipt + Int64($0), device: "d\($0 % 3)") }
                    try await database.insertAsOlderSchema(batch, receivedAt: receipt * 1000) { $0.key }
                    pings += batch
                }
                let older = PingStore(database: database, clock: clock)
                let before = try await older.reports.report(ReportQuery())
                try await older.migrate()
                #expect(try await older.counts().pings == Int64(pings.count))
                #expect(try await older.reports.report(ReportQuery()) == before)
                if backend == .postgres {
                    #expect(try await Self.count(older, "census_ping_keys") == Int64(pings.count))
                    #expect(try await Self.count(older, "census_pings_default") == 0)
                    let weeks = try await Self.tables(older, like: "census_pings_w")
                    for receipt in receipts {
                        #expect(weeks.contains(PingWeek(containing: receipt * 1000).partitionName), "\(weeks)")
                    }
                }
                for ping in pings.prefix(25) {
                    #expect(try await older.insert([ping], receivedAt: clock.milliseconds()).isEmpty, "\(ping.pingID) stored twice")
                }
            } catch {
                await database.close()
                throw error
            }
            await database.close()
        }
    }

    /// A device's deletion releases its pings' keys, so that a ping of it delivered again is
    /// stored again, as where the key is the row's.
    @Test(arguments: Backend.available)
    func aDeviceDeletionReleasesItsKeys(_ backend: Backend) async throws {
        try await backend.withStore(clock: ManualCensusClock(seconds: Self.monday)) { (store: PingStore) async throws in
            let mine = Self.ping("mine", at: Self.monday, device: "gone")
            _ = try await store.insert([mine, Self.ping("other", at: Self.monday)], receivedAt: Self.monday * 1000)
            #expect(try await store.privacy.deleteDevice("gone").pings == 1)
            #expect(try await store.insert([mine], receivedAt: Self.monday * 1000 + 5).count == 1)
            if backend == .postgres { #expect(try await Self.count(store, "census_ping_keys") == 2) }
        }
    }

    static func tables(_ store: PingStore, like prefix: String) async throws -> [String] {
        try await store.database.withSQL { db in
            try await db.raw("SELECT relname::text AS name FROM pg_class WHERE relkind = 'r' AND starts_with(relname::text, \(bind: prefix))")
                .all().map { try $0.decode(column: "name", as: String.self) }
        }
    }

    static func count(_ store: PingStore, _ table: String) async throws -> Int64 {
        try await store.database.withSQL { db in
            try await db.raw("SELECT count(*) AS n FROM \(ident: table)").first()?.decode(column: "n", as: Int64.self) ?? -1
        }
    }
}

extension PingStore {
    /// The round of upkeep's partition work (``preparePings()``), failing the test if it fails.
    func maintainPartitions() async {
        do { try await preparePings() } catch { Issue.record("preparing partitions: \(error)") }
    }
}
