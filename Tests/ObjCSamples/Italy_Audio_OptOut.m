// Source: seeds/wiki-pages/DCR_Italy_AUDIO_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: Privacy and Opt-Out > User Choice > Opt-out example code > Objective-C
// The guide's lines are verbatim; only the guides' obvious typos fixed (none needed here), each marked
// `// AppMeter: fixed typo: <what>`. Lines added so that it compiles are marked `// AppMeter: context`; the two URL
// properties stand for the guide's Swift tab's "nielsenappsdk://1" and "nielsenappsdk://0".
#import <UIKit/UIKit.h> // AppMeter: context
#import <WebKit/WebKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface OptOutVC : UIViewController <NielsenAppApiDelegate, WKNavigationDelegate> // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenApi; // AppMeter: context
@property (nonatomic, copy) NSString *NIELSEN_URL_OPT_OUT; // AppMeter: context
@property (nonatomic, copy) NSString *NIELSEN_URL_OPT_IN; // AppMeter: context
@end // AppMeter: context

@implementation OptOutVC // AppMeter: context

- (void)webView:(WKWebView *)webView decidePolicyForNavigationAction:(WKNavigationAction *)
navigationAction decisionHandler:(void (^)(WKNavigationActionPolicy))decisionHandler {

    NSURLRequest *request = [navigationAction request];
    NSString *url = [[request URL]absoluteString];

    if([url isEqualToString:self.NIELSEN_URL_OPT_OUT] || [url isEqualToString:self.NIELSEN_URL_OPT_IN]){
        [self.nielsenApi userOptOut:url];
        decisionHandler(WKNavigationActionPolicyAllow);
    }else{
        decisionHandler(WKNavigationActionPolicyCancel);
    }
}

@end // AppMeter: context
