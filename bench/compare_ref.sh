#!/usr/bin/env bash
# Compares the drawing speed of this checkout with a reference revision, in pairs.
#
#   bench/compare_ref.sh [--rounds N] [--frames N] [--no-criterion] [--callgrind] REF
#
# REF is any revision git understands (a commit, a branch, `main`, `HEAD~3`). It is checked out
# with `git worktree` under target/compare-ref/<commit>/src and built into its own target folder
# beside it (seeded from this checkout's target/release the first time, so only what changed is
# compiled), then the two builds run each workload in turn, alternating which goes first, for
# `--rounds` rounds (default 5). On a machine shared with other work, times drift by tens of per
# cent over a minute; a pair run back to back sees the same drift, so the ratio of the pair is
# what is compared. For each workload it prints the median, lowest and highest of the per-round
# ratios this / REF: below 1.00 is faster than REF, above 1.00 slower.
#
# Workloads:
#   - `bt bench` of carts that exist at both revisions: bunnymark at 50,000 sprites (plain
#     transparent 16x16 sprites), sprites (flipped, turned, scaled, offset sprites and tiles),
#     tilemap (tile layers), primitives (shapes and text), starfield; the figure is the render
#     median of `--frames` frames (default 120).
#   - the criterion benches `cargo bench -p bt-runtime --bench draw` (every sprite flavour at
#     8x8 and 16x16, lines, rectangles, circles, text, palette to RGBA) and, where REF has it,
#     `cargo bench -p bt-overlay`: each case that both revisions have, by name (skip them with
#     `--no-criterion`).
#
# With `--callgrind`, each cart workload also runs once per build under
# `valgrind --tool=callgrind`, counting only the instructions spent inside the cart's `render`:
# a count that does not depend on the machine's load, printed as a ratio too.
#
# Nothing here is part of the test suite: no time is asserted, it only prints.

set -euo pipefail

rounds=5
frames=120
criterion=1
callgrind=0
ref=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
        --frames) frames="${2:?--frames needs a number}"; shift 2 ;;
        --no-criterion) criterion=0; shift ;;
        --callgrind) callgrind=1; shift ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) echo "compare_ref.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) [ -z "$ref" ] || { echo "compare_ref.sh: one REF only, got $ref and $1" >&2; exit 2; }
           ref="$1"; shift ;;
    esac
done
[ -n "$ref" ] || { echo "usage: bench/compare_ref.sh [--rounds N] [--frames N] [--no-criterion] [--callgrind] REF" >&2; exit 2; }
case "$rounds$frames" in *[!0-9]*) echo "compare_ref.sh: --rounds and --frames take whole numbers, got $rounds and $frames" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] && [ "$frames" -ge 1 ] || { echo "compare_ref.sh: --rounds and --frames must be at least 1" >&2; exit 2; }

root="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
commit="$(git -C "$root" rev-parse --verify --quiet "$ref^{commit}")" \
    || { echo "compare_ref.sh: REF $ref is not a revision of $root" >&2; exit 2; }
base="$root/target/compare-ref/$commit"
src="$base/src"
ref_target="$base/target"

if [ ! -d "$src" ]; then
    mkdir -p "$base"
    git -C "$root" worktree add --detach --quiet "$src" "$commit"
fi
if [ ! -d "$ref_target/release" ] && [ -d "$root/target/release" ]; then
    echo "seeding $ref_target from target/release (compiled dependencies are reused)" >&2
    mkdir -p "$ref_target"
    # Only a head start: files a build running here removes meanwhile are simply not copied.
    cp -a "$root/target/release" "$ref_target/release" 2>/dev/null || true
fi

echo "building this checkout and $ref ($commit) in release" >&2
(cd "$root" && cargo build --release --quiet --bin bt)
(cd "$src" && CARGO_TARGET_DIR="$ref_target" cargo build --release --quiet --bin bt)
new_bt="$root/target/release/bt"
ref_bt="$ref_target/release/bt"

# The median of the numbers on standard input, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }
# "median  lowest  highest" of the numbers on standard input.
summary() {
    local values; values="$(cat)"
    printf '%s  %s  %s' "$(median <<<"$values")" \
        "$(sort -g <<<"$values" | head -n1)" "$(sort -g <<<"$values" | tail -n1)"
}
render_median() { sed -n 's/.*"render_ms": {"median": \([0-9.e+-]*\),.*/\1/p'; }

# name | cart and arguments
workloads=(
    "bunnymark 50k|bunnymark --arg sprites=50000"
    "sprites cart|sprites"
    "tilemap cart|tilemap"
    "primitives cart|primitives"
    "starfield cart|starfield"
)

