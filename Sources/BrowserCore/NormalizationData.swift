#if arch(wasm32)
// The Unicode normalization data `String` asks for when it compares or hashes text that is not
// ASCII, answered without the tables: 27 kB of data and the code reading it, a sixth of what a
// page downloads. Every scalar is answered as its own normal form, so the browser's engine
// compares and hashes strings by their Unicode scalars, as the census compares the bytes a ping
// carries: two spellings of one accented letter (precomposed, or letter and combining mark) are
// different values here, where an app's Swift counts them equal (docs/decisions.md B11).

/// Normalization properties of `scalar`: 0 says canonical combining class 0 and "quick check:
/// yes" for NFC and NFD, so no scalar is ever decomposed or composed.
@_cdecl("_swift_stdlib_getNormData")
func normalizationData(_ scalar: UInt32) -> UInt16 { 0 }

/// No two scalars compose (never asked, given the answer above).
@_cdecl("_swift_stdlib_getComposition")
func composition(_ first: UInt32, _ second: UInt32) -> UInt32 { UInt32.max }

/// No scalar has a decomposition (never asked, given the answer above).
@_cdecl("_swift_stdlib_getDecompositionEntry")
func decompositionEntry(_ scalar: UInt32) -> UInt32 { UInt32.max }

/// The decomposition table, empty.
@_silgen_name("_swift_stdlib_nfd_decompositions") @used
nonisolated(unsafe) var decompositions: UnsafePointer<UInt8>? = nil
#endif
