// Source: seeds/wiki-pages/DCR_Poland_Video_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: SDK Initialization > Sample SDK Initialization Code > Objective C (NielsenInit.m; "The following would be the
//          NielsenInit.h file", placed first here; "Sample Code:")
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.

// ---- NielsenInit.h ----
#import <Foundation/Foundation.h>

@class NielsenAppApi;
@protocol NielsenAppApiDelegate;

@interface NielsenInit : NSObject

+ (NielsenAppApi *)createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate;

@end

// ---- NielsenInit.m ----
// #import "NielsenInit.h" // AppMeter: context: inlined above
#import <NielsenAppApi/NielsenAppApi.h>

@implementation NielsenInit

+ (NielsenAppApi *)createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate
{
    NSDictionary *appInformation = @{ @"appid": @"PDA7D5EE6-B1B8-4123-9277-2A788XXXXXXX",
                            @"appversion": @"1.0",
                            @"sfcode": @"pl",
                            @"nol_devDebug": @"DEBUG", };

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
    nielsenApi = [NielsenInit createNielsenAppApiWithDelegate:nil];
} // AppMeter: fixed typo: missing '}' closing viewDidLoad
@end // AppMeter: fixed typo: missing @end
