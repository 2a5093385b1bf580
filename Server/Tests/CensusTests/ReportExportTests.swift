@testable import CensusHTTP
@testable import CensusStore
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterContract
import Testing

/// The reports as CSV and JSON Lines (``ReportExport``, census-decisions.md S50): cells quoted and
/// defused as RFC 4180 and OWASP ask, the columns named as the JSON API names its fields, and the
/// API answering them with the columns' version.
@Suite struct ReportExportTests {
    static let row = CreditRow(appid: "PAPP", assetid: "vid1", kind: .content, views: 2, creditedSeconds: 90, overBoundSeconds: 5,
                               ottSeconds: 0, devices: 2, sessions: 2, optedOutShare: 0.5)

    @Test(arguments: [
        (ReportExport.Value.text("plain"), "plain"),
        (.text("a,b"), "\"a,b\""),
        (.text("say \"hi\""), "\"say \"\"hi\"\"\""),
        (.text("two\nlines"), "\"two\nlines\""),
        (.text("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\""),
        (.text("+1"), "'+1"),
        (.text("-1"), "'-1"),
        (.text("@SUM(A1)"), "'@SUM(A1)"),
        (.text("\tx"), "'\tx"),
        (.text(""), ""),
        (.integer(-3), "-3"),
        (.number(0.25), "0.25"),
        (.number(.nan), ""),
        (.number(.infinity), ""),
        (.flag(true), "true"),
        (.absent, ""),
    ])
    func aCSVCellIsQuotedAndDefused(_ value: ReportExport.Value, _ cell: String) {
        #expect(ReportExport.csvCell(value) == cell)
    }

    @Test(arguments: [
        (ReportExport.Value.text("a\"b\\c"), #""a\"b\\c""#),
        (.text("line\nbreak\u{1}"), #""line\nbreak\u0001""#),
        (.text("é ✓"), "\"é ✓\""),
        (.integer(7), "7"),
        (.number(.nan), "null"),
        (.flag(false), "false"),
        (.absent, "null"),
    ])
    func aJSONValueIsEscaped(_ value: ReportExport.Value, _ json: String) {
        #expect(ReportExport.jsonValue(value) == json)
    }

    @Test func aCreditRowExportsAsCSVAndAsJSONLines() throws {
        var checked = Self.row
        checked.tagCheck = DTVRTagCheck(tagSeconds: 80, sdkSeconds: 90, disagreeingSessions: 1)
        let csv = ReportExport.render([Self.row, checked], ReportExport.credit, as: .csv)
        #expect(csv == """
            appid,assetid,kind,views,creditedSeconds,overBoundSeconds,ottSeconds,devices,sessions,optedOutShare,tagSeconds,sdkSeconds,disagreeingSessions\r
            PAPP,vid1,content,2,90,5,0,2,2,0.5,,,\r
            PAPP,vid1,content,2,90,5,0,2,2,0.5,80,90,1\r

            """)
        let lines = ReportExport.render([checked], ReportExport.credit, as: .jsonl).split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["creditedSeconds"] as? Int == 90)
        #expect(object["disagreeingSessions"] as? Int == 1)
        #expect(object["assetid"] as? String == "vid1")
    }

    /// Every column is a field the JSON API answers (a tag check's three flattened from its
    /// `tagCheck`), so the three forms name one thing alike.
    @Test func theColumnsAreTheJSONAPIsFieldNames() throws {
        func fields(_ value: some Encodable) throws -> Set<String> {
            Set(try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]).keys)
        }
        let tagFields = try fields(DTVRTagCheck(tagSeconds: 1, sdkSeconds: 1, disagreeingSessions: 1))
        var credit = Self.row
        credit.tagCheck = DTVRTagCheck(tagSeconds: 1, sdkSeconds: 1, disagreeingSessions: 1)
        let creditFields = try fields(credit).subtracting(["tagCheck"]).union(tagFields)
        #expect(Set(ReportExport.credit.map(\.name)) == creditFields)
        let dtvr = DTVRRow(appid: "P", channel: "c", cid: "i", views: 1, creditedSeconds: 1, devices: 1, sessions: 1,
                           tagCheck: DTVRTagCheck(tagSeconds: 1, sdkSeconds: 1, disagreeingSessions: 1))
        let dtvrFields = try fields(dtvr).subtracting(["tagCheck"]).union(tagFields)
        #expect(Set(ReportExport.dtvr.map(\.name)) == dtvrFields)
        let viewability = ViewabilityRow(appid: "P", session: "s", assetid: "a", pings: 1, measuredSeconds: 1, viewableSeconds: 1,
                                         audibleSeconds: 1)
        let viewabilityFields = try fields(viewability)
        #expect(Set(ReportExport.viewability.map(\.name)) == viewabilityFields)
    }

    @Test(arguments: Backend.available)
    func theAPIAnswersEachReportAsCSVOrJSONLines(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let app = Application(router: CensusServer(store: store).router())
            try await app.test(.router) { client in
                let ping = PingQueries.valid(pingID: "x1", asset: "=cmd|' /C calc'!A0", credited: 30,
                                             created: Int(Date.now.timeIntervalSince1970) - 600)
                try await client.execute(uri: "/cgi-bin/gn?" + ping.replacingOccurrences(of: "|", with: "%7C")
                    .replacingOccurrences(of: " ", with: "%20"), method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/api/v1/report?format=csv", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/csv; charset=utf-8; header=present")
                    #expect(response.headers[ReportController.exportVersion] == "1")
                    let lines = String(buffer: response.body).components(separatedBy: "\r\n")
                    #expect(lines.first?.hasPrefix("appid,assetid,kind,views,creditedSeconds,") == true)
                    #expect(lines.dropFirst().first?.contains(",'=cmd|' /C calc'!A0,content,") == true, "\(lines)")
                }
                try await client.execute(uri: "/api/v1/report/viewability?format=jsonl", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/jsonl; charset=utf-8")
                    #expect(String(buffer: response.body).isEmpty)
                }
                try await client.execute(uri: "/api/v1/report/dtvr?format=csv", method: .get) { response in
                    #expect(String(buffer: response.body).hasPrefix("appid,channel,cid,"))
                }
                try await client.execute(uri: "/api/v1/report?format=xml", method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains("format must be json, csv or jsonl"))
                }
                try await client.execute(uri: "/api/v1/report?format=json", method: .get) { response in
                    #expect(String(buffer: response.body).hasPrefix("{"))
                }
            }
        }
    }
}
