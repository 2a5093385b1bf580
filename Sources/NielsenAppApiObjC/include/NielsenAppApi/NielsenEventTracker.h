// <NielsenAppApi/NielsenEventTracker.h>, the simplified API's header line: the same module and
// constants as <NielsenAppApi/NielsenAppApi.h>.
#import <NielsenAppApi/NielsenAppApi.h>
