// Source: seeds/dcr-ireland-video-ios-sdk.txt (the same snippet is in seeds/wiki-pages/DCR_Ireland_Video_iOS_SDK.txt)
// Section: Debug flag for development environment > Life cycle of SDK instance (Disabled state: "appDisableApi is called")
// The guide quotes the SDK header's declaration. Clang does not compare a category's redeclaration with the class's
// own, so a context function first uses the member as declared, through the SDK's interface; then the guide's line
// is redeclared in a category.
// Only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`; lines added so that it compiles
// are marked `// AppMeter: context`.
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

__attribute__((unused)) static void AppMeterUseAsDeclared(NielsenAppApi *api) { // AppMeter: context
    api.appDisableApi = YES; // AppMeter: context
    BOOL disabled = api.appDisableApi; // AppMeter: context
    (void)disabled; // AppMeter: context
} // AppMeter: context

@interface NielsenAppApi (GuideLifeCycle) // AppMeter: context
@property (assign) BOOL appDisableApi;
@end // AppMeter: context
