@testable import CensusHTTP
@testable import CensusPostgres
@testable import CensusSQLite
@testable import CensusStore
@testable import MeterTables
import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import MeterWire
import Testing

/// `GET /metrics` (docs/census.md §4e): Prometheus text whose counters are what the store
/// holds, with label values a sender cannot choose, behind the read token when one is set.
@Suite struct CensusMetricsTests {
    /// A request whose refusal quotes what the sender chose: a product the census does not know,
    /// shaped like a label set.
    static let attackerText = "pwned\"}evil{reason=\"x"

    /// Pings stored, a duplicate and refusals of each kind the ping route has, on a live server
    /// (the fast path below the router): the counters match the stored rows.
    @Test(arguments: Backend.available)
    func theCountersAreWhatTheStoreHolds(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let server = CensusServer(store: store)
            let metrics = try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
                func ping(_ query: String) async throws -> String {
                    try await client.execute(uri: "/cgi-bin/gn?" + query, method: .get) { String(buffer: $0.body) }
                }
                // Three pings, one claiming far more than its kind's bound: clipped, not refused.
                #expect(try await ping(PingQueries.valid(pingID: "m-1", credited: 10)) == "stored\n")
                #expect(try await ping(PingQueries.valid(pingID: "m-2", credited: 20)) == "stored\n")
                #expect(try await ping(PingQueries.valid(pingID: "m-3", credited: 5_000)) == "stored\n")
                #expect(try await ping(PingQueries.valid(pingID: "m-1", credited: 10)) == "duplicate\n")
                // Refused: malformed twice (one quoting the attacker's text), too large, over a day.
                #expect(try await ping(PingQueries.valid(pingID: "r-1").replacingOccurrences(of: "cln,10", with: "cln,ten"))
                        == "c27 is \"ten\", not a whole number of seconds\n")
                let hostile = PingQueries.valid(pingID: "r-2").replacingOccurrences(
                    of: "prd=dcr", with: "prd=" + Self.attackerText.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(try await ping(hostile).contains(Self.attackerText))
                #expect(try await ping(PingQueries.valid(pingID: "r-3") + "&pad=" + String(repeating: "x", count: 8_200))
                        .hasPrefix("URL is "))
                #expect(try await ping(PingQueries.valid(pingID: "r-4", credited: 100_000)).contains("more than a day"))
                return try await client.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                    return try PrometheusText(String(buffer: response.body))
                }
            }
            let counts = try await store.counts()
            #expect(counts == (3, 4))
            #expect(metrics.value("appmeter_census_pings_stored_total") == Double(counts.pings))
            #expect(metrics.value("appmeter_census_pings_duplicate_total") == 1)
            #expect(metrics.sum("appmeter_census_refused_total") == Double(counts.rejects))
            #expect(metrics.value("appmeter_census_refused_total", ["reason": "malformed"]) == 2)
            #expect(metrics.value("appmeter_census_refused_total", ["reason": "too_large"]) == 1)
            #expect(metrics.value("appmeter_census_refused_total", ["reason": "over_a_day"]) == 1)
            #expect(metrics.value("appmeter_census_refused_total", ["reason": "unregistered_app"]) == 0)
            #expect(metrics.value("appmeter_census_storage_failures_total") == 0)
            // The seconds, as the report sums the stored rows.
            let stored = try await store.reports.plausibility(ReportQuery())
            #expect(metrics.value("appmeter_census_credited_seconds_total") == Double(stored.map(\.creditedSeconds).reduce(0, +)))
            #expect(metrics.value("appmeter_census_over_bound_seconds_total") == Double(stored.map(\.overBoundSeconds).reduce(0, +)))
            #expect((metrics.value("appmeter_census_over_bound_seconds_total") ?? 0) > 0)
            // Every ping answered is in the histogram, under its outcome.
            for (outcome, count) in [("stored", 3.0), ("duplicate", 1), ("refused", 4), ("failed", 0)] {
                #expect(metrics.value("appmeter_census_ping_duration_seconds_count", ["outcome": outcome]) == count)
                #expect(metrics.value("appmeter_census_ping_duration_seconds_bucket", ["outcome": outcome, "le": "+Inf"]) == count)
            }
            #expect(metrics.type(of: "appmeter_census_ping_duration_seconds") == "histogram")
            #expect(metrics.type(of: "appmeter_census_pings_stored_total") == "counter")
            #expect(metrics.type(of: "appmeter_census_commit_queue_depth") == "gauge")
            #expect(metrics.value("appmeter_census_commit_queue_depth", ["queue": "pings"]) == 0)
            #expect((metrics.value("appmeter_census_connections_accepted_total") ?? 0) >= 1)
            // The attacker's text is a recorded reason, never a label value or anywhere in the text.
            #expect(try await store.rejectReasons().contains { $0.contains(Self.attackerText) })
            #expect(!metrics.text.contains("pwned"))
            #expect(Set(metrics.labelValues("appmeter_census_refused_total", "reason"))
                    == Set(RefusalCategory.allCases.map(\.rawValue)))
        }
    }

    /// The route's counters agree with `GET /api/v1/stats` (the same counts, two formats), and a
    /// batch counts like single pings.
    @Test func aBatchCountsAsItsPingsAndStatsAgree() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store)
            try await Application(router: server.router()).test(.router) { client in
                let body = [PingQueries.valid(pingID: "b-1"), PingQueries.valid(pingID: "b-1"),
                            PingQueries.valid(pingID: "b-2", credited: 100_000), "prd=dcr"].joined(separator: "\n")
                try await client.execute(uri: WireRoute.batch, method: .post, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .ok)
                }
                let metrics = try await client.execute(uri: "/metrics", method: .get) { try PrometheusText(String(buffer: $0.body)) }
                let stats = try await client.execute(uri: "/api/v1/stats", method: .get) { response in
                    try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                }
                func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
                let sinceStart = try #require(stats?["sinceStart"] as? [String: Any])
                #expect(metrics.value("appmeter_census_pings_stored_total") == 1)
                #expect(metrics.value("appmeter_census_pings_duplicate_total") == 1)
                #expect(metrics.value("appmeter_census_pings_stored_total") == number(stats?["storedPings"]))
                #expect(metrics.sum("appmeter_census_refused_total") == number(stats?["storedRejects"]))
                #expect(metrics.sum("appmeter_census_refused_total") == number(sinceStart["rejected"]))
                #expect(metrics.value("appmeter_census_refused_total", ["reason": "over_a_day"]) == 1)
                #expect(metrics.value("appmeter_census_refused_total", ["reason": "malformed"]) == 1)
            }
        }
    }

    /// With a read token, a scraper presents it as every reader does; without one it is refused.
    @Test func theTokenGuardsTheMetricsAsItGuardsTheAPI() async throws {
        try await Backend.sqlite.withStore { store in
            let server = CensusServer(store: store, access: CensusAccess(token: "scrape-me"))
            try await Application(router: server.router()).test(.router) { client in
                try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized) }
                try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer wrong"]) {
                    #expect($0.status == .unauthorized)
                }
                try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer scrape-me"]) { response in
                    #expect(response.status == .ok)
                    let metrics = try PrometheusText(String(buffer: response.body))
                    #expect(metrics.value("appmeter_census_pings_stored_total") == 0)
                }
            }
        }
    }

    /// Each server counts in its own registry: two in one process do not add up.
    @Test func eachServerHasItsOwnRegistry() async throws {
        try await Backend.sqlite.withStore { store in
            let first = CensusServer(store: store), second = CensusServer(store: store)
            first.metrics.refused(.malformed)
            #expect(first.metrics.registry !== second.metrics.registry)
            let text = String(decoding: second.metrics.exposition(
                counters: second.sinceStart, connections: second.connections.counters, queues: second.writer.queues), as: UTF8.self)
            let metrics = try PrometheusText(text)
            #expect(metrics.value("appmeter_census_refused_total", ["reason": "malformed"]) == 0)
        }
    }

    /// What the validator's refusals are, for the label: the kind of problem, not its text.
    /// Every storage failure is counted; those that may still have stored the write (no answer in
    /// time, a commit never confirmed) are counted apart too (census-decisions.md S47, S48).
    @Test func storageFailuresThatMayHaveStoredAreCountedApart() throws {
        let events = CensusEvents(logger: Logger(label: "test"))
        for error: any Error in [CensusError.storageUnavailable(reason: "down"), CensusError.commitUnconfirmed(reason: "lost"),
                                 CensusError.noAnswer(within: .seconds(5)), CancellationError()] {
            events.record(.storageFailed(error))
        }
        #expect(events.sinceStart.storageFailures == 4)
        #expect(events.sinceStart.storageUnconfirmed == 2)
        let text = try PrometheusText(String(decoding: events.metrics.exposition(
            counters: events.sinceStart, connections: ConnectionCounters(), queues: ((0, 0), (0, 0))), as: UTF8.self))
        #expect(text.value("appmeter_census_storage_failures_total") == 4)
        #expect(text.value("appmeter_census_storage_unconfirmed_total") == 2)
    }

    @Test func refusalsAreCategorisedByWhatWentWrong() {
        func category(_ query: String) -> RefusalCategory? {
            guard case .failure(let rejection) = PingValidator.validate(query: Substring(query), uriLength: query.utf8.count + 12)
            else { return nil }
            return rejection.category
        }
        #expect(category(PingQueries.valid(pingID: "c-1", credited: 86_401)) == .overADay)
        #expect(category(PingQueries.valid(pingID: "c-1", credited: 86_400)) == nil)
        #expect(category(PingQueries.valid(pingID: "c-1").replacingOccurrences(of: "cln,10", with: "cln,-1")) == .malformed)
        #expect(category(PingQueries.valid(pingID: "c-1").replacingOccurrences(of: "prd=dcr", with: "prd=more%20than%20a%20day"))
                == .malformed)
        #expect(category("prd=dcr&pad=" + String(repeating: "x", count: 8_200)) == .tooLarge)
        #expect(RefusalCategory.answered(.forbidden) == .unregisteredApp)
        #expect(RefusalCategory.answered(.contentTooLarge) == .tooLarge)
        #expect(RefusalCategory.answered(.badRequest) == .malformed)
    }
}

