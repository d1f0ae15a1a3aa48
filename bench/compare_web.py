#!/usr/bin/env python3
"""Runs bunnymark in a web page (headless Chromium) and natively (`bt bench`) in one run, and
prints how many sprites each holds at 60 frames a second, their ratio, the page's size and its
first frame.

    python3 bench/compare_web.py [--bt PATH] [--chromium PATH] [--counts N,N,...] [--repeat 2]

It builds nothing but the page, the one to publish: `bt web bunnymark --release` into a
temporary folder (with an existing `bt`: `--bt`, else `$BT`, else target/release/bt of this
checkout or of `$CARGO_TARGET_DIR`; build it first with `cargo build --release --bin bt`). The native figures come from
`bt bench bunnymark`, the page's from `window.bt.bench(n)`, driven through
carts/gallery/tests/web/drive.mjs with Node and Chromium.

What is measured: the processor time a frame takes, at the same sprite counts on both sides
(`--counts`). A frame is one update, the render and the picture turned into RGBA; in the page
also drawing it onto the canvas. Natively it is the processor time `bt bench` spends over
`--native-frames` frames more than over one (so starting the cart cancels out); in the page it
is the page's main thread's (Chromium's `ThreadTime` metric) over `window.bt.bench(--frames)`,
after a warm-up, so the browser has compiled the module's hot code with its optimising
compiler. Processor time rather than time passed, because on a machine busy with other work
the two processes do not get the same share of a core, and that would be measured instead of
the code. The count that holds 60 fps is derived, not searched for: a frame's cost grows in a
straight line with the sprites, so a line is fitted through each side's points (the median of
the slopes between every two, which one disturbed point does not drag) and the count where it
meets 16.67 ms is the figure: what one core that does nothing else holds. Both sides are
measured `--repeat` times in turn, and each count keeps its least cost (other work only ever
adds to it).

The page's size is the module's bytes and its `gzip -9` size; its first frame is
`window.bt.firstFrameMs` (milliseconds from asking for the page to its first frame drawn, at
2,000 sprites; time passed, so on a busy machine it is longer). Nothing here is part of the
test suite: it only prints.
"""

import argparse
import gzip
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DRIVE = os.path.join(ROOT, "carts", "gallery", "tests", "web", "drive.mjs")
# One frame at 60 frames a second, in ms.
BUDGET_MS = 1000.0 / 60.0
# bunnymark's own limit (carts/bunnymark, MAX_SPRITES).
MAX_SPRITES = 1_000_000
COUNTS = "25000,50000,100000,200000,300000"


def fail(message):
    sys.exit(f"compare_web.py: {message}")


