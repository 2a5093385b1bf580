@testable import AppMeter
import Foundation
import NielsenAppApi
import Testing

/// The documented codes emitted where their condition occurs (decisions.md E1, E2, E11a): 2002 at
/// release, and a failed delivery attempt's code by what the transport saw.
@Suite struct EventCodeTests {
    /// Hears every event with which object it names as the API (never keeping it: the facade
    /// must be free to go), for both facades.
    final class Recorder: NielsenAppApiDelegate, NielsenEventTrackerDelegate, Sendable {
        struct Heard {
            let code: Int
            let api: ObjectIdentifier
            /// The object named is in the Initial state (no engine): it ignores every call.
            let apiIsInitial: Bool
        }

        private let heard = Locked([Heard]())

        private func record(_ event: [AnyHashable: Any], _ api: NielsenMeasuringObject) {
            let entry = Heard(code: event["eventCode"] as! Int, api: ObjectIdentifier(api), apiIsInitial: api.meter == nil)
            heard.withLock { $0.append(entry) }
        }

        func nielsenAppApi(_ appApi: NielsenAppApi, eventOccurred event: [AnyHashable: Any]) { record(event, appApi) }

        func nielsenEventTracker(_ api: NielsenEventTracker, eventOccurred event: [AnyHashable: Any]) { record(event, api) }

        var all: [Heard] { heard.withLock { $0 } }
        var codes: [Int] { all.map(\.code) }

        /// Waits (bounded) until `code` is heard: events come on an SDK task.
        func wait(for code: Int) async {
            for _ in 0..<1_000 where !codes.contains(code) { try? await Task.sleep(for: .milliseconds(2)) }
        }
    }

    /// "SDK is shutting down; fired just before the instance is destroyed": the release's last
    /// pings are queued, then the delegate hears 2002 with an Initial-state stand-in, since the
    /// app's object is already gone.
    @Test(arguments: [false, true])
    func releaseIsTheLastEvent2002(_ simplified: Bool) async throws {
        let recorder = Recorder()
        let transport = RecordingTransport()
        transport.scriptConfig([], then: RecordingTransport.config())
        let clock = VirtualClock(start: 1_700_000_000)
        let environment = MeterEnvironment(clock: clock, transport: transport, identifiers: SequentialIdentifierSource(),
                                           storage: InMemoryStorage(), identityProvider: MeterHarness.device)
        var facade: NielsenMeasuringObject? = simplified
            ? NielsenEventTracker(appInfo: MeterHarness.appInfo(), delegate: recorder, environment: environment)
            : NielsenAppApi(appInfo: MeterHarness.appInfo(), delegate: recorder, environment: environment)
        let identifier = ObjectIdentifier(try #require(facade))
        await facade?.waitUntilConfigured()
        await recorder.wait(for: 2001)
        #expect(recorder.codes == [2001])
        facade = nil
        await recorder.wait(for: 2002)
        #expect(recorder.codes == [2001, 2002])
        let (started, shutdown) = (recorder.all[0], recorder.all[1])
        #expect(started.api == identifier && !started.apiIsInitial)
        // (Its address may be the released object's: only what it is tells them apart.)
        #expect(shutdown.apiIsInitial)
    }

    /// Each kind of failed attempt is reported once with its code, and the pings are kept and sent
    /// when the collector answers again.
    @Test(arguments: [
        (TransportOutcome.failure("The Internet connection appears to be offline."), 1001),
        (.requestNotCreated("App Transport Security requires a secure connection"), 8),
        (.exchangeFailed("not an HTTP response"), 9),
        (.response(status: 503, retryAfter: nil, body: Data()), 10),
    ] as [(TransportOutcome, Int)])
    func aFailedAttemptIsReportedByWhatTheTransportSaw(_ outcome: TransportOutcome, _ code: Int) async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.transport.script([outcome, outcome])
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.play(0...30)
        meter.api.end()
        await meter.settle()
        #expect(errors.codes == [code])
        // Two failed attempts (the view ping, then both as a batch), then both delivered once.
        #expect(meter.api.meter!.diagnostics.counters == DeliveryCounters(delivered: 2, rejected: 0, retried: 2))
    }

    /// What `URLSession`'s errors mean (E11a): unreachable 1001, not created 8, anything else 9.
    @Test(arguments: [
        (URLError.Code.notConnectedToInternet, 1001), (.cannotFindHost, 1001), (.timedOut, 1001),
        (.networkConnectionLost, 1001), (.cannotConnectToHost, 1001),
        (.unsupportedURL, 8), (.badURL, 8), (.appTransportSecurityRequiresSecureConnection, 8),
        (.secureConnectionFailed, 9), (.badServerResponse, 9), (.httpTooManyRedirects, 9), (.cannotParseResponse, 9),
    ] as [(URLError.Code, Int)])
    func urlSessionErrorsAreClassified(_ error: URLError.Code, _ code: Int) {
        let outcome = URLSessionTransport.outcome(of: URLError(error))
        #expect(DeliveryMachine.failure(outcome).0.rawValue == code)
    }
}
