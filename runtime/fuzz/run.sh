#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds, one after the other, with one job each, and says
# which found something. New inputs go to corpus/TARGET, crashing ones to artifacts/TARGET, and
# libFuzzer's output (with its final statistics) to logs/TARGET.log.
#
#   runtime/fuzz/run.sh 180
#
# Needs the nightly toolchain and cargo-fuzz (cargo install cargo-fuzz --locked).
set -euo pipefail
cd "$(dirname "$0")"

seconds="${1:?usage: run.sh SECONDS}"
targets=(clock_spec keymap manifest user_config palette_file png_decode replay_file sound_file capture_file font_file p8_file tiled_map bundle_file wav_clip ogg_clip sound_doc state_file)

cargo +nightly fuzz build --release
mkdir -p logs
failed=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    echo "== $target: $seconds s"
    # With -jobs=1 libFuzzer runs the target in one child process and writes its output to
    # fuzz-0.log.
    rm -f fuzz-0.log
    status=0
    cargo +nightly fuzz run --release "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -jobs=1 -print_final_stats=1 || status=$?
    mv -f fuzz-0.log "logs/$target.log" 2>/dev/null || true
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ?ERROR|SUMMARY)" \
        "logs/$target.log" 2>/dev/null || true
    if ((status != 0)); then
        failed+=("$target")
    fi
done
if ((${#failed[@]})); then
    echo "found crashes in: ${failed[*]} (see artifacts/ and logs/)" >&2
    exit 1
fi
echo "no crashes"
