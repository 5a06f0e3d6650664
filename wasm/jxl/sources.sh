# Sourced by build.sh: libjxl's sources at the pinned release, with the submodule revisions that release pins for the
# libraries the encoder needs (Highway, Brotli, Little-CMS), checked out in "$work" (which the caller sets). Cloned
# from GitHub, or from the repositories named by LIBJXL_GIT, HIGHWAY_GIT, BROTLI_GIT and LCMS_GIT (a local mirror,
# say); each is checked out at its pinned commit whatever its newest is.

# libjxl v0.12.0, and the submodule revisions that commit pins.
LIBJXL_REV=a7a9c787341cf703dede03c2009fa460cae5e5df
HIGHWAY_REV=457c891775a7397bdb0376bb1031e6e027af1c48
BROTLI_REV=028fb5a23661f123017c060daa546b55cf4bde29
LCMS_REV=5176347635785e53ee5cee92328f76fda766ecc6
LIBJXL_GIT="${LIBJXL_GIT:-https://github.com/libjxl/libjxl}"
HIGHWAY_GIT="${HIGHWAY_GIT:-https://github.com/google/highway}"
BROTLI_GIT="${BROTLI_GIT:-https://github.com/google/brotli}"
LCMS_GIT="${LCMS_GIT:-https://github.com/mm2/Little-CMS}"

mkdir -p "$work"
checkout() { # url rev dir
  if [ ! -d "$3/.git" ]; then git clone -q --no-checkout "$1" "$3"; fi
  # A mirror may lack a repository's large test files (Brotli's): the checkout then complains of them and goes on.
  git -C "$3" -c advice.detachedHead=false checkout -q "$2" 2>/dev/null || true
  [ "$(git -C "$3" rev-parse HEAD)" = "$2" ] || { echo "could not check out $1 at $2" >&2; exit 1; }
}
checkout "$LIBJXL_GIT" "$LIBJXL_REV" "$work/libjxl"
checkout "$HIGHWAY_GIT" "$HIGHWAY_REV" "$work/libjxl/third_party/highway"
checkout "$BROTLI_GIT" "$BROTLI_REV" "$work/libjxl/third_party/brotli"
checkout "$LCMS_GIT" "$LCMS_REV" "$work/libjxl/third_party/lcms"
