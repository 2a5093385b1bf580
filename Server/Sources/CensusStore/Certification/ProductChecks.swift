import MeterWire

/// The checks on metadata, static pages, DTVR and privacy.
struct ProductChecks: TraceChecks {
    /// The session's trace, walked.
    let walk: TraceWalk

    func marketMetadata() -> Verdict {
        var verdict = Verdict()
        for step in steps where step.is(.loadMetadata) {
            let errors = step.entry.events.filter { !$0.isEvent }
            let problems = step.entry[.problems]
            if let error = errors.first {
                verdict.fail(step.seq, "\(Self.describe(step.entry)): error \(error.code): \(error.text)")
            } else if !problems.isEmpty {
                verdict.fail(step.seq, "\(Self.describe(step.entry)): \(problems)")
            } else {
                verdict.pass(step.seq, "\(Self.describe(step.entry)) complete")
            }
        }
        return verdict
    }

    func staticNavigation(pages: Int) -> Verdict {
        var verdict = Verdict()
        let loads = steps.filter { $0.is(.loadMetadata) && $0.loaded?.type == "static" }
        guard loads.count >= pages else { return verdict }
        // Looked up, not scanned for each page: a trace of thousands of pages stays n·log n.
        let building = entries.filter { !$0.pings.isEmpty }.map(\.seq).sorted()
        for (offset, load) in loads.enumerated() {
            // The page's view lasts until the next page; its pings may come from a call or the SDK's own wake-up.
            let next = offset + 1 < loads.count ? loads[offset + 1].seq : nil
            let first = Self.firstIndex(in: building, notBelow: load.seq)
            let built = first < building.count && building[first] < (next ?? Int.max)
            if built {
                verdict.pass(load.seq, "page \(load.entry[.section]) viewed and measured")
            } else if next != nil || ended {
                verdict.fail(load.seq, "page \(load.entry[.section]) (#\(load.seq)) built no ping")
            }
        }
        return verdict
    }

    func dtvrStream(seconds: Double, tagLength: Int) -> Verdict {
        var verdict = Verdict()
        let tags = steps.filter { $0.is(.sendID3) }
        guard let first = tags.first, let last = tags.last, last.time - first.time >= seconds else { return verdict }
        for tag in tags where Int(tag.entry[.length]) != tagLength {
            verdict.fail(tag.seq, "\(Self.describe(tag.entry)): a tag of \(tag.entry[.length]) characters, not \(tagLength)")
        }
        if verdict.failures.isEmpty {
            verdict.pass(last.seq, "\(tags.count) tags of \(tagLength) characters over \(TraceArithmetic.wholeSeconds(last.time - first.time)) s")
        }
        return verdict
    }

    func dtvrResumeAfterPause(minPause: Double) -> Verdict {
        var verdict = Verdict()
        var lastTag: Step?
        var sinceTag: [Step] = []
        for step in steps {
            guard step.is(.sendID3) else {
                if lastTag != nil { sinceTag.append(step) }
                continue
            }
            defer {
                lastTag = step
                sinceTag = []
            }
            guard let previous = lastTag, step.time - previous.time >= minPause else { continue }
            let pause = TraceArithmetic.wholeSeconds(step.time - previous.time)
            guard let stop = sinceTag.firstIndex(where: { $0.is(.stop) }) else {
                verdict.fail(step.seq, "no tag for \(pause) s after #\(previous.seq) and no stop")
                continue
            }
            let after = sinceTag[stop...]
            let play = after.firstIndex { $0.is(.play) }
            let load = after.firstIndex { $0.is(.loadMetadata) }
            guard let play, let load, play < load else {
                verdict.fail(step.seq, "after the \(pause) s pause (stop #\(sinceTag[stop].seq)), sendID3 #\(step.seq) came without play then loadMetadata")
                continue
            }
            let before = Int(previous.entry[.fdOffset]) ?? Int(previous.entry[.pcOffset])
            let now = Int(step.entry[.fdOffset]) ?? Int(step.entry[.pcOffset])
            if let before, let now, now < before {
                verdict.fail(step.seq, "the offset went back from \(before) to \(now) after the pause")
            } else {
                verdict.pass(step.seq, "resumed after \(pause) s with play, loadMetadata, sendID3; offset \(before.map(String.init) ?? "?") → \(now.map(String.init) ?? "?")")
            }
        }
        return verdict
    }

    func optOutFlow() -> Verdict {
        var verdict = Verdict()
        var optedOutAt: Int?
        for entry in entries {
            if entry.is(.userOptOut) {
                optedOutAt = entry[.optOut] == "true" ? entry.seq : nil
                if let seq = optedOutAt { verdict.pass(seq, "userOptOut took the opt-out") }
            }
            guard let since = optedOutAt else { continue }
            for ping in entry.pings where Self.value(PingField.userOptOut.name, in: ping.query) != "true" {
                verdict.fail(entry.seq, "ping \(ping.id), built after the opt-out at #\(since), does not say uoo=true")
            }
        }
        return verdict
    }

    func optedOutPingsAnonymous() -> Verdict {
        var verdict = Verdict()
        let identifiers: [PingField] = [.deviceID, .nuid, .vendorID, .firstPartyID]
        for (seq, ping) in pings where Self.value(PingField.userOptOut.name, in: ping.query) == "true" {
            let carried = identifiers.filter { field in
                let value = Self.value(field.name, in: ping.query) ?? ""
                return !value.isEmpty && value != field.prefix
            }
            if carried.isEmpty {
                verdict.pass(seq, "opted-out ping \(ping.id) carries no identifier")
            } else {
                verdict.fail(seq, "opted-out ping \(ping.id) carries \(carried.map(\.name).joined(separator: ", "))")
            }
        }
        return verdict
    }

    /// The index of the first of `sorted` that is at least `value` (`sorted.count` when none is).
    static func firstIndex(in sorted: [Int], notBelow value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = low + (high - low) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A parameter of a traced ping's query (its first, by decoded name, as the census reads pings).
    static func value(_ name: String, in query: String) -> String? {
        guard case .success(let parameters) = PingQuery.parameters(query[...]) else { return nil }
        return parameters.first { $0.name == name }?.value
    }
}
