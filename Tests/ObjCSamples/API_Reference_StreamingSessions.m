// Source: seeds/ios-sdk-api-reference.txt
// Section: Initialization > Stages of SDK Initialization > Step 3: Nielsen App SDK Streaming Sessions
//          ("Serialized JSON string from NSDictionary")
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface SamplePlayerViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nlsAppApiMeter; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation SamplePlayerViewController // AppMeter: context

- (void)viewDidLoad { // AppMeter: context
    [super viewDidLoad]; // AppMeter: context
NSDictionary* appInformation = @
{
@"appid": @"TXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX",
@"appname": @"Sample App Name",
@"appversion": @"2.0",
@"sfcode": @"uat-cert",
@"nol_devDebug": @"INFO"
}; // AppMeter: fixed typo: missing ';'
NSData* jsonDataAppInfo = [NSJSONSerialization dataWithJSONObject:appInformation options:0 error:nil];
NSString *jsonAppInfoString = [[NSString alloc] initWithData:jsonDataAppInfo encoding:NSUTF8StringEncoding];
nlsAppApiMeter = [[NielsenAppApi alloc] initWithAppInfo:jsonAppInfoString delegate:self];
} // AppMeter: context

@end // AppMeter: context
