#!/usr/bin/env bash
# Instructions per operation of our contenders in the scenarios matching FILTER, counted by
# callgrind: repeatable to the instruction on a shared, noisy machine, where times are not.
#
#   benchmarks/instructions.sh large/compact/encode [BENCH_BINARY]
#   ONLY=ours-bytes-hash benchmarks/instructions.sh large/binary/decode
#   N=50 ONLY=ours-borrowed benchmarks/instructions.sh parquet-wide/compact/decode
#
# Runs the bench binary under `valgrind --tool=callgrind` twice, with --iterations N and 3N
# (N=500 unless set), and prints (total_b - total_a) / 2N: the cost of one operation without
# the fixed set-up. ONLY picks the contenders (`--only`; default `ours` = ours + ours-borrowed,
# so that counts stay comparable across revisions; ours-bytes, ours-hash, ours-bytes-hash are
# named on their own). To compare revisions, build each (benchmarks/compare.sh leaves them in
# benchmarks/target/compare-{a,b}/release/bench) and pass the binaries.
set -euo pipefail
filter=${1:?usage: instructions.sh FILTER [BENCH_BINARY]}
here=$(cd "$(dirname "$0")" && pwd)
bin=${2:-$here/target/release/bench}
only=${ONLY:-ours}
n=${N:-500}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --data "$here/data" --only "$only" --filter "$filter" \
        --iterations "$1" --json - >/dev/null 2>&1
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
}
a=$(count "$n")
b=$(count $((3 * n)))
echo "$filter: $(( (b - a) / (2 * n) )) instructions per operation (contenders: $only)"