/// Prometheus' text format read as a scraper reads it: `# TYPE` lines, and samples
/// `name{label="value",…} value`; anything else is an error.
struct PrometheusText {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Unreadable: Error, CustomStringConvertible {
        let line: String
        var description: String { "not Prometheus text: \(line)" }
    }

    let text: String
    private(set) var samples: [Sample] = []
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        self.text = text
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            if line.hasPrefix("# HELP ") { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]),
                      types.updateValue(String(parts[3]), forKey: String(parts[2])) == nil
                else { throw Unreadable(line: String(line)) }
                continue
            }
            samples.append(try Self.sample(line))
        }
        guard text.hasSuffix("\n") else { throw Unreadable(line: "no newline at the end") }
        // Every sample belongs to a family that was typed before it.
        for sample in samples {
            let family = ["_bucket", "_sum", "_count"].reduce(sample.name) { name, suffix in
                name.hasSuffix(suffix) && types[String(name.dropLast(suffix.count))] == "histogram"
                    ? String(name.dropLast(suffix.count)) : name
            }
            guard types[family] != nil else { throw Unreadable(line: "\(sample.name) has no # TYPE") }
        }
    }

    private static func sample(_ line: Substring) throws -> Sample {
        let isName: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
        var rest = line[...]
        let name = rest.prefix(while: isName)
        guard let first = name.first, !first.isNumber else { throw Unreadable(line: String(line)) }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix(while: isName)
                rest = rest.dropFirst(label.count)
                guard !label.isEmpty, rest.hasPrefix("=\"") else { throw Unreadable(line: String(line)) }
                rest = rest.dropFirst(2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first else { throw Unreadable(line: String(line)) }
                        rest = rest.dropFirst()
                        value.append(escaped == "n" ? "\n" : escaped)
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"", labels.updateValue(value, forKey: String(label)) == nil else {
                    throw Unreadable(line: String(line))
                }
                rest = rest.dropFirst()
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " ", let value = Double(rest.dropFirst()) else { throw Unreadable(line: String(line)) }
        return Sample(name: String(name), labels: labels, value: value)
    }

    /// The value of the sample `name` with exactly `labels`, or nil.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { $0.name == name && $0.labels == labels }
        return matching.count == 1 ? matching[0].value : nil
    }

    /// The sum of every sample named `name`.
    func sum(_ name: String) -> Double {
        samples.filter { $0.name == name }.map(\.value).reduce(0, +)
    }

    /// The values `label` takes in the samples named `name`.
    func labelValues(_ name: String, _ label: String) -> [String] {
        samples.filter { $0.name == name }.compactMap { $0.labels[label] }
    }

    /// The type a `# TYPE` line gives `family`.
    func type(of family: String) -> String? { types[family] }
}
