// Source: seeds/ios-sdk-api-reference.txt
// Section: NielsenAppApi Class Description ("These are the public methods and properties exposed by the
//          NielsenAppApi class")
// The guide lists the (older, unannotated) SDK header. Clang does not compare a category's redeclaration with the
// class's own, so a context function first uses every listed member as listed, through the SDK's interface; then the
// listing follows, the class redeclared as a category and the protocol as it is (clang ignores a duplicate protocol
// definition, with a warning). Otherwise the guide's lines are verbatim.
// Only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`; lines added so that it compiles
// are marked `// AppMeter: context`.
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

#pragma clang diagnostic push // AppMeter: context
#pragma clang diagnostic ignored "-Wdeprecated-declarations" // AppMeter: context: the listing's deprecated members
__attribute__((unused)) static void AppMeterUseAsListed(NielsenAppApi *api, id delegate) { // AppMeter: context
    BOOL optOutStatus = api.optOutStatus; // AppMeter: context
    api.appDisableApi = YES; // AppMeter: context
    api.debug = YES; // AppMeter: context
    NSString *nielsenId = api.nielsenId; // AppMeter: context
    NSString *demographicId = api.demographicId; // AppMeter: context
    NSString *optOutURL = api.optOutURL; // AppMeter: context
    NSString *meterVersion = api.meterVersion; // AppMeter: context
    NSDictionary *lastEventDict = api.lastEventDict; // AppMeter: context
    NSDictionary *lastErrorDict = api.lastErrorDict; // AppMeter: context
    NielsenAppApi *other = [[NielsenAppApi alloc] initWithAppInfo:@{} delegate:delegate]; // AppMeter: context
    [api play:@{}]; // AppMeter: context
    [api loadMetadata:@{}]; // AppMeter: context
    [api stop]; // AppMeter: context
    [api end]; // AppMeter: context
    [api playheadPosition:(long long)1]; // AppMeter: context
    [api sendID3:@"www.nielsen.com/..."]; // AppMeter: context
    [api updateOTT:@{}]; // AppMeter: context
    BOOL accepted = [api userOptOut:@"nielsenappsdk://1"]; // AppMeter: context
    NSString *getNielsenId = [api getNielsenId]; // AppMeter: context
    NSString *optOutURLString = [api optOutURLString]; // AppMeter: context
    NSString *getMeterVersion = [api getMeterVersion]; // AppMeter: context
    NSDictionary *getLastEventDict = [api getLastEventDict]; // AppMeter: context
    NSDictionary *getLastErrorDict = [api getLastErrorDict]; // AppMeter: context
    id<NielsenAppApiDelegate> typedDelegate = delegate; // AppMeter: context
    if ([typedDelegate respondsToSelector:@selector(nielsenAppApi:eventOccurred:)]) [typedDelegate nielsenAppApi:api eventOccurred:@{}]; // AppMeter: context
    if ([typedDelegate respondsToSelector:@selector(nielsenAppApi:errorOccurred:)]) [typedDelegate nielsenAppApi:api errorOccurred:@{}]; // AppMeter: context
    (void)optOutStatus; (void)nielsenId; (void)demographicId; (void)optOutURL; (void)meterVersion; // AppMeter: context
    (void)lastEventDict; (void)lastErrorDict; (void)other; (void)accepted; (void)getNielsenId; // AppMeter: context
    (void)optOutURLString; (void)getMeterVersion; (void)getLastEventDict; (void)getLastErrorDict; // AppMeter: context
} // AppMeter: context
#pragma clang diagnostic pop // AppMeter: context

// The guide's line `@interface NielsenAppApi: NSObject` becomes a category: // AppMeter: context
@interface NielsenAppApi (APIReferenceClassDescription) // AppMeter: context
@property (readonly) BOOL optOutStatus;
@property (assign) BOOL appDisableApi;
@property (assign) BOOL debug;
@property (readonly) NSString *nielsenId;
@property (readonly) NSString *demographicId;
@property (readonly) NSString *optOutURL;
@property (readonly) NSString *meterVersion;
@property (readonly) NSDictionary *lastEventDict;
@property (readonly) NSDictionary *lastErrorDict;
- (instancetype)initWithAppInfo:(id)appInfo delegate:(id)delegate; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)play:(id)channelInfo; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)loadMetadata:(id)metadata; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)stop; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)end; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)playheadPosition:(long long)playheadPos; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)sendID3:(NSString *)data; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)updateOTT:(id)ottInfo; // AppMeter: fixed typo: en dash '–' -> '-'
- (BOOL)userOptOut:(NSString *)optOut; // AppMeter: fixed typo: en dash '–' -> '-'
- (NSString *)getNielsenId __attribute__((deprecated(("Please use nielsenId property instead.")))); // AppMeter: fixed typo: en dash '–' -> '-'; _attribute -> __attribute__; curly quotes -> "
- (NSString *)optOutURLString __attribute__((deprecated(("Please use optOutURL property instead.")))); // AppMeter: fixed typo: en dash '–' -> '-'; _attribute -> __attribute__; curly quotes -> "
- (NSString *)getMeterVersion __attribute__((deprecated(("Please use meterVersion property instead.")))); // AppMeter: fixed typo: en dash '–' -> '-'; _attribute -> __attribute__; curly quotes -> "
- (NSDictionary *)getLastEventDict __attribute__((deprecated(("Please use lastEventDict property instead.")))); // AppMeter: fixed typo: en dash '–' -> '-'; _attribute -> __attribute__; curly quotes -> "
- (NSDictionary *)getLastErrorDict __attribute__((deprecated(("Please use lastErrorDict property instead.")))); // AppMeter: fixed typo: en dash '–' -> '-'; _attribute -> __attribute__; curly quotes -> "
@end // AppMeter: fixed typo: missing @end before @protocol
@protocol NielsenAppApiDelegate<NSObject>
@optional
- (void)nielsenAppApi:(NielsenAppApi *)appApi eventOccurred:(NSDictionary *)event; // AppMeter: fixed typo: en dash '–' -> '-'
- (void)nielsenAppApi:(NielsenAppApi *)appApi errorOccurred:(NSDictionary *)error; // AppMeter: fixed typo: en dash '–' -> '-'
@end
