import CensusHTTP
import CensusStore
import MeterTables
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import NIOFoundationEssentialsCompat

/// The browser SDK's files as the guide's snippet loads them (docs/browser.md): the configuration
/// file of an app the census accepts, the bundle and engine it names with their hashes, all
/// readable from any origin; the read API stays closed to other origins.
@Suite struct BrowserRouteTests {
    static let apid = "P0000B0A0-0000-4000-8000-000000000002"

    func withApp(_ policy: CensusPolicy = .standard,
                 _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store, policy: policy)
            await server.maintain()
            try await Application(router: server.router()).test(.router) { client in try await body(client) }
        }
    }

    /// The JSON between `var c = ` and `;` in a configuration file.
    static func configuration(_ script: String) throws -> [String: Any] {
        let start = try #require(script.range(of: "var c = "))
        let end = try #require(script.range(of: ";\n", range: start.upperBound..<script.endIndex))
        let object = try JSONSerialization.jsonObject(with: Data(script[start.upperBound..<end.lowerBound].utf8))
        return try #require(object as? [String: Any])
    }

    @Test func theConfigurationNamesTheBundleAndEngineByTheirHashes() async throws {
        try await withApp { client in
            var configuration: [String: Any] = [:]
            try await client.execute(uri: "/conf/\(Self.apid).js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.cacheControl] == "private, max-age=300")
                configuration = try Self.configuration(String(buffer: response.body))
            }
            #expect(configuration["apid"] as? String == Self.apid)
            #expect(configuration["enabled"] as? Bool == true)
            #expect(configuration["interval"] as? Int == 60)
            #expect(configuration["ping"] as? String == "/cgi-bin/gn")
            for (path, hash, type) in [("bundle", "bundleIntegrity", "text/javascript; charset=utf-8"),
                                       ("engine", "engineIntegrity", "application/wasm")] {
                let route = try #require(configuration[path] as? String)
                try await client.execute(uri: route, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == type)
                    #expect(response.headers[.accessControlAllowOrigin] == "*")
                    let digest = Data(SHA384.hash(data: Data(buffer: response.body))).base64EncodedString()
                    #expect(configuration[hash] as? String == "sha384-" + digest)
                }
            }
        }
    }

    /// An app's market (`meter apps set --sfcode`) is in its pages' configuration file, which the
    /// bundle hands the engine as the census's market (decisions.md B11a); none, no `sfcode` key.
    @Test(arguments: Backend.available)
    func anAppsMarketIsAnnouncedInItsConfiguration(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                #expect(try await Self.announced(client)["sfcode"] == nil)
                try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 60, sfcode: "it"), for: Self.apid)
                #expect(try await store.apps.settings(for: Self.apid).sfcode == "it")
                #expect(try await Self.announced(client)["sfcode"] as? String == "it")
                try await store.apps.setSettings(AppSettings(enabled: true, durationPingInterval: 30), for: Self.apid)
                let after = try await Self.announced(client)
                #expect(after["sfcode"] == nil && after["interval"] as? Int == 30)
                try await client.execute(uri: "/browser/appmeter.js", method: .get) { response in
                    #expect(String(buffer: response.body).contains("'&market=' + encodeURIComponent(c.sfcode || '')"))
                }
            }
        }
    }

    /// The configuration in `/conf/<apid>.js`.
    static func announced(_ client: any TestClientProtocol) async throws -> [String: Any] {
        let script = try await client.execute(uri: "/conf/\(apid).js", method: .get) { String(buffer: $0.body) }
        return try configuration(script)
    }

    @Test func onlyAnAppInfoLikeSFCodeIsStored() {
        for valid in ["it", "pl-cert", "uat-cert", "ire"] { #expect(AppSettings.isValidSFCode(valid), "\(valid)") }
        for invalid in ["", "IT", "it\"", "</script>", String(repeating: "a", count: 33), "ít"] {
            #expect(!AppSettings.isValidSFCode(invalid), "\(invalid)")
        }
    }

    @Test(arguments: ["nope.js", "P0000B0A0-0000-4000-8000-000000000002", "%3Cscript%3E.js",
                      "P0000B0A0-0000-4000-8000-00000000000Z.js"])
    func aFileThatIsNotAnAppsConfigurationIsNotFound(_ file: String) async throws {
        try await withApp { client in
            try await client.execute(uri: "/conf/" + file, method: .get) { response in
                #expect(response.status == .notFound)
                #expect(!String(buffer: response.body).contains("<script"))   // nothing of the request echoed
            }
        }
    }

    @Test func anAppTheCensusRefusesHasNoConfiguration() async throws {
        var policy = CensusPolicy.standard
        policy.registeredAppsOnly = true
        try await withApp(policy) { client in
            try await client.execute(uri: "/conf/\(Self.apid).js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("does not accept pings"))
            }
        }
    }

    @Test func pingsAnswerAnyOriginButTheReadAPIDoesNot() async throws {
        try await withApp { client in
            try await client.execute(uri: "/cgi-bin/gn?" + PingQueries.valid(pingID: "cors-1"), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "*")
            }
            try await client.execute(uri: "/api/v1/report", method: .get) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func theOptOutPageSetsAndDeletesTheCookieThatConfigurationsRead() async throws {
        try await withApp { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded",
                                    HTTPFields.Element.Name("Sec-Fetch-Site")!: "same-origin"]
            try await client.execute(uri: "/optout", method: .post, headers: form,
                                     body: ByteBuffer(string: "choice=out")) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie]?.hasPrefix("appmeter_optout=1;") == true)
                #expect(String(buffer: response.body).contains("opted out"))
            }
            try await client.execute(uri: "/optout", method: .post, headers: form,
                                     body: ByteBuffer(string: "choice=in")) { response in
                #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
                #expect(String(buffer: response.body).contains("is <strong>measured"))
            }
            try await client.execute(uri: "/optout", method: .get, headers: [.cookie: "appmeter_optout=1"]) { response in
                #expect(response.headers[.setCookie] == nil)
                #expect(String(buffer: response.body).contains("opted out"))
                #expect(String(buffer: response.body).contains(#"<form method="post" action="/optout">"#))
            }
            for (cookie, optedOut) in [("appmeter_optout=1", true), ("other=1; appmeter_optout=1", true), ("", false),
                                       ("appmeter_optout=0", false)] {
                let headers: HTTPFields = cookie.isEmpty ? [:] : [.cookie: cookie]
                try await client.execute(uri: "/conf/\(Self.apid).js", method: .get, headers: headers) { response in
                    let configuration = try Self.configuration(String(buffer: response.body))
                    #expect(configuration["optout"] as? Bool == optedOut, "\(cookie)")
                    #expect(response.headers[.vary] == "Cookie")
                }
            }
        }
    }

    /// What another site can make a browser send: a link (a GET with `choice`), a form posted from its
    /// own origin, a same-site page on another port, a request saying nothing of its origin. None
    /// changes the choice (census-decisions.md S39).
    @Test(arguments: [
        ("GET", "/optout?choice=in", [:] as [String: String], "", HTTPResponse.Status.ok),
        ("GET", "/optout?choice=out", [:], "", .ok),
        ("POST", "/optout", ["Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"], "choice=in", .forbidden),
        ("POST", "/optout", ["Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9"], "choice=in", .forbidden),
        ("POST", "/optout", ["Origin": "https://evil.example"], "choice=in", .forbidden),
        ("POST", "/optout", ["Origin": "null"], "choice=out", .forbidden),
        ("POST", "/optout", [:], "choice=in", .forbidden),
    ])
    func anotherSiteCannotChangeTheChoice(
        method: String, uri: String, headers: [String: String], body: String, status: HTTPResponse.Status
    ) async throws {
        try await withApp { client in
            var fields: HTTPFields = [.cookie: "appmeter_optout=1", .contentType: "application/x-www-form-urlencoded"]
            for (name, value) in headers { fields[HTTPFields.Element.Name(name)!] = value }
            try await client.execute(uri: uri, method: method == "GET" ? .get : .post, headers: fields,
                                     body: ByteBuffer(string: body)) { response in
                #expect(response.status == status)
                #expect(response.headers[.setCookie] == nil)
            }
        }
    }

    @Test func aChoiceIsOneOfTwoShortForms() async throws {
        try await withApp { client in
            let form: HTTPFields = [HTTPFields.Element.Name("Sec-Fetch-Site")!: "same-origin"]
            for (body, status) in [("choice=maybe", HTTPResponse.Status.badRequest), ("", .badRequest),
                                   (String(repeating: "x", count: 1_000), .contentTooLarge)] {
                try await client.execute(uri: "/optout", method: .post, headers: form, body: ByteBuffer(string: body)) {
                    #expect($0.status == status, "\(body.prefix(20))")
                    #expect($0.headers[.setCookie] == nil)
                }
            }
        }
    }

    @Test func theDemoPlayerUsesTheGuidesSnippet() async throws {
        try await withApp { client in
            try await client.execute(uri: BrowserController.browserDemoRoute, method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("NOLBUNDLE.nlsQ("))
                #expect(page.contains("ggPM(\"loadMetadata\""))
            }
        }
    }
}

