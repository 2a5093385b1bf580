// The original headers' constants, for Objective-C: `#define NAME @"value"`, as NielsenAppApi.h
// and NielsenEventTracker.h declare them. Swift callers get the same names as `String` constants
// from the NielsenAppApi module (TrackEventParams.swift, kNielsenWebClose), which does not import
// this module, so Swift never sees two of each. ObjectiveCConstantsTests compares the two lists.
#ifndef NIELSEN_APP_API_CONSTANTS_H
#define NIELSEN_APP_API_CONSTANTS_H

#ifdef __OBJC__

/// The URL the opt-out page navigates to when the user closes it: close the web view.
#define kNielsenWebClose @"nielsen://close"

#define TrackEventParamEvent @"event"
#define TrackEventParamType @"type"
#define TrackEventParamMetadata @"metadata"
#define TrackEventParamPlayheadPosition @"playheadPosition"
#define TrackEventParamId3Data @"id3Data"
#define TrackEventParamOttData @"ottData"
#define TrackEventParamOptout @"optout"
#define TrackEventParamBuffering @"buffering"
#define TrackEventParamButtonEvent @"buttonEvent"
#define TrackEventParamEventPlayhead @"playhead"
#define TrackEventParamEventPause @"pause"
#define TrackEventParamEventComplete @"complete"
#define TrackEventParamEventAdStop @"adStop"
#define TrackEventParamTypeContent @"content"
#define TrackEventParamTypeAd @"ad"
#define TrackEventParamTypeStatic @"static"
#define TrackEventParamMetadataContent @"content"
#define TrackEventParamMetadataAd @"ad"
#define TrackEventParamMetadataStatic @"static"
#define TrackEventParamMetadataAssetId @"assetId"
#define TrackEventParamMetadataAdType @"type"
#define TrackEventParamAdTypePreroll @"preroll"
#define TrackEventParamAdTypeMidroll @"midroll"
#define TrackEventParamAdTypePostroll @"postroll"
#define TrackEventParamButtonPlay @"play"
#define TrackEventParamButtonPause @"pause"
#define TrackEventParamButtonResume @"resume"
#define TrackEventParamButtonStop @"stop"
#define TrackEventParamButtonForward @"forward"
#define TrackEventParamButtonRewind @"rewind"

#endif /* __OBJC__ */

#endif /* NIELSEN_APP_API_CONSTANTS_H */
