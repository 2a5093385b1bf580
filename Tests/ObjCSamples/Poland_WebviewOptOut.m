// Source: seeds/wiki-pages/DCR_Poland_Video_iOS_SDK.txt (MediaWiki source; HTML entities decoded)
// Section: Privacy and Opt-Out > Required Privacy Links > Webview Example (Objective C tab)
// The guide's lines are verbatim; only the guides' obvious typos fixed, each marked `// AppMeter: fixed typo: <what>`.
// Lines added so that it compiles are marked `// AppMeter: context`.
// NielsenInit is the guide's own factory from "Sample SDK Initialization Code" (see Poland_Initialization.m).
#import <UIKit/UIKit.h> // AppMeter: context
#import <WebKit/WebKit.h> // AppMeter: context
#import <NielsenAppApi/NielsenAppApi.h> // AppMeter: context

@interface NielsenInit : NSObject // AppMeter: context
+ (NielsenAppApi *)createNielsenAppApiWithDelegate:(id<NielsenAppApiDelegate>)delegate; // AppMeter: context
@end // AppMeter: context

@interface OptOutVC : UIViewController <NielsenAppApiDelegate, WKNavigationDelegate> // AppMeter: context
@property (nonatomic, strong) NielsenAppApi *nielsenApi; // AppMeter: context
@property (nonatomic, strong) WKWebView *wkwebView; // AppMeter: context
@end // AppMeter: context

@implementation OptOutVC // AppMeter: context

- (void)viewDidLoad {

    [super viewDidLoad];

    //Setting background image
    UIImage *backgroundImage = [UIImage imageNamed:@"new_ios_bg.png"];
    UIImageView *backgroundImageView=[[UIImageView alloc]initWithFrame:self.view.frame];
    backgroundImageView.image=backgroundImage;
    [self.view insertSubview:backgroundImageView atIndex:0];

    self.nielsenApi = [NielsenInit createNielsenAppApiWithDelegate:nil];

    //Initialising the webview
    WKWebViewConfiguration *theConfiguration = [[WKWebViewConfiguration alloc] init];
    _wkwebView = [[WKWebView alloc] initWithFrame:self.view.frame configuration:theConfiguration];
    _wkwebView.navigationDelegate = self;

     //Getting the optPut URL from SDK
    NSURL *nsurl=[NSURL URLWithString:[self.nielsenApi optOutURL]];

    //Setting url request in webview
    NSURLRequest *nsrequest=[NSURLRequest requestWithURL:nsurl];

     //Setting url request in webview
    [_wkwebView loadRequest:nsrequest];

      //Adding webview to the controller view
    [self.view addSubview:_wkwebView];
}

@end // AppMeter: context
