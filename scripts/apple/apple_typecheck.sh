#!/usr/bin/env bash
# apple_typecheck.sh CHECKOUT SDK [PLATFORM]
# Type-checks the AppMeter SDK, i.e. the target closure of the library product NielsenAppApi (today: swift-crypto's
# Crypto, swift-log's Logging, MeterContract, MeasurementCore, MeterWire, MeterInput, AppMeter, NielsenAppApi), for an
# Apple platform with the Linux Swift toolchain, against an extracted Apple SDK (docs/apple.md says how to get
# one). Nothing is linked: each Swift module is built with `swiftc -wmo -emit-module` (full type-check plus the
# mandatory SIL diagnostics, e.g. definite initialisation and Swift 6 region isolation), so later modules import the
# earlier ones; each C-language target's sources are compiled with `clang -fsyntax-only`.
# What is built comes from the manifests (apple_package_plan.py beside this script): the package that declares the
# product NielsenAppApi (CHECKOUT's own Package.swift, else any Package.swift up to 3 folders down), that product's
# target closure in dependency order with each target's path, sources, resources and settings (`swift package
# describe --type json` and `dump-package`, run with a scratch path in WORK), and the packages it needs, from their
# checkouts.
#   CHECKOUT  the AppMeter checkout (read only; nothing is written there)
#   SDK       an extracted iPhoneOS*.sdk / AppleTVOS*.sdk / MacOSX*.sdk
#   PLATFORM  ios | tvos | macos (default: guessed from the SDK's name); deployment targets are Package.swift's
#             unless IOS_MIN / TVOS_MIN / MACOS_MIN say otherwise
# Environment:
#   IOS_MIN, TVOS_MIN, MACOS_MIN  deployment targets (default 17.0, 17.0, 14.0: Package.swift's platforms)
#   SWIFTC     the compiler (default /opt/swift/usr/bin/swiftc; `swift` and `clang` are taken beside it)
#   DEPS       folder holding the checkouts of the packages the product needs (swift-log, swift-crypto, ...)
#              (default: the SDK package's .build/checkouts, else CHECKOUT's .build/checkouts, else
#              ~/.cache/apple-check/checkouts, the first that holds all of them; else they are
#              resolved for a throwaway app depending on the SDK package by path, in SPM_SCRATCH, default
#              /tmp/apple-typecheck/spm/<hash of the package path>); their revisions are compared with the SDK
#              package's Package.resolved, when there is one, and a difference is reported
#   WORK       scratch folder (default /tmp/apple-typecheck/<sdk name>); its module cache makes reruns fast
#              (the first run builds the SDK's Swift modules from their .swiftinterface files: minutes)
#   MODULE_CACHE  the module cache (default WORK/mc); runs with different WORK folders may share one
#   OBJC_HEADERS  modules (e.g. "AppMeter NielsenAppApi") whose Objective-C header (<Module>-Swift.h, as
#              `swiftc -emit-objc-header` makes it) is written to OBJC_HEADER_DIR (default WORK/objc-headers)
#   TRAIT_NOID=1  build with the package trait whose name contains NoAdvertisingIdentifier, as SwiftPM does:
#              -D<trait> for every target of the SDK package, plus each target's `.define(X, .when(traits:))`
#              (today: -DNoAdvertisingIdentifier, and -DAPPMETER_NO_ADVERTISING_ID for AppMeter); a manifest without
#              such a trait gets -DAPPMETER_NO_ADVERTISING_ID -DNoAdvertisingIdentifier on every SDK target (a note says so)
#   TRAIT_NOADFRAMEWORK=1  the same for the trait whose name matches NoAd...Framework (none: -DNoAdFramework, noted)
#   TRAITS     trait names of the SDK package to enable, space-separated. As with `swift build --traits`, naming
#              traits (here or with TRAIT_*) turns the default traits off unless "default" is named too
#   CONFIG     debug | release: for settings with a configuration condition (default debug)
#   ARCH       default arm64
# Output: a line naming the package and its modules, each module's diagnostics (llvm style), then one summary
# line, last:
#   apple typecheck: N modules ok, M errors
# Exit status 0 only when every module type-checked.
# Also left in WORK: <platform>-<Module>.log; <platform>-<Module>.trace.json (swiftc -emit-loaded-module-trace: the
# Swift modules the module loaded; Objective-C-only frameworks such as AdSupport and AppTrackingTransparency are not
# Swift modules and never appear there); <platform>-<Module>.scan-args (its swiftc arguments, NUL-separated: what
# apple_loaded_modules.py uses to list every module, clang ones included, that each module imports);
# plan/ (the plan), clang-targets.tsv (the closure's C targets: name, include folder, module map), sdk-package.
set -uo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "${1:?usage: apple_typecheck.sh CHECKOUT SDK [ios|tvos|macos]}" && pwd)
sdk=$(cd "${2:?usage: apple_typecheck.sh CHECKOUT SDK [ios|tvos|macos]}" && pwd)
swiftc=${SWIFTC:-/opt/swift/usr/bin/swiftc}
clang=$(dirname "$swiftc")/clang
arch=${ARCH:-arm64}
platform=${3:-}
if [ -z "$platform" ]; then
  case "$(basename "$sdk")" in
    iPhoneOS*) platform=ios ;; AppleTVOS*) platform=tvos ;; MacOSX*) platform=macos ;;
    *) echo "cannot tell the platform from $(basename "$sdk"); give ios, tvos or macos"; exit 2 ;;
  esac
