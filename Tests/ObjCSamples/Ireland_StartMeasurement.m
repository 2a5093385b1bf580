// Source: seeds/dcr-ireland-video-ios-sdk.txt (the same snippets are in seeds/wiki-pages/DCR_Ireland_Video_iOS_SDK.txt)
// Section: Start the Measurement > Overview of SDK API Calls > play, loadMetadata, playheadPosition, stop, end
//          (the "Using Objective-C" line of each)
// The guide's lines are verbatim; only the guides' obvious typos fixed (none needed here), each marked
// `// AppMeter: fixed typo: <what>`. Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface PlayerViewController : UIViewController <NielsenAppApiDelegate> // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenAppApi; // AppMeter: context
@end // AppMeter: context

@implementation PlayerViewController // AppMeter: context

// AppMeter: context: section "play"
- (void)startWithChannelInfo:(NSDictionary *)channelInfo { // AppMeter: context
[self.nielsenAppApi play:channelInfo];
} // AppMeter: context

// AppMeter: context: section "loadMetadata"
- (void)loadAsset:(NSDictionary *)metadataDict { // AppMeter: context
[self.nielsenAppApi loadMetadata:metadataDict];
} // AppMeter: context

// AppMeter: context: section "playheadPosition"
- (void)reportPlayhead:(long long)pos { // AppMeter: context
[self.nielsenAppApi playheadPosition:pos];
} // AppMeter: context

// AppMeter: context: section "stop"
- (void)interrupt { // AppMeter: context
[self.nielsenAppApi stop];
} // AppMeter: context

// AppMeter: context: section "end"
- (void)finish { // AppMeter: context
[self.nielsenAppApi end];
} // AppMeter: context

@end // AppMeter: context
