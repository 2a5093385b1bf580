import Testing

/// One call of a guide's flow, as an app makes it. Time moves only where a step says so: one
/// second before each playhead, ten before each ID3 tag, and the seconds of a `wait`.
enum GuideStep: Sendable {
    /// `play`, with its channel JSON or none.
    case play([String: String]?)
    /// `loadMetadata`.
    case loadMetadata([String: String])
    /// `playheadPosition` once a second for each position.
    case playheads(ClosedRange<Int64>)
    /// `sendID3` every 10 s: `count` Nielsen tags of source `cid`, the stream's offset advancing
    /// 10 s a tag from `offset` (a live channel's tags, as the player extracts them).
    case sendID3(cid: String, offset: Int, count: Int)
    /// `stop`.
    case stop
    /// `end`.
    case end
    /// Time passes with no call: a pause, buffering, a page on screen.
    case wait(seconds: Double)
    /// The app goes to the background.
    case appInBackground
    /// The app comes back to the foreground.
    case appInForeground
    /// `trackEvent` with `event: "playhead"` once a second for each position, the dictionary of the
    /// simplified guide's sample (`type`, the `metadata` objects, `playheadPosition`).
    case trackPlayheads(type: String, content: [String: String], ad: [String: String], ClosedRange<Int64>)
    /// `trackEvent` once with another event (`pause`, `adStop`, `complete`), the dictionary still
    /// holding the last playhead, as the sample's view controller sends it.
    case trackEvent(String, type: String, content: [String: String], ad: [String: String], position: Int64)
    /// `trackEvent` with `event: "playhead"`, `type: "content"` once a second for each of `seconds`, the
    /// `playheadPosition` a Unix time in milliseconds (13 digits, as the simplified guide's
    /// `"1501225191747"`) advancing 1,000 a call from `start`; with `id3CID`, each event carries the
    /// stream's latest Nielsen tag of that source (a new one every 10 s), as the DTVR sample event does.
    /// `trackEvent` once with `event: "playhead"`, `type: "static"` and this static metadata (no
    /// playhead: a page is credited by its time on screen).
    case trackStatic([String: String])
    case trackUnixMilliseconds(content: [String: String], start: Int64, seconds: ClosedRange<Int64>, id3CID: String?)
}

/// Which facade a flow drives.
enum GuideAPI: String, Sendable {
    /// `NielsenAppApi`.
    case standard
    /// `NielsenEventTracker.trackEvent`.
    case simplified
}

/// A guide's flow, written as the guide prescribes it, with what the census must credit.
struct GuideFlow: Sendable, CustomTestStringConvertible {
    /// Short name of the flow.
    let name: String
    /// The guide's title, as docs/conformance.md lists it.
    let guide: String
    /// The sections of the guide the calls come from.
    let section: String
    /// appInfo `sfcode` (the market whose metadata rules apply).
    var sfcode = "dcr"
    var api = GuideAPI.standard
    /// The calls, in order.
    let steps: [GuideStep]
    /// Seconds the census must credit, per `kind/assetid` (every asset it credits, none other): the
    /// whole played duration, resumes included.
    let credit: [String: Int64]
    /// View pings the census must count per `kind/assetid`: one per asset and viewing session
    /// (decisions.md C3), so a resume after an interruption views again (L3c).
    let views: [String: Int64]
    /// Viewing sessions (`c59`) the census must count per `kind/assetid`: the guides resume "for
    /// the new viewing session" (decisions.md L3c), and every `play` starts one (C3, L3a).
    let sessions: [String: Int64]
    /// Rules the flow exercises, which must pass (every other rule passes or is not exercised).
    var exercises: [String] = []
    /// The error codes the delegate hears, in order; nil: not checked.
    var errors: [Int]? = nil

    var testDescription: String { "\(name) (\(guide))" }
}

// MARK: - The guides' metadata, as their samples give it

