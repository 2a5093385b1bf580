import Foundation

/// One step of a scripted viewing session.
package enum DemoStep: Sendable {
    /// `play` with an optional channel name.
    case play(channel: String?)
    /// `loadMetadata`.
    case load([String: String])
    /// One `playheadPosition` per virtual second, for each position.
    case playheads([Int64])
    /// Playheads from the live edge: Unix seconds `now ... now + seconds`.
    case livePlayheads(seconds: Int64)
    /// Time passes with nothing reported (paused player).
    case wait(seconds: Double)
    /// The app spends `seconds` in the background.
    case background(seconds: Double)
    /// A static page stays on screen, in the foreground, for `seconds`.
    case show(seconds: Int)
    /// `staticEnd`.
    case staticEnd
    /// DTVR: `count` Nielsen ID3 tags of source `cid`, one every 10 s, the stream's offset
    /// advancing with them from `offset` (a live channel's tags, as a player extracts them).
    case id3Tags(cid: String, offset: Int, count: Int)
    /// `stop`.
    case stop
    /// `end`.
    case end
    /// `updateOTT`: the stream goes to an AirPlay device (or comes back to the phone with nil).
    case airPlay(device: String?)
    /// The player's viewability changes (the first one starts `trackViewability`): the share of
    /// it on screen and the volume, in percent.
    case viewability(visible: Int, volume: Int)
    /// `trackEvent` of the simplified API: `event` with `type` and the metadata objects, once per
    /// virtual second for each playhead position (once with an empty position when there are none).
    case track(event: String, type: String, content: [String: String], ad: [String: String], positions: [Int64])
    /// A Google AMP page of `section`, visible for `seconds` then hidden: the requests AMP's
    /// `nielsen` vendor sends, straight to the census (no SDK: the census credits them).
    case ampPageView(section: String, seconds: Int)
}

/// A documented call sequence with the seconds the crediting rule must give each asset.
package struct DemoScenario: Sendable {
    /// What it shows.
    package let name: String
    /// The calls, in order.
    package let steps: [DemoStep]
    /// Expected credited seconds per asset id, worked out by hand from the crediting rule
    /// (docs/protocol.md): each report exactly +1 over the previous one of the same asset credits 1 s.
    package let expected: [String: Int64]

    /// Whether it drives `NielsenEventTracker` (its steps are `track`) rather than `NielsenAppApi`.
    package var usesSimplifiedAPI: Bool {
        steps.contains { if case .track = $0 { true } else { false } }
    }

    /// Whether its only steps are Google AMP page views (no SDK: ``DemoRunner`` starts none).
    package var isAMPOnly: Bool {
        !steps.isEmpty && steps.allSatisfy { if case .ampPageView = $0 { true } else { false } }
    }

    /// Creates a scenario.
    package init(name: String, steps: [DemoStep], expected: [String: Int64]) {
        self.name = name
        self.steps = steps
        self.expected = expected
    }
}

extension DemoScenario {
    static func content(_ id: String, length: String, program: String) -> [String: String] {
        ["type": "content", "assetid": id, "program": program, "title": "\(program) S1E1", "length": length,
         "airdate": "20261121 20:00:00", "isfullepisode": "y", "adloadtype": "2"]
    }

    static func ad(_ type: String, _ id: String) -> [String: String] {
        ["type": type, "assetid": id]
    }

    static func range(_ range: ClosedRange<Int64>) -> DemoStep { .playheads(Array(range)) }

