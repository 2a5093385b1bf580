import CensusStore
import Hummingbird
import Foundation

/// The guide's opt-out for browsers (docs/browser.md): the census's privacy page, whose opt-out
/// button sets a cookie on the census's domain and whose opt-back-in button deletes it. A page's
/// configuration file reads the cookie, and an opted-out browser sends pings without identifiers,
/// marked `uoo=true` (decisions.md B8).
///
/// Only the browser's owner changes the choice: a GET shows the page and the current choice and
/// changes nothing; the buttons POST, and a POST changes the cookie only when the browser says it
/// came from the census's own page (census-decisions.md S39). Another site can link to the page,
/// or submit a form to it, and change nothing.
enum BrowserOptOut {
    /// The privacy page's path.
    static let route = "/optout"
    /// The cookie's name.
    static let cookie = "appmeter_optout"
    /// The longest form body a choice takes (`choice=out`); longer bodies are refused unread.
    static let maxBody = 64

    /// Whether `request` carries the opt-out cookie.
    static func isSet(in request: Request) -> Bool {
        guard let header = request.headers[.cookie] else { return false }
        return header.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces) == cookie + "=1" }
    }

    /// GET: the page, showing the choice the cookie holds. A `choice` parameter changes nothing.
    static func page(for request: Request) -> Response {
        page(optedOut: isSet(in: request), headers: [:])
    }

    /// POST `choice=out|in` from the page's own form: sets or deletes the cookie. 403 when the browser
    /// says the request came from another origin (or says nothing of its origin), 400 for any other body.
    static func choose(_ request: Request) async -> Response {
        guard isSameOrigin(request) else {
            return .text(.forbidden, "the measurement choice changes only from this census's own page (\(route))")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBody)
        } catch {
            return .text(.contentTooLarge, "a choice is choice=out or choice=in")
        }
        var setCookie: HTTPFields = [:]
        switch String(buffer: body) {
        case "choice=out":
            // Sent with a page's requests to the census from any site: SameSite=None, which
            // browsers accept only with Secure (HTTPS, or localhost).
            setCookie[.setCookie] = "\(cookie)=1; Max-Age=157680000; Path=/; SameSite=None; Secure"
            return page(optedOut: true, headers: setCookie)
        case "choice=in":
            setCookie[.setCookie] = "\(cookie)=; Max-Age=0; Path=/; SameSite=None; Secure"
            return page(optedOut: false, headers: setCookie)
        default:
            return .text(.badRequest, "a choice is choice=out or choice=in")
        }
    }

    /// The browser's word that the request came from a page of this census: `Sec-Fetch-Site:
    /// same-origin`, or, from a browser that does not send it, an `Origin` whose host and port are
    /// the request's `Host`. A request that says neither is not a browser's form, and is refused.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers.first(where: { $0.name.canonicalName == "sec-fetch-site" }) {
            return site.value == "same-origin"
        }
        guard let origin = request.headers[.origin], let host = request.head.authority else { return false }
        for scheme in ["https://", "http://"] where origin.hasPrefix(scheme) {
            return origin.dropFirst(scheme.count).lowercased() == host.lowercased()
        }
        return false
    }

    private static func page(optedOut: Bool, headers extra: HTTPFields) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        let state = optedOut
            ? "This browser is <strong>opted out</strong>: pages measured through this census send no identifier."
            : "This browser is <strong>measured</strong>: pages measured through this census send a random browser id."
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>Measurement choices</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
            form{display:inline}</style>
            </head><body><h1>Measurement choices</h1>
            <p>Sites and players may include audience-measurement software that reports what is played to this
            census, identified by a random id kept in the site's storage, never by name.</p>
            <p id="state">\(state)</p>
            <form method="post" action="\(route)"><input type="hidden" name="choice" value="out">
            <button id="optout" type="submit">Opt out</button></form> (sets a cookie on this census's domain)
            · <form method="post" action="\(route)"><input type="hidden" name="choice" value="in">
            <button id="optin" type="submit">Opt back in</button></form> (deletes it)
            </body></html>
            """
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
