@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import SQLKit
import Testing

/// What an AMP request costs the census however its page view was fed (census-decisions.md
/// AMP5–AMP7): counted in pings built and events replayed, not timed.
@Suite struct AMPReplayCostTests {
    static let apid = "0B1E6B8A-3C5D-4E7F-8A9B-0C1D2E3F4A5B"
    static let start: Int64 = 1_700_000_000_000

    static func event(_ index: Int, at utc: Int64, visit: String = "c_1", hidden: Bool = false) -> AMPCloudEvent {
        let data = hidden ? #","data":{"hidden":1}"# : ""
        let body = #"{"type":"static","metadata":{"static":{"type":"static","section":"S","assetid":"1"}},"event":"playhead","utc":\#(utc),"index":\#(index)\#(data)}"#
        guard case .success(let event) = AMPCloudEvent.parse(apid: apid, visit: visit, body: body) else {
            fatalError("the test's AMP event is malformed")
        }
        return event
    }

    static func pageView(_ count: Int, every milliseconds: Int64, from first: Int64 = start) -> [AMPCloudEvent] {
        (0..<count).map { event($0, at: first + Int64($0) * milliseconds) }
    }

    static func replay(_ events: [AMPCloudEvent]) throws -> [IncomingPing] {
        try AMPPageViewReplay.pings(for: events, durationPingInterval: 60).get()
    }

    /// 150 requests 29 minutes apart (each gap under the 30-minute rule, so all of it visible)
    /// credit their 12 s each and build a ping a minute for those seconds, as honest requests
    /// do, and one gap's more: not the 72 hours' 4,350 the whole replay built. The replay ends
    /// once the page view's credit is spent.
    @Test func aPageViewSentHalfAnHourApartBuildsPingsForItsCreditOnly() throws {
        let honest = try Self.replay(Self.pageView(150, every: 10_000))
        #expect(honest.reduce(0) { $0 + $1.creditedSeconds } == 149 * 10)
        #expect(honest.count <= 1490 / 60 + 2, "\(honest.count) pings")
        for requests in [150, 300] {
            let stretched = try Self.replay(Self.pageView(requests, every: 29 * 60_000))
            let credit = Int64(requests) * AMPPageViewReplay.pageViewBound(events: 1)
            #expect(stretched.reduce(0) { $0 + $1.creditedSeconds } == credit)
            // A ping a minute for the credit, one 29-minute gap's, the view and the last.
            #expect(stretched.count <= Int(credit / 60) + 29 + 2, "\(stretched.count) pings for \(requests) requests")
        }
    }

    /// Ending early changes no credit: every ping both replays build is the same ping, and the
    /// whole replay's later pings credit nothing.
    @Test func endingEarlyCreditsWhatTheWholeReplayCredits() throws {
        var events = Self.pageView(20, every: 10_000)
        events += (0..<5).map { Self.event(20 + $0, at: Self.start + 200_000 + Int64($0) * 29 * 60_000) }
        let pings = try Self.replay(events)
        #expect(pings.reduce(0) { $0 + $1.creditedSeconds } == AMPPageViewReplay.pageViewBound(events: 25))
        let ids = pings.map(\.pingID)
        #expect(Set(ids).count == ids.count)
    }

