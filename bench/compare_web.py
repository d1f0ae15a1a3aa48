#!/usr/bin/env python3
"""Runs bunnymark in a web page (headless Chromium) and natively (`bt bench`) in one run, and
prints how many sprites each holds at 60 frames a second, their ratio, the page's size and its
first frame.

    python3 bench/compare_web.py [--bt PATH] [--chromium PATH] [--frames 40] [--rounds 5]

It builds nothing but the page: `bt web bunnymark` into a temporary folder (with an existing
`bt`: `--bt`, else `$BT`, else target/release/bt of this checkout or of `$CARGO_TARGET_DIR`;
build it first with `cargo build --release --bin bt`). The native figures come from
`bt bench bunnymark`, the page's from `window.bt.bench(n)`, driven through
carts/gallery/tests/web/drive.mjs with Node and Chromium.

How the count is found: the cost of a frame is measured at given sprite counts, and the count
whose frame just fits 1/60 s is derived from them. A frame's cost grows in a straight line with
the sprites, so each side is measured at two counts first (10,000 and 40,000), a line through
them gives a first estimate, then it is measured again at 0.7, 1 and 1.3 times that estimate,
and the count where the line fitted through those three meets 16.67 ms is the figure. A frame
is what the player waits for: natively the medians of update, render and the present into RGBA
(`bt bench`, one update a frame); in the page, `bt_frame` with one update, the same RGBA, and
drawing it onto the canvas (the median of `--rounds` averages over `--frames` frames, after a
warm-up, so the browser has compiled the module's hot code with its optimising compiler).

The page's size is the module's bytes and its `gzip -9` size; its first frame is
`window.bt.firstFrameMs` (milliseconds from asking for the page to its first frame drawn, at
2,000 sprites). Nothing here is part of the test suite: it only prints.
"""

import argparse
import gzip
import json
import os
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
FIRST_COUNTS = (10_000, 40_000)
REFINE = (0.7, 1.0, 1.3)


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


def native_frame_ms(bt, sprites, frames):
    """The median update, render and present of `bt bench bunnymark`, summed, in ms."""
    out = subprocess.run(
        [bt, "bench", "bunnymark", "--arg", f"sprites={sprites}", "--frames", str(frames),
         "--json"],
        check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return sum(r[k]["median"] for k in ("update_ms", "render_ms", "present_ms"))


def page_frame_ms(site, chromium, counts, frames, rounds, first_frame=False):
    """The page's cost of a frame at each of `counts`, in ms; with `first_frame`, also
    `window.bt.firstFrameMs` at 2,000 sprites (first, on a fresh browser)."""
    plan = [{"viewport": [960, 720]}]
    if first_frame:
        plan += [{"open": "index.html?arg=sprites=2000"},
                 {"wait_for": "window.bt.frames > 10"}, {"eval": "window.bt.firstFrameMs"}]
    for n in counts:
        plan += [
            {"open": f"index.html?arg=sprites={n}"},
            {"wait_for": "window.bt.frames > 3"},
            # Warm-up: until the browser's optimising compiler has the blitter.
            {"eval": f"window.bt.bench({frames}), window.bt.bench({frames})"},
            {"eval": f"Array.from({{length: {rounds}}}, () => window.bt.bench({frames}))"},
        ]
    with tempfile.TemporaryDirectory() as tmp:
        plan_file, results_file = os.path.join(tmp, "plan.json"), os.path.join(tmp, "r.json")
        with open(plan_file, "w") as f:
            json.dump(plan, f)
        subprocess.run(["node", DRIVE, chromium, site, plan_file, results_file], check=True)
        with open(results_file) as f:
            results = json.load(f)
    # Results line up with the steps; each count's figures are its last step's.
    per_count = 4
    costs = [statistics.median(results[len(plan) - per_count * (len(counts) - i) + 3])
             for i in range(len(counts))]
    first = results[3] if first_frame else None
    return costs, first


def fit(points):
    """The least-squares line `ms = a + b × sprites` through `points`, as (a, b)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def held(points):
    a, b = fit(points)
    if b <= 0:
        fail(f"a frame did not get dearer with more sprites: {points}")
    return (BUDGET_MS - a) / b


def refine_counts(estimate):
    # At least 1,000 sprites; above bunnymark's limit the line is extended past it.
    return [max(1_000, min(MAX_SPRITES, round(estimate * k / 1000) * 1000)) for k in REFINE]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bt", help="the bt binary (default: $BT, else target/release/bt)")
    parser.add_argument("--chromium", help="the Chromium binary (default: $CHROMIUM, chromium)")
    parser.add_argument("--frames", type=int, default=40, help="frames in each page average")
    parser.add_argument("--rounds", type=int, default=5, help="page averages per count")
    parser.add_argument("--native-frames", type=int, default=120, help="frames a bt bench runs")
    args = parser.parse_args()
    if args.frames < 1 or args.rounds < 1 or args.native_frames < 1:
        fail("--frames, --rounds and --native-frames must be at least 1")
    if not shutil.which("node"):
        fail("no Node on the PATH: it drives the page (carts/gallery/tests/web/drive.mjs)")
    bt, chromium = find_bt(args.bt), find_chromium(args.chromium)

    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        print(f"building the page: {bt} web bunnymark -o {site}", file=sys.stderr)
        subprocess.run([bt, "web", "bunnymark", "-o", site], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(site, "bunnymark.wasm"), "rb") as f:
            module = f.read()
        zipped = len(gzip.compress(module, compresslevel=9, mtime=0))

        print("measuring: page and native, first estimate", file=sys.stderr)
        page_costs, first_ms = page_frame_ms(site, chromium, FIRST_COUNTS, args.frames,
                                             args.rounds, first_frame=True)
        native_costs = [native_frame_ms(bt, n, args.native_frames) for n in FIRST_COUNTS]
        page_counts = refine_counts(held(list(zip(FIRST_COUNTS, page_costs))))
        native_counts = refine_counts(held(list(zip(FIRST_COUNTS, native_costs))))

        print(f"measuring: page at {page_counts}, native at {native_counts}", file=sys.stderr)
        page_points = list(zip(page_counts,
                               page_frame_ms(site, chromium, page_counts, args.frames,
                                             args.rounds)[0]))
        native_points = [(n, native_frame_ms(bt, n, args.native_frames)) for n in native_counts]

    page_held, native_held = held(page_points), held(native_points)
    print("\nms a frame (one update, render, RGBA; the page also draws onto its canvas)")
    for name, points in (("page", list(zip(FIRST_COUNTS, page_costs)) + page_points),
                         ("native", list(zip(FIRST_COUNTS, native_costs)) + native_points)):
        print(f"  {name:7}" + "  ".join(f"{n:>9,}: {ms:7.3f}" for n, ms in points))
    print(f"\nsprites held at 60 fps   page {page_held:10,.0f}   native {native_held:10,.0f}")
    print(f"page / native            {page_held / native_held:.3f}")
    print(f"page module              {len(module):,} bytes, {zipped:,} gzipped (level 9)")
    print(f"first frame              {first_ms:.0f} ms after the page was asked for "
          f"(2,000 sprites)")


if __name__ == "__main__":
    main()
