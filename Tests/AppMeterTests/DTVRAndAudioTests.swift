import AppMeter
import Foundation
import MeterWire
import NielsenAppApi
import Testing

/// DTVR (the DTVR guide: play, loadMetadata with type/channelName/adModel, sendID3 for every
/// timed-metadata item) and Digital Audio (API reference `type: "radio"`), on the virtual clock.
@Suite struct DTVRAndAudioTests {
    static let fd = "R8WHe7pEBeqBhu8jTeXydg=="

    /// `prd ai c27`, compact.
    static func summary(_ ping: DecodedPing) -> String {
        "\(ping.kind) \(ping["prd"]!)/\(ping.assetID) \(ping.credited)"
    }

    /// Tags every 10 s from `offset`, one per step of the virtual clock.
    static func sendTags(_ meter: MeterHarness, from offset: Int, count: Int, cid: String = fd) {
        for index in 0..<count {
            meter.clock.advance(by: 10)
            meter.api.sendID3(Fixtures.tag(cid: cid, offset: offset + 10 * index))
        }
    }

    @Test func aLiveChannelForTwoMinutesWithATagEvery10Seconds() async throws {
        let meter = MeterHarness()
        meter.api.play(["channelName": "Channel 4"])
        meter.api.loadMetadata(Fixtures.dtvr("TheGreatBigMovie"))
        Self.sendTags(meter, from: 46016, count: 13)   // 2 minutes: 12 intervals of 10 s
        meter.api.stop()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == ["view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 60", "timer dtvr/\(Self.fd) 60"])
        #expect(meter.snapshot.creditedSeconds == [AssetKey(.dtvr, Self.fd): 120])
        let last = try #require(pings.last)
        #expect(last["asn"] == "TheGreatBigMovie")        // the metadata's channel name
        #expect(last["c57"] == "adldf,1")
        #expect(last["fdcid"] == Self.fd && last["pccid"] == "" && last["fdoff"] == "46136" && last["pcoff"] == "")
        #expect(last["id3"] == Fixtures.tag(offset: 46136))
        #expect(last["id3"]?.count == 249)                 // the guide's ~249 characters
        #expect(pings.allSatisfy { $0["c58"] == "isLive,true" && $0["st"] == "dtvr" })
    }

    /// The guide: sendID3 "buffers the data for transfer to Nielsen's collection facility". Every
    /// distinct tag of a two-minute stream goes out once as a tag ping (`at=id3`, crediting
    /// nothing), within 2 KB; a tag the player hands over twice is sent once.
    @Test func everyDistinctTagReachesTheCollectorOnceAsATagPing() async throws {
        let meter = MeterHarness()
        meter.api.play(["channelName": "Channel 4"])
        meter.api.loadMetadata(Fixtures.dtvr("TheGreatBigMovie"))
        var tags: [String] = []
        for index in 0..<13 {
            meter.clock.advance(by: 10)
            let tag = Fixtures.tag(offset: 46016 + 10 * index)
            meter.api.sendID3(tag)
            meter.api.sendID3(tag)                            // the same item again
            tags.append(tag)
        }
        meter.api.sendID3("www.example.com/not-ours")
        meter.api.stop()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == ["view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 60", "timer dtvr/\(Self.fd) 60"])
        let sent = meter.transport.tagPings
        let owners: [String] = sent.map { $0["id3"] ?? "" }
        #expect(owners == tags)
        let offsets: [String] = sent.map { $0["fdoff"] ?? "" }
        let expectedOffsets: [String] = (0..<13).map { (index: Int) -> String in String(46016 + 10 * index) }
        #expect(offsets == expectedOffsets)
        let ids: Set<String> = Set(sent.map { $0["pingid"] ?? "" })
        #expect(ids.count == 13)
        let times: [Int64] = sent.compactMap { (ping: DecodedPing) -> Int64? in ping["id3tm"].flatMap { Int64($0) } }
        let steps: [Int64] = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(times.count == 13 && steps.allSatisfy { $0 == 10_000 })
        let session = pings.first?["c59"]
        for ping in sent {
            #expect(ping.url.utf8.count <= WireLimits.sdkMaxURLBytes)
            #expect(ping.credited == 0 && ping["prd"] == "dtvr" && ping["ai"] == Self.fd && ping["fdcid"] == Self.fd)
            #expect(ping["c59"] == session && ping["davty"] == "" && ping["asn"] == "TheGreatBigMovie")
        }
        #expect(meter.snapshot.creditedSeconds == [AssetKey(.dtvr, Self.fd): 120])
    }

    /// An outage that fills the queue drops the oldest pings whatever their kind: a DTVR session's
    /// tags and duration pings of the same stretch go together, so the census's tag credit and the
    /// SDK's claim lose the same seconds (decisions.md D7, T6), and the app is told what was lost.
    @Test func aFullQueueDropsTheOldestPingsOfEveryKind() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors, durationPingInterval: 30, queueBounds: QueueBounds(maxCount: 20))
        await meter.api.waitUntilConfigured()
        meter.transport.script(Array(repeating: .failure("offline"), count: 400))
        meter.api.play(["channelName": "Channel 4"])
        meter.api.loadMetadata(Fixtures.dtvr("TheGreatBigMovie"))
        Self.sendTags(meter, from: 46016, count: 61)          // ten minutes: 61 tag pings, 20 duration pings
        meter.api.end()
        await meter.settle()
        #expect((meter.api.meter?.diagnostics.counters.droppedOverflow ?? 0) > 0)
        let drops = errors.descriptions.filter { $0.contains("over the offline queue's bound") }
        #expect(drops.contains { $0.contains("credited seconds are lost") }, "\(drops)")
        #expect(meter.api.meter?.diagnostics.queued == 0)
    }

    @Test func repeatedAndForeignTagsAreNotCountedAndABrokenNielsenTagIsError3() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.api.play()
        meter.api.loadMetadata(Fixtures.dtvr())
        meter.clock.advance(by: 10)
        meter.api.sendID3(Fixtures.tag(offset: 1000))
        meter.api.sendID3(Fixtures.tag(offset: 1000))                   // the same tag again
        meter.api.sendID3("www.example.com/ad-marker")                    // another owner: not ours
        meter.api.sendID3("https://cdn.example/segment-12.ts")
        meter.api.sendID3("www.nielsen.com/broken/tag")                    // ours, damaged
        meter.clock.advance(by: 10)
        meter.api.sendID3(Fixtures.tag(offset: 1010))
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == ["view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 10"])
        #expect(pings.last?["davty"] == "2")
        #expect(errors.codes == [MeterEventCode.failedProcessID3.rawValue])
        #expect(errors.descriptions.first?.contains("6 expected") == true)
    }

    /// The diagnostic tool's "pcOffset/fdOffset after a 30 s pause": the live stream moved on while
    /// paused, so the first tag after resuming credits nothing; the next ones credit again.
    @Test func aThirtySecondPauseAndResumeCreditsOnlyWhatWasWatched() async {
        let meter = MeterHarness()
        meter.api.play(["channelName": "News"])
        meter.api.loadMetadata(Fixtures.dtvr("News"))
        Self.sendTags(meter, from: 50_000, count: 4)          // 30 s credited
        meter.api.stop()
        meter.clock.advance(by: 30)
        meter.api.play(["channelName": "News"])               // resume: play, loadMetadata, sendID3
        meter.api.loadMetadata(Fixtures.dtvr("News"))
        Self.sendTags(meter, from: 50_070, count: 3)          // +40 s on the stream clock, then 2 × 10
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 30", "view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 20",
        ])
        #expect(meter.snapshot.creditedSeconds == [AssetKey(.dtvr, Self.fd): 50])
    }

    @Test func aChannelChangeCreditsEachSourceByItsOwnCID() async {
        let other = "pI-X5FFk07770SXf2ZbI6g=="
        let meter = MeterHarness()
        meter.api.play(["channelName": "One"])
        meter.api.loadMetadata(Fixtures.dtvr("One"))
        Self.sendTags(meter, from: 10_000, count: 3)
        meter.api.stop()                                      // channel change: stop, play, loadMetadata
        meter.api.play(["channelName": "Two"])
        meter.api.loadMetadata(Fixtures.dtvr("Two"))
        Self.sendTags(meter, from: 20_000, count: 4, cid: other)
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 20", "view dtvr/\(other) 0", "timer dtvr/\(other) 30",
        ])
        #expect(pings.map { $0["asn"]! } == ["One", "One", "Two", "Two"])
        #expect(Set(pings.map { $0["c59"]! }).count == 2)
    }

    /// The API reference's `play` row: an ID3-fed product may skip loadMetadata; the channel name
    /// is the play's, or `defaultChannelName` when play has none.
    @Test(arguments: [("Channel 4", "Channel 4"), (nil, "defaultChannelName")] as [(String?, String)])
    func playAndTagsWithoutLoadMetadataMeasureUnderThePlaysChannel(_ channel: String?, _ expected: String) async throws {
        let meter = MeterHarness()
        meter.api.play(channel.map { ["channelName": $0] })
        Self.sendTags(meter, from: 46016, count: 7)   // one minute
        meter.api.stop()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == ["view dtvr/\(Self.fd) 0", "timer dtvr/\(Self.fd) 60"])
        #expect(pings.allSatisfy { $0["asn"] == expected && $0["c57"] == "adldf,1" })
    }

    @Test func tagsWithoutDTVRMetadataOrInIdleAreIgnored() async {
        let meter = MeterHarness()
        meter.api.sendID3(Fixtures.sampleTag)                 // Idle: not expected
        meter.api.loadMetadata(Fixtures.content())            // DCR only: no DTVR metadata
        meter.api.sendID3(Fixtures.sampleTag)
        await meter.settle()
        #expect(meter.snapshot.ignoredCalls == 2)
        #expect(meter.transport.pings.isEmpty)
    }

    /// The simplified API's "DCR & DTVR" metadata: one instance measures both at once.
    @Test func dcrAndDTVRRunTogetherOnOneStream() async {
        let meter = MeterHarness()
        meter.api.play(["channelName": "Joint"])
        meter.api.loadMetadata(Fixtures.content("ep-1").merging(["adModel": "1"]) { $1 })
        for second in Int64(0)...20 {
            meter.clock.advance(by: 1)
            meter.api.playheadPosition(second)
            if second % 10 == 0 { meter.api.sendID3(Fixtures.tag(offset: 30_000 + Int(second))) }
        }
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view dcr/ep-1 0", "view dtvr/\(Self.fd) 0", "timer dcr/ep-1 20", "timer dtvr/\(Self.fd) 20",
        ])
    }

    /// API reference "JSON Metadata" radio example: call letters and band, stationType, provider;
    /// Unix-time playheads; an interruption (stop, then loadMetadata and playheads).
    @Test func aRadioStationWithAnInterruptionAndAnAd() async throws {
        let meter = MeterHarness()
        let station = ["type": "radio", "assetid": "WXYZ-FM", "stationType": "1", "provider": "Radio Corp"]
        meter.api.play(["channelName": "WXYZ"])
        meter.api.loadMetadata(station)
        let start: Int64 = 1_700_000_100
        meter.play(start...(start + 90))
        meter.api.stop()                                      // a phone call
        meter.clock.advance(by: 60)
        meter.api.loadMetadata(["type": "midroll", "assetid": "spot-1"])
        meter.play(0...15)
        meter.api.stop()
        meter.api.loadMetadata(station)
        meter.play((start + 170)...(start + 200))
        meter.api.end()
        let pings = await meter.pings()
        #expect(pings.map(Self.summary) == [
            "view dcr/WXYZ-FM 0", "timer dcr/WXYZ-FM 60", "timer dcr/WXYZ-FM 30",
            "view dcr/spot-1 0", "timer dcr/spot-1 15", "timer dcr/WXYZ-FM 30",
        ])
        let stationPing = try #require(pings.first)
        #expect(stationPing["c3"] == "st,s" && stationPing["rt"] == "audio" && stationPing["c58"] == "isLive,true")
        #expect(stationPing["sttype"] == "1" && stationPing["prov"] == "Radio Corp")
        let adPing = try #require(pings.first { $0.assetID == "spot-1" })
        #expect(adPing["c3"] == "st,a" && adPing["rt"] == "audio")
        #expect(PingClassification.classify(product: "dcr", mediaType: adPing["rt"], assetClass: adPing["c3"]) == .ad)
        #expect(PingClassification.classify(product: "dcr", mediaType: stationPing["rt"], assetClass: stationPing["c3"]) == .station)
    }

    @Test func radioMetadataIsCheckedAsTheReferenceDescribesIt() {
        let bad = MetadataParser.parse(["type": "radio", "assetid": "wxyz fm", "stationType": "3"], market: .generic)
        #expect(bad.issues.map(\.key).sorted() == ["assetid", "provider", "stationType"])
        guard case .station? = bad.metadata else { Issue.record("not measured as a station"); return }
    }
}
