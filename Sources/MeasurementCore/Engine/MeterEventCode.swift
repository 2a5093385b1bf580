/// The documented event and error codes reported to `NielsenAppApiDelegate` and in
/// `lastEventDict` / `lastErrorDict` (APP SDK Event Codes; see docs/decisions.md for how each is used).
public enum MeterEventCode: Int, Sendable, CaseIterable {
    // Error codes 1–15 (`LogCode`).
    /// `play` input was not a JSON object of strings.
    case failedParseStartInfo = 1
    /// `loadMetadata` input was not a JSON object of strings, or a metadata value was invalid.
    case failedParseMetadata = 2
    /// An ID3 tag could not be processed.
    case failedProcessID3 = 3
    /// The census config could not be received.
    case failedReceiveConfig = 4
    /// The census config could not be parsed.
    case failedParseConfig = 5
    /// The measurement processor could not start.
    case failedStartProcessor = 6
    /// A ping URL could not be built.
    case failedCreateURL = 7
    /// An HTTP request could not be created.
    case failedCreateRequest = 8
    /// An HTTP request failed.
    case failedSendHTTPRequest = 9
    /// A ping could not be delivered.
    case failedSendPing = 10
    /// A TSV request failed.
    case failedSendTSV = 11
    /// A station request failed.
    case failedSendStationRequest = 12
    /// Local storage could not be accessed.
    case failedAccessDatabase = 13
    /// An unexpected internal condition; the call was ignored.
    case exception = 14
    /// A `playheadPosition` value was out of range.
    case invalidPlayheadPosition = 15

    // Error codes 1001–1007 (`AppApiErrorCode`).
    /// The collector could not be reached.
    case networkConnectionFailure = 1001
    /// A file could not be written.
    case fileWriteFailure = 1002
    /// A file could not be read.
    case fileReadFailure = 1003
    /// A required value was empty or missing.
    case emptyValue = 1004
    /// `appname` was empty.
    case emptyAppName = 1005
    /// `appversion` was empty.
    case emptyAppVersion = 1006
    /// `appid` was empty.
    case emptyAppID = 1007

    // Events.
    /// The SDK instance started.
    case startup = 2001
    /// The SDK instance is shutting down.
    case shutdown = 2002

    /// True for the 2000-range codes, which are events rather than errors.
    public var isEvent: Bool { rawValue >= 2000 }
}
