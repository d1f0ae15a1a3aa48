#!/usr/bin/env python3
"""Writes the platformer's assets: tiles.png (8 x 8 tiles on a pink key colour), the two
levels (level1.tmj in Tiled's JSON form, level2.tmx in its XML form) from the ASCII plans
below, and levels.txt, the level table. Run from anywhere; the files land in ../assets."""
import json, os, struct, zlib, base64

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "assets")

COLORS = {
    "K": (255, 0, 255),    # the key colour: see-through
    "g": (0, 228, 54), "G": (0, 135, 81), "b": (171, 82, 54), "d": (95, 87, 79),
    "w": (255, 241, 232), "l": (194, 195, 199), "y": (255, 236, 39), "o": (255, 163, 0),
    "r": (255, 0, 77), "p": (255, 204, 170), "u": (41, 173, 255), "n": (29, 43, 83),
    "v": (131, 118, 156), "k": (0, 0, 0),
}

TILES = [
    # 0 grass top
    ["gggggggg", "gGggggGg", "GGGGGGGG", "bbbbbbbb", "bbdbbbbb", "bbbbbdbb", "bdbbbbbb", "bbbbbbdb"],
    # 1 dirt
    ["bbbbbbbb", "bbdbbbbb", "bbbbbdbb", "bdbbbbbb", "bbbbbbdb", "bbbdbbbb", "bbbbbbbb", "bdbbbdbb"],
    # 2 brick
    ["llldllld", "llldllld", "dddddddd", "ldllldll", "ldllldll", "dddddddd", "llldllld", "dddddddd"],
    # 3 coin
    ["KKKKKKKK", "KKoooKKK", "KoyyyoKK", "KoywyoKK", "KoyyyoKK", "KoyyyoKK", "KKoooKKK", "KKKKKKKK"],
    # 4 spikes
    ["KKKKKKKK", "KKKKKKKK", "KKKKKKKK", "KKKKKKKK", "KwKKKwKK", "KlKKKlKK", "lllKlllK", "llllllll"],
    # 5 goal flag
    ["wrrrrKKK", "wrrrrrKK", "wrrrrKKK", "wKKKKKKK", "wKKKKKKK", "wKKKKKKK", "wKKKKKKK", "wKKKKKKK"],
    # 6 cloud
    ["KKKKKKKK", "KKKwwKKK", "KKwwwwKK", "KwwwwwwK", "wwwwwwww", "KwwwwwwK", "KKKKKKKK", "KKKKKKKK"],
    # 7 bush
    ["KKKKKKKK", "KKKKKKKK", "KKKGGKKK", "KKGggGKK", "KGggggGK", "GgggggGG", "GGgggGGG", "GGGGGGGG"],
    # 8 player, standing
    ["KKrrrrKK", "KrrrrrrK", "KKppppKK", "KKpkpkKK", "KKuuuuKK", "KuuuuuuK", "KKuKKuKK", "KKnKKnKK"],
    # 9 player, walking
    ["KKrrrrKK", "KrrrrrrK", "KKppppKK", "KKpkpkKK", "KKuuuuKK", "KuuuuuuK", "KuKKKKuK", "nKKKKKKn"],
    # 10 slime
    ["KKKKKKKK", "KKKKKKKK", "KKKKKKKK", "KKvvvvKK", "KvvwvwvK", "vvvkvkvv", "vvvvvvvv", "KvvvvvvK"],
    # 11 slime, squashed
    ["KKKKKKKK", "KKKKKKKK", "KKKKKKKK", "KKKKKKKK", "KKvvvvKK", "KvvwvwvK", "vvvkvkvv", "vvvvvvvv"],
    # 12 heart
    ["KKKKKKKK", "KrrKrrKK", "rrrrrrrK", "rrrrrrrK", "KrrrrrKK", "KKrrrKKK", "KKKrKKKK", "KKKKKKKK"],
]

def png(path, w, h, rows):
    """An indexed PNG (colour type 3): its palette is COLORS in order, so the key colour is
    entry 0, and `bt sprite-edit` edits it as it is."""
    order = list(COLORS.values())
    raw = b"".join(b"\x00" + bytes(order.index(px) for px in row) for row in rows)
    def chunk(t, d):
        c = struct.pack(">I", len(d)) + t + d
        return c + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
    data += chunk(b"PLTE", bytes(c for rgb in order for c in rgb))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)

def sheet():
    cols = 8
    rows_of_tiles = (len(TILES) + cols - 1) // cols
    w, h = cols * 8, rows_of_tiles * 8
    px = [[COLORS["K"]] * w for _ in range(h)]
    for i, t in enumerate(TILES):
        ox, oy = i % cols * 8, i // cols * 8
        for y, line in enumerate(t):
            for x, ch in enumerate(line):
                px[oy + y][ox + x] = COLORS[ch]
    png(os.path.join(OUT, "tiles.png"), w, h, px)

