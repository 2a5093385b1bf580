import Hummingbird

/// The guide's opt-out for browsers (docs/browser.md): the census's privacy page, whose opt-out
/// link sets a cookie on the census's domain and whose opt-back-in link deletes it. A page's
/// configuration file reads the cookie, and an opted-out browser sends pings without identifiers,
/// marked `uoo=true` (decisions.md B8).
enum BrowserOptOut {
    /// The privacy page's path.
    static let route = "/optout"
    /// The cookie's name.
    static let cookie = "appmeter_optout"

    /// Whether `request` carries the opt-out cookie.
    static func isSet(in request: Request) -> Bool {
        guard let header = request.headers[.cookie] else { return false }
        return header.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces) == cookie + "=1" }
    }

    /// The page; `?choice=out` sets the cookie, `?choice=in` deletes it.
    static func page(for request: Request) -> Response {
        var optedOut = isSet(in: request)
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        switch request.uri.queryParameters.get("choice") {
        case "out":
            optedOut = true
            // Sent with a page's requests to the census from any site: SameSite=None, which
            // browsers accept only with Secure (HTTPS, or localhost).
            headers[.setCookie] = "\(cookie)=1; Max-Age=157680000; Path=/; SameSite=None; Secure"
        case "in":
            optedOut = false
            headers[.setCookie] = "\(cookie)=; Max-Age=0; Path=/; SameSite=None; Secure"
        default:
            break
        }
        let state = optedOut
            ? "This browser is <strong>opted out</strong>: pages measured through this census send no identifier."
            : "This browser is <strong>measured</strong>: pages measured through this census send a random browser id."
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>Measurement choices</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}</style>
            </head><body><h1>Measurement choices</h1>
            <p>Sites and players may include audience-measurement software that reports what is played to this
            census, identified by a random id kept in the site's storage, never by name.</p>
            <p id="state">\(state)</p>
            <p><a id="optout" href="\(route)?choice=out">Opt out</a> (sets a cookie on this census's domain)
            · <a id="optin" href="\(route)?choice=in">Opt back in</a> (deletes it)</p>
            </body></html>
            """
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
