import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import MeterContract

/// Google AMP from a real page (census-decisions.md AMP8a): AMP's published `nielsen` vendor file
/// (Fixtures/amp-nielsen-vendor.json) with the page configuration docs/integration.md gives, "Google
/// AMP pages", expanded as amp-analytics does (``AMPAnalyticsTag``) into the requests the page
/// sends, which an in-process census credits.
@Suite struct AMPVendorRouteTests {
    static let apid = "5D1C7E2A-9B3F-4C6D-8E0A-1F2B3C4D5E6F"
    static let censusOrigin = "https://census.example.com"

    static func vendorFile() throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "amp-nielsen-vendor", withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    /// The JSON inside the `<amp-analytics>` block of docs/integration.md "Google AMP pages", with
    /// this test's apid in place of the guide's placeholder.
    static func documentedPageConfig() throws -> Data {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/integration.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "## Google AMP pages")).upperBound
        let open = try #require(text.range(of: "<script type=\"application/json\">", range: section..<text.endIndex))
        let close = try #require(text.range(of: "</script>", range: open.upperBound..<text.endIndex))
        let json = text[open.upperBound..<close.lowerBound]
            .replacingOccurrences(of: "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX", with: apid)
        return Data(json.utf8)
    }

    /// The guide's page config as the guide writes it: vars only.
    static func guidePageConfig() throws -> Data {
        let page = try JSONSerialization.jsonObject(with: documentedPageConfig()) as? [String: Any] ?? [:]
        return try JSONSerialization.data(withJSONObject: ["vars": try #require(page["vars"])])
    }

    /// What one page view visible for `seconds` sends: the `visible` trigger's requests at `start`,
    /// the timer's every interval while visible, the `hidden` trigger's at the end (ms timestamps).
    static func pageView(_ tag: AMPAnalyticsTag, _ platform: AMPAnalyticsTag.Platform, start: Int64, seconds: Int64) throws -> [String] {
        let interval = Int64(try #require(tag.timerInterval))
        var moments: [(names: [String], at: Int64, hidden: Bool)] = [(tag.requestNames(ofTriggerOn: "visible"), start, false)]
        for tick in stride(from: interval, to: seconds, by: Int(interval)) {
            moments.append((tag.requestNames(ofTriggerOn: "timer"), start + tick * 1000, false))
        }
        moments.append((tag.requestNames(ofTriggerOn: "hidden"), start + seconds * 1000, true))
        var urls: [String] = []
        for moment in moments {
            for name in moment.names {
                urls.append(try #require(tag.request(name, platform: platform, timestamp: moment.at, hidden: moment.hidden,
                                                     count: urls.count + 1)))
            }
        }
        return urls
    }

    static let platform = AMPAnalyticsTag.Platform(
        clientID: "amp-Xk3vQ9yPz1LmN8tR2wEuAg", pageViewID: "4821", ampdocURL: "https://www.example.it/news/article.amp.html")

    /// The guide's tag as written sends to Nielsen's hosts, with the guide's `eu-` prefix; a prefix
    /// holding a host cannot move them, as AMP encodes it.
    @Test func theGuidesTagAloneGoesToTheVendorsHosts() throws {
        let tag = try AMPAnalyticsTag(vendor: Self.vendorFile(), page: Self.guidePageConfig())
        let urls = try Self.pageView(tag, Self.platform, start: 1_700_000_000_000, seconds: 25)
        #expect(urls.count == 5)
        #expect(urls[0].hasPrefix("https://eu-uaid-linkage.imrworldwide.com/cgi-bin/gn?prd=session&c13=asid,P\(Self.apid)&"))
        #expect(urls.dropFirst().allSatisfy { $0.hasPrefix("https://eu-cloudapi.imrworldwide.com/nmapi/v2/\(Self.apid)/") })

        let moved = try JSONSerialization.data(withJSONObject: ["vars": ["apid": Self.apid, "prefix": "census.example.com/"]])
        let prefixed = try #require(try AMPAnalyticsTag(vendor: Self.vendorFile(), page: moved)
            .request("session", platform: Self.platform, timestamp: 1, hidden: false, count: 1))
        #expect(prefixed.hasPrefix("https://census.example.com%2Fuaid-linkage.imrworldwide.com/"))
    }

    /// The documented page sends every request to the census, and the census credits the page view:
    /// 65 s of static time for the guide's section, one view, the session ping counted.
    @Test(arguments: Backend.available)
    func theDocumentedPageIsCreditedByTheCensus(_ backend: Backend) async throws {
        let tag = try AMPAnalyticsTag(vendor: Self.vendorFile(), page: Self.documentedPageConfig())
        let start = (Int64(Date.now.timeIntervalSince1970) - 3_600) * 1000
        let urls = try Self.pageView(tag, Self.platform, start: start, seconds: 65)
        #expect(urls.count == 9)
        #expect(urls.allSatisfy { $0.hasPrefix(Self.censusOrigin + "/") }, "\(urls)")
        // The body the census reads is the vendor's JSON with the guide's values.
        let body = try #require(URLComponents(string: urls[1])?.queryItems?.first { $0.name == "b" }?.value)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let metadata = (event["metadata"] as? [String: Any])?["static"] as? [String: Any]
        #expect(metadata?["section"] as? String == "EntityName_AMP" && metadata?["segC"] as? String == "Google AMP")
        #expect((event["devInfo"] as? [String: Any])?["apn"] as? String == "My AMP Website")
        #expect(event["pageURL"] as? String == Self.platform.ampdocURL && event["utc"] as? String == String(start))

        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                for url in urls {
                    try await client.execute(uri: String(url.dropFirst(Self.censusOrigin.count)), method: .get) { response in
                        #expect(response.status == .ok, "\(url): \(String(buffer: response.body))")
                    }
                }
            }
            let report = try await server.store.reports.report(ReportQuery(appid: "P" + Self.apid))
            #expect(report.filter { $0.kind == .static }.map { [$0.assetid: $0.creditedSeconds] } == [["EntityName_AMP": 65]])
            #expect(report.first?.views == 1)
            #expect(server.sinceStart.ampSessions == 1 && server.sinceStart.ampEvents == 8 && server.sinceStart.rejected == 0)
        }
    }
}
