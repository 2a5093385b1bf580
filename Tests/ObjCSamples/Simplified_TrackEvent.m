// Source: seeds/ios-simplified-api.txt
// Section: Simplified API Syntax ("Main API call for the new NielsenEventTracker API")
// The guide quotes the SDK header's declaration. Clang does not compare a category's redeclaration with the class's
// own, so a context function first uses the member as declared, through the SDK's interface; then the guide's line
// is redeclared in a category.
// Only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`; lines added so that it compiles
// are marked `// AppMeter: context`.
#import <NielsenAppApi/NielsenEventTracker.h> // AppMeter: context

__attribute__((unused)) static void AppMeterUseAsDeclared(NielsenEventTracker *tracker, NSDictionary *data) { // AppMeter: context
    [tracker trackEvent:data]; // AppMeter: context
} // AppMeter: context

@interface NielsenEventTracker (GuideSimplifiedAPISyntax) // AppMeter: context
- (void)trackEvent:(NSDictionary *)data;
@end // AppMeter: context
