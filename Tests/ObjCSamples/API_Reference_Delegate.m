// Source: seeds/ios-sdk-api-reference.txt
// Section: Initialization > Stages of SDK Initialization > Step 2: Setting up event and error notifications
//          ("Note: Ensure to add to your view controller's @interface")
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface SamplePlayerViewController : UIViewController <NielsenAppApiDelegate> // AppMeter: context
@end // AppMeter: context

@implementation SamplePlayerViewController // AppMeter: context

- (void)nielsenAppApi:(NielsenAppApi *)appApi eventOccurred:(NSDictionary *)event {NSLog(@"Sample player is Notified by a Event : %@", event); // AppMeter: fixed typo: missing '-' before (void)
}
- (void)nielsenAppApi:(NielsenAppApi *)appApi errorOccurred:(NSDictionary *)error {NSLog(@"Sample player is Notified by an Error : %@", error); // AppMeter: fixed typo: missing '-' before (void)
}

@end // AppMeter: context
