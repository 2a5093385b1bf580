// Source: seeds/ios-simplified-api.txt
// Section: Viewability and Audibility Implementation > Objective C ("the following method is added to the public
//          SDK API")
// The guide quotes the SDK header's declaration (NielsenAppApi and NielsenEventTracker both have it). Clang does not
// compare a category's redeclaration with the class's own, so a context function first uses the member as declared,
// through the SDK's interface; then the guide's line is redeclared in a category of each class.
// Only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`; lines added so that it compiles
// are marked `// AppMeter: context`.
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context
#import <NielsenAppApi/NielsenEventTracker.h> // AppMeter: context

__attribute__((unused)) static void AppMeterUseAsDeclared(NielsenAppApi *api, NielsenEventTracker *tracker, NSDictionary *data) { // AppMeter: context
    [api trackViewability:data]; // AppMeter: context
    [tracker trackViewability:data]; // AppMeter: context
} // AppMeter: context

@interface NielsenAppApi (GuideViewability) // AppMeter: context
- (void)trackViewability:(nonnull NSDictionary *)data;
@end // AppMeter: context

@interface NielsenEventTracker (GuideViewability) // AppMeter: context
- (void)trackViewability:(nonnull NSDictionary *)data;
@end // AppMeter: context
