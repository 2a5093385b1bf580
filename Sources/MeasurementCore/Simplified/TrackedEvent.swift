package import MeterContract

/// One call of the simplified API (`NielsenEventTracker.trackEvent`), read into typed values on
/// the caller's thread (the simplified guide "Simplified API Syntax"). The core's
/// ``SimplifiedSequencer`` turns it into the standard API's commands.
public struct TrackedEvent: Sendable, Equatable {
    /// `event`: what happened.
    package enum Event: String, Sendable, CaseIterable {
        /// Metadata and the current playhead (or Unix time, or ID3 tag).
        case playhead
        /// Playback paused, the app went to the background, or an interruption.
        case pause
        /// The session ended; for static pages, the next identical page is a new view.
        case complete
        /// The current ad ended (needed when ads share an `assetid`).
        case adStop
    }

    /// `type`: which metadata object is credited.
    package enum Subject: String, Sendable, CaseIterable {
        case content
        case ad
        case `static`
    }

    /// `event`.
    package var event: Event
    /// `type` (`content` when missing).
    package var subject: Subject
    /// `metadata.content`, parsed (nil: missing or empty).
    package var content: MetadataParser.Result?
    /// `metadata.content.channelName`: the channel the standard API's `play` would name.
    package var channelName: String?
    /// `metadata.ad`, parsed (nil: missing or empty).
    package var ad: MetadataParser.Result?
    /// `metadata.static`, parsed (nil: missing or empty).
    package var staticPage: MetadataParser.Result?
    /// `playheadPosition` in seconds (nil: missing or empty, as on `pause` and `complete`).
    package var position: Int64?
    /// `id3Data`, when it is a Nielsen tag that parsed.
    package var id3: NielsenID3Tag?
    /// `ottData`, when it parsed (as `updateOTT`).
    package var ott: OTTStatus?
    /// Problems with the call itself (not with its metadata), reported in call order.
    package var issues: [MetadataIssue]
    /// Documented keys the call holds that no guide gives an effect, each named once per instance.
    package var keysWithoutEffect: KeysWithoutEffect = []

    package init(
        event: Event, subject: Subject, content: MetadataParser.Result? = nil, channelName: String? = nil,
        ad: MetadataParser.Result? = nil, staticPage: MetadataParser.Result? = nil, position: Int64? = nil,
        id3: NielsenID3Tag? = nil, issues: [MetadataIssue] = []
    ) {
        self.event = event
        self.subject = subject
        self.content = content
        self.channelName = channelName
        self.ad = ad
        self.staticPage = staticPage
        self.position = position
        self.id3 = id3
        self.issues = issues
    }
}

/// Keys of the simplified API's documentation that no guide gives an effect (decisions.md SA5a):
/// taken, measured without, and each named once per instance in a WARN line, so that an app written
/// from the guide learns it rather than believe they are sent.
package struct KeysWithoutEffect: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `metadata.content.assetName` (content table: "name of program").
    package static let contentAssetName = KeysWithoutEffect(rawValue: 1 << 0)
    /// `metadata.content.section` (content table: "Unique Value assigned to page/site section").
    package static let contentSection = KeysWithoutEffect(rawValue: 1 << 1)
    /// `buffering` (the header's `TrackEventParamBuffering`).
    package static let buffering = KeysWithoutEffect(rawValue: 1 << 2)
    /// `buttonEvent` (the header's `TrackEventParamButtonEvent`).
    package static let buttonEvent = KeysWithoutEffect(rawValue: 1 << 3)

    /// Each key with the line that names it, in a fixed order.
    package static let notices: [(key: KeysWithoutEffect, notice: String)] = [
        (.contentAssetName, "trackEvent: 'metadata.content.assetName' has no effect: no ping carries it; "
            + "'program' and 'title' name the content"),
        (.contentSection, "trackEvent: 'metadata.content.section' has no effect on content: only a static "
            + "page's section is measured"),
        (.buffering, "trackEvent: 'buffering' has no effect: the playheads say what was watched; send none, "
            + "or event 'pause', while the player buffers"),
        (.buttonEvent, "trackEvent: 'buttonEvent' has no effect: event 'playhead', 'pause', 'complete' or "
            + "'adStop' says what happened"),
    ]
}
