import Foundation
public import MeterWire

/// What a check found: whether the session met the rule's situation, and the evidence for and
/// against. Any failure decides the rule (failures latch).
///
/// Only the first few pieces of evidence are kept, and the text of the others is never built: a
/// report shows five, and a 20,000-entry trace would otherwise describe every playhead.
struct Verdict {
    /// The evidence kept of each kind.
    static let kept = 5

    var exercised = false
    var failures: [RuleEvidence] = []
    var passes: [RuleEvidence] = []

    mutating func pass(_ seq: Int?, _ text: @autoclosure () -> String) {
        exercised = true
        if passes.count < Self.kept { passes.append(RuleEvidence(seq: seq, text: text())) }
    }

    mutating func fail(_ seq: Int?, _ text: @autoclosure () -> String) {
        exercised = true
        if failures.count < Self.kept { failures.append(RuleEvidence(seq: seq, text: text())) }
    }

    var status: RuleStatus { !failures.isEmpty ? .fail : exercised ? .pass : .notExercised }
    /// The evidence shown: the failures, else a few passes.
    var evidence: [RuleEvidence] { Array((failures.isEmpty ? passes : failures).prefix(Self.kept)) }
}

/// Evaluates the rule pack on a session's trace.
public enum CertificationEvaluator {
    /// The report for one session, dated `time` (Unix seconds): by default its trace's last call
    /// as sent, so the same trace certifies to the same report (census-decisions.md S42).
    public static func evaluate(
        session: String, appid: String, sdk: String, trace: [CallTraceEntry],
        rules: [CertificationRule] = RulePack.standard, at time: Int64? = nil
    ) -> CertificationReport {
        let time = time ?? Int64(exactly: (trace.map(\.time).max() ?? 0).rounded(.down)) ?? 0
        let walk = TraceWalk(trace)
        var verdicts: [String: Verdict] = [:]
        var results: [RuleResult] = []
        for rule in rules {
            let verdict = walk.verdict(rule.check, earlier: verdicts)
            verdicts[rule.id] = verdict
            results.append(RuleResult(id: rule.id, title: rule.title, explanation: rule.explanation, source: rule.source,
                                      status: verdict.status, evidence: verdict.evidence))
        }
        return CertificationReport(session: session, appid: appid, sdk: sdk, calls: trace.count, evaluatedAt: time,
                                   results: results)
    }
}

extension TraceWalk {
    /// Runs one check; `earlier` holds the verdicts of the rules before it (composite test cases).
    func verdict(_ check: RuleCheck, earlier: [String: Verdict]) -> Verdict {
        switch check {
        case .configReceived: configReceived()
        case .debugLevel(let level): debugLevel(level)
        case .traceComplete: traceComplete()
        case .playOncePerSession(let resumeAfter): playOncePerSession(resumeAfter: resumeAfter)
        case .metadataNotBeforeEveryPlayhead(let run): metadataNotBeforeEveryPlayhead(run: run)
        case .playheadEverySecond(let maxGap): PlaybackChecks(walk: self).playheadEverySecond(maxGap: maxGap)
        case .stopOnInterruption(let minGap): PlaybackChecks(walk: self).stopOnInterruption(minGap: minGap)
        case .adPlayheadsRestart(let maxFirst): PlaybackChecks(walk: self).adPlayheadsRestart(maxFirst: maxFirst)
        case .stopAfterAd: PlaybackChecks(walk: self).stopAfterAd()
        case .contentResumes(let slack): PlaybackChecks(walk: self).contentResumes(slack: slack)
        case .endAtContentEnd(let slack): PlaybackChecks(walk: self).endAtContentEnd(slack: slack)
        case .marketMetadata: ProductChecks(walk: self).marketMetadata()
        case .vodWithAds: PlaybackChecks(walk: self).vodWithAds(earlier: earlier)
        case .seekForward(let minJump): PlaybackChecks(walk: self).jumps(forward: true, minJump: minJump)
        case .rewind: PlaybackChecks(walk: self).jumps(forward: false, minJump: 2)
        case .resumeAfterPause(let minPause, let slack): PlaybackChecks(walk: self).resumeAfterPause(minPause: minPause, slack: slack)
        case .staticNavigation(let pages): ProductChecks(walk: self).staticNavigation(pages: pages)
        case .dtvrStream(let seconds, let tagLength): ProductChecks(walk: self).dtvrStream(seconds: seconds, tagLength: tagLength)
        case .dtvrResumeAfterPause(let minPause): ProductChecks(walk: self).dtvrResumeAfterPause(minPause: minPause)
        case .optOutFlow: ProductChecks(walk: self).optOutFlow()
        case .optedOutPingsAnonymous: ProductChecks(walk: self).optedOutPingsAnonymous()
        }
    }

