// Source: seeds/dtvr-ios-sdk.txt
// Section: SDK Initialization > Sample SDK Initialization Code > Objective C
//          (NielsenInit.m, then "The following would be the NielsenInit.h file", placed first here)
// The guide's lines are verbatim; only the guides' obvious typos fixed (none needed here), each marked
// `// AppMeter: fixed typo: <what>`. Lines added so that it compiles are marked `// AppMeter: context`.

// ---- NielsenInit.h ----
#import <Foundation/Foundation.h>

@class NielsenEventTracker;
@protocol NielsenEventTrackerDelegate;

@interface NielsenInit : NSObject

+ (NielsenEventTracker *)createNielsenEventTrackerWithDelegate:(id<NielsenEventTrackerDelegate>)delegate;

@end

// ---- NielsenInit.m ----
// #import "NielsenInit.h" // AppMeter: context: inlined above
#import <NielsenAppApi/NielsenEventTracker.h>

@implementation NielsenInit

+ (NielsenEventTracker *)createNielsenEventTrackerWithDelegate:(id<NielsenEventTrackerDelegate>)delegate
{
    //Initialising the NielsenEventTracker class by passing app information which returns the instance of NielsenEventTracker.
    
    NSDictionary *appInformation = @{ @"appid": @"PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
                            @"appversion": @"1.0",
                            @"sfcode": @"us",
                            @"nol_devDebug": @"DEBUG",
                            @"containerId": @"1" };
    
    return [[NielsenEventTracker alloc] initWithAppInfo:appInformation delegate:delegate];
}

@end
