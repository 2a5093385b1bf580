// Source: seeds/ios-sdk-api-reference.txt
// Section: Handling JSON Metadata ("JSON for NSDictionary object", "JSON string from raw NSString",
//          "JSON string from serialized NSDictionary")
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface SamplePlayerViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nlsAppApiMeter; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation SamplePlayerViewController // AppMeter: context

// AppMeter: context: section "JSON for NSDictionary object"
- (void)setUpWithDictionaryAndDelegate:(id<NielsenAppApiDelegate>)delegate { // AppMeter: context
NSDictionary* appInformation = @{
@"appid": @"TXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX",
@"appname": @"Sample App Name",
@"appversion": @"2.0",
@"sfcode": @"uat-cert",
@"nol_devDebug": @"INFO"
};
nlsAppApiMeter = [[NielsenAppApi alloc] initWithAppInfo:appInformation delegate:delegate];
} // AppMeter: context

// AppMeter: context: section "JSON string from raw NSString"
- (NielsenAppApi *)setUpWithRawString { // AppMeter: context
NSString *appInfoString = @"{\"appid\" : \"TXXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX\", \"appname\" : \"Sample App Name\",\"appversion\" : \"2.0\",\"sfcode\" : \"uat-cert\"}";
NielsenAppApi *appAPI = [[NielsenAppApi alloc] initWithAppInfo:appInfoString delegate:self]; // AppMeter: fixed typo: NielsenAppAPi -> NielsenAppApi
    return appAPI; // AppMeter: context
} // AppMeter: context

// AppMeter: context: section "JSON string from serialized NSDictionary"
- (void)setUpWithSerializedDictionary { // AppMeter: context
NSDictionary* appInformation = @
{
@"appid": @"appid",
@"appname": @"appname",
@"appversion": @"2.0",
@"sfcode": @"sfcode",
@"nol_devDebug": @"INFO"
};
nlsAppApiMeter = [[NielsenAppApi alloc] initWithAppInfo:appInformation delegate:self];
} // AppMeter: context

@end // AppMeter: context
