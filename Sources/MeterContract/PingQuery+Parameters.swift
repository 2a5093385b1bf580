extension PingQuery {
    /// Every parameter of `query`, names and values decoded, in order: for what reads names that
    /// are not ``PingField``s (the browser SDK's settings and calls, the queries of traced pings in
    /// certification), never a ping the census takes, which ``parse(_:)`` reads. The grammar is
    /// ``parse(_:)``'s, and a malformed escape refuses the query as there; a NUL or a name given
    /// twice is not refused here.
    public static func parameters(_ query: Substring) -> Result<[(name: String, value: String)], Problem> {
        var parameters: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = WireEncoding.decode(halves[0]) else {
                return .failure(Problem(reason: "parameter \(halves[0]) has a malformed percent escape"))
            }
            guard let value = WireEncoding.decode(halves.count > 1 ? halves[1] : "") else {
                return .failure(Problem(reason: "parameter \(name) has a malformed percent escape"))
            }
            parameters.append((name, value))
        }
        return .success(parameters)
    }
}