enum GuideMetadata {
    /// the Ireland guide, "Configure Metadata" (the content sample of Use Case 1).
    static let irelandContent = [
        "type": "content", "assetid": "vid345-67483", "program": "ProgramName", "title": "Program S3, EP1",
        "length": "3600", "airdate": "20200321 10:05:00", "isfullepisode": "y", "adloadtype": "2",
    ]
    /// The Italy pages' content sample ("Example Video Content Object").
    static let italyContent = [
        "type": "content", "assetid": "88675545", "title": "Program S3, EP1", "isfullepisode": "y", "adloadtype": "2",
        "program": "Program Name", "length": "3600", "airdate": "20171020 10:05:00",
    ]
    /// the Italy audio page, Use Case 1: the content sample with `isAudio`.
    static let italyAudio = italyContent.merging(["isAudio": "true"]) { $1 }
    /// The next audio the Italy audio page's listener chooses ("call play() each time").
    static let italyNextAudio = italyAudio.merging(["assetid": "88675546", "title": "Program S3, EP2"]) { $1 }
    /// the Italy static page, "Populate and Pass Metadata Object".
    static let italyStatic = ["type": "static", "assetid": "HomePage", "section": "Home_EntityName_iOS"]
    /// the Poland page, Use Case 1's content (Poland's airdate formats include the one used).
    static let polandContent = [
        "type": "content", "assetid": "vid345-67483", "program": "ProgramName", "title": "Program S3, EP1",
        "length": "3600", "airdate": "20180120 10:00:00", "isfullepisode": "y", "adloadtype": "2",
    ]
    /// the DTVR guide, "Content Metadata" (`loadDtvr`, with the channel name of `loadChannelInfo`).
    static let dtvr = ["type": "content", "channelName": "TheGreatBigMovie", "adModel": "1"]
    /// The FD CID of the DTVR guide's second sample tag.
    static let dtvrCID = "R8WHe7pEBeqBhu8jTeXydg=="
    /// the simplified guide, "Putting it all together": `loadContent()`'s content.
    static let simplifiedContent = [
        "assetName": "ChromeCast1", "assetid": "C77664", "length": "3600", "program": "MyProgram",
        "segB": "CustomSegmentValueB", "segC": "segmentC", "title": "S2,E3", "type": "content", "section": "myApi_app",
        "airdate": "20180120 10:00:00", "isfullepisode": "y", "adloadtype": "2", "channelName": "My Channel 1",
        "pipMode": "false",
    ]
    /// `loadPreRollAd()`'s ad.
    /// the simplified guide, "Putting it all together": `staticObj`, which has no `assetid`.
    static let simplifiedStatic = [
        "type": "static", "section": "homeSection", "segA": "CustomSegmentValueA", "segB": "CustomSegmentValueB",
        "segC": "CustomSegmentValueC",
    ]
    static let simplifiedPreroll = ["assetid": "AD12345", "title": "ADTestTitle", "adldx": "1", "type": "preroll", "length": "20"]

    /// the API reference, "Handling JSON Metadata": the example written to show special
    /// characters in JSON, which breaks the Digital Audio page's rules (decisions.md M11a).
    static let referenceRadio = ["type": "radio", "assetid": "WXYZ-FM'101", "stationType": "3", "provider": "SampleProvider"]
    /// the simplified guide, DTVR: the sample event's content, as published (`channelname` spelled so).
    static let simplifiedDTVR = ["adModel": "1", "channelname": "channel1"]
    /// The FD CID of the simplified guide's sample `id3Data`.
    static let simplifiedDTVRCID = "_EMc37zfVgq_8KB7baUYfg=="
    /// the simplified guide, DCR: the "sample event for DCR"'s content, with the "DCR & DTVR" table's
    /// `adModel` and a live `length`: one stream measured by both products.
    static let simplifiedJoint = [
        "assetName": "Big Buck Bunny", "assetid": "B66473", "length": "0", "program": "MyProgram",
        "segB": "CustomSegmentValueB", "segC": "segmentC", "title": "S2,E3", "type": "content",
        "section": "cloudApi_app", "airdate": "20180120 10:00:00", "isfullepisode": "y",
        "crossId1": "Standard Episode ID", "crossId2": "Content Originator", "adloadtype": "1", "adModel": "1",
    ]
    /// The table row's example: "Position value is Unix timestamp: "playheadPosition":"1501225191747"".
    static let simplifiedUnixMilliseconds: Int64 = 1_501_225_191_747

