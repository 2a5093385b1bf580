// Source: seeds/dcr-ireland-video-ios-sdk.txt (the same snippets are in seeds/wiki-pages/DCR_Ireland_Video_iOS_SDK.txt)
// Section: Debug flag for development environment > Sample SDK Initialization Code > Using Objective-C
//          (NlsAppApiFactory.m, then "The following would be the NlsAppApiFactory.h file")
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.

// ---- NlsAppApiFactory.h (inlined here: this fixture is one translation unit) ----
#import <Foundation/Foundation.h>

@class NielsenAppApi;
@protocol NielsenAppApiDelegate; // AppMeter: fixed typo: NielsenAppApiDeligate -> NielsenAppApiDelegate

@interface NlsAppApiFactory : NSObject

+ (NielsenAppApi *) createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate; // AppMeter: fixed typo: NielsenAppAPI -> NielsenAppApi

@end

// ---- NlsAppApiFactory.m ----
// #import "NlsAppApiFactory.h" // AppMeter: context: the header is inlined above
#import <NielsenAppApi/NielsenAppApi.h>

@implementation NlsAppApiFactory

+ (NielsenAppApi *)createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate;
{
    NSDictionary *appInformation = @{
                                     @"appid": @"PXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"appversion": @"1.0", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"appname": @"app name here", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"sfcode": @"ire", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"nol_devDebug": @"DEBUG"
                                    };
    return [[NielsenAppApi alloc] initWithAppInfo:appInformation delegate:delegate];
}
@end
