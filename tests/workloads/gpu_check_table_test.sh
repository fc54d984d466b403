#!/usr/bin/env bash
# scripts/gpu_check_table.py reads the logs that trainbench and collbench write today. The GPU check runs
# only where a GPU is lent, so a change to the programs' output would otherwise break its table unseen.
# Here the same programs run on the CPU, started as scripts/gpu-check starts them (torchrun-style ranks,
# NAME.r.log), and the table must pass the checks whose verdicts do not depend on a GPU (2, 3, 3b), fail
# the ones that do (1b: buffers in host memory are not staged), and fail check 2 when the two curves
# differ. Usage: SOURCE_DIR TRAINBENCH COLLBENCH WORK_DIR
set -euo pipefail
src=$1 trainbench=$2 collbench=$3 out=$4
rm -rf "$out" && mkdir -p "$out"

# As gpu-check's ranks(): `n` ranks of a program, logs NAME.r.log; fails when one does.
ranks() {
  local name=$1 n=$2 port=$3
  shift 3
  mkdir -p "$out/rendezvous-$name"
  local pids=() r status=0
  for ((r = 0; r < n; r++)); do
    RANK=$r LOCAL_RANK=$r WORLD_SIZE=$n LOCAL_WORLD_SIZE=$n MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
      timeout 120 "$@" --rendezvous "$out/rendezvous-$name" > "$out/$name.$r.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  if [ $status != 0 ]; then cat "$out/$name".*.log >&2; fi
  return $status
}

tiny=(--model gpt2-tiny --batch 8 --steps-per-epoch 6 --warmup 1 --lr 3e-3 --device cpu --backend gloo)
ranks tiny_cpu 1 29681 "$trainbench" "${tiny[@]}"
ranks tiny_cuda 1 29682 "$trainbench" "${tiny[@]}"
ranks staged 2 29683 "$trainbench" "${tiny[@]}" --dp 2 --grad-dtype bf16
ranks collbench_staged 2 29684 "$collbench" --backend gloo --op allreduce -b 8 -e 128 -f 4
for layout in one:1 tp:2:--tp\ 2 pp:2:--pp\ 2; do
  IFS=: read -r name n flags <<< "$layout"
  # shellcheck disable=SC2086  # the flags split on purpose
  ranks "tiny_$name" "$n" 29685 "$trainbench" "${tiny[@]}" --microbatches 4 $flags
done

# The table, and its row for one check: "| 2. ... | PASS | ... |".
# Checks 1, 4 and 5 have no logs here, so the table must exit 1.
table() {
  if python3 "$src/scripts/gpu_check_table.py" "$out" 1 1 0 0 1 1 0 0 > "$out/table.md"; then
    echo "the table passed without the logs of checks 1, 4 and 5" >&2
    exit 1
  fi
}
row() { grep "^| $1\. " "$out/table.md" || { echo "no row for check $1" >&2; cat "$out/table.md" >&2; exit 1; }; }
expect() {  # check, verdict, text the row must contain
  case $(row "$1") in
    *"| $2 |"*"$3"*) ;;
    *) echo "check $1: expected $2 with \"$3\", the table says:" >&2; cat "$out/table.md" >&2; exit 1 ;;
  esac
}

table
expect 2 PASS "6 steps, largest relative difference 0.00e+00"
expect 3 PASS "1 distinct parameter hash(es) over 2 ranks; loss "
expect 3b PASS "--tp 2: largest relative difference"
expect 1b FAIL "2 ranks, 3 sizes, 0 wrong elements"
expect 1 FAIL "0 sizes"
expect 4 FAIL "no figures"

# Replicas that part: rank 1's hash changed, and check 3 fails.
sed -i 's/^\(#  Rank   1 .*parameters hash \).*/\1000000000000000/' "$out/staged.0.log"
table
expect 3 FAIL "2 distinct parameter hash(es) over 2 ranks"

# Another learning rate on the "GPU": the curves part, and check 2 fails.
ranks tiny_cuda 1 29682 "$trainbench" "${tiny[@]/3e-3/1e-2}"
table
expect 2 FAIL "6 steps, largest relative difference "
echo "gpu_check_table.py: 2, 3 and 3b pass on agreeing CPU logs, 1b fails on host buffers; 3 fails on parted replicas, 2 on parted curves"
