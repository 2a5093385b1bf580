import AppMeter
import Foundation
import NielsenAppApi

/// A viewing flow written once and played through either API: the simplified API's dictionaries
/// (as the guide's ViewController builds them) or the standard API's calls in the documented
/// order. The two must send the same pings.
enum FlowStep: Sendable, CustomStringConvertible {
    /// One second of content at `position`.
    case content(Int64)
    /// One second of the ad `id` (a `type` of preroll, midroll or postroll) at `position`.
    case ad(id: String, type: String, position: Int64)
    /// Playback paused (`pause` / `stop`).
    case pause
    /// Nothing happens for this many seconds.
    case wait(Int)
    /// The content ended (`complete` / `end`).
    case complete
    /// The static page shown.
    case staticPage

    var description: String {
        switch self {
        case .content(let position): "content@\(position)"
        case .ad(let id, _, let position): "\(id)@\(position)"
        case .pause: "pause"
        case .wait(let seconds): "wait \(seconds)"
        case .complete: "complete"
        case .staticPage: "static"
        }
    }

    static let contentMetadata = Fixtures.content(length: "600")
    static let home = ["type": "static", "section": "homeSection", "assetid": "AID885-9984", "segA": "CustomSegmentValueA"]

    /// The simplified API's dictionary for a step (nil: no call).
    var trackedEvent: [String: Any]? {
        func event(_ name: String, _ type: String, position: Int64?, ad: [String: String] = [:],
                   page: [String: String] = [:]) -> [String: Any] {
            ["event": name, "type": type, "playheadPosition": position.map(String.init) ?? "",
             "metadata": ["content": Self.contentMetadata, "ad": ad, "static": page] as [String: Any]]
        }
        switch self {
        case .content(let position): return event("playhead", "content", position: position)
        case .ad(let id, let type, let position):
            return event("playhead", "ad", position: position, ad: ["assetid": id, "type": type, "title": "Ad \(id)"])
        case .pause: return event("pause", "content", position: nil)
        case .complete: return event("complete", "content", position: nil)
        case .staticPage: return event("playhead", "static", position: nil, page: Self.home)
        case .wait: return nil
        }
    }
}

/// Plays flows through the standard API in the documented order, remembering what is loaded.
final class StandardPlayer {
    private let api: NielsenAppApi
    private var playing = false
    private var loaded: String?

    init(_ api: NielsenAppApi) { self.api = api }

    func perform(_ step: FlowStep) {
        switch step {
        case .content(let position):
            start()
            if loaded != "content" { api.loadMetadata(FlowStep.contentMetadata) }
            loaded = "content"
            api.playheadPosition(position)
        case .ad(let id, let type, let position):
            if loaded == nil {
                start()
                api.loadMetadata(FlowStep.contentMetadata)
            }
            if loaded != id { api.loadMetadata(["type": type, "assetid": id, "title": "Ad \(id)"]) }
            loaded = id
            api.playheadPosition(position)
        case .pause: api.stop()
        case .complete:
            api.end()
            playing = false
            loaded = nil
        case .staticPage:
            if loaded != "static" { api.loadMetadata(FlowStep.home) }
            loaded = "static"
        case .wait: break
        }
    }

    private func start() {
        guard !playing else { return }
        playing = true
        api.play(nil)
    }
}

extension MeterHarness {
    /// Plays `steps`, one virtual second per step (and `wait`'s seconds), through this harness's
    /// API, and returns every ping's parameters but the send time.
    func run(_ steps: [FlowStep]) async -> [String] {
        let standard = (facade as? NielsenAppApi).map(StandardPlayer.init)
        for step in steps {
            if case .wait(let seconds) = step {
                clock.advance(by: Double(seconds))
                continue
            }
            clock.advance(by: 1)
            if let standard {
                standard.perform(step)
            } else if let event = step.trackedEvent {
                tracker.trackEvent(event)
            }
        }
        return await pings().map { ping in
            ping.parameters.filter { $0.name != "c62" && $0.name != "rnd" }.map { "\($0.name)=\($0.value)" }
                .joined(separator: "&")
        }
    }
}
