#!/usr/bin/env bash
# Builds wasm/jpegli/jpegli.wasm: jpegli (the JPEG encoder of the JPEG XL project, BSD-3) and Highway (its SIMD layer,
# Apache-2.0 / BSD-3) from the pinned public revisions in sources.sh, for WebAssembly with 128-bit SIMD, with Debian's clang,
# lld, wasi-libc and LLVM's libc++ for WASI. The result is committed beside this script (with SOURCES.md: revisions and
# checksum), so neither CI nor a newcomer needs this toolchain; `npm run build:codecs` runs this script again.
#
#   apt-get install clang-19 lld-19 libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32 wasi-libc binaryen
#
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

LLVM="${LLVM_VERSION:-19}"
CXX="clang++-$LLVM"
work="${JPEGLI_BUILD_DIR:-$here/.build}"
# A tree an earlier run patched goes back to its commit first, so that checking out another revision cannot trip on
# the patches and they are applied once.
if [ -d "$work/jpegli/.git" ]; then git -C "$work/jpegli" checkout -q -- .; fi
# jpegli, Highway and libjpeg-turbo at their pinned revisions, in $work.
source "$here/sources.sh"
# This repository's changes to jpegli (patches/): faster on WebAssembly, the same bytes out.
patches=("$here"/patches/*.patch)
git -C "$work/jpegli" apply "${patches[@]}"

# The libjpeg API headers jpegli implements (its CMake does the same from libjpeg-turbo's), at libjpeg 6.2's ABI.
include="$work/include"
mkdir -p "$include"
cp "$work/libjpeg-turbo/jpeglib.h" "$work/libjpeg-turbo/jmorecfg.h" "$include/"
sed -e 's/@JPEG_LIB_VERSION@/62/' -e 's/@VERSION@/3.0.0/' -e 's/@LIBJPEG_TURBO_VERSION_NUMBER@/3000000/' \
  -e 's/@BITS_IN_JSAMPLE@/8/' -e 's/#cmakedefine MEM_SRCDST_SUPPORTED 1/#define MEM_SRCDST_SUPPORTED 1/' \
  -e 's/#cmakedefine .*//' "$work/libjpeg-turbo/jconfig.h.in" > "$include/jconfig.h"
# jpegli includes <setjmp.h> beside jpeglib.h but calls neither setjmp nor longjmp; wasi-libc has no such header.
printf '#pragma once\n' > "$include/setjmp.h"

# One SIMD target, WebAssembly's 128-bit one, chosen at compile time: no dispatch table.
flags=(--target=wasm32-wasi -O3 -msimd128 -fno-exceptions -fno-rtti -DNDEBUG -DHWY_COMPILE_ONLY_STATIC=1 -std=c++17
  -I"$include" -I"$work/jpegli" -I"$work/highway" -ffunction-sections -fdata-sections
  # Paths in jpegli's messages (and so in the binary) start at the source tree, wherever the build ran.
  -ffile-prefix-map="$work/jpegli/=" -ffile-prefix-map="$work/highway/=" -ffile-prefix-map="$here/=")

mapfile -t jpegli_sources < <(cd "$work/jpegli" && ls lib/jpegli/*.cc | grep -v -e _test -e test_ -e libjpeg_wrapper -e fuzzer)
highway_sources=(hwy/abort.cc hwy/aligned_allocator.cc hwy/targets.cc hwy/per_target.cc hwy/print.cc)

objects="$work/obj"
rm -rf "$objects"
mkdir -p "$objects"
started=$(date +%s)
# Every source, as many at once as there are cores.
{
  for source in "${jpegli_sources[@]}"; do echo "$work/jpegli/$source"; done
  for source in "${highway_sources[@]}"; do echo "$work/highway/$source"; done
  echo "$here/jpegli_wasm.cc"
} | xargs -P "$(nproc)" -I{} sh -c '"$0" "$@" -c "{}" -o "'"$objects"'/$(basename "{}" .cc).o"' "$CXX" "${flags[@]}"

# A reactor (no main): the loader calls _initialize once, then the exports. The heap grows as images need it.
"$CXX" --target=wasm32-wasi -O3 -msimd128 -mexec-model=reactor -fno-exceptions "$objects"/*.o -o "$work/jpegli.raw.wasm" \
  -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=1048576 -Wl,--initial-memory=16777216 -Wl,--max-memory=2147483648
wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals \
  "$work/jpegli.raw.wasm" -o "$here/jpegli.wasm"
finished=$(date +%s)

checksum=$(sha256sum "$here/jpegli.wasm" | cut -d' ' -f1)
bytes=$(stat -c %s "$here/jpegli.wasm")
toolchain="$("$CXX" --version | head -1); $(wasm-opt --version)"
cat > "$here/SOURCES.md" <<EOF
# jpegli.wasm: what it was built from

Built by \`wasm/jpegli/build.sh\` (\`npm run build:codecs\`); do not edit by hand.

| source | revision | licence |
| --- | --- | --- |
| [google/jpegli](https://github.com/google/jpegli) | \`$JPEGLI_REV\` | BSD-3-Clause |
| [google/highway](https://github.com/google/highway) | \`$HIGHWAY_REV\` | Apache-2.0 or BSD-3-Clause |
| [libjpeg-turbo](https://github.com/libjpeg-turbo/libjpeg-turbo) (API headers only) | \`$LIBJPEG_TURBO_REV\` | IJG, BSD-3-Clause |
| \`wasm/jpegli/jpegli_wasm.cc\` (this repository's encode API) | | this repository's |

jpegli is built with this repository's patches applied (\`wasm/jpegli/patches/\`: $(cd "$here" && ls patches | sed 's/^/`/; s/$/`/' | paste -sd, - | sed 's/,/, /g')),
each a speed-up whose output was checked byte for byte against the unpatched build's (docs/decisions/encoder-settings.md).

- Toolchain: $toolchain; Debian's wasi-libc and LLVM's libc++ for WASI.
- Target: wasm32-wasi, 128-bit SIMD (Highway's WASM target, chosen at compile time), no threads, no exceptions.
- \`jpegli.wasm\`: $bytes bytes, SHA-256 \`$checksum\`.
EOF
echo "jpegli.wasm: $bytes bytes, sha256 $checksum, compiled in $((finished - started)) s"
