import Foundation
import MeterWire
import Testing

/// The contract both sides import.
@Suite struct MeterWireTests {
    @Test(arguments: [
        ("a", "video", CreditKind.ad), ("a", "audio", .ad), ("a", "text", .ad), ("a", nil, .ad),
        ("c", "video", .content), ("c", "audio", .audio), ("c", "text", .static), ("c", nil, .content),
        (nil, "audio", .audio), (nil, "radio", .content),
    ] as [(String?, String?, CreditKind)])
    func classification(_ assetClass: String?, _ mediaType: String?, _ kind: CreditKind) {
        #expect(PingClassification.classify(mediaType: mediaType, assetClass: assetClass.map { "st,\($0)" }) == kind)
    }

    @Test func typedClassificationAgreesWithTheRawOne() {
        for media in MediaType.allCases {
            for asset in AssetClass.allCases {
                #expect(PingClassification.classify(mediaType: media, assetClass: asset)
                        == PingClassification.classify(mediaType: media.rawValue, assetClass: "st,\(asset.rawValue)"))
            }
        }
    }

    @Test func fieldNamesAreUniqueAndPrefixesEndWithAComma() {
        #expect(Set(PingField.allCases.map(\.name)).count == PingField.allCases.count)
        for field in PingField.allCases where !field.prefix.isEmpty {
            #expect(field.prefix.hasSuffix(","), "\(field)")
        }
        #expect(PingField.creditedSeconds.wireValue("15") == "cln,15")
    }

    @Test func configAnswersAreCheckedAndRoundTrip() throws {
        let answer = ConfigAnswer(appid: "P1", enabled: false, durationPingInterval: 30)
        #expect(try ConfigAnswer.decode(answer.encoded()).get() == answer)
        for body in [#"{"enabled": true, "durationPingInterval": 0}"#, #"{"enabled": true, "durationPingInterval": 3601}"#,
                     #"{"enabled": true}"#, "<html>"] {
            guard case .failure(let error) = ConfigAnswer.decode(Data(body.utf8)) else {
                Issue.record("accepted \(body)")
                continue
            }
            #expect(error.reason.contains("config"))
        }
    }

    @Test func batchBodiesRoundTripAndToleratePrefixesAndCarriageReturns() throws {
        let queries = ["prd=dcr&ai=a", "prd=dcr&ai=b"]
        #expect(try BatchFormat.queries(in: BatchFormat.body(queries: queries)).get() == ["prd=dcr&ai=a", "prd=dcr&ai=b"])
        #expect(try BatchFormat.queries(in: "?a=1\r\n\n\r\nb=2\n".utf8).get() == ["a=1", "b=2"])
        let answer = BatchAnswer(stored: 2, duplicates: 1, rejected: [.init(line: 3, reason: "bad")])
        #expect(try JSONDecoder().decode(BatchAnswer.self, from: JSONEncoder().encode(answer)) == answer)
    }

    /// A body framed with CR alone, a stray CR, or bytes that are not UTF-8 are refused whole,
    /// naming the line: read as they are, CR-framed lines merged into one and their pings were lost.
    @Test(arguments: [
        (Array("a=1\rb=2\r".utf8), "batch line 1 has a carriage return"),
        (Array("a=1\nb=2\r\r\nc=3".utf8), "batch line 2 has a carriage return"),
        (Array("a=1\r\nb=".utf8) + [0xFF, 0xFE], "batch line 2 is not UTF-8"),
        (Array("a=1\n".utf8) + [0xC3], "batch line 2 is not UTF-8"),
    ] as [([UInt8], String)])
    func badlyFramedBatchBodiesAreRefusedWithTheLine(_ body: [UInt8], _ reason: String) {
        guard case .failure(let problem) = BatchFormat.queries(in: body) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.reason.hasPrefix(reason), "\(problem.reason)")
    }

    @Test(arguments: ["", "plain", "Program S3, EP1", "é&=?%+/ #", "20171020 10:05:00", "日本語テキスト", "a\u{0}b"])
    func percentEncodingRoundTrips(_ value: String) {
        let encoded = WireEncoding.encode(value)
        #expect(encoded.utf8.allSatisfy { WireEncoding.isLiteral($0) || $0 == UInt8(ascii: "%") })
        #expect(WireEncoding.decode(Substring(encoded)) == value)
    }

    @Test func brokenEscapesAreRefused() {
        for broken in ["%", "%4", "%G1", "%E2%28", "ab%zz"] {
            #expect(WireEncoding.decode(Substring(broken)) == nil, "\(broken)")
        }
        #expect(WireEncoding.decode("a+b") == "a b")
    }

    @Test func routesJoinTheBaseWithOneSlash() {
        #expect(WireRoute.url(WireRoute.ping, base: "http://h:1/") == "http://h:1/cgi-bin/gn")
        #expect(WireRoute.url(WireRoute.batch, base: "http://h:1") == "http://h:1/cgi-bin/gn/batch")
    }

    @Test func anAMPEventsPathNamesItsAppAndVisit() {
        #expect(WireRoute.ampEvent(apid: "0B1E", visit: "amp-c_1234") == "/nmapi/v2/0B1E/amp-c_1234/a")
        #expect(WireRoute.ampEvent(apid: "0B1E", visit: "v").hasPrefix(WireRoute.ampEventPrefix))
    }
}
