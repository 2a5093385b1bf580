import MeasurementCore

/// The census's DTVR credit of one session's tags of one CID (decisions.md T6): the tags in call
/// order (then offset, then key) walked with the SDK's own rule, ``ID3Crediting``, so that the
/// census and the SDK cannot credit one stream two ways.
///
/// n·log n in the session's tags (the sort), with every value bounded (``StoredTag``), and held to
/// the time the tags' calls span plus one tag interval: the rule's second of tolerance per step
/// lets a burst of tags one offset-second apart credit a second each, which no watched stream
/// does.
enum TagCredit {
    /// The seconds `tags` credit.
    static func seconds(of tags: [StoredTag]) -> Int64 {
        steps(of: tags).reduce(0) { $0.saturatingAdd($1.seconds) }
    }

    /// What each tag credits, in the order the rule walks them, at the tag's time (Unix
    /// milliseconds): the steps of ``seconds(of:)``, held to its bound by taking the last steps'
    /// seconds back, so that an audience's minutes (census-decisions.md S54) sum to it.
    static func steps(of tags: [StoredTag]) -> [(time: Int64, seconds: Int64)] {
        guard tags.count > 1 else { return [] }
        let ordered = tags.sorted { ($0.time, $0.offset ?? -1, $0.key) < ($1.time, $1.offset ?? -1, $1.key) }
        var rule = ID3Crediting()
        var steps: [(time: Int64, seconds: Int64)] = []
        var credited: Int64 = 0
        for tag in ordered {
            let observation = ID3Crediting.Observation(
                offset: tag.offset, time: MeterInstant(secondsSince1970: Double(tag.time) / 1000))
            let step = rule.credit(observation)
            credited = credited.saturatingAdd(step)
            if step > 0 { steps.append((tag.time, step)) }
        }
        // Both times are within ``StoredTag/times``: no overflow.
        let spanSeconds = (ordered[ordered.count - 1].time - ordered[0].time + 999) / 1000
        var over = credited - min(credited, spanSeconds + Int64(ID3Crediting.maxTagGap))
        while over > 0, let last = steps.popLast() {
            let taken = min(over, last.seconds)
            over -= taken
            if last.seconds > taken { steps.append((last.time, last.seconds - taken)) }
        }
        return steps
    }
}
