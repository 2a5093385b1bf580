@testable import CensusHTTP
import CensusStore
import MeterWire
import Testing

/// The dashboard's pings are read by the census, with the contract's grammar: the page parses no query.
@Suite struct DecodedParameterTests {
    @Test func aPingIsReadWithItsMeaningsAndWithoutItsPrefixes() {
        let parameters = DecodedParameter.parameters(of: "prd=dcr&c27=cln%2C30&made=up&c15=apn%2CMy%20App")
        #expect(parameters.map(\.name) == ["prd", "c27", "made", "c15"])
        #expect(parameters[1].value == "30")
        #expect(parameters[1].meaning == DashboardPingFields.meaning(of: .creditedSeconds))
        #expect(parameters[2].meaning == "not a parameter of the contract")
        #expect(parameters[3].value == "My App")
    }

    @Test func anUnreadableQueryIsShownAsSentWithTheReason() {
        let parameters = DecodedParameter.parameters(of: "prd=dcr&c27=%zz")
        #expect(parameters.count == 1)
        #expect(parameters[0].value == "prd=dcr&c27=%zz")
        #expect(parameters[0].meaning.hasPrefix("the query cannot be read: "))
    }

    @Test func aQueryOfManyParametersShowsABoundedNumber() {
        let query = (0..<5_000).map { "p\($0)=\($0)" }.joined(separator: "&")
        #expect(DecodedParameter.parameters(of: query).count == DecodedParameter.maxShown)
    }

    @Test func theStoredQueryIsShownWhereTheCensusStoredThePing() {
        let traced = CallTraceEntry(seq: 1, time: 0, call: "playheadPosition", args: [:], state: "playing",
                                    pings: [TracedPing(id: "a", query: "prd=traced"), TracedPing(id: "b", query: "prd=only-traced")])
        let stored = StoredPing(pingID: "a", appid: "app", pingType: "view", kind: .content, assetid: "x",
                                creditedSeconds: 0, createdAt: 0, rawQuery: "prd=stored")
        let decoded = DecodedParameter.pings(entries: [traced], stored: [stored])
        #expect(decoded["a"]?.first?.value == "stored")
        #expect(decoded["b"]?.first?.value == "only-traced")
    }
}
