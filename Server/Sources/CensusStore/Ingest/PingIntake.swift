package import MeterWire

/// What to do with a `GET /cgi-bin/gn` request, decided synchronously (on the event loop, on the
/// fast path) before anything is stored: the validator's verdict, or the Google AMP session ping,
/// which has a route of its own.
package enum PingIntake {
    /// A valid ping, to store.
    case store(IncomingPing)
    /// A refused request, with the reason recorded and answered.
    case reject(PingRejection)
    /// A Google AMP `prd=session` ping, read.
    case ampSession(PingQuery)

    /// Reads `query` (the part after `?`) of the request `uri`.
    package static func read(query: Substring, uri: String) -> PingIntake {
        let read = PingValidator.read(query: query, uriLength: uri.utf8.count)
        if case .success(let parsed) = read, parsed.value(.product) == AMPSessionPing.product {
            return .ampSession(parsed)
        }
        switch read.flatMap({ PingValidator.validate($0, rawQuery: query) }) {
        case .success(let ping): return .store(ping)
        case .failure(let rejection): return .reject(rejection)
        }
    }
}
