// Source: seeds/ios-sdk-api-reference.txt
// Section: Retrieving ID3 Tags > Examples of extracting ID3 tags from the iOS Native Player > AVPlayer
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
// API difference (kept, see README): `+[NielsenAppApi sharedInstance]` is not in the original SDK's header (the guide
// itself says that the sharedInstance API was removed); it is declared below as context so that the rest is checked.
#import <UIKit/UIKit.h> // AppMeter: context
#import <AVFoundation/AVFoundation.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface NielsenAppApi (GuideOnlySharedInstance) // AppMeter: context: not in the original SDK's header
+ (instancetype)sharedInstance; // AppMeter: context: not in the original SDK's header
@end // AppMeter: context

static NSString *const kTimedMetadataKey = @"currentItem.timedMetadata"; // AppMeter: context
static void *MyStreamingMovieViewControllerTimedMetadataObserverContext = &MyStreamingMovieViewControllerTimedMetadataObserverContext; // AppMeter: context

@interface MyStreamingMovieViewController : UIViewController { // AppMeter: context
    NSArray *array; // AppMeter: context
    int countForMetadata; // AppMeter: context
} // AppMeter: context
@property (nonatomic, strong) AVPlayer *player; // AppMeter: context
- (void)appendLogConsoleText:(NSString *)text; // AppMeter: context
@end // AppMeter: context

@implementation MyStreamingMovieViewController // AppMeter: context

- (void)viewDidLoad { // AppMeter: context
    [super viewDidLoad]; // AppMeter: context
[self.player addObserver:self
forKeyPath: kTimedMetadataKey
options: NSKeyValueObservingOptionNew
context: MyStreamingMovieViewControllerTimedMetadataObserverContext]; // AppMeter: fixed typo: Context: -> context:
} // AppMeter: context

- (void)observeValueForKeyPath:(NSString*) path // AppMeter: fixed typo: en dash '–' -> '-'
ofObject: (id)object
change: (NSDictionary*)change
context: (void*)context
{
/* Set the AVPlayerLayer on the view to allow the AVPlayer object to display
its content. */
//[playerLayerView.playerLayer setPlayer:player];
/* AVPlayerItem "status" property value observer. */
if (context == MyStreamingMovieViewControllerTimedMetadataObserverContext)
{
id newMetadataArray = [change objectForKey:NSKeyValueChangeNewKey];
if (newMetadataArray != [NSNull null])
{
array = newMetadataArray;
for (AVMetadataItem *metadataItem in array)
{
[self handleTimedMetadata: metadataItem];
}
}
}
} // AppMeter: fixed typo: missing '}' closing the method
- (void)handleTimedMetadata: (AVMetadataItem*)timedMetadata // AppMeter: fixed typo: en dash '–' -> '-'
{
/* We expect the content to contain plists encoded as timed metadata. AVPlayer turns these into NSDictionaries. */
id extraAttributeType = [timedMetadata extraAttributes];
NSString * extraString= nil;
if ([extraAttributeType isKindOfClass:[NSDictionary class]])
{
extraString = [extraAttributeType valueForKey:@"info"];
}
else if([extraAttributeType isKindOfClass:[NSString class]])
{
extraString = extraAttributeType;
}
if ([(NSString *)[timedMetadata key] isEqualToString:@"PRIV"]&&[extraString rangeOfString:@"www.nielsen.com"].length> 0)
{
if ([[timedMetadata value] isKindOfClass:[NSData class]])
{
// Sending ID3 Tag
/* The sendID3: sends the extracted Nielsen ID3 payload to the App SDK for analysis. */
[[NielsenAppApi sharedInstance]sendID3: extraString];
NSString *value=[timedMetadata stringValue];
if (value != nil)
{
// NSString *strMessage=[[@"ID3 Tag Received " stringByAppendingFormat:@"%d\n",countForMetadata] stringByAppendingString:value];
[self appendLogConsoleText:extraString];
}
}
}
else
{
NSLog(@"Could not send ID3 tags");
}
countForMetadata++;
}

- (void)appendLogConsoleText:(NSString *)text { NSLog(@"%@", text); } // AppMeter: context

@end // AppMeter: context
