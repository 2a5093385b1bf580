public import CensusStore

/// Certification reports for the terminal (`meter certify`, `meter demo`); every stored value
/// through ``TerminalText``.
public enum CertificationTable {
    /// One report: every rule with its result and the evidence that decided a failure.
    public static func render(_ report: CertificationReport) -> String {
        let header = ["result", "rule", "title", "evidence"]
        let body = report.results.map { result in
            [result.status.rawValue, result.id, result.title,
             result.status == .notExercised ? "" : String((result.evidence.first?.text ?? "").prefix(110))]
        }
        let verdict = report.passed ? "PASS" : "FAIL"
        let session = TerminalText.escaped(report.session)
        let appid = TerminalText.escaped(report.appid)
        return "\(verdict) session \(session) (appid \(appid), \(report.calls) calls, sha256 \(TerminalText.escaped(report.sha256)))\n"
            + TextTable.render([header] + body, rule: true)
    }

    /// One line per report: passed, failed and not exercised counts, and the failed rules.
    public static func summary(_ reports: [(name: String, report: CertificationReport)]) -> String {
        let header = ["session", "scenario", "pass", "fail", "not exercised", "failed rules"]
        let body = reports.map { name, report in
            let count = { (status: RuleStatus) in String(report.results.filter { $0.status == status }.count) }
            return [String(report.session.prefix(8)), name, count(.pass), count(.fail), count(.notExercised),
                    report.results.filter { $0.status == .fail }.map(\.id).joined(separator: ", ")]
        }
        return TextTable.render([header] + body, rightAligned: [2, 3, 4], rule: true)
    }
}
