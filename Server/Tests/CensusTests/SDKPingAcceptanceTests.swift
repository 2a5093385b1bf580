import AppMeter
import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import MeterWire
import NIOConcurrencyHelpers
import NielsenAppApi
import Testing

/// The SDK never sends what the census refuses (docs/protocol.md §2 "Length", "Refused pings"):
/// every ping it builds from maximal metadata of every kind is within 2,048 bytes and passes the
/// census's own validator, which answers as it would on the wire.
@Suite struct SDKPingAcceptanceTests {
    /// A transport that puts every ping through ``PingValidator`` (and batches through
    /// ``BatchFormat``), answering 400 with the reason as the census does, and records the outcome.
    final class ValidatingCensus: PingTransport, Sendable {
        private let state = NIOLockedValueBox((accepted: [IncomingPing](), refused: [String](), longest: 0))

        var accepted: [IncomingPing] { state.withLockedValue { $0.accepted } }
        var refused: [String] { state.withLockedValue { $0.refused } }
        /// The longest ping URL seen (a batch line counts as the URL it would be on its own).
        var longest: Int { state.withLockedValue { $0.longest } }

        func send(_ request: TransportRequest) async -> TransportOutcome {
            let url = request.url.absoluteString
            if request.url.path.hasSuffix(WireRoute.config) {
                return .response(status: 200, retryAfter: nil, body: Data(#"{"enabled": true, "durationPingInterval": 60}"#.utf8))
            }
            let base = String(url[..<url.range(of: WireRoute.ping)!.lowerBound])
            let uriPrefix = WireRoute.ping + "?"
            if request.url.path.hasSuffix(WireRoute.batch) {
                guard case .success(let queries) = BatchFormat.queries(in: [UInt8](request.body ?? Data())) else {
                    return refuse("a batch the census cannot read")
                }
                var rejected: [BatchAnswer.Rejection] = []
                for (index, query) in queries.enumerated() {
                    if let reason = check(query, uriLength: uriPrefix.utf8.count + query.utf8.count,
                                          urlLength: base.utf8.count + uriPrefix.utf8.count + query.utf8.count) {
                        rejected.append(BatchAnswer.Rejection(line: index + 1, reason: reason))
                    }
                }
                let answer = BatchAnswer(stored: queries.count - rejected.count, duplicates: 0, rejected: rejected)
                return .response(status: 200, retryAfter: nil, body: try! JSONEncoder().encode(answer))
            }
            guard request.url.path.hasSuffix(WireRoute.ping), let mark = url.firstIndex(of: "?") else {
                return refuse("not a ping route: \(request.url.path)")
            }
            let query = url[url.index(after: mark)...]
            if let reason = check(query, uriLength: uriPrefix.utf8.count + query.utf8.count, urlLength: url.utf8.count) {
                return .response(status: 400, retryAfter: nil, body: Data(reason.utf8))
            }
            return .response(status: 200, retryAfter: nil, body: Data())
        }

        /// The census's reason for refusing `query`, or nil when it takes it.
        private func check(_ query: Substring, uriLength: Int, urlLength: Int) -> String? {
            let result = PingValidator.validate(query: query, uriLength: uriLength)
            return state.withLockedValue { state in
                state.longest = max(state.longest, urlLength)
                switch result {
                case .success(let ping):
                    state.accepted.append(ping)
                    return nil
                case .failure(let rejection):
                    state.refused.append(rejection.reason)
                    return rejection.reason
                }
            }
        }

        private func refuse(_ reason: String) -> TransportOutcome {
            state.withLockedValue { $0.refused.append(reason) }
            return .response(status: 400, retryAfter: nil, body: Data(reason.utf8))
        }
    }

    enum Kind: String, CaseIterable, Sendable {
        case content, ad, dtvr, staticPage, station, appRun
    }

    /// A value that needs escapes throughout: the longest URL per character given.
    static func long(_ seed: String) -> String {
        seed + String(repeating: "é&/ 字%\u{0}", count: 400)
    }

    /// A Nielsen tag of the longest length taken, its payload all escaped characters.
    static func tag(offset: Int) -> String {
        let head = "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/R8WHe7pEBeqBhu8jTeXydg==/"
        let tail = "/00000/" + String(format: "%05d", offset) + "/00"
        return head + String(repeating: "+=", count: (NielsenID3Tag.maxLength - head.utf8.count - tail.utf8.count) / 2) + tail
    }

    @Test(arguments: Kind.allCases)
    func everyPingBuiltFromMaximalMetadataIsTakenByTheCensus(_ kind: Kind) async throws {
        let census = ValidatingCensus()
        let clock = VirtualClock(start: 1_700_000_000)
        let environment = MeterEnvironment(
            clock: clock, transport: census, identifiers: SequentialIdentifierSource(), storage: InMemoryStorage(),
            identityProvider: StaticIdentityProvider(advertising: AdvertisingIdentity(identifier: "AD", limitsTracking: false),
                                                     vendorID: "VENDOR"),
            measuresAppRun: kind == .appRun)
        let appInfo = ["appid": "P" + UUID().uuidString, "appname": Self.long("App"), "appversion": Self.long("1.0"),
                       "sfcode": "dcr", "nol_collectorURL": "http://127.0.0.1:9"]
        let api = try #require(NielsenAppApi(appInfo: appInfo, delegate: nil, environment: environment))
        func play(_ positions: ClosedRange<Int64>) {
            for position in positions {
                clock.advance(by: 1)
                api.playheadPosition(position)
            }
        }
        var content = ["type": "content", "length": "3600", "isfullepisode": "y", "adloadtype": "2"]
        for key in ["assetid", "program", "title", "segA", "segB", "segC", "crossId1", "crossId2", "progen", "pipMode",
                    "subbrand", "clientid", "airdate"] {
            content[key] = Self.long(key)
        }
        api.play(["channelName": Self.long("Channel")])
        switch kind {
        case .content:
            api.loadMetadata(content)
            play(0...130)
        case .ad:
            api.loadMetadata(content)
            play(0...10)
            api.loadMetadata(["type": "midroll", "assetid": Self.long("ad"), "title": Self.long("Ad"), "length": "30"])
            play(0...30)
            api.stop()
            api.loadMetadata(content)
            play(11...20)
        case .dtvr:
            api.loadMetadata(["type": "content", "channelName": Self.long("Channel"), "adModel": "1"])
            for index in 0..<13 {
                clock.advance(by: 10)
                api.sendID3(Self.tag(offset: 46016 + 10 * index))
            }
        case .staticPage:
            api.loadMetadata(["type": "static", "section": Self.long("section"), "assetid": Self.long("page"),
                              "segA": Self.long("a"), "segB": Self.long("b"), "segC": Self.long("c")])
            for _ in 0..<130 { clock.advance(by: 1) }
            api.staticEnd()
        case .station:
            api.loadMetadata(["type": "radio", "assetid": Self.long("WXYZ-FM"), "stationType": Self.long("1"),
                              "provider": Self.long("provider")])
            play(1_700_000_000...1_700_000_130)
        case .appRun:
            for _ in 0..<130 { clock.advance(by: 1) }
            api.appInBackground()
        }
        api.end()
        await api.meter!.flush(advancing: clock)

        #expect(census.refused == [])
        #expect(census.longest <= WireLimits.sdkMaxURLBytes)
        #expect(census.longest > WireLimits.sdkMaxURLBytes - 100)    // the metadata was long enough to need the rule
        let credited = census.accepted.reduce(Int64(0)) { $0 + $1.creditedSeconds }
        #expect(credited == api.meter!.snapshot.creditedSeconds.values.reduce(0, +))
        #expect(credited >= 50)     // the ad scenario: 10 s of content, 30 s of ad, 10 s of content
        #expect(census.accepted.allSatisfy { $0.assetID.utf8.count <= WireLimits.sdkMaxAssetIDBytes })
        #expect(api.meter!.diagnostics.counters.rejected == 0)
    }
}