    static func ad(_ type: String, _ assetid: String) -> [String: String] { ["type": type, "assetid": assetid] }
}

// MARK: - The table

extension GuideFlow {
    static let all: [GuideFlow] = [
        GuideFlow(
            name: "Ireland: use case 2 with a pause resumed by playheads only",
            guide: "DCR Ireland Video iOS SDK",
            section: "API Call Sequence, Use Case 2; Stop/Resume the Measurement for video Playback Interruptions "
                + "(\"Once the playback resumes, start sending pings playheadPosition\")",
            sfcode: "ire",
            steps: [
                .play(["channelName": "ChannelName"]), .loadMetadata(GuideMetadata.irelandContent),
                .loadMetadata(GuideMetadata.ad("preroll", "ad_123")), .playheads(0...15), .stop,
                .loadMetadata(GuideMetadata.irelandContent), .playheads(0...1200),
                .loadMetadata(GuideMetadata.ad("midroll", "ad_456")), .playheads(0...10),
                .stop, .wait(seconds: 20),                                    // app to background: midroll pauses
                .loadMetadata(GuideMetadata.ad("midroll", "ad_456")), .playheads(11...30), .stop,
                .loadMetadata(GuideMetadata.irelandContent), .playheads(1201...2400),
                .stop, .wait(seconds: 300), .playheads(2401...3600),          // paused five minutes, resumed
                .end,
                .loadMetadata(GuideMetadata.ad("postroll", "ad_789")), .playheads(0...10), .stop,
            ],
            credit: ["content/vid345-67483": 3600, "ad/ad_123": 15, "ad/ad_456": 30, "ad/ad_789": 10],
            // Sessions: play; the midroll resumed with loadMetadata; the content resumed with playheads.
            views: ["content/vid345-67483": 3, "ad/ad_123": 1, "ad/ad_456": 2, "ad/ad_789": 1],
            sessions: ["content/vid345-67483": 3, "ad/ad_123": 1, "ad/ad_456": 2, "ad/ad_789": 1],
            exercises: ["test.vodWithAds", "test.pauseResume", "content.resumes", "content.end", "ads.stop"]),
        GuideFlow(
            name: "Ireland: the app goes to the background, playheads resume in the foreground",
            guide: "DCR Ireland Video iOS SDK",
            section: "Stop/Resume the Measurement for video Playback Interruptions (\"App going in the Background/Foreground "
                + "(Video players only, not for Audio players)\"; \"Once the playback resumes, start sending pings "
                + "playheadPosition for the new viewing session\")",
            sfcode: "ire",
            steps: [
                .play(["channelName": "ChannelName"]), .loadMetadata(GuideMetadata.irelandContent), .playheads(0...1800),
                .appInBackground, .wait(seconds: 120), .appInForeground,     // the SDK closes video without PiP
                .playheads(1801...3600), .end,
            ],
            credit: ["content/vid345-67483": 3600],
            views: ["content/vid345-67483": 2],
            sessions: ["content/vid345-67483": 2],
            exercises: ["content.end", "playhead.everySecond"]),
        GuideFlow(
            name: "Ireland: buffering without stop, the playheads going on",
            guide: "DCR Ireland Video iOS SDK",
            section: "Stop/Resume the Measurement for video Playback Interruptions (\"Call stop immediately (except "
                + "when content is buffering) and withhold sending playhead position\")",
            sfcode: "ire",
            steps: [
                .play(["channelName": "ChannelName"]), .loadMetadata(GuideMetadata.irelandContent), .playheads(0...1800),
                .wait(seconds: 8),                                            // buffering: no playheads, no stop
                .playheads(1801...3600), .end,
            ],
            credit: ["content/vid345-67483": 3600],
            // No call tells buffering from late playheads: the session goes on (decisions.md L3c).
            views: ["content/vid345-67483": 1],
            sessions: ["content/vid345-67483": 1],
            exercises: ["playhead.everySecond", "content.end"]),
        GuideFlow(
            name: "Italy video: use case 2, an interruption resumed with loadMetadata",
            guide: "DCR Italy Video iOS SDK",
            section: "Sample API Sequence (static metadata on app start); API Call Sequence, Use Case 1 (Interruption, "
                + "Resume Content) and Use Case 2",
            sfcode: "it",
            steps: [
                .loadMetadata(GuideMetadata.italyStatic), .wait(seconds: 20),   // on app start
                .play(nil), .loadMetadata(GuideMetadata.italyContent),
                .loadMetadata(GuideMetadata.ad("preroll", "ad123")), .playheads(0...10), .stop,
                .loadMetadata(GuideMetadata.italyContent), .playheads(0...1200),
                .stop, .wait(seconds: 60),                                    // interruption
                .loadMetadata(GuideMetadata.italyContent), .playheads(1201...1800),
                .loadMetadata(GuideMetadata.ad("midroll", "ad456")), .playheads(0...10), .stop,
                .loadMetadata(GuideMetadata.italyContent), .playheads(1801...3600),
                .end,
                .loadMetadata(GuideMetadata.ad("postroll", "ad789")), .playheads(0...5), .stop,
            ],
            credit: ["static/Home_EntityName_iOS": 20, "content/88675545": 3600, "ad/ad123": 10, "ad/ad456": 10, "ad/ad789": 5],
            // Sessions: the static page on app start; play; the content resumed with loadMetadata.
            views: ["static/Home_EntityName_iOS": 1, "content/88675545": 2, "ad/ad123": 1, "ad/ad456": 1, "ad/ad789": 1],
            sessions: ["static/Home_EntityName_iOS": 1, "content/88675545": 2, "ad/ad123": 1, "ad/ad456": 1, "ad/ad789": 1],
            exercises: ["test.vodWithAds", "test.pauseResume", "content.resumes", "content.end", "metadata.market"]),
        GuideFlow(
            name: "Italy audio: an interruption resumed with loadMetadata, then play for a new audio",
            guide: "DCR Italy AUDIO iOS SDK",
            section: "API Call Sequence, Use Case 1 (Interruption, Resume Content); Sequence of Calls "
                + "(\"If changing audio or listening to a new audio, call play() each time\")",
            sfcode: "it",
            steps: [
                .play(nil), .loadMetadata(GuideMetadata.italyAudio), .playheads(0...1800),
                .stop, .wait(seconds: 45),                                    // a phone call
                .loadMetadata(GuideMetadata.italyAudio), .playheads(1801...3600), .end,
                .play(nil), .loadMetadata(GuideMetadata.italyNextAudio), .playheads(0...600), .end,
            ],
            credit: ["audio/88675545": 3600, "audio/88675546": 600],
            // Sessions: play; the audio resumed with loadMetadata; play for the next audio.
            views: ["audio/88675545": 2, "audio/88675546": 1],
            sessions: ["audio/88675545": 2, "audio/88675546": 1],
            exercises: ["test.pauseResume", "content.end", "play.once", "metadata.market"]),
        GuideFlow(
            name: "Italy static: the home page, with a trip to the background",
            guide: "DCR Italy Static iOS SDK",
            section: "Populate and Pass Metadata Object; Handling Foreground and Background states",
            sfcode: "it",
            steps: [
                .loadMetadata(GuideMetadata.italyStatic), .wait(seconds: 90),
                .appInBackground, .wait(seconds: 300), .appInForeground,
                .wait(seconds: 30), .appInBackground,
            ],
            credit: ["static/Home_EntityName_iOS": 120],
            // Five minutes in the background are not the 30 that start a new session (protocol.md §2c).
            views: ["static/Home_EntityName_iOS": 1],
            sessions: ["static/Home_EntityName_iOS": 1],
            exercises: ["metadata.market"]),
        GuideFlow(
            name: "Poland: use case 2, always stop then end, an interruption resumed with play and loadMetadata",
            guide: "DCR Poland Video iOS SDK",
            section: "API Call Sequence, Use Case 2; Life cycle of SDK instance (\"As soon as the playback resumes, "
                + "call play, loadMetadata and playheadPosition\")",
            sfcode: "pl",
            steps: [
                .play(["channelName": "TheMovieTitle"]), .loadMetadata(GuideMetadata.polandContent),
                // The guide's preroll id "ad=123" breaks its own assetid alphabet (decisions.md M1).
                .loadMetadata(GuideMetadata.ad("preroll", "ad-123")), .playheads(0...10), .stop,
                .loadMetadata(GuideMetadata.polandContent), .playheads(0...1200), .stop,
                .loadMetadata(GuideMetadata.ad("midroll", "ad-456")), .playheads(0...10),
                .stop, .wait(seconds: 20),                                    // app to background: midroll pauses
                .loadMetadata(GuideMetadata.ad("midroll", "ad-456")), .playheads(11...20), .stop,
                .loadMetadata(GuideMetadata.polandContent), .playheads(1201...2400),
                .stop, .wait(seconds: 60),                                    // interruption
                .play(["channelName": "TheMovieTitle"]), .loadMetadata(GuideMetadata.polandContent),
                .playheads(2401...3600),
                .stop, .end,                                                  // "Always call stop", then end
                .loadMetadata(GuideMetadata.ad("postroll", "ad-789")), .playheads(0...10), .stop,
            ],
            credit: ["content/vid345-67483": 3600, "ad/ad-123": 10, "ad/ad-456": 20, "ad/ad-789": 10],
            // Sessions: play; the midroll resumed with loadMetadata; the content resumed with play and loadMetadata.
            views: ["content/vid345-67483": 3, "ad/ad-123": 1, "ad/ad-456": 2, "ad/ad-789": 1],
            sessions: ["content/vid345-67483": 3, "ad/ad-123": 1, "ad/ad-456": 2, "ad/ad-789": 1],
            exercises: ["test.vodWithAds", "test.pauseResume", "content.resumes", "content.end", "play.once"]),
        GuideFlow(
            name: "DTVR: tags every 10 s, a 40 s pause resumed with play, loadMetadata, sendID3",
            guide: "DTVR iOS SDK",
            section: "Configure API calls (play, loadMetadata, sendID3, stop: \"Call play when resuming the stream\"); "
                + "the API reference (\"call play, loadMetadata and sendID3\")",
            steps: [
                .play(["channelName": "TheGreatBigMovie"]), .loadMetadata(GuideMetadata.dtvr),
                .sendID3(cid: GuideMetadata.dtvrCID, offset: 46_016, count: 13),   // two minutes: 120 s
                .stop, .wait(seconds: 40),
                .play(["channelName": "TheGreatBigMovie"]), .loadMetadata(GuideMetadata.dtvr),
                // Live: the stream went on 50 s by the first tag after the pause (it credits nothing),
                // then six intervals of 10 s.
                .sendID3(cid: GuideMetadata.dtvrCID, offset: 46_186, count: 7),
                .stop,
            ],
            credit: ["dtvr/\(GuideMetadata.dtvrCID)": 180],
            views: ["dtvr/\(GuideMetadata.dtvrCID)": 2],
            sessions: ["dtvr/\(GuideMetadata.dtvrCID)": 2],
            exercises: ["test.dtvrTwoMinutes", "test.dtvrPause", "play.once"]),
        GuideFlow(
            name: "Simplified API: preroll, adStop, content, pause and playhead again, complete",
            guide: "Digital Measurement iOS Simplified API",
            section: "Event Types (playhead, pause, complete, adStop); Managing Ads; Putting it all together "
                + "(the view controller: pause at rate 0, playhead on resume)",
            api: .simplified,
            // The sample's preroll dictionary carries another content (B66473) than the one played
            // after it (C77664); here the preroll is the played content's.
            steps: [
                .trackPlayheads(type: "ad", content: GuideMetadata.simplifiedContent, ad: GuideMetadata.simplifiedPreroll, 0...20),
                .trackEvent("adStop", type: "ad", content: GuideMetadata.simplifiedContent, ad: GuideMetadata.simplifiedPreroll, position: 20),
                .trackPlayheads(type: "content", content: GuideMetadata.simplifiedContent, ad: [:], 0...1800),
                .trackEvent("pause", type: "content", content: GuideMetadata.simplifiedContent, ad: [:], position: 1800),
                .wait(seconds: 120),
                .trackPlayheads(type: "content", content: GuideMetadata.simplifiedContent, ad: [:], 1801...3600),
                .trackEvent("complete", type: "content", content: GuideMetadata.simplifiedContent, ad: [:], position: 3600),
            ],
            credit: ["content/C77664": 3600, "ad/AD12345": 20],
            // `pause` is stop, and the next playhead resumes: a new viewing session.
            views: ["content/C77664": 2, "ad/AD12345": 1],
            sessions: ["content/C77664": 2, "ad/AD12345": 1]),
        GuideFlow(
            name: "Simplified API: the guide's own static object, without the assetid its table requires",
            guide: "Digital Measurement iOS Simplified API",
            section: "Static Metadata (assetid, section, segA \"Yes\"); Putting it all together (its staticObj has no "
                + "assetid); decisions.md ST2, M2",
            api: .simplified,
            steps: [
                .trackStatic(GuideMetadata.simplifiedStatic), .wait(seconds: 90),
                .appInBackground, .wait(seconds: 300), .appInForeground, .wait(seconds: 30), .appInBackground,
            ],
            credit: ["static/homeSection": 120],
            views: ["static/homeSection": 1],
            sessions: ["static/homeSection": 1],
            // 1004 naming `assetid` (M2), once; the page is measured by its section all the same.
            errors: [1004]),
        GuideFlow(
            name: "Buffering: no stop, play again when playback goes on",
            guide: "DCR Ireland Video iOS SDK",
            section: "Stop/Resume the Measurement for video Playback Interruptions (\"Call stop immediately (except "
                + "when content is buffering)\"); the DTVR guide, Interruptions during playback (\"Call play once the playback resumes\")",
            steps: [
                .play(["channelName": "ChannelName"]), .loadMetadata(GuideMetadata.irelandContent), .playheads(0...1800),
                .wait(seconds: 8),                                            // buffering: no playheads, no stop
                .play(["channelName": "ChannelName"]), .playheads(1801...3600), .end,
            ],
            credit: ["content/vid345-67483": 3600],
            // The second play starts a viewing session (decisions.md L3a); buffering alone would not (L3c).
            views: ["content/vid345-67483": 2],
            sessions: ["content/vid345-67483": 2],
            exercises: ["play.once", "playhead.everySecond", "content.end"]),
        GuideFlow(
            name: "API reference: stop when pausing, play when resuming",
            guide: "Category:iOS SDK API Reference",
            section: "Step 3: Nielsen App SDK Streaming Sessions (\"Call play while starting or resuming a streaming session\", "
                + "\"Call stop when pausing\")",
            steps: [
                .play(["channelName": "ChannelName"]), .loadMetadata(GuideMetadata.irelandContent), .playheads(0...1800),
                .stop, .wait(seconds: 90),                                    // paused
                .play(["channelName": "ChannelName"]), .playheads(1801...3600), .end,
            ],
            credit: ["content/vid345-67483": 3600],
            views: ["content/vid345-67483": 2],
            sessions: ["content/vid345-67483": 2],
            exercises: ["test.pauseResume", "play.once", "content.end"]),
        GuideFlow(
            name: "Digital Ad Ratings: play, loadMetadata, end, no playheads",
            guide: "Category:iOS SDK API Reference",
            section: "IOS SDK API Methods & Properties (the DAR column: play, loadMetadata, end; not playheadPosition or stop)",
            steps: [
                .play(nil), .loadMetadata(GuideMetadata.ad("preroll", "dar-ad-1")), .wait(seconds: 15), .end,
                .loadMetadata(GuideMetadata.ad("midroll", "dar-ad-2")), .wait(seconds: 30), .end,
            ],
            credit: ["ad/dar-ad-1": 0, "ad/dar-ad-2": 0],
            views: ["ad/dar-ad-1": 1, "ad/dar-ad-2": 1],
            sessions: ["ad/dar-ad-1": 1, "ad/dar-ad-2": 1]),
        GuideFlow(
            name: "API reference: the radio example as published, ten minutes of a station",
            guide: "Category:iOS SDK API Reference",
            section: "Handling JSON Metadata (the Example: type radio, assetid \"WXYZ-FM'101\", stationType \"3\", provider)",
            steps: [
                .play(nil), .loadMetadata(GuideMetadata.referenceRadio),
                .playheads(1_700_000_100...1_700_000_700), .end,            // a station's playheads are Unix seconds
            ],
            credit: ["station/WXYZ-FM'101": 600],
            views: ["station/WXYZ-FM'101": 1],
            sessions: ["station/WXYZ-FM'101": 1],
            errors: []),
        GuideFlow(
            name: "Simplified API: the DTVR sample event on 13-digit playheads",
            guide: "Digital Measurement iOS Simplified API",
            section: "DTVR (\"Below is a sample event for DTVR\"; \"Position value is Unix timestamp: "
                + "\"playheadPosition\":\"1501225191747\"\")",
            api: .simplified,
            steps: [
                .trackUnixMilliseconds(content: GuideMetadata.simplifiedDTVR, start: GuideMetadata.simplifiedUnixMilliseconds,
                                       seconds: 0...600, id3CID: GuideMetadata.simplifiedDTVRCID),
            ],
            credit: ["dtvr/\(GuideMetadata.simplifiedDTVRCID)": 600],
            views: ["dtvr/\(GuideMetadata.simplifiedDTVRCID)": 1],
            sessions: ["dtvr/\(GuideMetadata.simplifiedDTVRCID)": 1],
            errors: []),
        GuideFlow(
            name: "Simplified API: a DCR and DTVR stream on 13-digit playheads",
            guide: "Digital Measurement iOS Simplified API",
            section: "DCR & DTVR (content with adModel and adloadtype; \"playheadPosition\":\"1501225191747\"); "
                + "DCR (\"Below is a sample event for DCR\")",
            api: .simplified,
            steps: [
                .trackUnixMilliseconds(content: GuideMetadata.simplifiedJoint, start: GuideMetadata.simplifiedUnixMilliseconds,
                                       seconds: 0...600, id3CID: GuideMetadata.simplifiedDTVRCID),
                .trackEvent("complete", type: "content", content: GuideMetadata.simplifiedJoint, ad: [:],
                            position: GuideMetadata.simplifiedUnixMilliseconds + 600_000),
            ],
            credit: ["content/B66473": 600, "dtvr/\(GuideMetadata.simplifiedDTVRCID)": 600],
            views: ["content/B66473": 1, "dtvr/\(GuideMetadata.simplifiedDTVRCID)": 1],
            sessions: ["content/B66473": 1, "dtvr/\(GuideMetadata.simplifiedDTVRCID)": 1],
            errors: []),
    ]
}
