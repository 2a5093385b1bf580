// The simplified API's keys and values under the names of the original `NielsenEventTracker.h`
// (`#define TrackEventParam… @"…"`, which Swift imports as global `String` constants), so that
// `trackEvent` calls written against the original compile unchanged.

/// `event`: what happened.
public let TrackEventParamEvent = "event"
/// `type`: what to credit.
public let TrackEventParamType = "type"
/// `metadata`: the content, ad and static metadata.
public let TrackEventParamMetadata = "metadata"
/// `playheadPosition`.
public let TrackEventParamPlayheadPosition = "playheadPosition"
/// `id3Data` (DTVR).
public let TrackEventParamId3Data = "id3Data"
/// `ottData`.
public let TrackEventParamOttData = "ottData"
/// `optout`: the opt-out page's answer.
public let TrackEventParamOptout = "optout"
/// `buffering`: no guide gives it an effect; taken, and named once per instance in a WARN line
/// (decisions.md SA5a). While the player buffers, send no playhead, or event `pause`.
public let TrackEventParamBuffering = "buffering"
/// `buttonEvent`: no guide gives it an effect; taken, and named once per instance in a WARN line
/// (decisions.md SA5a). `event` says what happened.
public let TrackEventParamButtonEvent = "buttonEvent"

/// The `event` value `playhead`.
public let TrackEventParamEventPlayhead = "playhead"
/// The `event` value `pause`.
public let TrackEventParamEventPause = "pause"
/// The `event` value `complete`.
public let TrackEventParamEventComplete = "complete"
/// The `event` value `adStop`.
public let TrackEventParamEventAdStop = "adStop"

/// The `type` value `content`.
public let TrackEventParamTypeContent = "content"
/// The `type` value `ad`.
public let TrackEventParamTypeAd = "ad"
/// The `type` value `static`.
public let TrackEventParamTypeStatic = "static"

/// The `metadata` key `content`.
public let TrackEventParamMetadataContent = "content"
/// The `metadata` key `ad`.
public let TrackEventParamMetadataAd = "ad"
/// The `metadata` key `static`.
public let TrackEventParamMetadataStatic = "static"
/// The `assetId` key of a metadata dictionary.
public let TrackEventParamMetadataAssetId = "assetId"
/// The ad metadata's `type` key.
public let TrackEventParamMetadataAdType = "type"

/// The ad `type` value `preroll`.
public let TrackEventParamAdTypePreroll = "preroll"
/// The ad `type` value `midroll`.
public let TrackEventParamAdTypeMidroll = "midroll"
/// The ad `type` value `postroll`.
public let TrackEventParamAdTypePostroll = "postroll"

/// The `buttonEvent` value `play`.
public let TrackEventParamButtonPlay = "play"
/// The `buttonEvent` value `pause`.
public let TrackEventParamButtonPause = "pause"
/// The `buttonEvent` value `resume`.
public let TrackEventParamButtonResume = "resume"
/// The `buttonEvent` value `stop`.
public let TrackEventParamButtonStop = "stop"
/// The `buttonEvent` value `forward`.
public let TrackEventParamButtonForward = "forward"
/// The `buttonEvent` value `rewind`.
public let TrackEventParamButtonRewind = "rewind"
