import CensusStore
import Hummingbird

/// `GET /`, `/dashboard.js`, `/dashboard.css`: the dashboard, served by the census itself.
struct DashboardController {
    /// No script but the census's own, no inline script, no frames: a ping's text can never run.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'"

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Self.asset(DashboardPage.html, type: "text/html; charset=utf-8") }
        router.get("/dashboard.js") { _, _ in
            guard let script = DashboardScript.js else {
                return Response.text(.notFound, "the dashboard's script is not next to this census binary (its AppMeterServer_Census.resources folder)")
            }
            return Self.asset(script, type: "text/javascript; charset=utf-8")
        }
        router.get("/dashboard.css") { _, _ in Self.asset(DashboardStyle.css, type: "text/css; charset=utf-8") }
    }

    private static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
