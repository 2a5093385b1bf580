import MeterWire

/// The checks on how playback is reported: playheads, interruptions, ads, end, seeks.
struct PlaybackChecks: TraceChecks {
    /// The session's trace, walked.
    let walk: TraceWalk

    /// Consecutive playheads with only SDK-internal entries between them (a stream playing).
    private var playheadPairs: [(Step, Step)] {
        var pairs: [(Step, Step)] = []
        var last: Step?
        for step in steps {
            if step.is(.playheadPosition) {
                if let last, last.loaded?.seq == step.loaded?.seq { pairs.append((last, step)) }
                last = step
            } else {
                last = nil
            }
        }
        return pairs
    }

    func playheadEverySecond(maxGap: Double) -> Verdict {
        var verdict = Verdict()
        for (first, second) in playheadPairs {
            guard let from = first.position, let to = second.position else { continue }
            verdict.exercised = true
            let elapsed = second.time - first.time
            let moved = TraceArithmetic.moved(from: from, to: to)
            if elapsed > maxGap && moved >= 2 && abs(moved - elapsed) <= 1.5 {
                verdict.fail(second.seq, "playheads #\(first.seq) (\(from)) and #\(second.seq) (\(to)) came \(TraceArithmetic.wholeSeconds(elapsed)) s apart while the stream played")
            }
        }
        if verdict.exercised && verdict.failures.isEmpty {
            verdict.pass(nil, "\(playheadPairs.count + 1) playheads, none more than \(maxGap) s apart while playing")
        }
        return verdict
    }

    func stopOnInterruption(minGap: Double) -> Verdict {
        var verdict = Verdict()
        for (first, second) in playheadPairs {
            guard let from = first.position, let to = second.position else { continue }
            let elapsed = second.time - first.time
            if elapsed >= minGap && TraceArithmetic.gap(to, from) <= 2 {
                verdict.fail(second.seq, "no playhead for \(TraceArithmetic.wholeSeconds(elapsed)) s after #\(first.seq), and no stop: an interruption was not reported")
            }
        }
        for (index, step) in steps.enumerated() where step.is(.stop) && index > 0 && steps[index - 1].is(.playheadPosition) {
            verdict.pass(step.seq, "\(Self.describe(step.entry)) after \(Self.describe(steps[index - 1].entry))")
        }
        return verdict
    }

    func adPlayheadsRestart(maxFirst: Int64) -> Verdict {
        var verdict = Verdict()
        var seenAds: Set<String> = []
        var awaiting: Loaded?
        for step in steps {
            if step.is(.loadMetadata), let loaded = step.loaded, loaded.isAd, !seenAds.contains(loaded.assetid) {
                awaiting = loaded
                seenAds.insert(loaded.assetid)
            } else if let ad = awaiting, let position = step.position, step.loaded == ad {
                if position > maxFirst {
                    verdict.fail(step.seq, "the first playhead of \(ad.type) \(ad.assetid) (#\(ad.seq)) is \(position), not 0")
                } else {
                    verdict.pass(step.seq, "\(ad.type) \(ad.assetid) starts at \(position)")
                }
                awaiting = nil
            }
        }
        return verdict
    }

    func stopAfterAd() -> Verdict {
        var verdict = Verdict()
        for (index, step) in steps.enumerated() {
            guard let ad = step.loaded, ad.isAd, step.is(.playheadPosition),
                  index + 1 < steps.count, !steps[index + 1].is(.playheadPosition) else { continue }
            let next = steps[index + 1]
            if next.is(.stop) || next.is(.appInBackground) || next.is(.end) {
                verdict.pass(next.seq, "\(Self.describe(next.entry)) after \(ad.type) \(ad.assetid)")
            } else if next.is(.loadMetadata) || next.is(.play) {
                verdict.fail(next.seq, "\(Self.describe(next.entry)) right after \(ad.type) \(ad.assetid)'s playheads, without stop")
            }
        }
        return verdict
    }

    func contentResumes(slack: Int64) -> Verdict {
        var verdict = Verdict()
        var lastContent: (asset: String, position: Int64)?
        var breakAfter: (asset: String, position: Int64, adSeq: Int)?
        for step in steps {
            guard let loaded = step.loaded else { continue }
            if step.is(.loadMetadata), loaded.isAd, breakAfter == nil, let content = lastContent {
                breakAfter = (content.asset, content.position, step.seq)
            }
            guard let position = step.position else { continue }
            if loaded.isContent {
                if let pending = breakAfter, pending.asset == loaded.assetid {
                    if TraceArithmetic.sum(position, slack) < pending.position {
                        verdict.fail(step.seq, "content \(loaded.assetid) came back at \(position) after the ad break (#\(pending.adSeq)), not at \(pending.position)")
                    } else {
                        verdict.pass(step.seq, "content \(loaded.assetid) resumed at \(position) after the ad break (#\(pending.adSeq))")
                    }
                    breakAfter = nil
                }
                lastContent = (loaded.assetid, position)
            }
        }
        return verdict
    }

