import Crypto
import Foundation

/// How a rule came out for a session.
package enum RuleStatus: String, Sendable, Codable {
    /// The session did what the rule asks.
    case pass
    /// The session did not; the evidence says where.
    case fail
    /// The session never met the situation the rule is about.
    case notExercised = "not exercised"
}

/// A call or ping that decided a rule.
package struct RuleEvidence: Sendable, Equatable, Codable {
    /// The trace entry's sequence number, if it is one.
    package var seq: Int?
    /// What it shows.
    package var text: String

    /// Evidence pointing at trace entry `seq` (nil: not an entry) with what it shows.
    package init(seq: Int?, text: String) {
        self.seq = seq
        self.text = text
    }
}

/// One rule's result.
public struct RuleResult: Sendable, Equatable, Codable {
    /// The rule's id in the pack (``RulePack``).
    public var id: String
    /// The rule in a line.
    package var title: String
    /// What the rule checks, and why.
    package var explanation: String
    /// The guide and step the rule comes from.
    package var source: String
    /// How the session came out.
    package var status: RuleStatus
    /// The calls and pings that decided it.
    package var evidence: [RuleEvidence]
}

/// The certification of one traced session: every rule of the pack with its result and evidence.
/// Exported as JSON with a SHA-256 over the rest of the report, so that a report passed on
/// (the diagnostic tool's "Export") can be checked for edits.
public struct CertificationReport: Sendable, Equatable, Codable {
    /// The traced session (an SDK instance).
    package var session: String
    /// The app it measured for.
    package var appid: String
    /// The SDK that sent the trace, as it named itself.
    package var sdk: String
    /// Trace entries evaluated.
    package var calls: Int
    /// When it was evaluated, Unix seconds.
    package var evaluatedAt: Int64
    /// Every rule of the pack, in the pack's order.
    public var results: [RuleResult]
    /// Hex SHA-256 of the report's canonical JSON with this field empty.
    package var sha256: String

    /// True when no rule failed.
    package var passed: Bool { !results.contains { $0.status == .fail } }

    /// Creates a report and seals it with its hash.
    package init(session: String, appid: String, sdk: String, calls: Int, evaluatedAt: Int64, results: [RuleResult]) {
        self.session = session
        self.appid = appid
        self.sdk = sdk
        self.calls = calls
        self.evaluatedAt = evaluatedAt
        self.results = results
        sha256 = ""
        sha256 = digest()
    }

    /// The hash the report should carry.
    package func digest() -> String {
        var unsealed = self
        unsealed.sha256 = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = (try? encoder.encode(unsealed)) ?? Data()
        return SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether the report is as it was sealed.
    package var isIntact: Bool { digest() == sha256 }
}
