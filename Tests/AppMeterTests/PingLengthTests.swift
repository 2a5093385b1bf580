import AppMeter
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// docs/protocol.md §2 "Length": whatever the metadata, a ping URL stays within 2,048 bytes, only
/// descriptive values give way, and what the census credits is what short metadata would give.
@Suite struct PingLengthTests {
    /// The kinds of measurement, each driven the same way with short and with maximal metadata.
    enum Kind: String, CaseIterable, Sendable {
        case content, ad, dtvr, staticPage, station, appRun
    }

    /// A value of `count` repetitions of characters that each need escapes (2- and 3-byte UTF-8,
    /// reserved ASCII): the longest URL per character given.
    static func long(_ seed: String, count: Int = 400) -> String {
        seed + String(repeating: "é&/ 字%", count: count)
    }

    /// The fields the census credits or matches by (docs/protocol.md §2 "Length", point 2).
    static let creditingFields: [PingField] = [
        .product, .pingType, .mediaType, .assetClass, .creditedSeconds, .length, .isLive, .segmentStart,
        .sessionID, .createdAt, .deviceID, .nuid, .userOptOut, .ottFlag, .ottType, .durationType, .pingID,
        .fdCID, .pcCID, .fdOffset, .pcOffset, .tagTime, .sendTime, .cacheBuster, .subProduct, .adIndex, .crash,
    ]

    /// A Nielsen tag as long as the parser takes (512 bytes), its payload all `+` and `=`, which
    /// are escaped on the wire.
    static let maximalTag: String = {
        let short = Fixtures.tag(offset: 46016)
        let fields = short.split(separator: "/", omittingEmptySubsequences: false)
        let room = NielsenID3Tag.maxLength - (short.utf8.count - fields[3].utf8.count)
        var longFields = fields.map(String.init)
        longFields[3] = String(repeating: "+=", count: room / 2)
        return longFields.joined(separator: "/")
    }()

    /// Runs `kind` and returns every ping sent (app pings included for `appRun`).
    static func run(_ kind: Kind, maximal: Bool) async -> [DecodedPing] {
        func value(_ short: String) -> String { maximal ? long(short) : short }
        // Each run its own appid: instances of one appid are limited to four at a time.
        var appInfo = MeterHarness.appInfo()
        appInfo["appname"] = value("Harness")
        appInfo["appversion"] = value("1.0")
        let meter = MeterHarness(appInfo: appInfo, measuresAppRun: kind == .appRun)
        meter.api.play(["channelName": value("Channel")])
        var content = Fixtures.content(value("vid345-67483"))
        for key in ["program", "title", "segA", "segB", "segC", "crossId1", "crossId2", "progen", "pipMode",
                    "subbrand", "clientid", "airdate"] {
            content[key] = value(content[key] ?? key)
        }
        switch kind {
        case .content:
            meter.api.loadMetadata(content)
            meter.play(0...130)
        case .ad:
            meter.api.loadMetadata(content)
            meter.play(0...10)
            meter.api.loadMetadata(["type": "midroll", "assetid": value("ad-1"), "title": value("Ad"), "length": "30"])
            meter.play(0...30)
            meter.api.stop()
            meter.api.loadMetadata(content)
            meter.play(11...20)
        case .dtvr:
            meter.api.loadMetadata(Fixtures.dtvr(value("TheGreatBigMovie")))
            for index in 0..<13 {
                meter.clock.advance(by: 10)
                let tag = maximal ? maximalTag : Fixtures.tag(offset: 46016)
                meter.api.sendID3(tag.replacingOccurrences(of: "/46016/", with: "/" + String(46016 + 10 * index) + "/"))
            }
        case .staticPage:
            meter.api.loadMetadata(["type": "static", "section": value("News"), "assetid": value("NewsPage"),
                                    "segA": value("a"), "segB": value("b"), "segC": value("c")])
            for _ in 0..<130 { meter.clock.advance(by: 1) }
            meter.api.staticEnd()
        case .station:
            meter.api.loadMetadata(["type": "radio", "assetid": value("WXYZ-FM"), "stationType": value("1"),
                                    "provider": value("Radio Corp")])
            meter.play((1_700_000_000 as Int64)...1_700_000_130)
        case .appRun:
            for _ in 0..<130 { meter.clock.advance(by: 1) }
            meter.api.appInBackground()
        }
        meter.api.end()
        await meter.settle()
        return meter.transport.requests.flatMap(DecodedPing.all)
    }