    private func configReceived() -> Verdict {
        var verdict = Verdict()
        guard let config = entries.first(where: { $0.is(.config) }) else {
            verdict.fail(entries.first?.seq, "no config answer in the trace: the hello ping went unanswered")
            return verdict
        }
        if config[.enabled] == "false" {
            verdict.fail(config.seq, "the census answered with measurement turned off for this appid")
        } else {
            verdict.pass(config.seq, "config received at #\(config.seq)")
        }
        return verdict
    }

    private func debugLevel(_ level: String) -> Verdict {
        var verdict = Verdict()
        guard let initial = entries.first(where: { $0.is(.initialize) }) else { return verdict }
        // An app's appInfo says nol_devDebug; a page's nlsQ globals say nol_sdkDebug (the browser guide).
        let value = (initial[.devDebug].isEmpty ? initial[.sdkDebug] : initial[.devDebug]).uppercased()
        if value == level || (!value.isEmpty && value == String(level.prefix(1))) {
            verdict.pass(initial.seq, "nol_devDebug = \(value)")
        } else {
            verdict.fail(initial.seq, "nol_devDebug is \(value.isEmpty ? "not set" : "\"\(value)\""), not \(level)")
        }
        return verdict
    }

    private func traceComplete() -> Verdict {
        var verdict = Verdict()
        let seqs = entries.map(\.seq).sorted()
        guard let last = seqs.last else { return verdict }
        // The SDK numbers from 0; a sender's numbers may be anything (negative, Int.max), so the
        // next one expected saturates.
        var expected = 0
        for seq in seqs where seq >= expected {
            if seq > expected {
                let missing = seq - expected == 1 ? "entry #\(expected)" : "entries #\(expected) to #\(seq - 1)"
                verdict.fail(seq, "\(missing) never reached the census: the SDK's queue gave them up")
            }
            expected = seq == .max ? .max : seq + 1
        }
        if verdict.failures.isEmpty {
            verdict.pass(last, "\(seqs.count) entries, #0 to #\(last), none missing")
        }
        return verdict
    }

    private func playOncePerSession(resumeAfter: Double) -> Verdict {
        var verdict = Verdict()
        var openPlay: Step?
        var lastFlow: Step?
        for step in steps {
            if step.is(.play) {
                if let previous = openPlay {
                    let stalled = lastFlow.map { step.time - $0.time >= resumeAfter } ?? true
                    if stalled {
                        verdict.pass(step.seq, "\(Self.describe(step.entry)) resumed after buffering (no playhead or tag since #\(lastFlow?.seq ?? previous.seq))")
                    } else {
                        verdict.fail(step.seq, "\(Self.describe(step.entry)) while playheads flowed and the play at #\(previous.seq) was neither stopped nor ended")
                    }
                } else {
                    verdict.pass(step.seq, Self.describe(step.entry))
                }
                openPlay = step
            } else if step.is(.stop) || step.is(.end) || step.is(.appDisableApi) {
                openPlay = nil
            } else if step.is(.playheadPosition) || step.is(.sendID3) {
                lastFlow = step
            }
        }
        return verdict
    }

    private func metadataNotBeforeEveryPlayhead(run: Int) -> Verdict {
        var verdict = Verdict()
        var streak: [Step] = []
        var previous: Step?
        var lastPlayheadAsset: String?
        for step in steps {
            defer { previous = step }
            guard step.is(.playheadPosition) else { continue }
            verdict.exercised = true
            if let load = previous, load.is(.loadMetadata) {
                if load.loaded?.assetid != lastPlayheadAsset { streak = [] }
                streak.append(load)
                if streak.count == run {
                    verdict.fail(streak[0].seq, "loadMetadata before each of \(run) playheads in a row for \(load.loaded?.assetid ?? "") (#\(streak.map { String($0.seq) }.joined(separator: ", #")))")
                }
            } else {
                streak = []
            }
            lastPlayheadAsset = step.loaded?.assetid
        }
        return verdict
    }
}
