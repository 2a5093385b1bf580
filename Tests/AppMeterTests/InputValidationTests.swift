import AppMeter
import Foundation
import NielsenAppApi
import Testing

@Suite struct InputValidationTests {
    /// Inputs that must be rejected with an error naming the problem, and the call ignored.
    static var badInputs: [(input: Any, mentions: String)] { [
        ("{\"type\": \"content\", ", "malformed"),
        ("[\"type\", \"content\"]", "JSON an array"),
        ("\"just a string\"", "JSON a string"),
        (42, "a number"),
        (["type": "content", "length": 3600] as [String: Any], "'length' is a number"),
        (["type": "content", "isfullepisode": true] as [String: Any], "'isfullepisode' is a boolean"),
        ("{\"type\": \"content\", \"length\": 3600}", "'length' is a number"),
        ("{\"type\": \"content\", \"title\": null}", "'title' is null"),
        ([1: "content"] as [AnyHashable: Any], "key 1 is not a string"),
    ] }

    @Test(arguments: 0..<9)
    func badMetadataIsReportedAndIgnored(_ index: Int) async throws {
        let (input, mentions) = Self.badInputs[index]
        let meter = MeterHarness()
        meter.api.loadMetadata(input)
        await meter.api.flush()
        let error = try #require(meter.api.lastErrorDict)
        #expect(error["eventCode"] as? Int == MeterEventCode.failedParseMetadata.rawValue)
        let description = try #require(error["eventDescription"] as? String)
        #expect(description.contains(mentions), "\(description)")
        #expect(error["timestamp"] is Date)
        #expect(meter.snapshot.state == .idle)   // the call was ignored
    }

    @Test func badPlayInputIsReportedWithCode1() async throws {
        let meter = MeterHarness()
        meter.api.play("{not json")
        await meter.api.flush()
        #expect(meter.api.lastErrorDict["eventCode"] as? Int == 1)
        #expect(meter.snapshot.state == .idle)
    }

    @Test func jsonStringAndDictionaryAreEquivalent() async {
        let json = MeterHarness()
        json.api.play("{\"channelName\": \"C1\"}")
        json.api.loadMetadata(String(data: try! JSONSerialization.data(withJSONObject: Fixtures.content()), encoding: .utf8)!)
        json.play(0...3)
        let dictionary = MeterHarness()
        dictionary.api.play(["channelName": "C1"])
        dictionary.api.loadMetadata(Fixtures.content() as [String: Any])
        dictionary.play(0...3)
        let a = await json.pings().map { $0.parameters.filter { $0.name != "c13" }.map { "\($0.name)=\($0.value)" } }
        let b = await dictionary.pings().map { $0.parameters.filter { $0.name != "c13" }.map { "\($0.name)=\($0.value)" } }
        #expect(a == b)
        #expect(a.count == 1)
    }

    @Test func missingRequiredKeysAreReportedByNameAndTheAssetIsStillMeasured() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        meter.api.play()
        meter.api.loadMetadata(["type": "content", "assetid": "bare"])
        meter.play(0...10)
        meter.api.end()
        #expect(await meter.creditedOnTheWire() == ["content/bare": 10])
        let missing = errors.descriptions.filter { $0.contains("is missing") }
        for key in ["program", "title", "length", "airdate", "isfullepisode", "adloadtype"] {
            #expect(missing.contains { $0.contains("'\(key)'") }, "\(key) not reported")
        }
        #expect(errors.codes.allSatisfy { $0 == MeterEventCode.emptyValue.rawValue })
    }

    @Test func keysAreCaseSensitive() async {
        let errors = ErrorCollector()
        let meter = MeterHarness(delegate: errors)
        var metadata = Fixtures.content()
        metadata["AssetId"] = metadata.removeValue(forKey: "assetid")
        meter.api.loadMetadata(metadata)
        await meter.api.flush()
        #expect(errors.descriptions == ["loadMetadata: 'assetid' is missing"])
    }

    @Test func anUnknownTypeIsReportedAndIgnored() async {
        let meter = MeterHarness()
        meter.api.loadMetadata(["type": "hologram", "assetid": "x"])
        await meter.api.flush()
        #expect((meter.api.lastErrorDict["eventDescription"] as? String)?.contains("'type'") == true)
        #expect(meter.snapshot.state == .idle)
    }

    @Test func negativePlayheadIsReportedWithCode15() async {
        let meter = MeterHarness()
        meter.api.play()
        meter.api.loadMetadata(Fixtures.content())
        meter.api.playheadPosition(-5)
        await meter.api.flush()
        #expect(meter.api.lastErrorDict["eventCode"] as? Int == 15)
    }
}

/// Collects the errors a delegate receives.
final class ErrorCollector: NielsenAppApiDelegate, NielsenEventTrackerDelegate, Sendable {
    private let received = Locked([(code: Int, description: String)]())

    func nielsenEventTracker(_ api: NielsenEventTracker, errorOccurred error: [AnyHashable: Any]) {
        received.withLock { $0.append((error["eventCode"] as! Int, error["eventDescription"] as! String)) }
    }

    func nielsenAppApi(_ appApi: NielsenAppApi, errorOccurred error: [AnyHashable: Any]) {
        received.withLock { $0.append((error["eventCode"] as! Int, error["eventDescription"] as! String)) }
    }

    var codes: [Int] { received.withLock { $0.map(\.code) } }
    var descriptions: [String] { received.withLock { $0.map(\.description) } }
}
