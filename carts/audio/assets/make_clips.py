#!/usr/bin/env python3
"""Writes the audio cart's clips, made here from numbers (no recording, nothing borrowed):

- blip.wav: a 16-bit mono WAV at 22,050 Hz, 0.12 s: a square wave at 880 Hz falling to 440 Hz,
  fading out. Short and plain, for the cart's panned and pitched blips.
- chord.ogg: Ogg Vorbis, stereo, 44,100 Hz, 2 s: an A minor chord of sines (A3 on the left, C4
  in the middle, E4 on the right), swelling in and out. Written as a 16-bit WAV first (removed
  after), then encoded by `oggenc -q 2 --serial 1` (Debian's vorbis-tools); the serial number is
  fixed so the file is the same bytes each time the same encoder runs.
- pad.ogg: Ogg Vorbis, stereo, 44,100 Hz, 4 s, encoded the same way: a second of intro (an F
  major chord swelling in from silence), then three seconds that loop (the chord with a slow
  swell, every sine a whole number of cycles long, so the end runs on into frame 44,100).

Run it from anywhere: `python3 carts/audio/assets/make_clips.py`. It needs the standard library
and `oggenc`.
"""

import math
import os
import struct
import subprocess
import wave

HERE = os.path.dirname(os.path.abspath(__file__))


def write_wav(name, rate, channels, frames):
    with wave.open(os.path.join(HERE, name), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<" + "h" * channels, *f) for f in frames))


def blip():
    rate, n = 22_050, int(22_050 * 0.12)
    phase, out = 0.0, []
    for i in range(n):
        t = i / n
        freq = 880.0 * (1.0 - 0.5 * t)
        phase = (phase + freq / rate) % 1.0
        level = 9000 * (1.0 - t)
        out.append((int(level if phase < 0.5 else -level),))
    return rate, out


def sines(notes, t):
    """The left and right sides at time `t` of sines given as (hz, left level, right level)."""
    left = right = 0.0
    for hz, l, r in notes:
        s = math.sin(2 * math.pi * hz * t)
        left += s * l
        right += s * r
    return left, right


def chord():
    rate, n = 44_100, 2 * 44_100
    notes = [(220.0, 1.0, 0.25), (261.63, 0.6, 0.6), (329.63, 0.25, 1.0)]  # hz, left, right
    out = []
    for i in range(n):
        t = i / rate
        swell = math.sin(math.pi * i / n)
        left, right = sines(notes, t)
        out.append((int(7000 * swell * left), int(7000 * swell * right)))
    return rate, out


def pad():
    rate, n, intro = 44_100, 4 * 44_100, 44_100
    # Whole cycles in the three-second loop: thirds of a hertz near F3, A3 and C4.
    notes = [(524 / 3, 1.0, 0.5), (660 / 3, 0.7, 0.7), (785 / 3, 0.5, 1.0)]
    out = []
    for i in range(n):
        t = i / rate
        if i < intro:
            level = i / intro
        else:
            level = 0.8 + 0.2 * math.cos(2 * math.pi * (i - intro) / (n - intro))
        left, right = sines(notes, t)
        out.append((int(5000 * level * left), int(5000 * level * right)))
    return rate, out


def encode(name, rate, frames):
    write_wav(name + ".wav", rate, 2, frames)
    subprocess.run(
        ["oggenc", "-Q", "-q", "2", "--serial", "1", "-o", os.path.join(HERE, name + ".ogg"),
         os.path.join(HERE, name + ".wav")],
        check=True,
    )
    os.remove(os.path.join(HERE, name + ".wav"))


def main():
    rate, frames = blip()
    write_wav("blip.wav", rate, 1, frames)
    encode("chord", *chord())
    encode("pad", *pad())


if __name__ == "__main__":
    main()
