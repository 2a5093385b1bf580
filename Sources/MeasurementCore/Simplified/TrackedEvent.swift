import MeterContract

/// One call of the simplified API (`NielsenEventTracker.trackEvent`), read into typed values on
/// the caller's thread (ios-simplified-api.txt "Simplified API Syntax"). The core's
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
