import CensusStore
import Hummingbird

/// Who may read what the census holds. Ingest (pings, batches, traces, config) is always open:
/// devices must reach it. The dashboard's data, reports, sessions, traces and certification
/// results need ``token`` when one is set, which `meter serve` does whenever it listens beyond
/// loopback (docs/certification.md, "Access").
package struct CensusAccess: Sendable {
    /// The token readers present, or nil: open (a census on loopback).
    package let token: String?

    /// Open to anyone who can connect (loopback).
    package static let open = CensusAccess(token: nil)

    /// Requires `token` on every read.
    package init(token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `request` presents the token: `Authorization: Bearer <token>`, or `?token=` (the
    /// browser's EventSource cannot set headers).
    func admits(_ request: Request) -> Bool {
        guard let token else { return true }
        let bearer = request.headers[.authorization].flatMap { value -> Substring? in
            value.hasPrefix("Bearer ") ? value.dropFirst("Bearer ".count) : nil
        }
        let presented = bearer.map(String.init) ?? request.uri.queryParameters.get("token") ?? ""
        return Self.constantTimeEqual(presented, token)
    }

    /// Compares without stopping at the first difference, so the time taken tells nothing about
    /// how much of a guess was right.
    static func constantTimeEqual(_ presented: String, _ expected: String) -> Bool {
        let left = Array(presented.utf8)
        let right = Array(expected.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<right.count {
            difference |= (index < left.count ? left[index] : 0) ^ right[index]
        }
        return difference == 0
    }

    /// Whether `host` is a loopback address (then no token is needed).
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Refuses reads without the token with 401.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let access: CensusAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard access.admits(request) else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer realm=\"AppMeter census\""
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .unauthorized, headers: headers,
                             body: .init(byteBuffer: ByteBuffer(string: "a token is required: Authorization: Bearer <token>\n")))
        }
        return try await next(request, context)
    }
}
