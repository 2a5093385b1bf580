// Source: seeds/ios-simplified-api.txt
// Section: Privacy and Opt-Out > Global iOS SDK Opt-out > Webview Element > Sample Code for Global Build > Objective-C
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.

// OptOutVC.h (not shown by the guide for this sample): // AppMeter: context
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context
@interface OptOutVC : UIViewController <NielsenAppApiDelegate> // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenApi; // AppMeter: context
@end // AppMeter: context

// ---- OptOutVC.m ----
// #import "OptOutVC.h" // AppMeter: context: inlined above
// #import "NielsenInit.h" // AppMeter: context: not used by this snippet
#import <NielsenAppApi/NielsenAppApi.h>

@interface OptOutVC ()

@property (weak, nonatomic) IBOutlet UIWebView *webView;
@end

@implementation OptOutVC

// AppMeter: fixed typo: the guide opens "- (void)viewDidLoad {" / "[super viewDidLoad];" twice; the first copy is removed

- (void)viewDidLoad {
    [super viewDidLoad];
    //Getting the optPut URL from eventTracker
    [self.webView loadRequest:[NSURLRequest requestWithURL:[NSURL
 URLWithString:self.nielsenApi.optOutURL]]];
} // AppMeter: fixed typo: '}}' -> '}' (the duplicated opening is removed above)

@end // AppMeter: fixed typo: missing @end
