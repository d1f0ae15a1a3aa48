#!/usr/bin/env python3
"""Runs the bunnymark workload in Pyxel and in BT, one after the other, and prints both render
times and their ratio.

    python3 bench/compare_pyxel.py [--sprites 50000] [--frames 120]
    python3 bench/compare_pyxel.py --hold-fps 60 [--frames 60]


Both draw the same number of 16 x 16 sprites with see-through pixels on a 320 x 240 screen, with
the same start spread and physics, for the same number of frames (after 10 unmeasured ones).
The figure compared is the median time to draw one frame: Pyxel's `cls` plus one `blt` per
bunny, and BT's cart `render` as `bt bench` reports it.

With `--hold-fps F` it instead finds, for each engine, the most sprites whose frame of work (the
median update plus the median render, presentation left out of both) still fits in 1/F s: it
doubles the count until a frame is over budget, then halves the gap down to 1 % of the count.

Pyxel 2.9.9 is installed into bench/.venv on first use (`pip install pyxel==2.9.9`); BT is built
with `cargo build --release`. Nothing here is part of the test suite.
"""

import argparse
import json
import os
import subprocess
import sys
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(HERE, ".venv")
PYXEL = "pyxel==2.9.9"


def venv_python():
    return os.path.join(VENV, "bin", "python")


def ensure_pyxel():
    py = venv_python()
    if not os.path.exists(py):
        print(f"creating {VENV}", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    found = subprocess.run([py, "-c", "import pyxel; print(pyxel.VERSION)"],
                           capture_output=True, text=True)
    if found.returncode != 0 or found.stdout.strip() != PYXEL.split("==")[1]:
        print(f"installing {PYXEL} into {VENV}", file=sys.stderr)
        subprocess.run([py, "-m", "pip", "install", "--quiet", PYXEL], check=True)
    return py


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    # The last line is the JSON object (Pyxel may print audio warnings before it).
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sprites", type=int, default=50000)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--hold-fps", type=float, metavar="F",
                        help="find the most sprites each engine draws at F frames a second")
    args = parser.parse_args()

    py = ensure_pyxel()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "bt"], check=True, cwd=ROOT)
    bt = os.path.join(ROOT, "target", "release", "bt")

    if args.hold_fps is not None:
        hold(py, bt, args.hold_fps, args.frames)
        return

    n, frames = str(args.sprites), str(args.frames)
    pyxel = run_json([py, os.path.join(HERE, "pyxel_bunnymark.py"), "--sprites", n,
                      "--frames", frames, "--warmup", "10", "--json"])
    ours = run_json([bt, "bench", "bunnymark", "--arg", f"sprites={n}", "--frames", frames,
                     "--warmup", "10", "--json"])

    p, b = pyxel["render_ms"], ours["render_ms"]
    print(f"bunnymark, {args.sprites} sprites of 16x16 with transparency, 320x240, "
          f"{args.frames} frames")
    print(f"{'':<14}{'median ms':>12}{'p95 ms':>12}")
    print(f"{pyxel['engine']:<14}{p['median']:>12.3f}{p['p95']:>12.3f}")
    print(f"{'bt':<14}{b['median']:>12.3f}{b['p95']:>12.3f}")
    print(f"pyxel / bt render time (median): {p['median'] / b['median']:.2f}x")


def frame_ms(report):
    return report["update_ms"]["median"] + report["render_ms"]["median"]


def most_sprites(measure, budget_ms):
    """The largest count whose frame fits the budget, to 1 % of it, with the frame it took."""
    good, good_ms = 0, 0.0
    bad = None
    n = 1000
    while bad is None:
        ms = measure(n)
        if ms <= budget_ms:
            good, good_ms, n = n, ms, n * 2
        else:
            bad = n
    while bad - good > max(good // 100, 100):
        mid = (good + bad) // 2
        ms = measure(mid)
        if ms <= budget_ms:
            good, good_ms = mid, ms
        else:
            bad = mid
    return good, good_ms


def hold(py, bt, fps, frames):
    if not fps > 0:
        sys.exit(f"--hold-fps: must be a positive number of frames a second, got {fps}")
    budget = 1000.0 / fps
    frames = str(frames)

    def pyxel(n):
        return frame_ms(run_json([py, os.path.join(HERE, "pyxel_bunnymark.py"), "--sprites",
                                  str(n), "--frames", frames, "--warmup", "10", "--json"]))

    def ours(n):
        return frame_ms(run_json([bt, "bench", "bunnymark", "--arg", f"sprites={n}",
                                  "--frames", frames, "--warmup", "10", "--json"]))

    print(f"bunnymark, 16x16 sprites with transparency, 320x240: the most sprites whose median "
          f"update + render fits {budget:.2f} ms ({fps:g} fps), {frames} frames a probe")
    results = {}
    for name, measure in (("pyxel", pyxel), ("bt", ours)):
        n, ms = most_sprites(measure, budget)
        results[name] = n
        print(f"{name:<8}{n:>10} sprites  ({ms:.2f} ms a frame)")
    if results["pyxel"]:
        print(f"bt / pyxel sprites held: {results['bt'] / results['pyxel']:.2f}x")


if __name__ == "__main__":
    main()
