@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import MeterWire
import Testing
import Foundation

@Suite struct PingValidatorTests {
    static let good = PingQueries.valid(pingID: "p1", credited: 15, device: "abc", optedOut: true)

    @Test func aValidPingIsParsed() throws {
        let ping = try PingValidator.validate(query: Substring(Self.good), uriLength: 200).get()
        #expect(ping.pingID == "p1")
        #expect(ping.appID == "P00000000-0000-4000-8000-000000000001")
        #expect(ping.creditedSeconds == 15)
        #expect(ping.kind == .content)
        #expect(ping.sessionID == "s1")
        #expect(ping.deviceID == "abc")
        #expect(ping.optedOut)
        #expect(ping.createdAt == 1_700_000_000)
    }

    /// An ad is credited as an ad in audio content too: the asset class decides before the media
    /// type (the SDK sends `rt=audio` on ads inside `isAudio` content).
    @Test(arguments: [
        ("st,a", "video", CreditKind.ad), ("st,a", "audio", .ad), ("st,a", "text", .ad), ("st,c", "text", .static),
        ("st,c", "audio", .audio), ("st,c", "video", .content),
    ])
    func creditKind(_ c3: String, _ rt: String, _ kind: CreditKind) throws {
        let query = PingQueries.valid(pingID: "k", kind: c3).replacingOccurrences(of: "rt=video", with: "rt=\(rt)")
        #expect(try PingValidator.validate(query: Substring(query), uriLength: 100).get().kind == kind)
    }

    /// Each malformed query, and the words its rejection must contain.
    @Test(arguments: [
        (good.replacingOccurrences(of: "c13=asid,P00000000-0000-4000-8000-000000000001&", with: ""), "missing c13"),
        (good.replacingOccurrences(of: "cln,15", with: "cln,abc"), "c27 is \"abc\""),
        (good.replacingOccurrences(of: "cln,15", with: "15"), "c27 must start with \"cln,\""),
        (good.replacingOccurrences(of: "cln,15", with: "cln,-3"), "c27 is \"-3\""),
        (good.replacingOccurrences(of: "cln,15", with: "cln,999999"), "more than a day"),
        (good.replacingOccurrences(of: "prd=dcr", with: "prd=radio"), "prd is \"radio\""),
        (good.replacingOccurrences(of: "at=timer", with: "at=click"), "at is \"click\""),
        (good.replacingOccurrences(of: "pingid=p1", with: "pingid="), "pingid must be 1 to 128 characters"),
        (good + "&tl=%E2%28", "malformed percent escape"),
        (good + "&tl=%G1", "malformed percent escape"),
        ("", "missing prd"),
    ])
    func malformedPingsAreRejectedWithAReason(_ query: String, _ reason: String) {
        guard case .failure(let rejection) = PingValidator.validate(query: Substring(query), uriLength: 100) else {
            Issue.record("accepted: \(query)")
            return
        }
        #expect(rejection.reason.contains(reason), "\(rejection.reason)")
    }

    /// The original SDKs send no `pingid`: the key is derived from the content without the fields
    /// a re-send changes, so a re-sent ping is the same ping and another ping is another.
    @Test func aPingWithoutPingIDGetsAKeyFromItsContent() throws {
        let bare = Self.good.replacingOccurrences(of: "&pingid=p1", with: "")
        let first = try PingValidator.validate(query: Substring(bare + "&c62=sendTime,1&rnd=1000"), uriLength: 300).get()
        let resent = try PingValidator.validate(query: Substring(bare + "&c62=sendTime,9&rnd=9000"), uriLength: 300).get()
        let other = try PingValidator.validate(
            query: Substring(bare.replacingOccurrences(of: "createtm,1700000000", with: "createtm,1700000060")), uriLength: 300).get()
        #expect(first.pingID == resent.pingID)
        #expect(first.pingID.hasPrefix("h") && first.pingID.count == 33)
        #expect(other.pingID != first.pingID)
    }

    @Test func anEmptyAssetIDIsStoredAsItIs() throws {
        let ping = try PingValidator.validate(query: Substring(Self.good.replacingOccurrences(of: "ai=vid1", with: "ai=")),
                                              uriLength: 300).get()
        #expect(ping.assetID == "")
        let absent = try PingValidator.validate(query: Substring(Self.good.replacingOccurrences(of: "&ai=vid1", with: "")),
                                                uriLength: 300).get()
        #expect(absent.assetID == "")
    }

    @Test func urlsOver8KBAreRejected() {
        let result = PingValidator.validate(query: Substring(Self.good), uriLength: 8193)
        #expect(result == .failure(PingRejection(reason: "URL is 8193 bytes; the limit is 8192", category: .tooLarge)))
    }
}
