package import MeasurementCore

/// A page's delivery decisions: the app SDK's (``RetryPolicy``, ``RetryState``, ``QueueBounds``),
/// asked by the page's JavaScript about each `fetch`'s outcome, so that a page retries what an
/// app retries (decisions.md B6, D2). The page keeps the queue, the timers and the requests.
package struct BrowserDelivery {
    package let policy = RetryPolicy()
    package let bounds = QueueBounds()
    package private(set) var retries = RetryState()

    package init() {}

    /// The decision on one attempt: `status` 0 when `fetch` had no HTTP answer (it failed, or
    /// answered an opaque redirect), `retryAfter` negative when there was none to read.
    package mutating func decide(status: Int, retryAfter: Double, random: Double) -> RetryDecision {
        let answer: DeliveryAnswer = status > 0 ? .status(status, retryAfter: retryAfter >= 0 ? retryAfter : nil) : .noAnswer
        return retries.record(answer, policy: policy, random: random)
    }

    /// The decision as the page reads it: `delivered`, `drop`, `resend` (the page keeps only the
    /// query, so it drops it: B6) or `retry <milliseconds>`.
    package static func line(_ decision: RetryDecision) -> String {
        switch decision {
        case .delivered: "delivered"
        case .drop: "drop"
        case .resendWithoutDescription: "resend"
        case .retry(let wait): "retry " + String(Int64((wait * 1000).rounded(.up)))
        }
    }
}
