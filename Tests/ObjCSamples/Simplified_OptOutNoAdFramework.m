// Source: seeds/ios-simplified-api.txt
// Section: Privacy and Opt-Out > Global iOS SDK No Ad Framework Opt-out > Sample code for No Ad Framework Build > Objective-C
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`. The sample reads the SDK object from two
// properties, nielsenApi (optOutURL) and nielsenAppApi (userOptOut:); both are declared as context.

// OptOutVC.h (not shown by the guide for this sample): // AppMeter: context
#import <UIKit/UIKit.h> // AppMeter: context
#import <WebKit/WebKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context
@interface OptOutVC : UIViewController <NielsenAppApiDelegate, WKNavigationDelegate> // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenApi; // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenAppApi; // AppMeter: context
- (void)closeOptOutView; // AppMeter: context
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
}
     
- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(WKNavigationAction *)navigationAction
 decisionHandler:(void (^)(WKNavigationActionPolicy))decisionHandler
{
    if ([navigationAction.request.URL.absoluteString isEqualToString:kNielsenWebClose])
    {   [self performSelector:@selector(closeOptOutView) withObject:nil afterDelay:0];
        decisionHandler(WKNavigationActionPolicyCancel); 
     } else {
        if ([navigationAction.request.URL.absoluteString hasPrefix:@"nielsen"])
        {[self.nielsenAppApi userOptOut:navigationAction.request.URL.absoluteString];
            decisionHandler(WKNavigationActionPolicyCancel); 
        } else {
            if (navigationAction.navigationType == WKNavigationTypeLinkActivated) 
            { if ([navigationAction.request.URL.absoluteString hasSuffix:@"#"]) 
                      {decisionHandler(WKNavigationActionPolicyAllow);
                } else {
                    decisionHandler(WKNavigationActionPolicyCancel);
                    [webView loadRequest:[NSURLRequest requestWithURL:navigationAction.request.URL]];
                }} else {
                 decisionHandler(WKNavigationActionPolicyAllow);
            }}}
}

- (void)closeOptOutView { [self dismissViewControllerAnimated:YES completion:nil]; } // AppMeter: context

@end // AppMeter: fixed typo: missing @end
