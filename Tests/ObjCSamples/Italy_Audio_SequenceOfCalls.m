// Source: seeds/wiki-pages/DCR_Italy_AUDIO_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: Sequence of Calls > play, loadMetadata, playheadPosition, stop, end (the Objective C tab of each)
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`. The sample names the SDK object nielsenAppApi
// in one place and nielsenApi in the others; both are declared (file-scope, as in the Simplified API guide's Objective-C
// sample project).
#import <UIKit/UIKit.h> // AppMeter: context
#import <AVFoundation/AVFoundation.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

static NielsenAppApi *nielsenAppApi; // AppMeter: context
static NielsenAppApi *nielsenApi; // AppMeter: context
static AVPlayer *player; // AppMeter: context

@interface PlayerViewController : UIViewController <NielsenAppApiDelegate> // AppMeter: context
@end // AppMeter: context

@implementation PlayerViewController // AppMeter: context

// AppMeter: context: section "play"
- (void)startStream { // AppMeter: context
   [nielsenAppApi play:(nil)]; // AppMeter: fixed typo: empty argument 'play:()' -> 'play:(nil)' (play: takes a nullable channel info)
} // AppMeter: context

// AppMeter: context: section "loadMetadata"
- (void)loadAsset:(NSDictionary *)contentMetadata { // AppMeter: context
[nielsenApi loadMetadata:(contentMetadata)];
} // AppMeter: context

// AppMeter: context: section "playheadPosition"
-(void) setPlayHeadPosition {

    //Setting play head position
    CMTime timeInterval = CMTimeMakeWithSeconds(1, 1);
    [player addPeriodicTimeObserverForInterval:(timeInterval) queue:dispatch_get_main_queue() usingBlock:^(CMTime time){
        NSTimeInterval seconds = CMTimeGetSeconds(time);
        NSInteger intSec = seconds;

        //Sending data dictionary to SDK with updated playHead position.
        [nielsenApi playheadPosition:(intSec)];
    }];
}

// AppMeter: context: section "stop"
- (void)interrupt { // AppMeter: context
[nielsenApi stop];
} // AppMeter: context

// AppMeter: context: section "end"
- (void)finish { // AppMeter: context
[nielsenApi end];
} // AppMeter: context

@end // AppMeter: context
