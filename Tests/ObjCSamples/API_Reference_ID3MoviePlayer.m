// Source: seeds/ios-sdk-api-reference.txt
// Section: Retrieving ID3 Tags > Examples of extracting ID3 tags from the iOS Native Player > Movie Player
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
// API difference (kept, see README): `+[NielsenAppApi sharedInstance]` is not in the original SDK's header (the guide
// itself says that the sharedInstance API was removed); it is declared below as context so that the rest is checked.
#import <UIKit/UIKit.h> // AppMeter: context
#import <MediaPlayer/MediaPlayer.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface NielsenAppApi (GuideOnlySharedInstance) // AppMeter: context: not in the original SDK's header
+ (instancetype)sharedInstance; // AppMeter: context: not in the original SDK's header
@end // AppMeter: context

@interface MoviePlayerViewController : UIViewController { // AppMeter: context
    int countForMetadata; // AppMeter: context
} // AppMeter: context
- (void)appendLogConsoleText:(NSString *)text; // AppMeter: context
@end // AppMeter: context

@implementation MoviePlayerViewController // AppMeter: context

- (void)handleTimedMetadata:(MPTimedMetadata*)timedMetadata // AppMeter: fixed typo: en dash '–' -> '-'
{
id extraAttributeType = [timedMetadata allMetadata];
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
[[NielsenAppApi sharedInstance]sendID3: extraString];
NSString *value=[timedMetadata value];
if (value != nil)
{
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
