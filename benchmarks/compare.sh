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
# ours-bytes, ours-hash and ours-bytes-hash ones, for revisions with `Builder::hasher`) and run
# with `--only ours,memcpy` (plus the mapping contenders when FEATURES has `mappings`).
# Build directories are kept in benchmarks/target/compare-{a,b} so that repeated runs are
# incremental. Results: benchmarks/results/compare-{a,b}.json.
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
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
}

features=()
only=ours,memcpy
if [ -n "${FEATURES:-}" ]; then
    features=(--features "$FEATURES")
    case ",$FEATURES," in
        *,mappings,*) only=ours,ours-bytes,ours-hash,ours-bytes-hash,memcpy ;;
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
    "$here/target/compare-$side/release/bench" --only "$only" --data "$here/data" \
        --json "$here/results/compare-$side.json" "$@" >"$here/results/compare-$side.txt"
done

python3 - "$here/results/compare-a.json" "$here/results/compare-b.json" "$rev_a" "$rev_b" <<'PY'
import json
import math
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
rev_a, rev_b = sys.argv[3:5]


def medians(run):
    out = {}
    for s in run["scenarios"]:
        for c in s["contenders"]:
            if c["failed"] is None and c["name"] != "memcpy":
                out[(s["id"], c["name"])] = (c["median_ns"], c["allocs_per_op"])
    return out


def fmt(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= div:
            return f"{ns / div:.2f} {unit}"
    return f"{ns:.1f} ns"


ma, mb = medians(a), medians(b)
print(f"A = {rev_a}, B = {rev_b}; ratio = B/A time (below 1: B is faster)\n")
print(f"{'scenario':<34} {'contender':<14} {'A':>11} {'B':>11} {'B/A':>7}  allocs A -> B")
logs = []
for key in ma:
    if key not in mb:
        continue
    (ta, aa), (tb, ab) = ma[key], mb[key]
    r = tb / ta
    logs.append(math.log(r))
    print(f"{key[0]:<34} {key[1]:<14} {fmt(ta):>11} {fmt(tb):>11} {r:>6.2f}x  {aa:g} -> {ab:g}")
for key in sorted(set(ma) ^ set(mb)):
    print(f"{key[0]:<34} {key[1]:<14} only in {'A' if key in ma else 'B'}")
if logs:
    print(f"\ngeometric mean B/A over {len(logs)} scenarios: {math.exp(sum(logs) / len(logs)):.3f}x")
PY