    func endAtContentEnd(slack: Int64) -> Verdict {
        var verdict = Verdict()
        var reached: (step: Step, content: Loaded)?
        for step in steps {
            if let pending = reached {
                if step.is(.end) {
                    verdict.pass(step.seq, "end after \(pending.content.assetid) reached its end at #\(pending.step.seq)")
                    reached = nil
                    continue
                }
                let otherContent = step.is(.loadMetadata) && step.loaded?.isContent == true && step.loaded?.assetid != pending.content.assetid
                if step.is(.play) || otherContent {
                    verdict.fail(step.seq, "\(pending.content.assetid) played to its end (#\(pending.step.seq)) but end was not called before \(Self.describe(step.entry))")
                    reached = nil
                }
            }
            if let content = step.loaded, content.isVOD, let position = step.position, let length = content.length,
               position >= TraceArithmetic.difference(length, slack) {
                reached = (step, content)
            }
        }
        if let pending = reached, ended {
            verdict.fail(pending.step.seq, "\(pending.content.assetid) played to its end but end was never called")
        }
        return verdict
    }

    func vodWithAds(earlier: [String: Verdict]) -> Verdict {
        var verdict = Verdict()
        let adTypes = Set(steps.compactMap { step in step.position != nil && step.loaded?.isAd == true ? step.loaded?.type : nil })
        guard ["preroll", "midroll", "postroll"].allSatisfy(adTypes.contains),
              let end = steps.first(where: { $0.is(.end) }) else { return verdict }
        for id in ["play.once", "ads.playheadRestart", "ads.stop", "content.resumes", "content.end"] {
            guard let part = earlier[id] else { continue }
            if part.status == .fail {
                verdict.fail(part.failures.first?.seq, "\(id): \(part.failures.first?.text ?? "failed")")
            }
        }
        if verdict.failures.isEmpty {
            verdict.pass(end.seq, "preroll, midroll and postroll played around content that ended at #\(end.seq), in the documented order")
        }
        return verdict
    }

    func jumps(forward: Bool, minJump: Int64) -> Verdict {
        var verdict = Verdict()
        let pairs = playheadPairs
        for (index, (first, second)) in pairs.enumerated() {
            guard let from = first.position, let to = second.position, second.loaded?.isContent == true else { continue }
            let moved = TraceArithmetic.moved(from: from, to: to)
            let jump = moved - (second.time - first.time)
            guard forward ? jump > Double(minJump) : moved < -Double(minJump) else { continue }
            let label = forward ? "seek forward" : "rewind"
            // The player goes on reporting from the new position: the next playhead moves on by about the time passed.
            if index + 1 < pairs.count, pairs[index + 1].0.seq == second.seq, let next = pairs[index + 1].1.position {
                verdict.pass(second.seq, "\(label) \(from) → \(to) reported, then \(next)")
            } else {
                verdict.fail(second.seq, "\(label) \(from) → \(to) at #\(second.seq), then no playhead reported from the new position")
            }
        }
        return verdict
    }

    func resumeAfterPause(minPause: Double, slack: Int64) -> Verdict {
        var verdict = Verdict()
        var stopped: (step: Step, asset: String?, position: Int64?)?
        var lastPlayhead: (asset: String, position: Int64)?
        var how: [String] = []
        for step in steps {
            if step.is(.stop) {
                stopped = (step, lastPlayhead?.asset, lastPlayhead?.position)
                how = []
            } else if step.is(.loadMetadata) || step.is(.play), stopped != nil {
                how.append(step.is(.play) ? "play" : "loadMetadata")
            } else if step.is(.playheadPosition), let position = step.position {
                let asset = step.loaded?.assetid ?? ""
                defer { lastPlayhead = (asset, position) }
                guard let stop = stopped else { continue }
                stopped = nil
                let pause = step.time - stop.step.time
                guard pause >= minPause else { continue }
                let form = how.isEmpty ? "playheads only" : how.joined(separator: " and ") + " first"
                if stop.asset == asset, let was = stop.position, step.loaded?.isContent == true,
                   TraceArithmetic.sum(position, slack) < was {
                    verdict.fail(step.seq, "content \(asset) resumed at \(position) \(TraceArithmetic.wholeSeconds(pause)) s after stop #\(stop.step.seq), not where it was stopped (\(was))")
                } else {
                    verdict.pass(step.seq, "resumed \(TraceArithmetic.wholeSeconds(pause)) s after stop #\(stop.step.seq) (\(form))")
                }
            }
        }
        return verdict
    }
}
