// The NielsenAppApiObjC target is its public headers (include/): the original headers' constants
// and the shims that let Objective-C write the guides' #import lines. SwiftPM builds a C target
// from at least one source file; this one declares nothing.
typedef int NielsenAppApiObjCHeadersOnly;
