// Source: seeds/wiki-pages/DCR_Poland_Video_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: AirPlay (Objective C tab: the updateOTT: declaration, placed last; Subscribe to
//          AVAudioSessionRouteChangeNotification; Handle AVAudioSessionRouteChangeNotification and prepare OTT dictionary;
//          Report OTT update to the Nielsen SDK)
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <AVFoundation/AVFoundation.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface AirPlayViewController : UIViewController <NielsenAppApiDelegate> // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenSDK; // AppMeter: context
@end // AppMeter: context

@implementation AirPlayViewController // AppMeter: context

- (void)viewDidLoad { // AppMeter: context
    [super viewDidLoad]; // AppMeter: context
[[NSNotificationCenter defaultCenter] addObserver:self selector:@selector(handleRouteChanged:) name:AVAudioSessionRouteChangeNotification object:nil];
} // AppMeter: context

- (void)handleRouteChanged:(NSNotification *)notification
{
NSMutableDictionary *ottDict = [NSMutableDictionary dictionaryWithDictionary: @{@"ottStatus": @"0"}];

AVAudioSession *audioSession = [AVAudioSession sharedInstance];
AVAudioSessionRouteDescription *currentRoute = audioSession.currentRoute;
for (AVAudioSessionPortDescription *outputPort in currentRoute.outputs) {
if ([outputPort.portType isEqualToString:AVAudioSessionPortAirPlay]) {
ottDict[@"ottStatus"] = @"1";
ottDict[@"ottDeviceModel"] = outputPort.portName;
ottDict[@"ottDeviceID"] = outputPort.UID;

if ([outputPort.portName isEqualToString:@"AirPlay"]) {
ottDict[@"ottDevice"] = @"airplay";
ottDict[@"ottType"] = @"airplay";
}
else {
if ([outputPort.portName containsString:@"Apple TV"]) {
ottDict[@"ottDevice"] = @"appleTV";
}
else {
ottDict[@"ottDevice"] = @"other";
}

if ([outputPort.UID hasSuffix:@"airplay"]) {
ottDict[@"ottType"] = @"airplay";
}
else if ([outputPort.UID hasSuffix:@"screen"]) {
ottDict[@"ottType"] = @"mirroring";
}
else {
ottDict[@"ottType"] = @"other";
}
}
}
}

// report OTT status update to Nielsen SDK
[self reportOTTWithDict:ottDict];
}

- (void)reportOTTWithDict:(NSDictionary *)ottDict
{
[self.nielsenSDK updateOTT:ottDict];
}

@end // AppMeter: context

// AppMeter: context: the guide shows the SDK header's declaration first; it is placed last, redeclared in a category, so that the call
// AppMeter: context: above is checked against the SDK's own interface (clang does not compare a category's redeclaration with it).
@interface NielsenAppApi (GuideAirPlay) // AppMeter: context
- (void)updateOTT:(id)ottInfo; // AppMeter: fixed typo: en dash '–' -> '-'
@end // AppMeter: context
