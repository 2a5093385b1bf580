/// One rule of the pre-certification checklist or the diagnostic test cases, as data: what it
/// checks, why, where the guides say so, and the check that decides it with its thresholds.
/// docs/certification.md lists them all.
public struct CertificationRule: Sendable, Equatable, Codable {
    /// A stable id (`ads.playheadRestart`), used in exports and by tests.
    public let id: String
    /// One line, as the dashboard and the table show it.
    package let title: String
    /// What an integrator needs to know: what the rule wants and what goes wrong otherwise.
    package let explanation: String
    /// Where the rule comes from in the guides.
    package let source: String
    /// The check that decides it.
    package let check: RuleCheck

    /// Creates a rule.
    package init(id: String, title: String, explanation: String, source: String, check: RuleCheck) {
        self.id = id
        self.title = title
        self.explanation = explanation
        self.source = source
        self.check = check
    }
}

/// The checks the evaluator knows, each with its thresholds. A rule is exercised when the trace
/// holds the situation it is about; a failure latches, as in the diagnostic tool: a later correct
/// call does not undo it.
package enum RuleCheck: Sendable, Equatable, Codable {
    /// The hello ping was answered: the SDK initialised and received its config.
    case configReceived
    /// appInfo `nol_devDebug` is this level.
    case debugLevel(String)
    /// Every entry of the trace reached the census: its sequence numbers have no gap.
    case traceComplete
    /// `play` is not called again before `stop` or `end` while playheads or tags flow: a second
    /// `play` after at least `resumeAfter` seconds without either resumes after buffering.
    case playOncePerSession(resumeAfter: Double)
    /// No run of this many playheads each preceded by `loadMetadata` of the same asset.
    case metadataNotBeforeEveryPlayhead(run: Int)
    /// While a stream plays, playheads come at most this many seconds apart.
    case playheadEverySecond(maxGap: Double)
    /// A pause in playheads of at least this many seconds has a `stop` before it.
    case stopOnInterruption(minGap: Double)
    /// An ad's first playhead is at most this.
    case adPlayheadsRestart(maxFirst: Int64)
    /// An ad's playheads are followed by `stop` before anything else is loaded.
    case stopAfterAd
    /// After a midroll, content is loaded again and its playheads go on from where they were (slack in seconds).
    case contentResumes(slack: Int64)
    /// Content whose playhead reached its length (within slack) is followed by `end`.
    case endAtContentEnd(slack: Int64)
    /// `loadMetadata` raised no error: the market's required keys are there and valid.
    case marketMetadata
    /// A VOD stream with preroll, midroll and postroll played to its end in the documented order.
    case vodWithAds
    /// A forward jump of more than this many seconds is reported and closes the credit at it.
    case seekForward(minJump: Int64)
    /// A backward jump is reported and closes the credit at it.
    case rewind
    /// After a `stop` and a pause of at least `minPause` seconds, playheads resume (after
    /// `loadMetadata`, `play`, both or neither, as the guides each say) where the content was
    /// stopped, within `slack` seconds.
    case resumeAfterPause(minPause: Double, slack: Int64)
    /// At least this many static pages viewed, each building a ping.
    case staticNavigation(pages: Int)
    /// A DTVR stream sends tags of this length for at least this many seconds.
    case dtvrStream(seconds: Double, tagLength: Int)
    /// After a pause of at least this many seconds in a DTVR stream, `play`, `loadMetadata` and
    /// `sendID3` come again, and the offsets go on.
    case dtvrResumeAfterPause(minPause: Double)
    /// `userOptOut` took effect: the pings built after it say so.
    case optOutFlow
    /// Pings built while opted out carry no device identifier.
    case optedOutPingsAnonymous
}
