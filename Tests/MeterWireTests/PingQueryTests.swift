import Foundation
import MeterWire
import Testing

/// The census's one-pass reader of ping queries.
@Suite struct PingQueryTests {
    @Test func fieldsAreDecodedOnDemand() throws {
        let query = PingQuery.parse("prd=dcr&tl=Program%20S3,%20EP1&c13=asid,P1&c13=asid%2CP1&ai=&c54=oad,a+b&x=%7B&x=1&unknown")
        let parsed = try query.get()
        #expect(parsed.value(.product) == "dcr")
        #expect(parsed.value(.title) == "Program S3, EP1")
        #expect(parsed.value(.appID) == "asid,P1")
        #expect(parsed.unprefixedValue(.appID) == "P1")
        #expect(parsed.value(.assetID) == "" && parsed.contains(.assetID))
        #expect(parsed.value(.airdate) == "oad,a b")
        #expect(parsed.value(.pingID) == nil && !parsed.contains(.pingID))
        #expect(parsed.unprefixedValue(.creditedSeconds) == nil)
    }

    @Test(arguments: [
        ("prd=dcr&tl=%G1", "parameter tl has a malformed percent escape"),
        ("prd=dcr&tl=abc%", "parameter tl has a malformed percent escape"),
        ("prd=dcr&t%6c%2=x", "parameter tl has a malformed percent escape"),
        ("a=%2", "parameter a has a malformed percent escape"),
    ])
    func brokenEscapesAnywhereAreRefused(_ query: String, _ reason: String) {
        #expect(throws: PingQuery.Problem(reason: reason)) { try PingQuery.parse(Substring(query)).get() }
    }

    @Test(arguments: [
        ("prd=dcr&ai=a%00b", "parameter ai contains a NUL byte"),
        ("prd=dcr&ai=a\u{0}b", "parameter ai contains a NUL byte"),
        ("prd=dcr&x%00y=1", "parameter x%00y contains a NUL byte"),
        ("prd=dcr&%00", "parameter %00 contains a NUL byte"),
    ])
    func aNULRawOrEscapedIsRefused(_ query: String, _ reason: String) {
        #expect(throws: PingQuery.Problem(reason: reason)) { try PingQuery.parse(Substring(query)).get() }
    }

    /// A field given twice with two values is refused, its name compared after decoding: an
    /// escaped `c13` cannot stand in front of the real one and credit another app.
    @Test(arguments: [
        "prd=dcr&c13=asid,P1&c13=asid,P2",
        "prd=dcr&%63%31%33=asid,P2&c13=asid,P1",
        "prd=dcr&c13=asid,P1&c%31%33=asid,P2",
        "c27=cln,60&c%327=cln,86400",
    ])
    func aFieldWithTwoValuesIsRefused(_ query: String) {
        #expect(throws: PingQuery.Problem.self) { try PingQuery.parse(Substring(query)).get() }
        let reason = (try? PingQuery.parse(Substring(query)).get()).map { _ in "" } ?? {
            if case .failure(let problem) = PingQuery.parse(Substring(query)) { return problem.reason }
            return ""
        }()
        #expect(reason.hasSuffix("appears twice with different values"), "\(reason)")
    }

    @Test func escapedNamesAreRead() throws {
        let parsed = try PingQuery.parse("c%31%33=asid,P1&tl=%C3%A9t%C3%A9").get()
        #expect(parsed.value(.appID) == "asid,P1")
        #expect(parsed.value(.title) == "été")
    }

