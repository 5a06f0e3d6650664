#!/usr/bin/env bash
# Builds this app's JPEG XL encoder and decoder: libjxl (BSD-3) at the pinned release in sources.sh, with Highway (its
# SIMD layer), Brotli and Little-CMS at the revisions that release pins, and this repository's APIs over it: jxl_wasm.cc
# (encode: chunked input, streamed output) and jxl_dec.cc (decode: the first picture, RGBA in sRGB, upright), for
# WebAssembly with 128-bit SIMD, with Debian's Emscripten. Three builds: jxl_enc (one thread) and jxl_enc_mt (pthreads,
# for a cross-origin isolated page), and jxl_dec (one thread), each an ES module and its .wasm, the threaded one with
# its threads' script. The results are committed beside this script (with SOURCES.md: revisions and
# checksums), so neither CI nor a newcomer needs this toolchain; `npm run build:codecs` runs this script again.
#
#   apt-get install emscripten node-acorn cmake
#
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${LIBJXL_BUILD_DIR:-$here/.build}"
# Debian's Emscripten runs its JavaScript optimiser on Debian's acorn.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
source "$here/sources.sh"

# The library only: no tools, no tests, no JPEG recompression, libjxl's own lcms2 (not skcms: its repository
# is not on GitHub), Brotli and Highway from the pinned sources, not the system's.
configure() { # build dir, extra compile flags
  emcmake cmake -S "$work/libjxl" -B "$1" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="-O3 -msimd128 $2" -DCMAKE_CXX_FLAGS="-O3 -msimd128 $2" \
    -DBUILD_TESTING=OFF -DBUILD_SHARED_LIBS=OFF -DJPEGXL_ENABLE_TOOLS=OFF -DJPEGXL_ENABLE_SJPEG=OFF \
    -DJPEGXL_ENABLE_OPENEXR=OFF -DJPEGXL_ENABLE_BENCHMARK=OFF -DJPEGXL_ENABLE_EXAMPLES=OFF -DJPEGXL_ENABLE_MANPAGES=OFF \
    -DJPEGXL_ENABLE_DOXYGEN=OFF -DJPEGXL_ENABLE_SKCMS=OFF -DJPEGXL_ENABLE_TRANSCODE_JPEG=OFF -DJPEGXL_ENABLE_JNI=OFF \
    -DJPEGXL_ENABLE_PLUGINS=OFF -DJPEGXL_ENABLE_VIEWERS=OFF -DJPEGXL_BUNDLE_LIBPNG=OFF -DJPEGXL_ENABLE_DEVTOOLS=OFF \
    -DJPEGXL_FORCE_SYSTEM_BROTLI=OFF -DJPEGXL_FORCE_SYSTEM_HWY=OFF -DJPEGXL_FORCE_SYSTEM_LCMS2=OFF >/dev/null
  make -C "$1" -j "$(nproc)" jxl jxl_cms jxl_threads >/dev/null
}

# One ES module a build: the exports its API gives, memory that grows to 4 GB (a 48 MP picture's RGBA alone is
# 192 MB), no file system. Paths in the binary start at the source trees, wherever the build ran.
link() { # build dir, output name, API source, the factory's name, its exports, extra flags...
  local build="$1" name="$2" api="$3" factory="$4" exports="$5"
  shift 5
  em++ -O3 -msimd128 -fno-exceptions -fno-rtti -std=c++17 "$@" \
    -ffile-prefix-map="$work/=" -ffile-prefix-map="$here/=" \
    -I"$work/libjxl/lib/include" -I"$build/lib/include" "$here/$api" \
    "$build/lib/libjxl.a" "$build/lib/libjxl_cms.a" "$build/lib/libjxl_threads.a" \
    "$build"/third_party/brotli/libbrotli{enc,dec,common}.a "$build"/third_party/highway/libhwy.a "$build"/third_party/liblcms2.a \
    -s MODULARIZE=1 -s EXPORT_ES6=1 -s EXPORT_NAME="$factory" -s ENVIRONMENT=web,worker -s FILESYSTEM=0 \
    -s ALLOW_MEMORY_GROWTH=1 -s MAXIMUM_MEMORY=4GB -s INITIAL_MEMORY=16MB -s TOTAL_STACK=1MB \
    -s EXPORTED_FUNCTIONS="$exports" \
    -o "$here/$name.js"
}
encoder_exports=_jxl_buffer,_jxl_free,_jxl_encode,_jxl_output,_jxl_output_size,_jxl_release_output
decoder_exports=_jxl_buffer,_jxl_free,_jxl_decode,_jxl_pixels,_jxl_width,_jxl_height,_jxl_release_pixels

started=$(date +%s)
configure "$work/build-st" ""
link "$work/build-st" jxl_enc jxl_wasm.cc libjxlEncoder "$encoder_exports"
link "$work/build-st" jxl_dec jxl_dec.cc libjxlDecoder "$decoder_exports"
configure "$work/build-mt" "-pthread"
# The threads are started with the module (a pool as large as the device's cores, at most 8): libjxl asks for them
# while the calling thread waits, and a thread started then would never start.
link "$work/build-mt" jxl_enc_mt jxl_wasm.cc libjxlEncoder "$encoder_exports" -pthread -DJXL_WASM_THREADS=1 -s PTHREAD_POOL_SIZE='Math.min(8,navigator.hardwareConcurrency||1)'
finished=$(date +%s)

# Read whole, then searched: a search that stops at its first match would end emcc early (pipefail).
emcc_version="$(emcc -v 2>&1 || true)"
toolchain="Emscripten $(dpkg-query -W -f='${Version}' emscripten 2>/dev/null || emcc --version | head -1) (Debian's); $(grep -m1 'clang version' <<<"$emcc_version")"
sums=""
for file in jxl_enc.js jxl_enc.wasm jxl_enc_mt.js jxl_enc_mt.wasm jxl_enc_mt.worker.js jxl_dec.js jxl_dec.wasm; do
  sums+="- \`$file\`: $(stat -c %s "$here/$file") bytes, SHA-256 \`$(sha256sum "$here/$file" | cut -d' ' -f1)\`."$'\n'
done
cat > "$here/SOURCES.md" <<EOF
# jxl_enc*, jxl_dec: what they were built from

Built by \`wasm/jxl/build.sh\` (\`npm run build:codecs\`); do not edit by hand.

| source | revision | licence |
| --- | --- | --- |
| [libjxl/libjxl](https://github.com/libjxl/libjxl) (v0.12.0) | \`$LIBJXL_REV\` | BSD-3-Clause |
| [google/highway](https://github.com/google/highway) | \`$HIGHWAY_REV\` | Apache-2.0 or BSD-3-Clause |
| [google/brotli](https://github.com/google/brotli) | \`$BROTLI_REV\` | MIT |
| [mm2/Little-CMS](https://github.com/mm2/Little-CMS) | \`$LCMS_REV\` | MIT |
| \`wasm/jxl/jxl_wasm.cc\`, \`wasm/jxl/jxl_dec.cc\` (this repository's encode and decode APIs) | | this repository's |

- Toolchain: $toolchain; CMake $(cmake --version | head -1 | cut -d' ' -f3).
- Target: WebAssembly, 128-bit SIMD (Highway's WASM target); \`jxl_enc\` and \`jxl_dec\` one thread, \`jxl_enc_mt\` pthreads (shared memory).
$sums
EOF
echo "built in $((finished - started)) s"
