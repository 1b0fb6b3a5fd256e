#!/usr/bin/env bash
# tests/examples/install_test.sh: an installed concord needs neither its build tree
# nor its sources. Installs this build into a staging prefix (cmake --install) and
# builds the .deb (cpack -G DEB), unpacks it, checks that its dependencies are Debian
# packages; then, in a private mount namespace where the source and build trees are
# hidden under empty tmpfs mounts (moved out of the way without disturbing the
# running ctest), runs `concord run --target all` and `concord export` (a c and an
# exunit export, run) from the install and from the unpacked .deb on a corpus case,
# checks CONCORD_CORPUS_DIR of both's CMake package (their own corpus), and
# configures, builds and tests the example project (examples/toy-backend) against
# the install. Needs root for the mount namespace; fails, never skips, without it.
# The work folder is a new one under $TMPDIR (outside the trees it hides), removed
# when the test passes and kept, its path printed, when it fails.
# usage: install_test.sh SOURCE_DIR BUILD_DIR [CMAKE] [CPACK] [CTEST]
set -euo pipefail
src=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
cmake=${3:-cmake} cpack=${4:-cpack} ctest=${5:-ctest}
w=$(mktemp -d "${TMPDIR:-/tmp}/concord-install.XXXXXX")
case $w/ in "$src"/* | "$bin"/*) echo "FAIL: the work folder $w is inside a tree it must hide" >&2; exit 1 ;; esac
finish() {
  if [ $? -eq 0 ]; then rm -rf "$w"; else echo "install_test: FAILED, files kept in $w" >&2; fi
}
trap finish EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "== $*"; }
[ "$(id -u)" -eq 0 ] || fail "hiding the build tree needs a mount namespace: run as root (CI does)"
command -v unshare >/dev/null || fail "unshare missing (util-linux)"
command -v dpkg-deb >/dev/null || fail "dpkg-deb missing"

step "cmake --install into a staging prefix"
"$cmake" --install "$bin" --prefix "$w/prefix" >"$w/install.log"
for f in bin/concord share/concord/targets/c/lib/libconcord_rt.a share/concord/targets/c/runtime/concord_rt.h \
  share/concord/targets/erlang/ebin/concord_node.beam share/concord/targets/elixir/runtime/concord_ops.ex share/concord/spec/SPEC.md lib/cmake/concord/concordConfig.cmake; do
  [ -e "$w/prefix/$f" ] || fail "the install has no $f"
done

step "cpack -G DEB"
(cd "$w" && "$cpack" -G DEB --config "$bin/CPackConfig.cmake" -B "$w/deb" >"$w/cpack.log" 2>&1) ||
  { cat "$w/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(ls "$w"/deb/concord_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no concord_*.deb"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Every dependency must be a Debian 12 package this machine's apt knows.
for alt in $(echo "$depends" | tr ',|' '\n\n' | sed 's/(.*)//; s/ //g' | grep -v '^$'); do
  apt-cache show "$alt" >/dev/null 2>&1 || fail "the .deb depends on '$alt', which is not a Debian package here"
done
echo "$depends" | grep -q "erlang-base" || fail "the .deb does not depend on erlang-base"
dpkg-deb -x "$deb" "$w/deb-root"
[ -x "$w/deb-root/usr/bin/concord" ] || fail "the .deb has no usr/bin/concord"
[ -f "$w/deb-root/usr/share/concord/targets/c/lib/libconcord_rt.a" ] || fail "the .deb has no c runtime"
[ -f "$w/deb-root/usr/share/concord/targets/js/runtime/host.js" ] || fail "the .deb has no js runtime"

# What the hidden-tree part needs, copied out first: a corpus case and the example.
cp "$src"/corpus/hand/one_for_all_restart.{case.json,conc} "$w/"
cp -r "$src/examples/toy-backend" "$w/toy-backend"
# A project that reads CONCORD_CORPUS_DIR of the CMake package: it must be the
# install's own corpus (under the prefix it was found in), with both hand folders.
mkdir -p "$w/corpus-dir"
cat >"$w/corpus-dir/CMakeLists.txt" <<'PROBE'
cmake_minimum_required(VERSION 3.20)
project(corpus_dir NONE)
find_package(concord REQUIRED)
if(NOT CONCORD_CORPUS_DIR STREQUAL EXPECTED)
  message(FATAL_ERROR "CONCORD_CORPUS_DIR is '${CONCORD_CORPUS_DIR}', not '${EXPECTED}'")
endif()
if(NOT EXISTS "${CONCORD_CORPUS_DIR}/hand/one_for_all_restart.case.json" OR NOT IS_DIRECTORY
                                                                             "${CONCORD_CORPUS_DIR}/hand_v2")
  message(FATAL_ERROR "CONCORD_CORPUS_DIR '${CONCORD_CORPUS_DIR}' has no hand/ and hand_v2/ cases")
endif()
PROBE

cat >"$w/hidden.sh" <<INNER
set -euo pipefail
# The build tree first: it may be inside the source tree (build/, build-sanitize/),
# which the second mount hides, mount point and all.
mount -t tmpfs -o size=1m concord-hidden "$bin"
mount -t tmpfs -o size=1m concord-hidden "$src"
[ ! -e "$src/CMakeLists.txt" ] && [ ! -e "$bin/concord" ] || { echo "the trees are not hidden" >&2; exit 1; }
cd "$w"
for concord in "$w/prefix/bin/concord" "$w/deb-root/usr/bin/concord"; do
  echo "== \$concord run --target all (source and build trees hidden)"
  "\$concord" run one_for_all_restart.case.json --target all
  echo "== \$concord export (source and build trees hidden): the runtimes' sources come from the install"
  rm -rf "$w/export-c" "$w/export-exunit"
  "\$concord" export one_for_all_restart.case.json --as c --out "$w/export-c"
  (cd "$w/export-c" && bash -c "\$(grep -m1 '^    ' README.md)")
  "\$concord" export one_for_all_restart.case.json --as exunit --out "$w/export-exunit"
  (cd "$w/export-exunit" && elixir one_for_all_restart_test.exs)
done
for prefix in "$w/prefix" "$w/deb-root/usr"; do
  echo "== CONCORD_CORPUS_DIR of the CMake package in \$prefix (source and build trees hidden)"
  rm -rf "$w/corpus-dir-build"
  "$cmake" -G Ninja -S "$w/corpus-dir" -B "$w/corpus-dir-build" -DCMAKE_PREFIX_PATH="\$prefix" \
    -DEXPECTED="\$prefix/share/concord/corpus" >/dev/null
done
echo "== the example project against the install (source and build trees hidden)"
"$cmake" -G Ninja -S "$w/toy-backend" -B "$w/toy-build" -DCMAKE_PREFIX_PATH="$w/prefix" >/dev/null
"$cmake" --build "$w/toy-build" >/dev/null
"$ctest" --test-dir "$w/toy-build" --output-on-failure
INNER
unshare -m --propagation private bash "$w/hidden.sh" || fail "the installed concord needs its build tree (see above)"
echo "install: ok"
