// Source: seeds/ios-simplified-api.txt
// Section: SDK Initialization > Sample SDK Initialization Code > Objective C
//          (Objective-C Example: NielsenInit.m, then "The ViewController.m file could then contain the following line(s)")
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.

// NielsenInit.h, as the same guide gives it under Example Code > Objective C: // AppMeter: context
#import <Foundation/Foundation.h> // AppMeter: context
@class NielsenEventTracker; // AppMeter: context
@protocol NielsenEventTrackerDelegate; // AppMeter: context
@interface NielsenInit : NSObject // AppMeter: context
+ (NielsenEventTracker *)createNielsenEventTrackerWithDelegate:(id<NielsenEventTrackerDelegate>)delegate; // AppMeter: context
@end // AppMeter: context

// ---- NielsenInit.m ----
// #import "NielsenInit.h" // AppMeter: context: inlined above
#import <NielsenAppApi/NielsenEventTracker.h>

@implementation NielsenInit

+ (NielsenEventTracker *)createNielsenEventTrackerWithDelegate:(id<NielsenEventTrackerDelegate>)delegate
{
    //Initialising the NielsenEventTracker class by passing app information which returns the instance of NielsenEventTracker.
    
    NSDictionary *appInformation = @{ @"appid": @"PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
                            @"appversion": @"1.0",
                            @"appname": @"Amazing app",
                            @"sfcode": @"dcr",
                            @"nol_devDebug": @"DEBUG"};
                         
    return [[NielsenEventTracker alloc] initWithAppInfo:appInformation delegate:delegate];
}
@end // AppMeter: fixed typo: missing @end

// ---- ViewController.m ----
#import <UIKit/UIKit.h> // AppMeter: context
@interface ViewController : UIViewController { // AppMeter: context
    NielsenEventTracker *nielsenEventTracker; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation ViewController // AppMeter: context
- (void)viewDidLoad { // AppMeter: context
    [super viewDidLoad]; // AppMeter: context
  
    //Getting the instance of NielsenEventTracker
    nielsenEventTracker = [NielsenInit createNielsenEventTrackerWithDelegate:nil];
/////

}
@end // AppMeter: context
