// Source: seeds/wiki-pages/DCR_Poland_Video_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: Privacy and Opt-Out > App Level Opt Out > Capture and forward user selection (Objective C tab)
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
#import <UIKit/UIKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface OptOutVC : UIViewController <NielsenAppApiDelegate> { // AppMeter: context
    NielsenAppApi *nAppApiObject; // AppMeter: context
} // AppMeter: context
- (void)closeOptOutView; // AppMeter: context
@end // AppMeter: context

@implementation OptOutVC // AppMeter: context

-(BOOL)webView:(UIWebView *)webView shouldStartLoadWithRequest:(NSURLRequest *)request navigationType:(UIWebViewNavigationType)navigationType
{
    NSString *command = [NSString stringWithFormat:@"%@",request.URL];
    if ([command isEqualToString:kNielsenWebClose]) {
        // Close the WebView
        [self performSelector:@selector(closeOptOutView) withObject:nil afterDelay:0];
        return NO;
    }
    // Retrieve next URL if it’s not opt-in/out selection
    return (![nAppApiObject userOptOut:command]);
}

- (void)closeOptOutView { [self dismissViewControllerAnimated:YES completion:nil]; } // AppMeter: context

@end // AppMeter: context
