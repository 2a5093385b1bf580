/// The HTTP routes of the SDK ⇄ census contract (docs/protocol.md), relative to the collector's
/// base URL.
public enum WireRoute {
    /// `GET`: one measurement ping, its parameters in the query.
    public static let ping = "/cgi-bin/gn"
    /// `POST`: a backlog of pings, one ping query per line (``BatchFormat``).
    public static let batch = "/cgi-bin/gn/batch"
    /// `POST`: a viewability ping, its identifying parameters in the query and its time series in
    /// a JSON body (``ViewabilityReport``).
    public static let viewability = "/cgi-bin/gn/viewability"
    /// `POST`: a part of an SDK instance's call trace (development configurations only), a JSON
    /// ``CallTraceBatch``.
    public static let trace = "/cgi-bin/gn/trace"
    /// `GET`: the config handshake ("hello ping"), answered with a ``ConfigAnswer``.
    public static let config = "/cgi-bin/cfg"
    /// What every ``ampEvent(apid:visit:)`` path starts with, before its apid.
    public static let ampEventPrefix = "/nmapi/v2/"

    /// `GET`: a Google AMP page's event, sent by the AMP vendor's cloud API, its JSON in the
    /// query's `b` (docs/protocol.md §2e): `apid` without its `P`, `visit` the page's
    /// `<clientId>_<pageViewId>`, each as it goes in a path (the census routes on
    /// `ampEvent(apid: ":apid", visit: ":visit")`).
    public static func ampEvent(apid: String, visit: String) -> String {
        ampEventPrefix + apid + "/" + visit + "/a"
    }

    /// `base` followed by `route`, with exactly one `/` between them.
    public static func url(_ route: String, base: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + route
    }
}
