# Sourced by build.sh and tests/bench/build-ssimulacra2.sh: jpegli's sources at the pinned revisions, checked out in
# "$work" (which the caller sets). Cloned from GitHub, or from the repositories named by JPEGLI_GIT, HIGHWAY_GIT and
# LIBJPEG_TURBO_GIT (a local mirror, say); each is checked out at its pinned commit whatever its newest is.

# jpegli's own repository (split out of libjxl), and the submodule revisions that commit pins.
JPEGLI_REV=031a0077f5799a6041004267fc12b956c1f52a20
HIGHWAY_REV=271a9a0ed9de1232d9117f1572c3fe28f8542ec1
LIBJPEG_TURBO_REV=8ecba3647edb6dd940463fedf38ca33a8e2a73d1
JPEGLI_GIT="${JPEGLI_GIT:-https://github.com/google/jpegli}"
HIGHWAY_GIT="${HIGHWAY_GIT:-https://github.com/google/highway}"
LIBJPEG_TURBO_GIT="${LIBJPEG_TURBO_GIT:-https://github.com/libjpeg-turbo/libjpeg-turbo}"

mkdir -p "$work"
checkout() { # url rev dir
  if [ ! -d "$3/.git" ]; then git clone -q "$1" "$3"; fi
  git -C "$3" -c advice.detachedHead=false checkout -q "$2"
}
checkout "$JPEGLI_GIT" "$JPEGLI_REV" "$work/jpegli"
checkout "$HIGHWAY_GIT" "$HIGHWAY_REV" "$work/highway"
checkout "$LIBJPEG_TURBO_GIT" "$LIBJPEG_TURBO_REV" "$work/libjpeg-turbo"
