@testable import CensusHTTP
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `meter serve`'s access log as an operator reads it (docs/census.md §4f): written in batches by
/// its own thread, every request's line is there, in order, in the log's format, when it stops.
@Suite struct MeterAccessLogTests {
    @Test(arguments: LogLineFormat.allCases)
    func everyRequestHasItsLineInOrderWhenTheCensusStops(_ format: LogLineFormat) async throws {
        guard let meter = DurabilityTests.meterExecutable else { throw MeterMissing() }
        let (port, descriptor) = try MeterRun.occupiedPort()
        close(descriptor)
        let process = Process()
        process.executableURL = meter
        process.arguments = ["serve", "--port", String(port), "--database", MeterRun.temporaryPath("census.sqlite"),
                             "--log-format", format.rawValue]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Read as it is written, so a full pipe never stalls the census; on a thread of its own, as
        // a blocking read must not hold one of the few threads Swift's tasks run on.
        let collected = Collected()
        Thread { collected.finish(errors.fileHandleForReading.readDataToEndOfFile()) }.start()

        let requests = 300
        var ready = false
        for _ in 0..<100 where !ready {
            ready = (try? await TestClient.withClient(host: "127.0.0.1", port: port) { try await $0.get("/healthz").status == .ok }) ?? false
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ready)
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            for number in 0..<requests { _ = try await client.get("/nowhere-\(number)?devid=secret") }
        }
        process.terminate()
        let output = try #require(await collected.value(within: .seconds(30)))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        let paths = lines.compactMap { line -> Substring? in
            guard let range = line.range(of: "/nowhere-") else { return nil }
            return line[range.lowerBound...].prefix { $0 != " " && $0 != "\"" }
        }
        #expect(paths.map(String.init) == (0..<requests).map { "/nowhere-\($0)" })
        #expect(!lines.contains { $0.contains("secret") })
        for line in lines where line.contains("Census.access") {
            switch format {
            case .json:
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                #expect(object["label"] as? String == "Census.access" && (object["metadata"] as? [String: String])?["client"] == "127.0.0.0")
            case .text:
                #expect(line.contains(" info Census.access: bytes=") && line.contains(" client=127.0.0.0 ms="), "\(line)")
            }
        }
    }
}

/// What a reading thread collected, once it has.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func finish(_ data: Data) {
        lock.withLock { self.data = data }
    }

    /// The data, polled without holding a thread, or nil if it did not come within `limit`.
    func value(within limit: Duration) async -> Data? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let data = lock.withLock({ data }) { return data }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
