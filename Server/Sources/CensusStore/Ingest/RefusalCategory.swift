/// Why a request was refused, in a word from a fixed set: the `reason` label of `/metrics`'
/// `appmeter_census_refused_total` (docs/census.md §4e). The reason a refusal is answered
/// and recorded with is a sentence that may quote the request; its category never does, so a
/// sender cannot add a label value, whatever it sends.
package enum RefusalCategory: String, CaseIterable, Sendable {
    /// Not a valid request: a parameter missing, malformed or out of its set, a body that does not
    /// read. What the census refuses unless it is one of the others.
    case malformed
    /// The app is not one the census takes (`meter apps set`, with registered apps only): 403.
    case unregisteredApp = "unregistered_app"
    /// Over a size limit: the URL, a body, a batch's lines, a session's trace entries.
    case tooLarge = "too_large"
    /// A ping crediting more than a day, the hard limit. Seconds beyond a kind's bound are not
    /// refused but stored as over-bound (``CreditBounds``, `appmeter_census_over_bound_seconds_total`).
    case overADay = "over_a_day"
}