    /// Escapes that do not make UTF-8 are refused in any parameter, stored or not.
    @Test func invalidUTF8AnywhereIsRefused() {
        #expect(throws: PingQuery.Problem(reason: "parameter zz has a malformed percent escape")) {
            try PingQuery.parse("prd=dcr&zz=%FF%FE").get()
        }
    }

    /// The prefix is compared after decoding, so an escaped comma is still `cln,`.
    @Test func prefixesAreDroppedAfterDecoding() throws {
        let parsed = try PingQuery.parse("c27=cln%2C60&c13=asid%2CP%C3%A9&c59=sesid60&c9=devid,").get()
        #expect(parsed.unprefixedValue(.creditedSeconds) == "60")
        #expect(parsed.unprefixedValue(.appID) == "Pé")
        #expect(parsed.unprefixedValue(.sessionID) == nil && parsed.value(.sessionID) == "sesid60")
        #expect(parsed.unprefixedValue(.deviceID) == "")
        #expect(try PingQuery.parse("c27=cl%6E,7").get().unprefixedValue(.creditedSeconds) == "7")
    }

    /// Escapes must make well-formed UTF-8: no overlong forms, no surrogates, nothing cut short.
    @Test(arguments: [
        ("%F0%9F%98%80", "😀"), ("%C3%A9", "é"), ("%E2%82%AC", "€"),
        ("%C0%AF", nil), ("%ED%A0%80", nil), ("%E2%82", nil), ("%F4%90%80%80", nil), ("%80", nil),
    ] as [(String, String?)])
    func escapedBytesMustBeUTF8(_ escaped: String, _ expected: String?) {
        #expect(WireEncoding.decode(Substring(escaped)) == expected)
        #expect(WireEncoding.decode(bytes: Array(("cln," + escaped).utf8), droppingPrefix: Array("cln,".utf8)) == expected)
    }

    @Test func everyFieldNameIsFound() throws {
        for field in PingField.allCases {
            let parsed = try PingQuery.parse(Substring("zz=1&\(field.name)=v\(field.name)")).get()
            #expect(parsed.value(field) == "v\(field.name)")
        }
    }
}

/// The viewability body the census decodes: durations are bounded, so the seconds it sums cannot
/// overflow whatever a request says.
@Suite struct ViewabilityReportTests {
    @Test func durationsOverADayAreRefused() {
        let huge = #"{"invs":[[100,0,1,9223372036854775807],[100,0,1,9223372036854775807]]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ViewabilityReport.self, from: Data(huge.utf8)) }
        let day = #"{"invs":[[100,0,1,86400],[100,0,1,86400]],"inau":[[0,0,1,86400]]}"#
        let report = try? JSONDecoder().decode(ViewabilityReport.self, from: Data(day.utf8))
        #expect(report?.viewableSeconds == 172_800 && report?.audibleSeconds == 0)
    }
}

/// ``PingQuery/parameters(_:)``: every parameter decoded, for names that are not ping fields.
@Suite struct QueryParametersTests {
    @Test func namesAndValuesAreDecodedInOrder() throws {
        let parameters = try PingQuery.parameters("prd=session&%73essionId=a%20b&empty=&flag&prd=again").get()
        #expect(parameters.map { "\($0.name)=\($0.value)" } == ["prd=session", "sessionId=a b", "empty=", "flag=", "prd=again"])
    }

    @Test(arguments: ["a=%zz", "%g1=x", "a=%4"])
    func aMalformedEscapeRefusesTheQuery(_ query: String) {
        guard case .failure(let problem) = PingQuery.parameters(query[...]) else {
            Issue.record("\(query) was read")
            return
        }
        #expect(problem.reason.contains("malformed percent escape"))
    }
}

/// ``PingQuery/leniently(_:in:limit:)``: a field's value as sent, from a query the reader may refuse.
@Suite struct LenientLookupTests {
    @Test(arguments: [
        ("prd=dcr&c13=asid,P1&at=x", "P1"), ("c13=asid%2CP1", "P1"), ("c13=asid%2cP%201", "P%20"),
        // What the reader refuses: a broken escape, a NUL, a field twice with two values (the first is read).
        ("c13=asid,P1&x=%zz", "P1"), ("x=%00&c13=asid,P1", "P1"), ("c13=asid,P1&c13=asid,P2", "P1"),
        // The name as spelled, the value with its prefix, and no more than the limit.
        ("xc13=asid,P1", nil), ("x=c13=asid,P1", nil), ("c13=P1&c13=asid,P2", "P2"), ("c13=asid,", ""),
        ("c13=asid," + String(repeating: "x", count: 9), "xxxx"), ("", nil),
    ] as [(String, String?)])
    func aFieldIsFoundByItsNameAndPrefix(_ query: String, _ value: String?) {
        #expect(PingQuery.leniently(.appID, in: query[...], limit: 4) == value)
    }

    @Test func aFieldWithoutAPrefixIsItsWholeValue() {
        #expect(PingQuery.leniently(.product, in: "a=1&prd=dcr", limit: 64) == "dcr")
    }
}
