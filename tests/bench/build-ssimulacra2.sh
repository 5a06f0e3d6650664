#!/usr/bin/env bash
# Builds tests/bench/.tools/ssimulacra2, the perceptual metric `npm run bench:encoders -- --look` compares encoders
# with (SSIMULACRA2, Cloudinary's; 100 is identical, 90 visually lossless, 70 high quality, 50 medium). Debian ships no
# build of it, so it is compiled natively from the same pinned jpegli sources as wasm/jpegli (its tools/ssimulacra2),
# with Debian's clang, CMake, Ninja, lcms2 and libpng:
#
#   apt-get install clang-19 cmake ninja-build liblcms2-dev libpng-dev zlib1g-dev
#
# A bench tool only: the app, its tests and CI never need it. About 5 minutes on two cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${JPEGLI_BUILD_DIR:-$root/wasm/jpegli/.build}"
source "$root/wasm/jpegli/sources.sh"

tree="$work/ssimulacra2-src"
rm -rf "$tree"
mkdir -p "$tree"
git -C "$work/jpegli" archive HEAD | tar -x -C "$tree"
rm -rf "$tree/third_party/highway" "$tree/third_party/libjpeg-turbo"
ln -s "$work/highway" "$tree/third_party/highway"
ln -s "$work/libjpeg-turbo" "$tree/third_party/libjpeg-turbo"

LLVM="${LLVM_VERSION:-19}"
cmake -S "$tree" -B "$work/ssimulacra2-build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="clang-$LLVM" \
  -DCMAKE_CXX_COMPILER="clang++-$LLVM" -DBUILD_TESTING=OFF -DJPEGLI_ENABLE_DEVTOOLS=ON -DJPEGLI_ENABLE_SJPEG=OFF \
  -DJPEGLI_ENABLE_BENCHMARK=OFF -DJPEGLI_FORCE_SYSTEM_LCMS2=ON >/dev/null
cmake --build "$work/ssimulacra2-build" --target ssimulacra2
mkdir -p "$root/tests/bench/.tools"
# Beside the old one, then renamed over it: a bench may be running the old one.
cp "$work/ssimulacra2-build/tools/ssimulacra2" "$root/tests/bench/.tools/ssimulacra2.new"
mv -f "$root/tests/bench/.tools/ssimulacra2.new" "$root/tests/bench/.tools/ssimulacra2"
echo "tests/bench/.tools/ssimulacra2 built from jpegli $JPEGLI_REV"
