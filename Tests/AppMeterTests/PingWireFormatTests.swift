import AppMeter
import Foundation
import NielsenAppApi
import Testing

@Suite struct PingWireFormatTests {
    @Test func viewPingIsExactlyAsDocumented() async {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(appID: "P12345678-ABCD-4EF0-9123-456789ABCDEF"))
        meter.api.play(["channelName": "ChannelName"])
        meter.api.loadMetadata(Fixtures.content())
        meter.play([0])
        let pings = await meter.pings()
        let device = "334ad763911a9511e2d1a849c22bcbda94eadf4f7ba15ad6d1cc2a9855e461d5"  // SHA-256 of AD-ID-0001
        let vendor = "bca320c1ed9c8176b2a1d80e8b7c4704791b2e07fa6af1936899d0e886819254"  // SHA-256 of VENDOR-0001
        let expected = "http://127.0.0.1:9/cgi-bin/gn?prd=dcr&ci=&asn=ChannelName"
            + "&fp_id=fpid1&fp_cr_tm=1700000000&fp_acc_tm=1700000000&ve_id=\(vendor)&tl=Program%20S3,%20EP1&prv=1"
            + "&c6=vc,&cg=ProgramName&c13=asid,P12345678-ABCD-4EF0-9123-456789ABCDEF&c32=segA,NA&c33=segB,ChannelName"
            + "&c34=segC,PlayerName&c15=apn,Harness&sup=1&c9=devid,\(device)&enc=true&c1=nuid,\(device)"
            + "&at=view&rt=video&c16=sdkv,\(MeterInstance.platformVersion)"
            + "&c27=cln,0&st=dcr&c36=cref1,&c37=cref2,&c12=apv,1.0&sd=3600&c53=fef,y&c54=oad,20171020%2010%3A05%3A00"
            + "&c57=adldf,2&ai=vid345-67483&c3=st,c&adidx=&c64=starttm,1700000001&c58=isLive,false&c59=sesid,ses1"
            + "&c61=createtm,1700000001&c63=pipMode,&uoo=&c71=ottflg,0&c72=otttyp,&c44=progen,&sttype=&prov=&davty=0&pingid=ping-1"
            + "&c62=sendTime,1700000001&rnd=1700000001000"
        #expect(pings.map(\.url) == [expected])
    }

    /// the Poland page `progen`, `clientid`, `subbrand`; the simplified guide `pipMode`;
    /// the segments: under the parameter names of the guides' example pings, `NA` when absent.
    @Test func documentedContentKeysReachTheWireUnderTheExamplePingsNames() async throws {
        let meter = MeterHarness(appInfo: MeterHarness.appInfo(sfcode: "pl"))
        var metadata = Fixtures.content()
        metadata["progen"] = "GG"
        metadata["clientid"] = "pl-123"
        metadata["subbrand"] = "c05"
        metadata["pipMode"] = "false"
        metadata["segA"] = "Sport"
        metadata["segC"] = nil
        meter.api.loadMetadata(metadata)
        meter.play([0])
        let ping = try #require(await meter.pings().first)
        #expect(ping["c44"] == "progen,GG")
        #expect(ping["ci"] == "pl-123")
        #expect(ping["c6"] == "vc,c05")
        #expect(ping["c63"] == "pipMode,false")
        #expect(ping["c32"] == "segA,Sport")
        #expect(ping["c33"] == "segB,ChannelName")
        #expect(ping["c34"] == "segC,NA")
        #expect(ping["asn"] == "Harness")            // Poland: the app name when play gives no channel
    }

    @Test func longValuesAreTruncatedTitleFirstAndTheURLStaysUnder2K() {
        let parameters = [
            PingParameter("prd", "dcr"), PingParameter("tl", String(repeating: "é", count: 1500)),
            PingParameter("cg", String(repeating: "p", count: 300)), PingParameter("ai", "asset-1"),
        ]
        let ping = Ping(id: "p", kind: .view, assetKind: .content, assetID: "asset-1", creditedSeconds: 0,
                        createdAt: 0, parameters: parameters)
        let url = PingEncoder.url(for: ping, base: URL(string: "https://collector.example")!, sendTime: MeterInstant(secondsSince1970: 1))
        #expect(url.utf8.count <= PingEncoder.maxURLLength)
        #expect(url.utf8.count > PingEncoder.maxURLLength - 6)   // shortened no more than needed
        let decoded = DecodedPing(url: url)
        #expect(decoded["cg"] == String(repeating: "p", count: 300))  // program untouched
        #expect(decoded["ai"] == "asset-1")
        #expect(decoded["tl"]!.allSatisfy { $0 == "é" })             // never a split escape
    }

    @Test func valuesArePercentEncoded() {
        #expect(PingEncoder.encode("a b&c=d/é,x") == "a%20b%26c%3Dd%2F%C3%A9,x")
    }
}
