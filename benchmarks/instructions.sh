#!/usr/bin/env bash
# Instructions per operation of our contenders in the scenarios matching FILTER, counted by
# callgrind: repeatable to the instruction on a shared, noisy machine, where times are not.
#
#   benchmarks/instructions.sh large/compact/encode [BENCH_BINARY]
#
# Runs the bench binary under `valgrind --tool=callgrind` twice, with --iterations 500 and
# 1500, and prints (total_b - total_a) / 1000: the cost of one operation without the fixed
# set-up. To compare revisions, build each (benchmarks/compare.sh leaves them in
# benchmarks/target/compare-{a,b}/release/bench) and pass the binaries.
set -euo pipefail
filter=${1:?usage: instructions.sh FILTER [BENCH_BINARY]}
here=$(cd "$(dirname "$0")" && pwd)
bin=${2:-$here/target/release/bench}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --only ours --filter "$filter" \
        --iterations "$1" --json - >/dev/null 2>&1
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
}
a=$(count 500)
b=$(count 1500)
echo "$filter: $(( (b - a) / 1000 )) instructions per operation (every 'ours' contender of the matching scenarios)"
