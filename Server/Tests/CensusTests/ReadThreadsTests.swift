@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import NIOConcurrencyHelpers
import Testing
import NIOFoundationEssentialsCompat

/// The read side works on threads of its own (``ReadThreads``): a read that holds its thread
/// delays other reads, never ingest.
@Suite struct ReadThreadsTests {
    /// The calling thread's name (NIO names its pool's threads `TP-#<n>`).
    static func threadName() -> String {
        #if os(Linux)
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
        #else
        return Thread.current.name ?? ""
        #endif
    }

    /// Holds the calling thread, as CPU-bound work would.
    static func hold(until release: DispatchSemaphore) {
        release.wait()
    }

    @Test func readsRunOnTheReadThreads() async throws {
        let threads = ReadThreads(count: 1)
        let name = try await threads.run {
            // Across an await too: the task keeps its preference.
            try await Task.sleep(for: .milliseconds(1))
            return Self.threadName()
        }
        #expect(name.hasPrefix("TP-#"))
        #expect(!Self.threadName().hasPrefix("TP-#"))
    }

    /// More reads than there are cores, each holding its thread as a long certification would:
    /// pings, traces and `/healthz` are still answered; the reads finish once let go.
    @Test func readsHoldingTheirThreadsDelayNoIngest() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            let release = DispatchSemaphore(value: 0)
            let held = ProcessInfo.processInfo.activeProcessorCount + 2
            let reads = (0..<held).map { _ in
                Task { try await server.readThreads.run { Self.hold(until: release) } }
            }
            try await Application(router: server.router()).test(.router) { client in
                try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: "during-reads"), method: .get) {
                    #expect($0.status == .ok)
                }
                var trace = TraceBuilder()
                trace.play()
                let batch = CallTraceBatch(session: "during-reads", appid: "P00000000-0000-4000-8000-000000000001",
                                           sdk: "al.1.0.0", entries: trace.entries)
                try await client.execute(uri: WireRoute.trace, method: .post, body: ByteBuffer(data: batch.body())) {
                    #expect($0.status == .ok)
                }
                for _ in 0..<held { release.signal() }
                for read in reads { try await read.value }
                try await client.execute(uri: "/api/v1/certification?session=during-reads", method: .get) {
                    #expect($0.status == .ok)
                }
            }
        }
    }
}
