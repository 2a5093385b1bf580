@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Logging
import Testing

/// The access log's queue (census-decisions.md S36): a request never waits for the log's reader;
/// what does not fit is dropped and counted, never held.
@Suite struct AccessLogQueueTests {
    /// A log handler whose first line waits until the test lets it go: a reader that stalls.
    final class StalledHandler: LogHandler, @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stalled = false
        private var written: [String] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        var lines: [String] { lock.withLock { written } }

        func log(event: LogEvent) {
            let first = lock.withLock { () -> Bool in
                defer { stalled = true }
                return !stalled
            }
            if first {
                entered.signal()
                release.wait()
            }
            lock.withLock { written.append(event.message.description) }
        }
    }

    static func line(_ number: Int) -> AccessLogLine {
        AccessLogLine(method: "GET", path: "/\(number)", status: 200, bytes: 0, nanoseconds: 0, client: "127.0.0.0")
    }

    @Test func aStalledReaderCostsDroppedLinesNotAWaitingRequest() {
        let handler = StalledHandler()
        let log = AccessLog(addresses: .truncated, logger: Logger(label: AccessLog.label) { _ in handler })
        log.write(Self.line(0))
        handler.entered.wait()
        // The writer is stuck on line 0: these return at once, the queue's capacity kept, the rest dropped.
        for number in 1...(AccessLogQueue.capacity + 5) { log.write(Self.line(number)) }
        handler.release.signal()
        log.flush()
        let lines = handler.lines
        #expect(lines.count == AccessLogQueue.capacity + 2)
        #expect(lines.first == "GET /0 200")
        #expect(lines.contains("access log: 5 lines dropped, the log's reader did not keep up"))
        #expect(lines.last == "GET /\(AccessLogQueue.capacity) 200")
    }
}
