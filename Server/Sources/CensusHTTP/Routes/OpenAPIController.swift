import Foundation
import Hummingbird

/// `GET /api/v1/openapi.json`: the read API described (`API/openapi.json`, census-decisions.md
/// S51), open to anyone as the dashboard's page is: it holds no data. A test compares its paths
/// with the router's routes, so it cannot fall behind them.
struct OpenAPIController {
    /// The route, beside the API it describes.
    static let path = "api/v1/openapi.json"

    /// The document shipped with the census; nil when its resources are missing (a binary copied
    /// without its `.resources` folder), answered 404 with the reason.
    static let document: [UInt8]? = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "API")
        .flatMap { try? Data(contentsOf: $0) }.map { [UInt8]($0) }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: Self.path)) { _, _ in
            guard let document = Self.document else {
                return Response.text(.notFound, "this census was installed without its resources (API/openapi.json)")
            }
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
    }
}