    @Test(arguments: Kind.allCases)
    func maximalMetadataFitsIn2KAndCreditsWhatShortMetadataCredits(_ kind: Kind) async throws {
        let short = await Self.run(kind, maximal: false)
        let maximal = await Self.run(kind, maximal: true)
        #expect(maximal.count == short.count && !maximal.isEmpty)
        #expect(maximal.map(\.url.utf8.count).max()! <= WireLimits.sdkMaxURLBytes)
        // Long enough to have needed the rule (a 3.8 kB URL before it).
        #expect(maximal.contains { $0.url.utf8.count > WireLimits.sdkMaxURLBytes - 100 })
        for (long, plain) in zip(maximal, short) {
            for field in Self.creditingFields {
                #expect(long[field.name] == plain[field.name], "\(kind) \(field.name)")
            }
            #expect(long["c13"]?.count == plain["c13"]?.count && long["c13"]?.hasPrefix("asid,P") == true)
            // The asset id: itself when it fits, else the documented cut, the same on every ping.
            let asset = plain.assetID
            let sent = try #require(long[PingField.assetID.name])
            #expect(sent.utf8.count <= WireLimits.sdkMaxAssetIDBytes)
            #expect(sent.hasPrefix(asset), "\(kind)")
            // Descriptive values keep their `name,` prefix, so the census reads them as given, or empty.
            for field in WireLimits.descriptiveFields where !field.prefix.isEmpty {
                if let value = long[field.name] { #expect(value.hasPrefix(field.prefix), "\(kind) \(field.name)") }
            }
        }
        #expect(Set(maximal.map(\.assetID)).count == Set(short.map(\.assetID)).count)
    }

    @Test func anAssetIDOver256BytesIsCutAtACharacterAndEndsWithItsChecksum() {
        let fits = String(repeating: "a", count: 256)
        #expect(PingValueRules.boundedAssetID(fits) == fits)
        let long = String(repeating: "字", count: 100)     // 300 bytes
        let cut = PingValueRules.boundedAssetID(long)
        #expect(cut.utf8.count <= WireLimits.sdkMaxAssetIDBytes)
        #expect(cut.hasPrefix(String(repeating: "字", count: 82)) && cut.dropLast(9).allSatisfy { $0 == "字" })
        #expect(cut.suffix(9).first == "~" && cut.suffix(8).allSatisfy(\.isHexDigit))
        #expect(PingValueRules.boundedAssetID(long) == cut)                       // always the same
        #expect(PingValueRules.boundedAssetID(long + "x") != cut)                 // two ids stay two
        #expect(PingValueRules.wireValue(.title, "a\u{0}b") == "ab")              // the census refuses a NUL
        #expect(PingValueRules.wireValue(.assetID, "\u{0}vid") == "vid")
    }

    @Test func shorteningStopsAtTheFieldsPrefix() {
        let parameters = [
            PingParameter("prd", "dcr"), PingParameter("c33", "segB," + String(repeating: "b", count: 3000)),
            PingParameter("ai", "asset-1"),
        ]
        let ping = Ping(id: "p", kind: .view, assetKind: .content, assetID: "asset-1", creditedSeconds: 0,
                        createdAt: 0, parameters: parameters)
        let url = PingEncoder.url(for: ping, base: URL(string: "https://collector.example")!, sendTime: MeterInstant(secondsSince1970: 1))
        #expect(url.utf8.count == WireLimits.sdkMaxURLBytes)
        #expect(DecodedPing(url: url)["c33"]!.hasPrefix("segB,b"))
        let title = Ping(id: "p", kind: .view, assetKind: .content, assetID: "asset-1", creditedSeconds: 0, createdAt: 0,
                         parameters: [PingParameter("c34", "segC," + String(repeating: "c", count: 3000)), PingParameter("tl", "")])
        #expect(PingEncoder.url(for: title, base: URL(string: String(repeating: "h", count: 2000))!,
                                sendTime: MeterInstant(secondsSince1970: 1)).contains("c34=segC,&"))
    }

    /// The SDK's bounds are within the census's (`WireLimits`), and so are the values it makes.
    @Test func theSDKsLimitsAreWithinTheCensuss() {
        #expect(WireLimits.sdkMaxURLBytes <= WireLimits.censusMaxURLBytes)
        #expect(SequentialIdentifierSource().newPingID().count <= WireLimits.censusMaxPingIDCharacters)
        #expect(RandomIdentifierSource().newPingID().count <= WireLimits.censusMaxPingIDCharacters)
        #expect(ConfigAnswer.intervalRange.upperBound <= WireLimits.maxCreditedSecondsPerPing)
        #expect(Set(WireLimits.descriptiveFields).isDisjoint(with: Self.creditingFields + [.assetID, .appID]))
    }

    /// A kiosk app in the foreground for 30 hours: its run time goes out every 12 hours, never
    /// more than the census takes in one ping, and adds up exactly.
    @Test func aDayLongForegroundRunIsSentInPingsTheCensusTakes() async {
        let meter = MeterHarness(measuresAppRun: true)
        for _ in 0..<(30 * 60) { meter.clock.advance(by: 60) }
        meter.api.appInBackground()
        await meter.settle()
        let credits = meter.transport.appPings.map(\.credited)
        #expect(credits.allSatisfy { $0 <= WireLimits.maxCreditedSecondsPerPing })
        #expect(credits.reduce(0, +) == 30 * 3600)
        #expect(credits.count == 4)           // the launch, 12 h, 12 h, and 6 h at the background
    }
}
