// Source: seeds/dcr-ireland-video-ios-sdk.txt (section rendered from the {{iOS_NoID_Privacy_and_Opt-Out}} template
//         of seeds/wiki-pages/DCR_Ireland_Video_iOS_SDK.txt)
// Section: Privacy and Opt-Out > Retrieve current Opt-Out preference
// The guide quotes the SDK header's declaration. Clang does not compare a category's redeclaration with the class's
// own, so a context function first uses the member as declared, through the SDK's interface; then the guide's line
// is redeclared in a category.
// Only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`; lines added so that it compiles
// are marked `// AppMeter: context`.
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

__attribute__((unused)) static BOOL AppMeterUseAsDeclared(NielsenAppApi *api) { // AppMeter: context
    return api.optOutStatus; // AppMeter: context
} // AppMeter: context

@interface NielsenAppApi (GuideOptOutStatus) // AppMeter: context
@property (readonly) BOOL optOutStatus; // AppMeter: fixed typo: missing ';'
@end // AppMeter: context
