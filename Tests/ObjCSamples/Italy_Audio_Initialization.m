// Source: seeds/wiki-pages/DCR_Italy_AUDIO_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: SDK Initialization > Objective C (NlsAppApiFactory.m; "The following would be the NlsAppApiFactory.h
//          file", placed first here) and SDK Initialization > Sample Code:
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.

// ---- NlsAppApiFactory.h ----
#import <Foundation/Foundation.h>

@class NielsenAppApi;
@protocol NielsenAppApiDelegate;

@interface NlsAppApiFactory : NSObject

+ (NielsenAppApi *) createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate; // AppMeter: fixed typo: NielsenAppAPI -> NielsenAppApi

@end

// ---- NlsAppApiFactory.m ----
// #import "NlsAppApiFactory.h" // AppMeter: context: inlined above
#import <NielsenAppApi/NielsenAppApi.h>

@implementation NlsAppApiFactory

+ (NielsenAppApi *)createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate;
{


    NSDictionary *appInformation = @{
                                     @"appid": @"PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"appversion": @"1.0.2", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"appname": @"Nielsen Sample App", // AppMeter: fixed typo: C string "..." -> @"..."
                                     @"nol_devDebug": @"DEBUG"
                                    };

    return [[NielsenAppApi alloc] initWithAppInfo:appInformation delegate:delegate];
}

@end

// ---- Sample Code: (ViewController.m) ----
#import <UIKit/UIKit.h> // AppMeter: context
@interface ViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nielsenApi; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation ViewController

- (void)viewDidLoad {
    [super viewDidLoad];

    //Getting the instance of Nielsen SDK
    nielsenApi = [NlsAppApiFactory createNielsenAppApiWithDelegate:nil];
} // AppMeter: fixed typo: '}}' -> '}'
@end // AppMeter: fixed typo: missing @end
