#!/usr/bin/env python3
"""Runs the bunnymark workload in Pyxel and in BT, one after the other, and prints both render
times and their ratio.

    python3 bench/compare_pyxel.py [--sprites 50000] [--frames 120]

Both draw the same number of 16 x 16 sprites with see-through pixels on a 320 x 240 screen, with
the same start spread and physics, for the same number of frames (after 10 unmeasured ones).
The figure compared is the median time to draw one frame: Pyxel's `cls` plus one `blt` per
bunny, and BT's cart `render` as `bt bench` reports it.

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
    args = parser.parse_args()

    py = ensure_pyxel()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "bt"], check=True, cwd=ROOT)
    bt = os.path.join(ROOT, "target", "release", "bt")

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


if __name__ == "__main__":
    main()
