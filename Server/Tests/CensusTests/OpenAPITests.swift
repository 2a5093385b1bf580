@testable import CensusHTTP
import CensusStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The read API's OpenAPI document (census-decisions.md S51) describes exactly the routes the
/// census serves under `/api/v1`, and the census serves it.
@Suite struct OpenAPITests {
    static func document() throws -> [String: Any] {
        let bytes = try #require(OpenAPIController.document, "API/openapi.json is a resource of CensusHTTP")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func theDocumentDescribesExactlyTheRoutesUnderAPIv1() async throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in
            operations.keys.map { "\($0.uppercased()) \(path)" }
        })
        let served = try await Backend.sqlite.withStore { store in
            Set(CensusServer(store: store).router().routes.map { "\($0.method) /\(String(describing: $0.path).trimmingCharacters(in: ["/"]))" }
                .filter { $0.contains(" /api/v1/") })
        }
        #expect(documented == served, "documented only: \(documented.subtracting(served).sorted()); served only: \(served.subtracting(documented).sorted())")
    }

    @Test func everyOperationAnswersTheTokensRefusalAndEveryReferenceResolves() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        for (path, operations) in paths where path != "/" + OpenAPIController.path {
            for (method, operation) in operations {
                let responses = try #require(operation["responses"] as? [String: Any])
                #expect(responses["401"] != nil, "\(method) \(path) does not say the token is required")
            }
        }
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let text = String(decoding: try #require(OpenAPIController.document), as: UTF8.self)
        for reference in text.components(separatedBy: "\"#/components/schemas/").dropFirst() {
            let name = String(reference.prefix { $0 != "\"" })
            #expect(schemas[name] != nil, "#/components/schemas/\(name) is not defined")
        }
    }

    @Test func theCensusServesTheDocumentWithoutTheToken() async throws {
        try await Backend.sqlite.withStore { store in
            let app = Application(router: CensusServer(store: store, access: CensusAccess(token: "secret")).router())
            try await app.test(.router) { client in
                try await client.execute(uri: "/api/v1/openapi.json", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    #expect(String(buffer: response.body).contains("\"openapi\": \"3.0.3\""))
                }
                try await client.execute(uri: "/api/v1/report", method: .get) { #expect($0.status == .unauthorized) }
                // The document lists GET alone: any other method is told so, not answered 404.
                for method in [HTTPRequest.Method.post, .head, .delete, .options] {
                    try await client.execute(uri: "/api/v1/report", method: method) { response in
                        #expect(response.status == .methodNotAllowed, "\(method)")
                        #expect(response.headers[.allow] == "GET")
                    }
                }
            }
        }
    }
}