fi
# Package.swift: platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17)]
case "$platform" in
  ios) target=$arch-apple-ios${IOS_MIN:-17.0} ;; tvos) target=$arch-apple-tvos${TVOS_MIN:-17.0} ;;
  macos) target=$arch-apple-macos${MACOS_MIN:-14.0} ;;
  *) echo "unknown platform $platform"; exit 2 ;;
esac
# The compiler falls back from arm64 to the arm64e interface (iOS 26 and macOS SDKs ship arm64e only).
ls "$sdk/usr/lib/swift/Swift.swiftmodule/$arch"*"-apple-$platform.swiftinterface" >/dev/null 2>&1 \
  || { echo "no Swift stdlib interface for $arch in $sdk/usr/lib/swift/Swift.swiftmodule"; exit 2; }
# Versioned frameworks (macOS) need their symlinks (Foundation.framework/Modules -> Versions/Current/Modules);
# some git mirrors drop them: docs/apple.md and apple_sdk_extract.py say how to recreate them.
[ "$platform" != macos ] || [ -e "$sdk/System/Library/Frameworks/Foundation.framework/Modules" ] \
  || { echo "$sdk: Foundation.framework/Modules is missing (framework symlinks lost?)"; exit 2; }
[ -f "$sdk/usr/lib/swift/shims/module.modulemap" ] || { echo "no $sdk/usr/lib/swift/shims/module.modulemap"; exit 2; }