printf '\n%-34s %8s %8s %8s\n' "workload (this / $ref)" median lowest highest
for w in "${workloads[@]}"; do
    name="${w%%|*}"; read -r -a cart <<<"${w#*|}"
    ratios=""
    for ((r = 0; r < rounds; r++)); do
        if ((r % 2 == 0)); then
            a="$("$ref_bt" bench "${cart[@]}" --frames "$frames" --json | render_median)"
            b="$("$new_bt" bench "${cart[@]}" --frames "$frames" --json | render_median)"
        else
            b="$("$new_bt" bench "${cart[@]}" --frames "$frames" --json | render_median)"
            a="$("$ref_bt" bench "${cart[@]}" --frames "$frames" --json | render_median)"
        fi
        ratios+="$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')"$'\n'
    done
    read -r med lo hi <<<"$(summary <<<"${ratios%$'\n'}")"
    printf '%-34s %8.3f %8.3f %8.3f\n' "$name: render median" "$med" "$lo" "$hi"
done

if ((callgrind)); then
    command -v valgrind >/dev/null || { echo "compare_ref.sh: --callgrind needs valgrind" >&2; exit 2; }
    # Instructions inside the cart's render only, over a few frames: the same count on any load.
    count() {
        local out; out="$(mktemp)"
        valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
            --toggle-collect='*as bt::*Cart>::render' "$@" >/dev/null 2>&1
        callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
        rm -f "$out"
    }
    printf '\n%-34s %14s %14s %8s\n' "instructions in render" "$ref" "this" ratio
    for w in "${workloads[@]}"; do
        name="${w%%|*}"; read -r -a cart <<<"${w#*|}"
        a="$(count "$ref_bt" bench "${cart[@]}" --frames 10 --warmup 0)"
        b="$(count "$new_bt" bench "${cart[@]}" --frames 10 --warmup 0)"
        printf '%-34s %14s %14s %8s\n' "$name, 10 frames" "$a" "$b" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }')"
    done
fi

if ((criterion)); then
    # Each case's middle estimate in ns, as "name ns" lines, from criterion's own output.
    criterion_ns() {
        awk '
            /^[A-Za-z0-9_\/ ]+$/ && !/time:/ { name = $1 }
            /time:/ {
                line = $0; sub(/.*time: *\[/, "", line); split(line, f, " ")
                if ($1 != "time:") name = $1
                v = f[3]; u = f[4]
                m = (u == "ps") ? 0.001 : (u == "ns") ? 1 : (u ~ /s$/ && u != "ms" && u != "s") ? 1000 : (u == "ms") ? 1e6 : 1e9
                print name, v * m
            }'
    }
    bench_once() { # dir target package bench
        (cd "$1" && CARGO_TARGET_DIR="$2" cargo bench --quiet -p "$3" --bench "$4" -- \
            --warm-up-time 0.5 --measurement-time 1 --noplot 2>/dev/null | criterion_ns)
    }
    tmp="$(mktemp -d)"
    for pair in "bt-runtime draw" "bt-overlay overlay"; do
        read -r pkg bench <<<"$pair"
        [ -f "$src/${pkg#bt-}/benches/$bench.rs" ] \
            || { echo "($pkg --bench $bench: not at $ref, skipped)" >&2; continue; }
        for ((r = 0; r < rounds && r < 3; r++)); do
            if ((r % 2 == 0)); then
                bench_once "$src" "$ref_target" "$pkg" "$bench" >"$tmp/ref.$r"
                bench_once "$root" "$root/target" "$pkg" "$bench" >"$tmp/new.$r"
            else
                bench_once "$root" "$root/target" "$pkg" "$bench" >"$tmp/new.$r"
                bench_once "$src" "$ref_target" "$pkg" "$bench" >"$tmp/ref.$r"
            fi
            join <(sort "$tmp/ref.$r") <(sort "$tmp/new.$r") \
                | awk '{ printf "%s %.4f\n", $1, $3 / $2 }' >"$tmp/ratio.$r"
        done
        printf '\n%-34s %8s %8s %8s\n' "$pkg --bench $bench (this / $ref)" median lowest highest
        cat "$tmp"/ratio.* | awk '{ print $1 }' | sort -u | while read -r case; do
            read -r med lo hi <<<"$(cat "$tmp"/ratio.* | awk -v c="$case" '$1 == c { print $2 }' | summary)"
            printf '%-34s %8.3f %8.3f %8.3f\n' "$case" "$med" "$lo" "$hi"
        done
        rm -f "$tmp"/*
    done
    rmdir "$tmp"
fi
