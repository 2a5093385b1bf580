import CensusHTTP
import CensusStore
import MeterTables
import Foundation
import Hummingbird
import HummingbirdTesting
import MeterWire
import Testing
import NIOFoundationEssentialsCompat

/// `POST /cgi-bin/gn/viewability` and the viewability report.
@Suite struct ViewabilityRouteTests {
    static let query = "prd=dcr&c13=asid,P00000000-0000-4000-8000-000000000001&ai=vid1&c3=st,c&c59=sesid,s1"
        + "&c61=createtm,1700000060&uoo=&pingid=v-1&c62=sendTime,1700000060&rnd=1"
    static let body = #"{"inau":[[30,0,1700000000,59]],"ines":[["300x200",0,1700000000,59]],"inss":[["1024x768",0,1700000000,59]],"#
        + #""invp":[["800x600",0,1700000000,59]],"invs":[[100,0,1700000000,39],[20,40,1700000040,19]]}"#

    @Test(arguments: Backend.available)
    func aViewabilityPingIsStoredOnceAndReported(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                for expected in ["stored\n", "duplicate\n"] {
                    try await client.execute(uri: "/cgi-bin/gn/viewability?" + Self.query, method: .post,
                                             body: ByteBuffer(string: Self.body)) { response in
                        #expect(response.status == .ok)
                        #expect(String(buffer: response.body) == expected)
                    }
                }
                try await client.execute(uri: "/api/v1/report/viewability", method: .get) { response in
                    struct Body: Decodable { let rows: [ViewabilityRow] }
                    let rows = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).rows
                    #expect(rows.map { "\($0.session) \($0.assetid) \($0.pings) \($0.measuredSeconds) \($0.viewableSeconds) \($0.audibleSeconds)" }
                            == ["s1 vid1 1 58 39 59"])
                }
                #expect(server.sinceStart.viewabilityPings == 1)
            }
        }
    }

    @Test(arguments: [
        (query, #"{"invs":[[100,0]]}"#, "the body is not invs/inau/inss/invp/ines series"),
        (query, #"{"invs":[[100,0,1700000000,-5]]}"#, "the body is not invs"),
        (query.replacingOccurrences(of: "&pingid=v-1", with: ""), body, "missing pingid"),
        ("prd=dcr&pingid=x", body, "missing c13"),
    ])
    func malformedViewabilityPingsGet400(_ query: String, _ body: String, _ reason: String) async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                try await client.execute(uri: "/cgi-bin/gn/viewability?" + query, method: .post, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains(reason), "\(String(buffer: response.body))")
                }
            }
            #expect(try await store.rejectReasons().count == 1)
        }
    }
}
