@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import MeterWire
import Testing

/// `meter privacy export|delete`: everything of one device, and nothing of another.
@Suite struct DevicePrivacyTests {
    static let mine = "device-of-the-person-asking"
    static let theirs = "another-device-entirely"

    static func ping(_ id: String, device: String, session: String, seconds: Int = 10) throws -> IncomingPing {
        let query = PingQueries.valid(pingID: id, credited: seconds, session: session, device: device)
        return try PingValidator.validate(query: Substring(query), uriLength: query.utf8.count + 12).get()
    }

    @Test(arguments: Backend.available)
    func oneDevicesDataIsExportedThenDeletedAndNoOtherDevicesIs(_ backend: Backend) async throws {
        try await backend.withStore { store in
            _ = try await store.insert([
                try Self.ping("m1", device: Self.mine, session: "s-mine"),
                try Self.ping("m2", device: Self.mine, session: "s-mine", seconds: 20),
                try Self.ping("t1", device: Self.theirs, session: "s-theirs", seconds: 30),
                // Another device's ping in the same session keeps the session's span.
                try Self.ping("t2", device: Self.theirs, session: "s-shared"),
                try Self.ping("m3", device: Self.mine, session: "s-shared"),
            ], receivedAt: 1_700_000_000_000)
            try await store.recordReject(reason: "c27 is \"x\"", rawRequest: "/cgi-bin/gn?c9=devid,\(Self.mine)&c27=cln,x",
                                         receivedAt: 1_700_000_000_000)
            try await store.recordReject(reason: "c27 is \"y\"", rawRequest: "/cgi-bin/gn?c9=devid,\(Self.theirs)&c27=cln,y",
                                         receivedAt: 1_700_000_000_000)
            var trace = TraceBuilder()
            trace.play()
            trace.ping("m1", query: PingQueries.valid(pingID: "m1", device: Self.mine))
            _ = try await store.traces.insert(CallTraceBatch(session: "trace-1", appid: "P00000000-0000-4000-8000-000000000001",
                                                      sdk: "al.1.0.0", entries: trace.entries), receivedAt: 1_700_000_000_000)

            let exported = try await store.privacy.deviceData(Self.mine)
            #expect(exported.pings.map(\.pingID).sorted() == ["m1", "m2", "m3"])
            #expect(exported.rejects.count == 1 && exported.rejects[0].contains(Self.mine))
            #expect(exported.traceEntries.count == 1 && exported.traceEntries[0].contains(Self.mine))
            #expect(try await store.privacy.deviceData("nobody-at-all").pings.isEmpty)

            let before = try await store.reports.report(ReportQuery())
            let deleted = try await store.privacy.deleteDevice(Self.mine)
            #expect(deleted.pings == 3 && deleted.rejects == 1 && deleted.traceEntries == 1)
            #expect(deleted.sessionSpans == 1, "s-mine's span goes; s-shared keeps the other device's ping")
            let after = try await store.privacy.deviceData(Self.mine)
            #expect(after.pings.isEmpty && after.rejects.isEmpty && after.traceEntries.isEmpty)
            // The other device is untouched: its pings, its refusal, its credit.
            #expect(try await store.privacy.deviceData(Self.theirs).pings.map(\.pingID).sorted() == ["t1", "t2"])
            #expect(try await store.privacy.deviceData(Self.theirs).rejects.count == 1)
            #expect(try await store.sessions.pings(session: "s-shared").map(\.pingID) == ["t2"])
            let credited = try await store.reports.report(ReportQuery()).reduce(0) { $0 + $1.creditedSeconds }
            #expect(before.reduce(0) { $0 + $1.creditedSeconds } == 80 && credited == 40)
            // A second run finds nothing left.
            #expect(try await store.privacy.deleteDevice(Self.mine) == PrivacyStore.DeviceDeletion())
        }
    }
}