work=${WORK:-/tmp/apple-typecheck/$(basename "$sdk")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
# A resource dir for Apple targets: the toolchain's clang headers only. The Linux resource dir
# (/opt/swift/usr/lib/swift) also holds Linux copies of dispatch/, os/, Block/, CoreFoundation/ whose module maps
# shadow the SDK's and break Foundation ("redefinition of module 'Dispatch'", "unknown type name 'os_workgroup_t'").
res=$(dirname "$(dirname "$swiftc")")/lib/swift
mkdir -p "$work/rd" "$work/shiminc"
ln -sfn "$res/clang" "$work/rd/clang"
ln -sfn "$sdk/usr/lib/swift/shims" "$work/rd/shims"
# The SDK's Swift.swiftinterface imports the clang module SwiftShims; for Apple targets the Linux compiler does not
# find it by itself ("no such module 'SwiftShims'"). A search path holding a folder named SwiftShims does, and
# search paths reach the sub-compiles that build the SDK's .swiftinterface files.
ln -sfn "$sdk/usr/lib/swift/shims" "$work/shiminc/SwiftShims"
out=$work/$platform-modules
mc=${MODULE_CACHE:-$work/mc}
rm -rf "$out" && mkdir -p "$out" "$mc" "$work/gen"

# The plan: which modules, in which order, from which folders, with which flags (apple_package_plan.py).
SWIFTC=$swiftc python3 "$tools/apple_package_plan.py" "$checkout" "$work" "$platform" \
  || { echo "apple typecheck: 0 modules ok, 1 errors"; exit 2; }
plan=$work/plan

common=(-wmo -parse-as-library -target "$target" -sdk "$sdk" -resource-dir "$work/rd" -I "$work/shiminc" -I "$out"
        -module-cache-path "$mc" -diagnostic-style=llvm -no-color-diagnostics -DSWIFT_PACKAGE)
# The closure's C-language (and system library) targets: their module maps as SwiftPM makes them (the target's own
# include/module.modulemap, else an umbrella header include/<T>/<T>.h or include/<T>.h, else the include folder as
# umbrella directory), so that the Swift targets can import them; WORK/clang-targets.tsv (for objc_samples_check.sh).
cinc=()
while IFS=$'\t' read -r t inc map; do
  [ -n "$t" ] || continue
  common+=(-Xcc "-fmodule-map-file=$map" -Xcc "-I$inc")
  cinc+=(-I "$inc" "-fmodule-map-file=$map")
done <"$work/clang-targets.tsv"
objc_dir=${OBJC_HEADER_DIR:-$work/objc-headers}
[ -n "${OBJC_HEADERS:-}" ] && rm -rf "$objc_dir" && mkdir -p "$objc_dir"

# SwiftPM's generated Bundle.module accessor for a target with resources (AppMeter: PrivacyInfo.xcprivacy), Darwin
# flavour; the bundle is <package name>_<target name>.bundle.
accessor() {
  local bundle=$1 f=$work/gen/$1/resource_bundle_accessor.swift
  mkdir -p "$work/gen/$1"
  sed "s/@BUNDLE@/$bundle/g" >"$f" <<'EOF'
import Foundation

extension Foundation.Bundle {
    static let module: Bundle = {
        let mainPath = Bundle.main.bundleURL.appendingPathComponent("@BUNDLE@.bundle").path
        let buildPath = "/nonexistent/@BUNDLE@.bundle"

        let preferredBundle = Bundle(path: mainPath)

        guard let bundle = preferredBundle ?? Bundle(path: buildPath) else {
            // Users can write a function called fatalError themselves, we should be resilient against that.
            Swift.fatalError("could not load resource bundle: from \(mainPath) or \(buildPath)")
        }

        return bundle
    }()
}
EOF
  echo "$f"
}

ok=0; errors=0; failed=()
# verdict NAME LOG RC START N: prints the module's diagnostics and counts it
verdict() {
  local name=$1 log=$2 rc=$3 start=$4 n=$5
  grep -aE ': (fatal )?(error|warning): |^error: ' "$log" | grep -av '^\s*[0-9]* |' || true
  if [ "$rc" -eq 0 ] && [ "$n" -eq 0 ]; then
    ok=$((ok + 1)); echo "   ok in $((SECONDS - start)) s"; return 0
  fi
  [ "$n" -eq 0 ] && n=1
  failed+=("$name"); echo "   FAILED (exit $rc, $n errors) in $((SECONDS - start)) s; log: $log"
  errors=$((errors + n))
  return 1
}
# build_swift INDEX NAME BUNDLE: the target's sources as SwiftPM lists them (docc catalogs and excluded files left
# out), plus the resource accessor when BUNDLE is not -, with the plan's flags
build_swift() {
  local i=$1 name=$2 bundle=$3 srcs=() flags=()
  mapfile -d '' srcs <"$plan/$i.srcs"; mapfile -d '' flags <"$plan/$i.flags"
  [ "$bundle" != - ] && srcs+=("$(accessor "$bundle")")
  echo "== $name ($platform, ${#srcs[@]} files)"
  local log=$work/$platform-$name.log trace=$work/$platform-$name.trace.json start=$SECONDS objc=()
  [[ " ${OBJC_HEADERS:-} " == *" $name "* ]] && objc=(-emit-objc-header -emit-objc-header-path "$objc_dir/$name-Swift.h")
  printf '%s\0' "${common[@]}" -module-name "$name" "${flags[@]}" "${srcs[@]}" >"$work/$platform-$name.scan-args"
  rm -f "$trace"
  "$swiftc" "${common[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -emit-loaded-module-trace -emit-loaded-module-trace-path "$trace" "${objc[@]}" "${flags[@]}" "${srcs[@]}" >"$log" 2>&1
  local rc=$?
  local n; n=$(grep -aEc '^[^ ]+:[0-9]+:[0-9]+: error: |^(<unknown>|error): ' "$log")
  [ $rc -eq 0 ] && [ ! -f "$out/$name.swiftmodule" ] && rc=1
  verdict "$name" "$log" $rc "$start" "$n" && return
  # Emit the module anyway (errors tolerated, diagnostics discarded) so the modules that import this one are
  # still checked; their errors may then include consequences of this module's.
  "$swiftc" "${common[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -Xfrontend -experimental-allow-module-with-compiler-errors "${flags[@]}" "${srcs[@]}" >/dev/null 2>&1 \
    && echo "   (a module with errors was emitted so that later modules are still checked)"
}
# build_clang INDEX NAME: each source with clang -fsyntax-only, as SwiftPM compiles a C-language target for the
# platform (modules on, ARC for Objective-C, -fmodule-name, its public headers and the closure's C targets found)
build_clang() {
  local i=$1 name=$2 srcs=() flags=() cflags=() cxxflags=() s k=0 rc=0
  mapfile -d '' srcs <"$plan/$i.srcs"; mapfile -d '' flags <"$plan/$i.flags"
  mapfile -d '' cflags <"$plan/$i.cflags"; mapfile -d '' cxxflags <"$plan/$i.cxxflags"
  echo "== $name ($platform, ${#srcs[@]} files, C language)"
  local log=$work/$platform-$name.log start=$SECONDS
  : >"$log"; rm -f "$work/$platform-$name".*.d
  for s in "${srcs[@]}"; do
    k=$((k + 1))
    local lang=()
    case "$s" in
      *.m) lang=(-fobjc-arc "${cflags[@]}") ;; *.mm) lang=(-fobjc-arc "${cxxflags[@]}") ;;
      *.cc|*.cpp|*.cxx|*.c++) lang=("${cxxflags[@]}") ;; *.s|*.S) continue ;; *) lang=("${cflags[@]}") ;;
    esac
    "$clang" -fsyntax-only -target "$target" -isysroot "$sdk" -fmodules -fmodules-cache-path="$mc/clang" \
      -fmodule-name="$name" -fno-color-diagnostics -MD -MF "$work/$platform-$name.$k.d" \
      "${flags[@]}" "${cinc[@]}" "${lang[@]}" "$s" >>"$log" 2>&1 || rc=$?
  done
  local n; n=$(grep -aEc '^[^ ]+:[0-9]+:[0-9]+: (fatal )?error: |^(<unknown>|error): ' "$log")
  verdict "$name" "$log" $rc "$start" "$n" || true
}
while IFS=$'\t' read -r i kind name _pkg _dir bundle _role; do
  case "$kind" in
    swift) build_swift "$i" "$name" "$bundle" ;;
    clang) build_clang "$i" "$name" ;;
  esac
done <"$plan/plan.tsv"

[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "apple typecheck: $ok modules ok, $errors errors"
[ ${#failed[@]} -eq 0 ]
