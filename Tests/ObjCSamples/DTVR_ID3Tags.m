// Source: seeds/dtvr-ios-sdk.txt
// Section: Retrieving ID3 Tags > Examples of extracting ID3 tags from the iOS Native Player > Objective C
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <AVFoundation/AVFoundation.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

static NSString *const timedMetadataKey = @"currentItem.timedMetadata"; // AppMeter: context
static int TimedMetadataObserverContext = 0; // AppMeter: context

@interface DTVRPlayerViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    AVPlayer *player; // AppMeter: context
    NSArray *array; // AppMeter: context
    NielsenAppApi *nielsenApi; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation DTVRPlayerViewController // AppMeter: context

- (void)addPlayerObservers { // AppMeter: context

    //Adding observer to player to track play,pause and reverse
    [player addObserver:self
             forKeyPath:@"rate"
                options:(NSKeyValueObservingOptionNew)
                context:nil];


        //Setting observer to track timedMetadata
        [player addObserver:self
                 forKeyPath: timedMetadataKey
                    options: (NSKeyValueObservingOptionNew)
                    context: &TimedMetadataObserverContext];
} // AppMeter: context

- (void)observeValueForKeyPath:(NSString *)keyPath
                      ofObject:(id)object
                        change:(NSDictionary *)change
                       context:(void *)context
{
    if(keyPath == timedMetadataKey){
        if(context == &TimedMetadataObserverContext){

            id newMetadataArray = [change objectForKey:NSKeyValueChangeNewKey];
            if (newMetadataArray != [NSNull null])
            {
                array = newMetadataArray;
                for (AVMetadataItem *metadataItem in array)
                {
                    //Handling TimedMetadata
                    [self handleTimedMetadata: metadataItem];
                }
            }

        }
    }
} // AppMeter: fixed typo: missing '}' closing the method


- (void)handleTimedMetadata:(AVMetadataItem *)timedMetadata
{
    // We expect the content to contain plists encoded as timed metadata
    // AVPlayer turns these into NSDictionaries

    id extraAttributeType = [timedMetadata extraAttributes];
    NSString *extraString = nil;
    if ([extraAttributeType isKindOfClass:[NSDictionary class]])
    {
        extraString = [extraAttributeType valueForKey:@"info"];
    }
    else if ([extraAttributeType isKindOfClass:[NSString class]])
    {
        extraString = extraAttributeType;
    }

    NSString *key = [NSString stringWithFormat:@"%@", [timedMetadata key]];

    //If tag starts with "www.nielsen.com", then only sending to SDK
    if ([key isEqualToString:@"PRIV"] && [extraString rangeOfString:@"www.nielsen.com"].length > 0)
    {

        dispatch_async(dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0), ^{
            [nielsenApi sendID3:extraString];
        });
    }
}

@end // AppMeter: context
