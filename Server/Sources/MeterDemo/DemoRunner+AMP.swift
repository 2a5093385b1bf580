import AppMeter
import Foundation
import CensusHTTP

extension DemoRunner {
    /// Plays a scenario of Google AMP page views only: AMP pages send their requests straight to
    /// the census, so no SDK starts. One would trace a session of `init`, config and `release`
    /// with no pings beside the page view on the dashboard, which is not what an AMP page does.
    func runAMP(_ scenario: DemoScenario, clock: VirtualClock) async throws -> DemoOutcome {
        var requests = 0
        for case .ampPageView(let section, let seconds) in scenario.steps {
            requests += try await sendAMPPageView(section: section, seconds: seconds, clock: clock)
        }
        var outcome = DemoOutcome(scenario: scenario, credited: try await credited(scenario), pingsBuilt: 0)
        outcome.ampRequests = requests
        return outcome
    }

    /// Sends one AMP page view's requests to the census, each at its time on `clock`; returns how many.
    func sendAMPPageView(section: String, seconds: Int, clock: VirtualClock) async throws -> Int {
        let page = AMPPageView(apid: String(appID.dropFirst()), section: section)
        let start = Int64(clock.now().secondsSince1970 * 1000)
        let transport = URLSessionTransport(timeout: 10)
        let requests = page.requests(base: census.baseURL, start: start, visibleSeconds: seconds)
        for request in requests {
            clock.set(to: Double(request.at) / 1000)
            guard let url = URL(string: request.url), case .response(200, _, _) = await transport.send(TransportRequest(url: url))
            else {
                throw DemoError.ampRequestRefused(request.url)
            }
        }
        return requests.count
    }
}
