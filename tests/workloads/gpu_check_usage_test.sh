#!/usr/bin/env bash
# scripts/gpu-check's arguments: --help prints the usage and exits 0, an unknown option prints it on stderr
# and exits 2, and neither is ever taken for the output directory (no directory named after it is made).
# Needs no GPU: the arguments are read before anything else. Usage: SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "gpu-check usage: $*" >&2; exit 1; }
out=$("$src/scripts/gpu-check" --help 2> err.txt); rc=$?
[ "$rc" = 0 ] || fail "--help exited $rc: $(cat err.txt)"
case $out in *'usage: scripts/gpu-check [OUT]'*) ;; *) fail "--help printed no usage: $out" ;; esac
[ ! -s err.txt ] || fail "--help wrote to stderr: $(cat err.txt)"
"$src/scripts/gpu-check" -h > /dev/null 2>&1 || fail "-h exited $?"
out=$("$src/scripts/gpu-check" --bogus 2> err.txt); rc=$?
[ "$rc" = 2 ] || fail "--bogus exited $rc, not 2"
[ -z "$out" ] || fail "--bogus printed on stdout: $out"
case $(cat err.txt) in *'unknown option --bogus'*'usage: scripts/gpu-check [OUT]'*) ;; *) fail "--bogus: $(cat err.txt)" ;; esac
"$src/scripts/gpu-check" a b > /dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "two arguments exited $rc, not 2"
for name in --help -h --bogus; do
  [ ! -e "$src/$name" ] && [ ! -e "$work/$name" ] || fail "a directory named $name was made"
done
echo "gpu-check usage: ok"
