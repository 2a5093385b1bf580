import AppMeter
import Foundation
import Testing

/// The retry policy, cell by cell.
@Suite struct RetryPolicyTests {
    static func response(_ status: Int, retryAfter: Double? = nil) -> TransportOutcome {
        .response(status: status, retryAfter: retryAfter, body: Data())
    }

    @Test(arguments: [
        // (outcome, failures in a row, random, decision)
        (response(200), 1, 0.0, RetryDecision.delivered),
        (response(204), 3, 0.5, .delivered),
        (response(400), 1, 0.0, .resendWithoutDescription),   // what it says was refused
        (response(414), 1, 0.0, .resendWithoutDescription),   // a URL too long for a proxy
        (response(401), 1, 0.0, .drop),
        (response(403), 1, 0.0, .drop),
        (response(404), 1, 0.0, .drop),
        (response(410), 1, 0.0, .drop),
        (response(422), 1, 0.0, .drop),
        (response(409), 1, 0.0, .drop),                      // any other 4xx: resending cannot help
        (response(408), 1, 0.0, .retry(after: 1)),
        (response(429), 1, 0.0, .retry(after: 1)),
        (response(500), 1, 0.0, .retry(after: 1)),
        (response(502), 2, 0.0, .retry(after: 2)),
        (response(503), 3, 0.0, .retry(after: 4)),
        (response(503), 3, 1.0, .retry(after: 4.8)),         // +20 % jitter at most
        (response(503, retryAfter: 120), 1, 0.0, .retry(after: 120)),   // Retry-After honoured
        (response(429, retryAfter: 2), 5, 0.0, .retry(after: 16)),      // never sooner than backoff
        (response(503, retryAfter: 99_999), 1, 0.0, .retry(after: 3600)),  // capped
        (.failure("offline"), 1, 0.0, .retry(after: 1)),
        (.failure("offline"), 9, 0.0, .retry(after: 256)),
        (.failure("offline"), 10, 0.0, .retry(after: 300)),  // capped at 5 minutes
        (.failure("offline"), 50, 0.5, .retry(after: 330)),
        (response(302), 1, 0.0, .retry(after: 1)),
    ])
    func decision(_ outcome: TransportOutcome, _ failures: Int, _ random: Double, _ expected: RetryDecision) {
        #expect(RetryPolicy().decide(outcome, failures: failures, random: random) == expected)
    }
}
