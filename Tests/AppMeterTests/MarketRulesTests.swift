import AppMeter
import Testing

/// Walks the metadata validation rules market by market.
@Suite struct MarketRulesTests {
    static func problems(_ overrides: [String: String], sfcode: String) -> [String] {
        var values = Fixtures.content()
        values.merge(overrides) { $1 }
        return MetadataParser.parse(values, market: .forSFCode(sfcode)).issues.map(\.key)
    }

    @Test(arguments: [
        // (key, value, sfcode, rejected?)
        ("assetid", String(repeating: "a", count: 32), "it", false),
        ("assetid", String(repeating: "a", count: 33), "it", true),
        ("assetid", String(repeating: "a", count: 33), "ire", true),
        ("assetid", String(repeating: "a", count: 64), "pl", false),
        ("assetid", String(repeating: "a", count: 65), "pl", true),
        ("assetid", "ad=123", "pl", true),
        ("assetid", "Ab_9-z", "pl", false),
        ("assetid", "ad=123", "dcr", false),
        ("assetid", String(repeating: "a", count: 101), "dcr", true),
        ("program", String(repeating: "p", count: 100), "it", false),
        ("program", String(repeating: "p", count: 101), "it", true),
        ("program", String(repeating: "p", count: 254), "pl", false),
        ("program", String(repeating: "p", count: 255), "pl", true),
        ("title", String(repeating: "t", count: 101), "ire", true),
        ("title", "back\\slash", "pl", true),
        ("title", "back\\slash", "it", false),
        ("length", "3600", "dcr", false),
        ("length", "-1", "dcr", true),
        ("length", "1h", "dcr", true),
        ("airdate", "20171020 10:05:00", "dcr", false),
        ("airdate", "2017-10-20T10:05:00", "pl", false),
        ("airdate", "2017-10-2010:05:00", "pl", false),
        ("airdate", "2017-10-20T10:05:00+02:00", "pl", false),
        ("airdate", "2017102010:05:00", "pl", false),
        ("airdate", "10-20-2017", "pl", false),
        ("airdate", "10/20/2017", "pl", false),
        ("airdate", "yesterday", "dcr", true),
        ("isfullepisode", "y", "dcr", false),
        ("isfullepisode", "Yes", "pl", false),
        ("isfullepisode", "maybe", "dcr", true),
        ("adloadtype", "1", "dcr", false),
        ("adloadtype", "3", "dcr", true),
    ])
    func rule(_ key: String, _ value: String, _ sfcode: String, _ rejected: Bool) {
        #expect(Self.problems([key: value], sfcode: sfcode) == (rejected ? [key] : []))
    }

    @Test func adsNeedOnlyTypeAndAssetID() {
        let result = MetadataParser.parse(["type": "midroll", "assetid": "AD-1"], market: .generic)
        #expect(result.issues.isEmpty)
        guard case .ad(let ad)? = result.metadata else { Issue.record("not an ad"); return }
        #expect(ad.type == .midroll)
        #expect(ad.assetID == "AD-1")
    }

    @Test func italysAdLoadTypeHasToBe2IsReportedNotEnforced() {
        var values = Fixtures.content()
        values["adloadtype"] = "1"
        let italy = MetadataParser.parse(values, market: MarketProfile.forSFCode("it"))
        #expect(italy.issues.map(\.key) == ["adloadtype"])
        #expect(italy.issues.first?.code == .failedParseMetadata)
        guard case .content(let content)? = italy.metadata else { Issue.record("not measured"); return }
        #expect(content.adLoadType == .linear)
        #expect(MetadataParser.parse(values, market: .generic).issues.isEmpty)
    }

    @Test func theCompactAirdateOfTheSimplifiedGuideIsAccepted() {
        var values = Fixtures.content()
        values["airdate"] = "20161013204400"
        #expect(MetadataParser.parse(values, market: .generic).issues.isEmpty)
    }

    @Test func everyMarketHasADistinctSFCode() {
        let codes = MarketProfile.all.flatMap(\.sfcodes)
        #expect(Set(codes).count == codes.count)
        #expect(MarketProfile.forSFCode("PL").name == "Poland")
        #expect(MarketProfile.forSFCode("uat-cert") == .generic)
    }
}