    /// A page view holding its limit of requests: a new one is neither stored nor replayed, a
    /// retry of a stored one is a duplicate, and neither changes its pings.
    @Test(arguments: Backend.available)
    func aPageViewPastItsLimitIsNotCredited(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let held = Self.pageView(AMPStore.maxEventsPerPageView - 1, every: 10_000)
            try await store.database.withSQL { db in
                var insert = db.insert(into: "census_amp_events")
                    .columns("event_id", "page_view", "apid", "visit", "utc_ms", "request_index", "hidden", "body", "received_at")
                for event in held {
                    insert = insert.values(AMPStore.eventID(event), event.pageView, event.apid, event.visit, event.utcMillis,
                                           event.index, 0, event.body, Self.start)
                }
                try await insert.run()
            }
            let last = Self.event(held.count, at: Self.start + Int64(held.count) * 10_000)
            #expect(try await store.amp.recordAMP(last, receivedAt: Self.start).get() != .notCredited)
            let pings = try await store.counts().pings
            let past = Self.event(held.count + 1, at: Self.start + Int64(held.count + 1) * 10_000)
            #expect(try await store.amp.recordAMP(past, receivedAt: Self.start).get() == .notCredited)
            #expect(try await store.amp.recordAMP(held[7], receivedAt: Self.start).get() == .duplicate)
            #expect(try await store.amp.recordAMP(last, receivedAt: Self.start).get() == .duplicate)
            #expect(try await store.counts().pings == pings)
            let events = try await store.database.withSQL { db in
                try await db.select().column(SQLRaw("COUNT(*)"), as: "n").from("census_amp_events").first()?.decode(column: "n", as: Int64.self)
            }
            #expect(events == Int64(AMPStore.maxEventsPerPageView))
        }
    }

    /// Over HTTP: a retry is answered `duplicate` and counted once; a request past the limit
    /// `200 not credited`, counted apart.
    @Test(arguments: Backend.available)
    func retriesAreDuplicatesOverHTTP(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                func send(_ event: AMPCloudEvent) async throws -> String {
                    try await client.execute(uri: "/nmapi/v2/\(Self.apid)/\(event.visit)/a?b=" + WireEncoding.encode(event.body),
                                             method: .get) { String(buffer: $0.body) }
                }
                // A minute ago: the census reads `utc` within a window around its receipt (census-decisions.md S42).
                let events = Self.pageView(4, every: 10_000, from: Int64(Date.now.timeIntervalSince1970 - 60) * 1000)
                #expect(try await send(events[0]) == "stored\n")
                #expect(try await send(events[1]) == "stored\n")
                #expect(try await send(events[0]) == "duplicate\n")
                #expect(try await send(events[3]) == "stored\n")
                #expect(try await send(events[2]) == "stored\n")
                #expect(try await send(events[2]) == "duplicate\n")
                let credited = try await store.reports.report(ReportQuery(appid: "P" + Self.apid)).reduce(0) { $0 + $1.creditedSeconds }
                #expect(credited == 30)
                #expect(server.sinceStart.ampEvents == 4 && server.sinceStart.ampEventsNotCredited == 0)
            }
        }
    }

    // MARK: Carried forward (census-decisions.md AMP8)

    /// Page views as they arrive, each request received a second after its `utc`.
    static let arrivals: [(name: String, events: [AMPCloudEvent])] = {
        let tenSeconds = pageView(60, every: 10_000)
        var shuffled = tenSeconds
        shuffled.swapAt(5, 9)
        shuffled.swapAt(30, 31)
        shuffled.append(shuffled.remove(at: 40))
        let toggles = (0..<50).map { event($0, at: start + Int64($0) * 10_000, hidden: ($0 / 7) % 2 == 1) }
        var away: [AMPCloudEvent] = []
        var at = start
        for index in 0..<30 {
            away.append(event(index, at: at))
            at += index % 5 == 4 ? 31 * 60_000 : 10_000
        }
        let halfHours = pageView(40, every: 29 * 60_000)
        var earlyEnd = pageView(20, every: 10_000)
        earlyEnd += (0..<20).map { event(20 + $0, at: start + 200_000 + Int64($0) * 29 * 60_000) }
        earlyEnd += (0..<20).map { event(40 + $0, at: start + 200_000 + 20 * 29 * 60_000 + Int64($0) * 10_000) }
        let minuteApart = pageView(40, every: 60_000)
        let secondApart = pageView(40, every: 1_000)
        var lateHalfHour = pageView(40, every: 29 * 60_000)
        lateHalfHour.swapAt(10, 30)
        return [("ten seconds apart", tenSeconds), ("out of order", shuffled), ("hidden and visible", toggles),
                ("gaps over 30 minutes", away), ("29 minutes apart", halfHours), ("ends early, then resumes", earlyEnd),
                ("a minute apart", minuteApart), ("a second apart", secondApart), ("29 minutes apart, out of order", lateHalfHour)]
    }()

    /// Each request's pings carried forward from the last request's state, as ``PingStore`` does
    /// when it holds it, against a whole replay of the events received so far: the same pings,
    /// ids, seconds and fields, in every sequence; and carried forward for most in-order requests.
    @Test(arguments: arrivals.indices)
    func carryingForwardBuildsWhatTheWholeReplayBuilds(_ sequence: Int) throws {
        let (name, arriving) = Self.arrivals[sequence]
        var state: AMPReplayState?
        var carried = 0
        for count in 1...arriving.count {
            let received = Array(arriving.prefix(count))
            let event = received[count - 1]
            let receivedAt = event.utcMillis + 1_000
            let whole = try AMPPageViewReplay.whole(received, receivedAt: receivedAt, durationPingInterval: 60).get()
            if let cached = state, let next = AMPPageViewReplay.continuing(cached, with: event, receivedAt: receivedAt,
                                                                            durationPingInterval: 60) {
                let (pings, forward) = try next.get()
                #expect(pings == whole.pings, "\(name): request \(count) carried forward differs from the whole replay")
                #expect(forward.written == whole.pings)
                state = forward
                carried += 1
            } else {
                state = whole.state
            }
        }
        let inOrder = zip(arriving, arriving.dropFirst()).filter { ($0.utcMillis, $0.index) < ($1.utcMillis, $1.index) }.count
        #expect(carried >= inOrder / 2, "\(name): \(carried) of \(arriving.count) requests carried forward")
    }

    /// Through the store: every in-order request of a page view after the first reads no stored
    /// event and writes a ping or two, request 300 what request 2 did; a store that never saw
    /// the page view (a restart, another server) replays it whole once, then carries it forward.
    /// What is stored is what a whole replay of every request builds.
    @Test(arguments: Backend.available)
    func eachInOrderRequestCostsWhatTheFirstDid(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let events = Self.pageView(300, every: 10_000, from: Int64(Date.now.timeIntervalSince1970 - 4_000) * 1000)
            var costs: [AMPReplayCache.Work] = []
            for event in events.prefix(200) {
                let before = store.ampReplays.work
                _ = try await store.amp.recordAMP(event, receivedAt: event.utcMillis + 500).get()
                let after = store.ampReplays.work
                costs.append(AMPReplayCache.Work(
                    eventsRead: after.eventsRead - before.eventsRead, pingsWritten: after.pingsWritten - before.pingsWritten,
                    pingsDeleted: after.pingsDeleted - before.pingsDeleted, wholeReplays: after.wholeReplays - before.wholeReplays,
                    carriedForward: after.carriedForward - before.carriedForward))
            }
            #expect(costs[0].wholeReplays == 1 && costs[0].eventsRead == 0)
            for (request, cost) in costs.enumerated().dropFirst() {
                #expect(cost.carriedForward == 1 && cost.eventsRead == 0 && cost.pingsWritten <= 2 && cost.pingsDeleted <= 1,
                        "request \(request + 1): \(cost)")
            }
            // Another server sharing the database (or this one restarted): one whole replay.
            let other = PingStore(database: store.database)
            for event in events[200..<300] { _ = try await other.amp.recordAMP(event, receivedAt: event.utcMillis + 500).get() }
            #expect(other.ampReplays.work.wholeReplays == 1 && other.ampReplays.work.eventsRead == 200)
            #expect(other.ampReplays.work.carriedForward == 99)
            // The first store's state is behind the stored events: it replays whole.
            let late = Self.event(300, at: events[299].utcMillis + 10_000)
            _ = try await store.amp.recordAMP(late, receivedAt: late.utcMillis + 500).get()
            #expect(store.ampReplays.work.wholeReplays == 2)

            let whole = try AMPPageViewReplay.pings(for: events + [late], receivedAt: late.utcMillis + 500,
                                                    durationPingInterval: 60).get()
            let stored = try await store.reports.report(ReportQuery(appid: "P" + Self.apid))
            #expect(stored.reduce(0) { $0 + $1.creditedSeconds } == whole.reduce(0) { $0 + $1.creditedSeconds })
            #expect(try await store.counts().pings == Int64(whole.count))
        }
    }
}