/// The original Browser SDK's pings (version 6.0, browser-sdk-facts): no device id, an empty `c59`,
/// the browser in `c1=nuid,` and the session in `sessionId`. They count one device and one session.
@Suite struct OriginalBrowserPingTests {
    static let apid = "P6A8B5C4D-1E2F-4A3B-8C9D-0E1F2A3B4C5D"

    static func staticView(nuid: String, session: String, asset: String) -> String {
        "prd=dcr&ci=it-605193&ch=it-605193_c10_\(asset)_S&asn=\(asset)&sessionId=\(session)&prv=1&c6=vc,c10"
            + "&ca=NA&c13=asid,\(apid)&c32=segA,NA&c33=segB,NA&c34=segC,NA&c15=apn,&sup=0&segment2=&segment1="
            + "&forward=1&plugv=&playerv=&ad=0&cr=V&c9=devid,&enc=true&c1=nuid,\(nuid)&at=view&rt=text"
            + "&c16=sdkv,bj.6.0.0&c27=cln,0&c29=plid,15671&c30=bldv,6.0.0.333&st=dcr&c11=agg,1&c12=apv,"
            + "&c51=adl,0&c52=noad,0&c57=adldf,2&ai=\(asset)&c3=st,c&c64=starttm,1567000000&adid=\(asset)"
            + "&c58=isLive,false&c59=sesid,&c61=createtm,1567000000&uoo=&davty=0&si=https%3A%2F%2Fexample.it%2F"
            + "&c66=mediaurl,&c62=sendTime,1567000001&rnd=123456"
    }

    @Test(arguments: Backend.available)
    func aBrowserIsItsNuidAndItsSessionItsSessionId(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                for (nuid, session, asset) in [("uuid-1", "s-1", "1567000000111"), ("uuid-1", "s-1", "1567000000222"),
                                               ("uuid-2", "s-2", "1567000000111")] {
                    try await client.execute(uri: "/cgi-bin/gn?" + Self.staticView(nuid: nuid, session: session, asset: asset),
                                             method: .get) { response in
                        #expect(response.status == .ok, "\(String(buffer: response.body))")
                    }
                }
            }
            let rows = try await store.reports.report(ReportQuery(appid: Self.apid))
            let first = try #require(rows.first { $0.assetid == "1567000000111" })
            #expect(first.views == 2)
            #expect(first.devices == 2)
            #expect(first.sessions == 2)
            #expect(rows.first { $0.assetid == "1567000000222" }?.devices == 1)
        }
    }
}
