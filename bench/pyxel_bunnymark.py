#!/usr/bin/env python3
"""The BT bunnymark workload in Pyxel, headless: N bunnies of 16 x 16 pixels with see-through
pixels, the same start spread, physics and per-frame drawing as `carts/bunnymark`.

Only the drawing is timed as "render" (clearing the screen and one `blt` per bunny), as
`bt bench` times the cart's render. The Python update loop is timed separately and reported as
"update"; it is not part of the comparison.

    python bench/pyxel_bunnymark.py --sprites 50000 --frames 120 [--json]

Needs `pyxel` (2.9.9 was used for the figures in docs/cli.md); `bench/compare_pyxel.py` installs
it into bench/.venv and runs this script and `bt bench` one after the other.
"""

import argparse
import json
import math
import random
import time

import pyxel

WIDTH, HEIGHT, SIZE = 320, 240, 16
GRAVITY = 0.5

# The bunny from carts/assets/sheet.png in Pyxel's default palette: 0 is see-through (colkey),
# 7 white, 14 pink, 6 light grey, 1 dark blue for the eyes (Pyxel's colour 0 would be see-through).
BUNNY = [
    "................", "....77....77....", "...7e7....7e7...", "...7e7....7e7...",
    "...7e7....7e7...", "....77....77....", "....77777777....", "...7777777777...",
    "...7717777177...", "...7777ee7777...", "...7777777777...", "....77777777....",
    "...7777777777...", "..777777777777..", "..777667766777..", "................",
]


def spread(samples):
    s = sorted(samples)
    n = len(s)
    median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    p95 = s[max(1, math.ceil(n * 95 / 100)) - 1]
    return {"median": median, "p95": p95}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sprites", type=int, default=50000)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    pyxel.init(WIDTH, HEIGHT, title="bunnymark", headless=True)
    image = pyxel.images[0]
    for y, row in enumerate(BUNNY):
        for x, ch in enumerate(row):
            image.pset(x, y, 0 if ch == "." else int(ch, 16))

    rng = random.Random(args.seed)
    max_x, max_y = WIDTH - SIZE, HEIGHT - SIZE
    xs = [rng.uniform(0, max_x) for _ in range(args.sprites)]
    ys = [rng.uniform(0, max_y) for _ in range(args.sprites)]
    vxs = [rng.uniform(-5, 5) for _ in range(args.sprites)]
    vys = [rng.uniform(-5, 5) for _ in range(args.sprites)]

    def update():
        for i in range(len(xs)):
            x, y = xs[i] + vxs[i], ys[i] + vys[i]
            vys[i] += GRAVITY
            if x > max_x:
                vxs[i] = -vxs[i]
                x = max_x
            elif x < 0:
                vxs[i] = -vxs[i]
                x = 0
            if y > max_y:
                vys[i] *= -0.85
                y = max_y
                if rng.random() < 0.5:
                    vys[i] -= rng.random() * 6
            elif y < 0:
                vys[i] = 0
                y = 0
            xs[i], ys[i] = x, y

    blt, cls = pyxel.blt, pyxel.cls
    update_ms, render_ms = [], []
    for frame in range(args.warmup + args.frames):
        t0 = time.perf_counter()
        update()
        t1 = time.perf_counter()
        cls(1)
        for x, y in zip(xs, ys):
            blt(int(x), int(y), 0, 0, 0, SIZE, SIZE, 0)
        t2 = time.perf_counter()
        if frame >= args.warmup:
            update_ms.append((t1 - t0) * 1000)
            render_ms.append((t2 - t1) * 1000)

    report = {
        "engine": "pyxel " + pyxel.VERSION,
        "sprites": args.sprites,
        "frames": args.frames,
        "update_ms": spread(update_ms),
        "render_ms": spread(render_ms),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"pyxel {pyxel.VERSION} bunnymark: {args.sprites} sprites, {args.frames} frames")
        print(f"render median {report['render_ms']['median']:.3f} ms, "
              f"p95 {report['render_ms']['p95']:.3f} ms")
        print(f"update median {report['update_ms']['median']:.3f} ms (Python, not compared)")


if __name__ == "__main__":
    main()