# Plans: '#' grass top, '=' dirt, 'B' brick, 'o' coin, '^' spikes, 'F' goal, 'c' cloud,
# '*' bush, 's' slime start (the things layer), '.' nothing. Tile number + 1 is the Tiled gid.
GROUND = {"#": 0, "=": 1, "B": 2}
THINGS = {"o": 3, "^": 4, "F": 5, "s": 10}
BACK = {"c": 6, "*": 7}

LEVEL1 = """
............................................................
.....c.............c..................c..............c......
............................................................
...........c........................c.......................
............................................................
............................................................
...............ooo..........................................
..............BBBBB.................ooo.....................
.........................o.........BBBBB............o.......
........................BBB.................ooo.....B.......
..............................o............BBBBB....B.......
....ooo......................BBB....................B.....F.
.....................*..............s.........*.....B.....B.
...*......*......#######.......*......####.......*..B.....B.
#######################..######^^^#############^^####^^####B
=======================..==================================="""[1:].splitlines()

LEVEL2 = """
BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB
B..........................................................B
B..........................................................B
B.......ooo................................ooo.............B
B......BBBBB.........o....................BBBBB............B
B...................BBB.........ooo........................B
B..........o...................BBBBB..............ooo......B
B.........BBB.....................................BBB......B
B...............ooo.....................o..................B
B..............BBBBB...................BBB.................B
B....ooo....................s..............................B
B...BBBBB.................BBBBB..................o.......F.B
B..............s...................s............BBB.....BBBB
B.......BBBB.......BBBBB.......BBBBBBB.....................B
B##########^^^####################^^^##########^^^##########
BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"""[1:].splitlines()

def layer_gids(plan, table):
    return [table[ch] + 1 if ch in table else 0 for row in plan for ch in row]

FLAGS = {0: 1, 1: 1, 2: 1, 3: 2, 4: 4, 5: 8}  # 1 solid, 2 coin, 4 hurts, 8 goal

def tmj(path, plan):
    h, w = len(plan), len(plan[0])
    assert all(len(r) == w for r in plan), "ragged plan"
    layers = []
    for i, (name, table) in enumerate([("background", BACK), ("ground", GROUND), ("things", THINGS)]):
        layers.append({"type": "tilelayer", "id": i + 1, "name": name, "x": 0, "y": 0,
                       "width": w, "height": h, "opacity": 1, "visible": True,
                       "data": layer_gids(plan, table)})
    doc = {"type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal",
           "renderorder": "right-down", "width": w, "height": h, "tilewidth": 8, "tileheight": 8,
           "infinite": False, "nextlayerid": 4, "nextobjectid": 1, "layers": layers,
           "tilesets": [{"firstgid": 1, "name": "tiles", "tilewidth": 8, "tileheight": 8,
                         "tilecount": 16, "columns": 8, "image": "tiles.png",
                         "imagewidth": 64, "imageheight": 16, "margin": 0, "spacing": 0,
                         "tiles": [{"id": t, "properties": [{"name": "flags", "type": "int", "value": f}]}
                                   for t, f in sorted(FLAGS.items())]}]}
    open(path, "w").write(json.dumps(doc, indent=1) + "\n")

def tmx(path, plan):
    h, w = len(plan), len(plan[0])
    assert all(len(r) == w for r in plan), "ragged plan"
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="8" tileheight="8" infinite="0" nextlayerid="4" nextobjectid="1">',
           ' <tileset firstgid="1" name="tiles" tilewidth="8" tileheight="8" tilecount="16" columns="8">',
           '  <image source="tiles.png" width="64" height="16"/>']
    for t, f in sorted(FLAGS.items()):
        out.append(f'  <tile id="{t}"><properties><property name="flags" type="int" value="{f}"/></properties></tile>')
    out.append(' </tileset>')
    for i, (name, table) in enumerate([("background", BACK), ("ground", GROUND), ("things", THINGS)]):
        gids = layer_gids(plan, table)
        out.append(f' <layer id="{i + 1}" name="{name}" width="{w}" height="{h}">')
        if name == "ground":
            # CSV, as Tiled writes it by default.
            out.append('  <data encoding="csv">')
            rows = [",".join(str(g) for g in gids[y * w:(y + 1) * w]) for y in range(h)]
            out.append(",\n".join(rows))
            out.append('</data>')
        else:
            packed = zlib.compress(b"".join(struct.pack("<I", g) for g in gids))
            out.append(f'  <data encoding="base64" compression="zlib">{base64.b64encode(packed).decode()}</data>')
        out.append(' </layer>')
    out.append('</map>')
    open(path, "w").write("\n".join(out) + "\n")

sheet()
tmj(os.path.join(OUT, "level1.tmj"), LEVEL1)
tmx(os.path.join(OUT, "level2.tmx"), LEVEL2)
open(os.path.join(OUT, "levels.txt"), "w").write(
    "# The level table: one level a line, played in order.\n"
    "# map         start (cell x y)  seconds  name\n"
    "level1.tmj    2 12              60       Meadow\n"
    "level2.tmx    2 12              90       Brick caves\n")
