#!/usr/bin/env python3
"""How long `bt dev` takes from a save to the new program's window: the figure in docs/cli.md.

Makes a starter cart with `bt new` in a scratch folder, runs `bt dev` in it under the display
in $DISPLAY (Xvfb with Mesa's software Vulkan on a machine without a GPU), lets it play for
--play seconds, then saves a one-line change --saves times, timing each from the save to the
new program's `running ... window` line. Prints each wait, with the build and the replay
`bt dev` and the new program report, and the median.

    Xvfb :77 -screen 0 1280x1024x24 & DISPLAY=:77 python3 bench/dev_swap.py --play 300

Run it on an idle machine: the build is most of the wait, and another build doubles it.
"""

import argparse
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lines_of(stream, out):
    for raw in iter(stream.readline, b""):
        out.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\n")))


def wait_for(lines, pattern, limit):
    deadline = time.monotonic() + limit
    seen = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            sys.exit(f"no line matching {pattern!r} within {limit} s; last lines: {seen[-5:]}")
        try:
            at, line = lines.get(timeout=left)
        except queue.Empty:
            continue
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return at, match, seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bt", default=os.path.join(ROOT, "target", "release", "bt"))
    parser.add_argument("--play", type=float, default=300.0, help="seconds of play first")
    parser.add_argument("--saves", type=int, default=6)
    args = parser.parse_args()
    if "DISPLAY" not in os.environ:
        sys.exit("no DISPLAY: start Xvfb first (see this file's help)")

    scratch = tempfile.mkdtemp(prefix="bt-dev-swap-")
    try:
        cart = os.path.join(scratch, "robots")
        subprocess.run(
            [args.bt, "new", "robots", "--path", scratch], check=True, stdout=subprocess.DEVNULL
        )
        source = os.path.join(cart, "src", "lib.rs")
        dev = subprocess.Popen(
            ["cargo", "run", "--release", "--", "dev", "--mute"],
            cwd=cart,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        lines = queue.Queue()
        threading.Thread(target=lines_of, args=(dev.stdout, lines), daemon=True).start()
        wait_for(lines, r"running .* window", 600)
        print(f"playing {args.play:.0f} s before the first save", flush=True)
        time.sleep(args.play)
        waits = []
        for n in range(args.saves):
            with open(source, "a", encoding="utf-8") as f:
                f.write(f"\n// edit {n}\n")
            saved = time.monotonic()
            _, built, _ = wait_for(lines, r"built in ([0-9.]+) s", 300)
            _, replayed, _ = wait_for(lines, r"continued after update (\d+).*replayed in (\d+) ms", 300)
            shown, _, _ = wait_for(lines, r"running .* window", 300)
            wait = shown - saved
            waits.append(wait)
            print(
                f"save {n + 1}: {wait:.2f} s (build {built.group(1)} s, replay of "
                f"{replayed.group(1)} updates {replayed.group(2)} ms)",
                flush=True,
            )
            time.sleep(3)
        print(f"median {statistics.median(waits):.2f} s, from {min(waits):.2f} to {max(waits):.2f} s")
        dev.terminate()
        dev.wait(timeout=30)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