def find_bt(given):
    candidates = [given, os.environ.get("BT")]
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    candidates.append(os.path.join(target, "release", "bt"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    fail("no bt binary: pass --bt PATH, set BT, or run `cargo build --release --bin bt`")


def find_chromium(given):
    for c in (given, os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if c and shutil.which(c):
            return shutil.which(c)
    fail("no Chromium: pass --chromium PATH (or set CHROMIUM)")


def child_cpu_ms(command):
    """The processor time (user and system) `command` takes, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000.0 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def native_frame_ms(bt, sprites, frames):
    """The processor time of one native frame at `sprites`, in ms."""
    run = [bt, "bench", "bunnymark", "--arg", f"sprites={sprites}", "--warmup", "10",
           "--frames"]
    return (child_cpu_ms(run + [str(frames + 1)]) - child_cpu_ms(run + ["1"])) / frames


def page_frame_ms(site, chromium, counts, frames, first_frame=False):
    """The processor time of one page frame at each of `counts`, in ms; with `first_frame`,
    also `window.bt.firstFrameMs` at 2,000 sprites (first, on a fresh browser)."""
    plan = [{"viewport": [960, 720]}]
    if first_frame:
        plan += [{"open": "index.html?arg=sprites=2000"},
                 {"wait_for": "window.bt.frames > 10"}, {"eval": "window.bt.firstFrameMs"}]
    for n in counts:
        plan += [
            {"open": f"index.html?arg=sprites={n}"},
            {"wait_for": "window.bt.frames > 3"},
            # Warm-up: until the browser's optimising compiler has the blitter.
            {"eval": "window.bt.bench(30), window.bt.bench(30)"},
            {"cpu": f"window.bt.bench({frames})"},
        ]
    with tempfile.TemporaryDirectory() as tmp:
        plan_file, results_file = os.path.join(tmp, "plan.json"), os.path.join(tmp, "r.json")
        with open(plan_file, "w") as f:
            json.dump(plan, f)
        subprocess.run(["node", DRIVE, chromium, site, plan_file, results_file], check=True)
        with open(results_file) as f:
            results = json.load(f)
    # Each count's figure is the last of its four steps.
    costs = [results[len(plan) - 4 * (len(counts) - i) + 3]["cpu_ms"] / frames
             for i in range(len(counts))]
    return costs, results[3] if first_frame else None


def fit(points):
    """The line `ms = a + b × sprites` through `points`, as (a, b): `b` the median of the
    slopes between every two points, `a` the median of what each point leaves for it."""
    slopes = [(y2 - y1) / (x2 - x1) for i, (x1, y1) in enumerate(points)
              for (x2, y2) in points[i + 1:] if x2 != x1]
    b = statistics.median(slopes)
    return statistics.median(y - b * x for x, y in points), b


def held(points):
    a, b = fit(points)
    if b <= 0:
        fail(f"a frame did not get dearer with more sprites: {points}")
    return (BUDGET_MS - a) / b


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bt", help="the bt binary (default: $BT, else target/release/bt)")
    parser.add_argument("--chromium", help="the Chromium binary (default: $CHROMIUM, chromium)")
    parser.add_argument("--counts", default=COUNTS, help="sprite counts, comma-separated")
    parser.add_argument("--frames", type=int, default=100, help="frames timed in the page")
    parser.add_argument("--native-frames", type=int, default=100, help="frames timed natively")
    parser.add_argument("--repeat", type=int, default=2,
                        help="times the page and native are measured in turn")
    args = parser.parse_args()
    if min(args.frames, args.native_frames, args.repeat) < 1:
        fail("--frames, --native-frames and --repeat must be at least 1")
    try:
        counts = sorted({int(c) for c in args.counts.split(",")})
    except ValueError:
        fail(f"--counts {args.counts}: whole numbers separated by commas")
    if len(counts) < 2 or counts[0] < 1 or counts[-1] > MAX_SPRITES:
        fail(f"--counts {args.counts}: at least two counts from 1 to {MAX_SPRITES:,}")
    if not shutil.which("node"):
        fail("no Node on the PATH: it drives the page (carts/gallery/tests/web/drive.mjs)")
    bt, chromium = find_bt(args.bt), find_chromium(args.chromium)

    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        print(f"building the page: {bt} web bunnymark -o {site}", file=sys.stderr)
        subprocess.run([bt, "web", "bunnymark", "--release", "-o", site], check=True,
                       stdout=subprocess.DEVNULL)
        wasm = os.path.join(site, "bunnymark.wasm")
        size = os.path.getsize(wasm)
        if shutil.which("gzip"):
            zipped = len(subprocess.run(["gzip", "-9", "-c", wasm], check=True,
                                        capture_output=True).stdout)
        else:
            with open(wasm, "rb") as f:
                zipped = len(gzip.compress(f.read(), compresslevel=9))

        page_costs, native_costs, first_ms = [], [], None
        for r in range(args.repeat):
            print(f"round {r + 1} of {args.repeat}: the page, then native, at {counts}",
                  file=sys.stderr)
            costs, first = page_frame_ms(site, chromium, counts, args.frames, r == 0)
            page_costs.append(costs)
            first_ms = first if r == 0 else first_ms
            native_costs.append([native_frame_ms(bt, n, args.native_frames) for n in counts])
        page_costs = [min(c) for c in zip(*page_costs)]
        native_costs = [min(c) for c in zip(*native_costs)]

    page_held = held(list(zip(counts, page_costs)))
    native_held = held(list(zip(counts, native_costs)))
    print("\nprocessor ms a frame (one update, render, RGBA; the page also draws its canvas)")
    print(f"  {'sprites':>9} {'page':>8} {'native':>8} {'page/native':>12}")
    for n, p, q in zip(counts, page_costs, native_costs):
        print(f"  {n:>9,} {p:8.3f} {q:8.3f} {p / q:12.2f}")
    print(f"\nsprites held at 60 fps   page {page_held:10,.0f}   native {native_held:10,.0f}"
          f"   (where the fitted line meets {BUDGET_MS:.2f} ms)")
    print(f"page / native            {page_held / native_held:.3f}")
    print(f"page module              {size:,} bytes, {zipped:,} gzipped (gzip -9)")
    print(f"first frame              {first_ms:.0f} ms after the page was asked for "
          f"(2,000 sprites)")


if __name__ == "__main__":
    main()
