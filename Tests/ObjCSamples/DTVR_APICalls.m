// Source: seeds/dtvr-ios-sdk.txt
// Section: Configure API calls - play, - loadMetadata, - sendID3, - stop, - end (the Objective C line of each; the
//          sendID3 section's "Swift" tab shows the same Objective-C line, included too)
// The guide's lines are verbatim; only the guides' obvious typos fixed (none needed here), each marked
// `// AppMeter: fixed typo: <what>`. Lines added so that it compiles are marked `// AppMeter: context`.
// The guide passes loadChannelInfo and loadDtvr (the names of its metadata methods under "Content Metadata") as
// values; here they are parameters. The sample names the SDK object nielsenAppApi in one place and nielsenApi in
// the others; both are declared.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface DTVRViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nielsenAppApi; // AppMeter: context
    NielsenAppApi *nielsenApi; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation DTVRViewController // AppMeter: context

// AppMeter: context: section "Configure API calls - play"
- (void)startStream:(NSDictionary *)loadChannelInfo { // AppMeter: context
   [nielsenAppApi play:(loadChannelInfo)];
} // AppMeter: context

// AppMeter: context: section "Configure API calls - loadMetadata"
- (void)loadAsset:(NSDictionary *)loadDtvr { // AppMeter: context
[nielsenApi loadMetadata:(loadDtvr)];
} // AppMeter: context

// AppMeter: context: section "Configure API calls - sendID3 ("Swift" tab, then "Objective C" tab)"
- (void)forwardID3:(NSString *)extraString { // AppMeter: context
 [nielsenApi sendID3:extraString];
[nielsenApi sendID3:extraString];
} // AppMeter: context

// AppMeter: context: section "Configure API calls - stop"
- (void)interrupt { // AppMeter: context
[nielsenApi stop];
} // AppMeter: context

// AppMeter: context: section "Configure API calls - end"
- (void)finish { // AppMeter: context
[nielsenApi end];
} // AppMeter: context

@end // AppMeter: context
