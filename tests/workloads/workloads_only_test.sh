#!/usr/bin/env bash
# The bundled programs build on their own, as scripts/gpu-check builds them on a GPU node: configure with
# SWEEP_WORKLOADS_ONLY (none of sweep's own dependencies looked for) and the mpi and gloo backends left
# out, build collbench and the telemetry sampler (all a GPU node takes of orchestrator/: util and
# telemetry), and check that collbench names what this build lacks. Usage: SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
cmake -S "$src" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWEEP_WERROR=ON -DSWEEP_WORKLOADS_ONLY=ON \
  -DSWEEP_TRAINBENCH=OFF -DSWEEP_MPI=OFF -DSWEEP_GLOO=OFF > "$work.configure.log" 2>&1 ||
  { cat "$work.configure.log"; exit 1; }
if grep -q -i 'yaml-cpp\|SQLiteCpp\|pcre2' "$work/CMakeCache.txt"; then
  echo "a workloads-only configure looked for one of sweep's own dependencies:" >&2
  grep -i 'yaml-cpp\|SQLiteCpp\|pcre2' "$work/CMakeCache.txt" >&2
  exit 1
fi
cmake --build "$work" --target collbench sweep-telemetry sweep-image-id -j 2 > "$work.build.log" 2>&1 || { tail -n 40 "$work.build.log"; exit 1; }
for dir in "$work"/orchestrator/* "$work/tests"; do
  case $dir in
    "$work/orchestrator/util" | "$work/orchestrator/telemetry" | "$work/orchestrator/container" | "$work/orchestrator/*") ;;
    *) if [ -e "$dir" ]; then echo "sweep itself was configured: $dir" >&2; exit 1; fi ;;
  esac
done
"$work/bin/sweep-telemetry" --help > /dev/null || { echo "the sampler did not build" >&2; exit 1; }
"$work/bin/sweep-image-id" "$src/templates" | grep -q '^sha256:' || { echo "sweep-image-id did not build" >&2; exit 1; }
err=$("$work/bin/collbench" --backend mpi 2>&1 && exit 1 || true)
case $err in
  *'backend "mpi" is not available in this build (it needs Open MPI (SWEEP_MPI) at build time; available: '*) ;;
  *) echo "collbench --backend mpi said: $err" >&2; exit 1 ;;
esac
echo "workloads-only build: collbench, sweep-telemetry and sweep-image-id built alone; $err"
