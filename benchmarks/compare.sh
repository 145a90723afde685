#!/usr/bin/env bash
# Before/after: runs our contenders' scenarios for two git revisions of this project and prints
# per-scenario time ratios B/A.
#
#   benchmarks/compare.sh REV_A REV_B [bench options...]     e.g.
#   benchmarks/compare.sh HEAD~1 HEAD --filter large
#   benchmarks/compare.sh main WORKTREE --quick               # WORKTREE: the files as they are now
#
# Each revision is exported with `git archive REV | tar -x` into a temporary directory (no
# worktree, nothing in the repository changes); its benchmarks/ is replaced by the current
# harness (so both sides run the same scenarios on the same data), built with
# `--no-default-features` (ours and the memcpy floor only; FEATURES=borrowed adds the borrowed
# contender, for revisions that generate `FooRef` types, FEATURES=borrowed,mappings also the
# ours-bytes, ours-hash and ours-bytes-hash ones, for revisions with `Builder::hasher`,
# FEATURES=borrowed,compact ours-compact-hash as well, for revisions with `Strings::Compact`;
# `reuse` adds ours-decode_into, for revisions with `decode_into`) and run
# with `--only ours,memcpy` (plus the mapping contenders when FEATURES has `mappings`).
# The two builds then run in turns, ROUNDS times (default 3), and each ratio is the median of
# the rounds' ratios, with their range: on a shared machine a single run of each can differ by
# 2x. Build directories are kept in benchmarks/target/compare-{a,b} so that repeated runs are
# incremental. Results: benchmarks/results/compare-{a,b}-ROUND.json.
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
rev_a=$1
rev_b=$2
shift 2
corpus=${THRIFT_CORPUS:-$(cd "$here/../../shared/corpus" && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/results"

export_rev() { # REV DIR
    mkdir -p "$2"
    if [ "$1" = WORKTREE ]; then
        # The working tree as it is (tracked and untracked files, not ignored ones); read-only.
        (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
            tar --null --ignore-failed-read -T - -c 2>/dev/null) | tar -x -C "$2"
    else
        git -C "$repo" archive --format=tar "$1" | tar -x -C "$2"
    fi
    rm -rf "$2/benchmarks"
    mkdir -p "$2/benchmarks"
    cp -r "$here/Cargo.toml" "$here/Cargo.lock" "$here/build.rs" "$here/idl" "$here/src" \
        "$2/benchmarks/"
    # A runtime without the `compact_str` feature (before `Strings::Compact`): cargo rejects a
    # feature naming it even when off, so the harness's `compact` feature is emptied there.
    if ! grep -q '^compact_str = ' "$2/thrift-runtime/Cargo.toml"; then
        sed -i 's/^compact = .*/compact = []/' "$2/benchmarks/Cargo.toml"
    fi
}

features=()
rounds=${ROUNDS:-3}
only=ours,memcpy
if [ -n "${FEATURES:-}" ]; then
    features=(--features "$FEATURES")
    case ",$FEATURES," in
        *,compact,*) only=ours,ours-bytes,ours-hash,ours-bytes-hash,ours-compact-hash,memcpy ;;
        *,mappings,*) only=ours,ours-bytes,ours-hash,ours-bytes-hash,memcpy ;;
    esac
    # `reuse` builds the ours-decode_into contender: compared too.
    case ",$FEATURES," in
        *,reuse,*) only="$only,ours-decode_into" ;;
    esac
fi

for side in a b; do
    if [ $side = a ]; then rev=$rev_a; else rev=$rev_b; fi
    dir="$tmp/$side"
    echo "== $side: $rev" >&2
    export_rev "$rev" "$dir"
    THRIFT_CORPUS="$corpus" CARGO_TARGET_DIR="$here/target/compare-$side" \
        cargo build --release --quiet --no-default-features "${features[@]}" \
        --manifest-path "$dir/benchmarks/Cargo.toml" --bin bench
done

# A and B take turns, ROUNDS times: a shared machine's load changes over minutes, so one run of
# each, one after the other, can differ by 2x on its own.
for round in $(seq 1 "$rounds"); do
    for side in a b; do
        echo "== round $round/$rounds: $side" >&2
        "$here/target/compare-$side/release/bench" --only "$only" --data "$here/data" \
            --json "$here/results/compare-$side-$round.json" "$@" \
            >"$here/results/compare-$side-$round.txt"
    done
done

python3 - "$here/results" "$rounds" "$rev_a" "$rev_b" <<'PY'
import json
import math
import statistics
import sys

results, rounds, rev_a, rev_b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


def medians(path):
    out = {}
    for s in json.load(open(path))["scenarios"]:
        for c in s["contenders"]:
            if c["failed"] is None and c["name"] != "memcpy":
                out[(s["id"], c["name"])] = (c["median_ns"], c["allocs_per_op"])
    return out


def fmt(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= div:
            return f"{ns / div:.2f} {unit}"
    return f"{ns:.1f} ns"


runs = {
    side: [medians(f"{results}/compare-{side}-{r}.json") for r in range(1, rounds + 1)]
    for side in "ab"
}
print(f"A = {rev_a}, B = {rev_b}; {rounds} alternating rounds; B/A = median over rounds of")
print("B's time / A's time (below 1: B is faster); range = lowest..highest round\n")
print(f"{'scenario':<38} {'contender':<14} {'A':>11} {'B':>11} {'B/A':>7}  {'range':<13} allocs A -> B")
keys = [k for k in runs["a"][0] if all(k in run for side in "ab" for run in runs[side])]
logs = []
for key in keys:
    ta = statistics.median(run[key][0] for run in runs["a"])
    tb = statistics.median(run[key][0] for run in runs["b"])
    per_round = [b[key][0] / a[key][0] for a, b in zip(runs["a"], runs["b"])]
    r = statistics.median(per_round)
    logs.append(math.log(r))
    spread = f"{min(per_round):.2f}..{max(per_round):.2f}"
    aa, ab = runs["a"][0][key][1], runs["b"][0][key][1]
    # Cold samples count no allocations (null).
    allocs = "-" if aa is None or ab is None else f"{aa:g} -> {ab:g}"
    print(f"{key[0]:<38} {key[1]:<14} {fmt(ta):>11} {fmt(tb):>11} {r:>6.2f}x  {spread:<13} {allocs}")
only_a = set(runs["a"][0]) - set(runs["b"][0])
only_b = set(runs["b"][0]) - set(runs["a"][0])
for key in sorted(only_a | only_b):
    print(f"{key[0]:<38} {key[1]:<14} only in {'A' if key in only_a else 'B'}")
if logs:
    print(f"\ngeometric mean B/A over {len(logs)} scenarios: {math.exp(sum(logs) / len(logs)):.3f}x")
PY
