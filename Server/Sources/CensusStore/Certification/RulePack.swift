/// The rules the census certifies a session against: the diagnostic tool's test cases and the
/// pre-certification checklists (Nielsen's public digital measurement documentation and the
/// integration guides). docs/certification.md is this table in prose; a test keeps the two in step.
public enum RulePack {
    /// Every rule, in the order the report shows them.
    public static let standard: [CertificationRule] = [
        CertificationRule(
            id: "init.config", title: "SDK initialised and config received",
            explanation: "The SDK must be created at app start and its hello ping (the config request) answered; without it nothing is measured.",
            source: "Digital Measurement Testing, step 4 (hello ping); Digital Pre-Certification Checklist, \"SDK Initialized\"",
            check: .configReceived),
        CertificationRule(
            id: "init.debug", title: "Debug logging on while certifying",
            explanation: "appInfo nol_devDebug must be \"DEBUG\" for certification runs (and removed for release).",
            source: "Digital Pre-Certification Checklist, \"SDK Initialized\": nol_devDebug = DEBUG",
            check: .debugLevel("DEBUG")),
        CertificationRule(
            id: "trace.complete", title: "The whole session reached the census",
            explanation: "Every call the SDK traced was delivered: the trace has no gap. A full SDK queue (a long outage, or calls fed faster than they are sent) gives trace batches up before any ping, and the rules those calls decide would come out not exercised; certify a session run with the census reachable.",
            source: "AppMeter's call trace (docs/certification.md §1); the SDK Diagnostic Tool reads the whole DEBUG log of a test run",
            check: .traceComplete),
        CertificationRule(
            id: "play.once", title: "play once per viewing session",
            explanation: "Call play once when a viewing session starts, and again only after stop or end (a channel change: stop, then play), or when playback resumes after buffering. A second play while playheads flow is a new session the player did not mean.",
            source: "Digital Pre-Certification Checklist (play once per session); Digital Measurement FAQ (consecutive play calls); interruption scenarios (\"Call stop immediately (except when content is buffering)\"); DTVR iOS SDK (\"Call play once the playback resumes\")",
            check: .playOncePerSession(resumeAfter: 2)),
        CertificationRule(
            id: "metadata.notBeforeEveryPlayhead", title: "loadMetadata not before every playhead",
            explanation: "Call loadMetadata at the start of an asset or when resuming, never before each playheadPosition: the original SDK then credits zero seconds.",
            source: "Digital Pre-Certification Checklist, loadMetadata row (diff 1429)",
            check: .metadataNotBeforeEveryPlayhead(run: 3)),
        CertificationRule(
            id: "playhead.everySecond", title: "A playhead every second while playing",
            explanation: "While content or an ad plays, call playheadPosition every second with a position that grows by 1. Fewer calls lose credit between them.",
            source: "DCR Ireland Video iOS SDK, playheadPosition (\"every second during playback\")",
            check: .playheadEverySecond(maxGap: 2.5)),
        CertificationRule(
            id: "interruption.stop", title: "stop on every interruption",
            explanation: "On a pause, a call, an alarm, network loss, backgrounding or lock, call stop at once and withhold playheads; buffering known to last 30 s or more needs stop too.",
            source: "DCR Pre-Certification Checklist (stop for every interruption); Digital Measurement Interruption Scenarios; FAQ (buffering ≥ 30 s)",
            check: .stopOnInterruption(minGap: 30)),
        CertificationRule(
            id: "ads.playheadRestart", title: "Ad playheads restart at 0",
            explanation: "Each ad's playhead begins at 0 when the ad starts.",
            source: "DCR Ireland Video iOS SDK, API Call Sequence, note (\"Each Ad playhead should reset or begin from 0\")",
            check: .adPlayheadsRestart(maxFirst: 1)),
        CertificationRule(
            id: "ads.stop", title: "stop after each ad",
            explanation: "When an ad completes, call stop before loading the content (or the next ad) again.",
            source: "DCR Ireland Video iOS SDK, stop (\"ads complete playing\") and API Call Sequence",
            check: .stopAfterAd),
        CertificationRule(
            id: "content.resumes", title: "Content resumes after an ad break",
            explanation: "After a midroll, call loadMetadata with the content again and continue its playhead from where it was left, not from 0.",
            source: "DCR Ireland Video iOS SDK, API Call Sequence, note (\"playhead position must continue\")",
            check: .contentResumes(slack: 2)),
        CertificationRule(
            id: "content.end", title: "end at content end",
            explanation: "When content plays to its end, call end (before a postroll); without it the SDK cannot close the asset.",
            source: "DCR Ireland Video iOS SDK, end and API Call Sequence (\"Call end() at the end of content\")",
            check: .endAtContentEnd(slack: 2)),
        CertificationRule(
            id: "metadata.market", title: "The market's required metadata",
            explanation: "Every loadMetadata carries the keys the market's guide requires, with valid values (type, assetid, program, title, length, airdate, isfullepisode, adloadtype…).",
            source: "The market's integration guide, Content Metadata table; DCR Pre-Certification Checklist (metadata→ping mapping)",
            check: .marketMetadata),
        CertificationRule(
            id: "test.vodWithAds", title: "VOD played to the end with preroll, midroll and postroll",
            explanation: "The diagnostic tool's VOD case: play → loadMetadata → playheads, each ad as loadMetadata → playheads from 0 → stop, content resumed after the midroll, end at content end, then the postroll.",
            source: "SDK Diagnostic Tool test cases; DCR Ireland Video iOS SDK, Use Case 2",
            check: .vodWithAds),
        CertificationRule(
            id: "test.seekForward", title: "Seek forward over 30 s detected",
            explanation: "A jump forward is reported as the new playhead (no stop, no loadMetadata); the SDK credits nothing for the skipped part and closes the credit at the jump.",
            source: "SDK Diagnostic Tool test cases (seek); Digital Measurement FAQ (playhead)",
            check: .seekForward(minJump: 30)),
        CertificationRule(
            id: "test.rewind", title: "Rewind detected",
            explanation: "A jump back is reported as the new playhead; the SDK closes the credit at it and credits what is watched again.",
            source: "SDK Diagnostic Tool test cases (rewind)",
            check: .rewind),
        CertificationRule(
            id: "test.pauseResume", title: "Pause and resume (over 5 s)",
            explanation: "After stop and a pause, playback resumes where it was stopped: playheadPosition again, after loadMetadata (the API reference), play (DTVR) or neither (Ireland: \"Once the playback resumes, start sending pings playheadPosition\").",
            source: "Digital Measurement Interruption Scenarios (Pause/Play); DCR Pre-Certification Checklist (on resume); DCR Ireland Video iOS SDK (interruptions)",
            check: .resumeAfterPause(minPause: 5, slack: 10)),
        CertificationRule(
            id: "test.staticNavigation", title: "Static page navigation",
            explanation: "Each page viewed calls loadMetadata with type static and its section; the SDK sends a ping per page view.",
            source: "SDK Diagnostic Tool test cases (static); DCR Italy Static iOS SDK",
            check: .staticNavigation(pages: 2)),
        CertificationRule(
            id: "test.dtvrTwoMinutes", title: "DTVR stream for two minutes with 249-character tags",
            explanation: "Pass every Nielsen ID3 tag (249 characters) to sendID3 as the stream plays, for at least two minutes.",
            source: "SDK Diagnostic Tool test cases (DTVR); DTVR iOS SDK (sendID3)",
            check: .dtvrStream(seconds: 120, tagLength: 249)),
        CertificationRule(
            id: "test.dtvrPause", title: "pcOffset/fdOffset after a 30 s pause",
            explanation: "After a pause of 30 s or more, call play, loadMetadata and sendID3 again; the tags' offsets go on from the stream's position.",
            source: "DTVR Pre-Certification Checklist (after resume: play, loadMetadata, sendID3); SDK Diagnostic Tool test cases",
            check: .dtvrResumeAfterPause(minPause: 30)),
        CertificationRule(
            id: "privacy.optOut", title: "Opt-out flow",
            explanation: "The app offers the opt-out page and hands its answer to userOptOut; the pings after it say the user opted out.",
            source: "DCR Pre-Certification Checklist (opt-out/opt-in implemented); Digital Pre-Certification Checklist (opt-out WebView)",
            check: .optOutFlow),
        CertificationRule(
            id: "privacy.anonymous", title: "Opted-out pings carry no identifiers",
            explanation: "While the user is opted out, pings carry no device id, NUID, vendor id or first-party id.",
            source: "DCR Ireland Video iOS SDK, opt-out; Nielsen's public opt-out documentation",
            check: .optedOutPingsAnonymous),
    ]

    /// The rule with `id`.
    package static func rule(_ id: String) -> CertificationRule? {
        standard.first { $0.id == id }
    }
}
