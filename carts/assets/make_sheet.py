#!/usr/bin/env python3
"""Writes sheet.png, the sprite sheet the example carts share, from the pixel art below.

Run it from anywhere: `python3 carts/assets/make_sheet.py`. It needs only the standard library.

Layout (64 x 32 pixels):
  y 0-7    eight 8x8 tiles:  0 grass, 1 flowers, 2 water, 3 water (second frame), 4 sand,
                             5 stone, 6 tree, 7 path
  y 8-15   eight 8x8 tiles:  8 brick, 9 lava, 10 ice, 11 dirt, 12 chest, 13 coin, 14 heart,
                             15 star
  y 16-31  four 16x16 sprites at x 0, 16, 32, 48: bunny, arrow, ship, slime
"""

import os
import struct
import zlib

COLOURS = {
    "k": (0x00, 0x00, 0x00), "w": (0xff, 0xf1, 0xe8), "p": (0xff, 0x77, 0xa8),
    "g": (0xc2, 0xc3, 0xc7), "G": (0x5f, 0x57, 0x4f), "y": (0xff, 0xec, 0x27),
    "o": (0xff, 0xa3, 0x00), "r": (0xff, 0x00, 0x4d), "b": (0x29, 0xad, 0xff),
    "B": (0x1d, 0x2b, 0x53), "e": (0x00, 0xe4, 0x36), "E": (0x00, 0x87, 0x51),
    "n": (0xab, 0x52, 0x36), "f": (0xff, 0xcc, 0xaa), "l": (0x83, 0x76, 0x9c),
    "v": (0x7e, 0x25, 0x53),
}

TILES = [
    # grass
    ["eeeeeeee", "eEeeeeEe", "eeeeeeee", "eeeEeeee", "eeeeeeEe", "eEeeeeee", "eeeeEeee", "eeeeeeee"],
    # flowers
    ["eeeeeeee", "eyeeeeEe", "eeeeepee", "eeeEeeee", "eeeeeeee", "epeeeyee", "eeeeEeee", "eeeeeeee"],
    # water
    ["bbbbbbbb", "bbwbbbbb", "bwbwbbbb", "bbbbbbbb", "bbbbbwbb", "bbbbwbwb", "bbbbbbbb", "bbbbbbbb"],
    # water, second frame
    ["bbbbbbbb", "bbbbbwbb", "bbbbwbwb", "bbbbbbbb", "bbwbbbbb", "bwbwbbbb", "bbbbbbbb", "bbbbbbbb"],
    # sand
    ["ffffffff", "ffyfffff", "ffffffnf", "ffffffff", "fnffffff", "ffffyfff", "ffffffff", "fffffnff"],
    # stone
    ["GGGGGGGG", "GggGGggG", "GggGGggG", "GGGGGGGG", "GGGggGGG", "GggggggG", "GGGggGGG", "GGGGGGGG"],
    # tree
    ["eeEEEEee", "eEEeEEEe", "EEEEEeEE", "EeEEEEEE", "eEEEEEEe", "eeEnnEee", "eeenneee", "eeenneee"],
    # path
    ["nnfnnnnn", "nnnnnfnn", "nfnnnnnn", "nnnnnnnf", "nnnfnnnn", "fnnnnnnn", "nnnnnfnn", "nnfnnnnn"],
    # brick
    ["rrrGrrrr", "rrrGrrrr", "GGGGGGGG", "rGrrrrGr", "rGrrrrGr", "GGGGGGGG", "rrrGrrrr", "rrrGrrrr"],
    # lava
    ["rrorrrry", "roorryrr", "rrrroorr", "ryrrrrro", "oorrryrr", "rrroorrr", "rrrrrroo", "yrrorrrr"],
    # ice
    ["bwwwwwwb", "wbwwwwww", "wwbwwwbw", "wwwbwbww", "wwwwbwww", "wwwbwbww", "wwbwwwbw", "bwwwwwwb"],
    # dirt
    ["nnnnnnnn", "nGnnnnnn", "nnnnnGnn", "nnnnnnnn", "nnGnnnnn", "nnnnnnGn", "nnnnnnnn", "nnnGnnnn"],
    # chest
    ["........", ".nnnnnn.", "nyyyyyyn", "nnnnnnnn", "nnnyynnn", "nnnnnnnn", "nnnnnnnn", "........"],
    # coin
    ["..yyyy..", ".yyooyy.", "yyoyyoyy", "yyoyyoyy", "yyoyyoyy", "yyoyyoyy", ".yyooyy.", "..yyyy.."],
    # heart
    ["........", ".rr..rr.", "rrrrrrrr", "rrrrrrrr", ".rrrrrr.", "..rrrr..", "...rr...", "........"],
    # star
    ["...y....", "...y....", "..yyy...", "yyyyyyy.", ".yyyyy..", "..yyy...", ".yy.yy..", ".y...y.."],
]

SPRITES = [
    # bunny
    ["................", "....ww....ww....", "...wpw....wpw...", "...wpw....wpw...",
     "...wpw....wpw...", "....ww....ww....", "....wwwwwwww....", "...wwwwwwwwww...",
     "...wwkwwwwkww...", "...wwwwppwwww...", "...wwwwwwwwww...", "....wwwwwwww....",
     "...wwwwwwwwww...", "..wwwwwwwwwwww..", "..wwwggwwggwww..", "................"],
    # arrow, pointing right, feathers on top only so every flip and turn looks different
    ["................", "................", "..rr............", "..rrr.......y...",
     "...rrr......yy..", "....rr......yyy.", "..oooooooooooyyy", "..oooooooooooyyy",
     "............yyy.", "............yy..", "............y...", "................",
     "................", "................", "................", "................"],
    # ship
    [".......bb.......", "......bwwb......", "......bwwb......", ".....bbwwbb.....",
     ".....bbbbbb.....", "....gbbbbbbg....", "...ggbbBBbbgg...", "..gggbBBBBbggg..",
     ".ggggbbbbbbgggg.", "gggg.gbbbbg.gggg", "ggg..gg..gg..ggg", "gg...r....r...gg",
     ".....ro..or.....", "......o..o......", "................", "................"],
    # slime
    ["................", "................", "................", "................",
     "................", "......eeee......", "....eeeeeeee....", "...eeweeeeeee...",
     "..eewweeeeeeee..", "..eeekeeeekeee..", ".eeeekeeeekeeee.", ".eeeeeeeeeeeeee.",
     ".eeeeevvvveeeee.", "eeeeeeeeeeeeeeee", "EEEEEEEEEEEEEEEE", "................"],
]

WIDTH, HEIGHT = 64, 32


def pixels():
    grid = [[None] * WIDTH for _ in range(HEIGHT)]
    for i, tile in enumerate(TILES):
        ox, oy = (i % 8) * 8, (i // 8) * 8
        for y, row in enumerate(tile):
            assert len(row) == 8, (i, y)
            for x, ch in enumerate(row):
                grid[oy + y][ox + x] = ch
    for i, sprite in enumerate(SPRITES):
        ox, oy = i * 16, 16
        assert len(sprite) == 16, i
        for y, row in enumerate(sprite):
            assert len(row) == 16, (i, y)
            for x, ch in enumerate(row):
                grid[oy + y][ox + x] = ch
    return grid


def png(grid):
    raw = bytearray()
    for row in grid:
        raw.append(0)  # filter: none
        for ch in row:
            if ch in (".", None):
                raw += bytes((0, 0, 0, 0))
            else:
                raw += bytes(COLOURS[ch]) + b"\xff"

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sheet.png")
    with open(out, "wb") as f:
        f.write(png(pixels()))
    print(f"wrote {out}")
