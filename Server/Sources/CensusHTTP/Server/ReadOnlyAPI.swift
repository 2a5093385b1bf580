import Hummingbird
import HTTPTypes

/// `405 Method Not Allowed` with `Allow: GET` for any other method under `/api/v1/`, whose routes
/// only read (census-decisions.md S51): the router alone answers `404`, as if the path did not
/// exist, and the OpenAPI document says which methods each path takes (`HEAD` is not served).
struct ReadOnlyAPI<Context: RequestContext>: RouterMiddleware {
    static var prefix: String { "/api/v1/" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.uri.path.hasPrefix(Self.prefix) else {
            return try await next(request, context)
        }
        var response = Response.text(.methodNotAllowed, "\(request.method) is not allowed: the read API takes GET")
        response.headers[.allow] = "GET"
        return response
    }
}
