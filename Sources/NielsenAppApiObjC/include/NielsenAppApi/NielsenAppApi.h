// <NielsenAppApi/NielsenAppApi.h>, the line the guides' Objective-C samples begin with: the Swift
// module NielsenAppApi (its classes and delegate protocols, exported to Objective-C) and the
// original header's constants. Needs modules (Xcode's default, CLANG_ENABLE_MODULES).
// docs/integration.md, "From Objective-C".
#ifndef NIELSEN_APP_API_SHIM_H
#define NIELSEN_APP_API_SHIM_H
#ifdef __OBJC__
@import NielsenAppApi;
#import <NielsenAppApiConstants.h>
#endif
#endif
