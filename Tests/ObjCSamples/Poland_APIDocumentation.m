// Source: seeds/wiki-pages/DCR_Poland_Video_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: Nielsen API Documentation > play, loadMetadata, playheadPosition, stop, end (the Objective C tab of each)
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface PlayerViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nielsenApi; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation PlayerViewController // AppMeter: context

- (NSDictionary *)loadChannelInfo { // AppMeter: context
    return @{ @"channelName": @"My Channel Name 1" }; // AppMeter: context
} // AppMeter: context

// AppMeter: context: section "play"
- (void)startStream { // AppMeter: context
   [nielsenApi play:([self loadChannelInfo])]; // AppMeter: fixed typo: '[NSDictionary *channel loadChannelInfo)' is not an expression -> '[self loadChannelInfo]'
} // AppMeter: context

// AppMeter: context: section "loadMetadata"
- (void)loadAsset:(NSDictionary *)contentMetadata { // AppMeter: context
[nielsenApi loadMetadata:(contentMetadata)];
} // AppMeter: context

// AppMeter: context: section "playheadPosition"
- (void)reportPlayhead:(NSInteger)secondsAsInt { // AppMeter: context
[nielsenApi playheadPosition:secondsAsInt];
} // AppMeter: context

// AppMeter: context: section "stop"
- (void)interrupt { // AppMeter: context
[nielsenApi stop];
} // AppMeter: context

// AppMeter: context: section "end"
- (void)finish { // AppMeter: context
[nielsenApi end];
} // AppMeter: context

@end // AppMeter: context