    /// The scenarios `meter demo` plays: VOD with ads, live, a pause, a seek.
    package static let all: [DemoScenario] = [
        DemoScenario(
            name: "VOD episode with pre-, mid- and postroll (Ireland use case 2)",
            steps: [
                .play(channel: "Demo Channel"),
                .load(content("demo-vod-ep1", length: "1200", program: "Demo Drama")),
                .load(ad("preroll", "demo-preroll")), range(0...15), .stop,
                .load(content("demo-vod-ep1", length: "1200", program: "Demo Drama")), range(0...600),
                .load(ad("midroll", "demo-midroll")), range(0...30), .stop,
                .load(content("demo-vod-ep1", length: "1200", program: "Demo Drama")), range(601...1200),
                .end,
                .load(ad("postroll", "demo-postroll")), range(0...20), .stop,
            ],
            expected: ["demo-vod-ep1": 1200, "demo-preroll": 15, "demo-midroll": 30, "demo-postroll": 20]),
        DemoScenario(
            name: "Live news, five minutes at the live edge",
            steps: [
                .play(channel: "Demo News 24"),
                .load(content("demo-live-news", length: "86400", program: "Demo News")),
                .livePlayheads(seconds: 300), .stop,
            ],
            expected: ["demo-live-news": 300]),
        DemoScenario(
            name: "Movie paused for ten minutes, then resumed",
            steps: [
                .play(channel: "Demo Movies"),
                .load(content("demo-movie", length: "5400", program: "Demo Movie")), range(0...300), .stop,
                .wait(seconds: 600),
                .load(content("demo-movie", length: "5400", program: "Demo Movie")), range(301...900), .end,
            ],
            expected: ["demo-movie": 900]),
        DemoScenario(
            name: "Clip with a seek forward",
            steps: [
                .play(channel: "Demo Clips"),
                .load(content("demo-clip", length: "900", program: "Demo Clips")), range(0...120),
                range(600...700), .end,
            ],
            expected: ["demo-clip": 220]),
        DemoScenario(
            name: "Static home page (Italy Static guide), two minutes on screen with a trip to the background",
            steps: [
                .load(["type": "static", "assetid": "HomePage", "section": "Home_AppMeterDemo_iOS"]),
                .show(seconds: 90), .background(seconds: 300), .show(seconds: 30), .staticEnd,
            ],
            expected: ["Home_AppMeterDemo_iOS": 120]),
        DemoScenario(
            name: "DTVR live channel, two minutes of ID3 tags every 10 s",
            steps: [
                .play(channel: "Demo TV One"),
                .load(["type": "content", "channelName": "Demo TV One", "adModel": "1"]),
                .id3Tags(cid: demoCID, offset: 43_200, count: 13), .stop,
            ],
            expected: [demoCID: 120]),
        DemoScenario(
            name: "Radio station, five minutes live with a break",
            steps: [
                .play(channel: "WDMO-FM"),
                .load(station), .livePlayheads(seconds: 180), .stop,
                .load(ad("midroll", "demo-radio-spot")), range(0...30), .stop,
                .load(station), .livePlayheads(seconds: 120), .end,
            ],
            expected: ["WDMO-FM": 300, "demo-radio-spot": 30]),
        DemoScenario(
            name: "Episode with viewability: scrolled half away for a minute, muted, then sent to an Apple TV",
            steps: [
                .play(channel: "Demo Channel"),
                .load(content("demo-viewable-ep", length: "600", program: "Demo Series")),
                .viewability(visible: 100, volume: 60), range(0...120),
                .viewability(visible: 40, volume: 60), range(121...180),
                .viewability(visible: 100, volume: 0), range(181...240),
                .airPlay(device: "Apple TV 4K"), range(241...300), .airPlay(device: nil), .end,
            ],
            expected: ["demo-viewable-ep": 300]),
        DemoScenario(
            name: "Simplified API (trackEvent): preroll, adStop, content, the sample's dictionary every second",
            steps: [
                .track(event: "playhead", type: "ad", content: simpleEpisode, ad: simplePreroll, positions: Array(0...15)),
                .track(event: "adStop", type: "ad", content: simpleEpisode, ad: simplePreroll, positions: []),
                .track(event: "playhead", type: "content", content: simpleEpisode, ad: [:], positions: Array(0...120)),
                .track(event: "complete", type: "content", content: simpleEpisode, ad: [:], positions: []),
            ],
            expected: ["demo-simple-preroll": 15, "demo-simple-ep": 120]),
        DemoScenario(
            name: "Google AMP article (Italy AMP guide), 65 s visible: visible, six timers, hidden",
            steps: [.ampPageView(section: "AppMeterDemo_AMP", seconds: 65)],
            expected: ["AppMeterDemo_AMP": 65]),
    ]

    static let simpleEpisode = content("demo-simple-ep", length: "1800", program: "Demo Simple")
    static let simplePreroll = ["type": "preroll", "assetid": "demo-simple-preroll", "title": "Demo Preroll", "adldx": "1"]

    /// The demo DTVR source's CID (a final distributor).
    package static let demoCID = "DemoFDcid000000000000A=="
    static let station = ["type": "radio", "assetid": "WDMO-FM", "stationType": "1", "provider": "AppMeter Demo Radio"]

    /// A Nielsen owner string for `cid` at `offset` (a payload of the guide's length).
    package static func nielsenTag(cid: String, offset: Int) -> String {
        // 249 characters in all, as a transcoder's tags are (the certification rule checks it).
        let payload = String(repeating: "A", count: 167) + "="
        return "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/\(cid)/\(payload)/00000/" + String(format: "%05d", offset) + "/00"
    }
}
