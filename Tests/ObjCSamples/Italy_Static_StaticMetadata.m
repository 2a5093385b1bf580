// Source: seeds/wiki-pages/DCR_Italy_Static_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: Populate and Pass Metadata Object (Objective C tab)
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface LandingViewController : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nielsenApi; // AppMeter: context
} // AppMeter: context
@end // AppMeter: context

@implementation LandingViewController // AppMeter: context

- (void)viewDidAppear:(BOOL)animated { // AppMeter: context
    [super viewDidAppear:animated]; // AppMeter: context
   NSDictionary *staticMetadata = @
    {
        @"type": @"static", // AppMeter: fixed typo: C string "..." -> @"..." (key and value)
        @"assetid": @"HomePage", // AppMeter: fixed typo: C string "..." -> @"..." (key and value)
        @"section": @"Home_EntityName_iOS" // AppMeter: fixed typo: C string "..." -> @"..." (key and value)
    }; // AppMeter: fixed typo: missing ';'

[nielsenApi loadMetadata:(staticMetadata)];
} // AppMeter: context

@end // AppMeter: context
