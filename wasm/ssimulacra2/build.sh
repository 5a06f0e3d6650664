#!/usr/bin/env bash
# Builds wasm/ssimulacra2/ssimulacra2.wasm from ssimulacra2.c (this app's C port of the reference SSIMULACRA2, see the
# file's head), for WebAssembly with 128-bit SIMD, with Debian's clang, lld and wasi-libc (its malloc and libm). The
# result is committed beside this script with its checksum in SOURCES.md, so neither CI nor a newcomer needs the
# toolchain; `npm run build:codecs` runs this script again.
#
#   apt-get install clang-19 lld-19 wasi-libc binaryen
#
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
LLVM="${LLVM_VERSION:-19}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A reactor (no main, no imports): the loader calls _initialize once, then the exports. -ffast-math lets clang
# vectorise the sums; the scores stayed as close to the reference's (tests/unit/ssimulacra2.test.ts).
"clang-$LLVM" --target=wasm32-wasi -O3 -msimd128 -ffast-math -mexec-model=reactor "$here/ssimulacra2.c" -o "$work/raw.wasm" \
  -Wl,--strip-all -Wl,-z,stack-size=65536 -Wl,--initial-memory=16777216 -Wl,--max-memory=2147483648
wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals \
  "$work/raw.wasm" -o "$here/ssimulacra2.wasm"

checksum=$(sha256sum "$here/ssimulacra2.wasm" | cut -d' ' -f1)
source_checksum=$(sha256sum "$here/ssimulacra2.c" | cut -d' ' -f1)
cat > "$here/SOURCES.md" <<DOC
# ssimulacra2.wasm: what it was built from

- Source: \`ssimulacra2.c\` in this folder (sha256 \`$source_checksum\`), a port of jpegli's
  \`tools/ssimulacra2.cc\` and \`tools/gauss_blur.cc\` (BSD-3, the JPEG XL Project Authors) at the revision
  \`wasm/jpegli/sources.sh\` pins.
- Toolchain: $("clang-$LLVM" --version | head -1); $(wasm-opt --version); wasi-libc (malloc, libm).
- Built by \`bash wasm/ssimulacra2/build.sh\` (\`npm run build:codecs\`).
- \`ssimulacra2.wasm\`: $(stat -c %s "$here/ssimulacra2.wasm") bytes, sha256 \`$checksum\`.
DOC
echo "wasm/ssimulacra2/ssimulacra2.wasm $checksum"
