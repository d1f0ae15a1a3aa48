#!/usr/bin/env python3
"""Writes the fonts cart's three font files, all made from BT's own system font (the ASCII
table in cart-api/src/draw/font.rs), so nothing of another font ships:

- assets/narrow.bdf: a proportional BDF font, each glyph cut to its ink and followed by one
  pixel of space (a space is 3 px);
- assets/bold.png and assets/bold.txt: a sheet font, each glyph made bold (its ink repeated one
  pixel to the right), laid out in 8 x 14 cells, 16 to a row, with a `bt-font 1` description
  and a few kerning pairs;
- assets/candy.png and assets/candy.btfont: a coloured font in BLIT386's `.btfont` format, each
  glyph made bold, shaded yellow, orange and red from top to bottom with a dark purple shadow
  one pixel right and down, in an RGBA picture of PICO-8's colours (BT matches them to the
  palette's slots when it loads the font).

Run from anywhere; the files land in ../assets."""
import json, os, re, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "assets")
FONT_RS = os.path.join(HERE, "..", "..", "..", "cart-api", "src", "draw", "font.rs")

ROWS = 14  # the system font's line: 14 rows a glyph


def ascii_glyphs():
    """{char: [row bits]} from the table in font.rs: bit x of a row is column x."""
    text = open(FONT_RS, encoding="utf-8").read()
    table = text[text.index("pub(crate) static ASCII"):]
    rows = re.findall(r"\[((?:0x[0-9a-f]{2},? ?){14})\]", table)
    assert len(rows) == 95, len(rows)
    return {chr(32 + i): [int(v, 16) for v in r.replace(",", " ").split()] for i, r in enumerate(rows)}


def ink_columns(rows):
    bits = 0
    for r in rows:
        bits |= r
    cols = [x for x in range(8) if bits & (1 << x)]
    return (cols[0], cols[-1]) if cols else None


def write_bdf(glyphs, path):
    """The system font proportional: each glyph cut to its ink, one pixel after it."""
    out = []
    chars = sorted(glyphs)
    out += [
        "STARTFONT 2.1",
        "COMMENT BT's system font, cut to each glyph's ink: made by make_fonts.py",
        "FONT -bt-narrow-medium-r-normal--14-140-75-75-p-40-iso10646-1",
        "SIZE 14 75 75",
        "FONTBOUNDINGBOX 5 14 0 -3",
        "STARTPROPERTIES 3",
        "FONT_ASCENT 11",
        "FONT_DESCENT 3",
        "DEFAULT_CHAR 63",
        "ENDPROPERTIES",
        f"CHARS {len(chars)}",
    ]
    for c in chars:
        rows = glyphs[c]
        span = ink_columns(rows)
        if span is None:
            lo, hi, width, advance = 0, 0, 0, 3
        else:
            lo, hi = span
            width, advance = hi - lo + 1, hi - lo + 2
        # Rows 0 to 13 of the line; the baseline is below row 10 (ascent 11).
        out += [
            f"STARTCHAR U+{ord(c):04X}",
            f"ENCODING {ord(c)}",
            f"SWIDTH {advance * 1000 // 14} 0",
            f"DWIDTH {advance} 0",
            f"BBX {width} {ROWS} 0 -3",
            "BITMAP",
        ]
        for r in rows:
            bits = 0
            for x in range(width):
                if r & (1 << (lo + x)):
                    bits |= 0x80 >> x
            out.append(f"{bits:02X}")
        out.append("ENDCHAR")
    out.append("ENDFONT")
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(out) + "\n")


def png(path, width, height, pixels):
    """An RGBA PNG: `pixels` is rows of (r, g, b, a)."""
    raw = b"".join(b"\0" + bytes(v for p in row for v in p) for row in pixels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def write_sheet(glyphs, png_path, txt_path):
    """The system font made bold, in 8 x 14 cells: ink repeated one pixel right, then moved
    to the cell's left edge so the sheet font's advances follow the ink."""
    chars = [c for c in sorted(glyphs) if c != " "]
    cw, ch, per_row = 8, ROWS, 16
    rows_of_cells = (len(chars) + per_row - 1) // per_row
    w, h = cw * per_row, ch * rows_of_cells
    clear, ink = (0, 0, 0, 0), (255, 255, 255, 255)
    pixels = [[clear] * w for _ in range(h)]
    for i, c in enumerate(chars):
        rows = glyphs[c]
        lo = ink_columns(rows)[0]
        cx, cy = (i % per_row) * cw, (i // per_row) * ch
        for y, r in enumerate(rows):
            bold = (r | (r << 1)) >> lo
            for x in range(cw):
                if bold & (1 << x):
                    pixels[cy + y][cx + x] = ink
    png(png_path, w, h, pixels)
    lines = [
        "bt-font 1",
        "# BT's system font made bold: made by make_fonts.py",
        "image bold.png",
        f"grid {cw} {ch}",
        "spacing 1",
        "space 4",
    ]
    for row in range(rows_of_cells):
        lines.append(f"chars 0 {row} " + "".join(chars[row * per_row:(row + 1) * per_row]))
    lines += ["# pairs that look too far apart", "kern A V -1", "kern V A -1", "kern T o -1", "kern L T -1"]
    with open(txt_path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


# The candy font's colours, PICO-8's: yellow, orange and red ink by row, a dark purple shadow.
YELLOW, ORANGE, RED = (0xFF, 0xEC, 0x27, 255), (0xFF, 0xA3, 0x00, 255), (0xFF, 0x00, 0x4D, 255)
SHADOW = (0x7E, 0x25, 0x53, 255)


def shade(y):
    """The ink's colour on row `y` of the line: capitals span rows 2 to 10."""
    return YELLOW if y <= 4 else ORANGE if y <= 7 else RED


def write_candy(glyphs, png_path, btfont_path):
    """The system font made bold and coloured, a shadow one pixel right and down, in 8 x 15
    cells, 16 to a row; each glyph's box its ink and shadow, so the font is proportional."""
    chars = [c for c in sorted(glyphs) if c != " "]
    cw, ch, per_row = 8, ROWS + 1, 16
    rows_of_cells = (len(chars) + per_row - 1) // per_row
    w, h = cw * per_row, ch * rows_of_cells
    clear = (0, 0, 0, 0)
    pixels = [[clear] * w for _ in range(h)]
    entries = {" ": {"x": 0, "y": 0, "w": 0, "h": 0, "ox": 0, "oy": 0, "adv": 4}}
    for i, c in enumerate(chars):
        rows = glyphs[c]
        lo = ink_columns(rows)[0]
        bold = [((r | (r << 1)) >> lo) for r in rows]
        ink_w = max(r.bit_length() for r in bold)
        cx, cy = (i % per_row) * cw, (i // per_row) * ch
        for y, r in enumerate(bold):
            for x in range(ink_w):
                if r & (1 << x):
                    pixels[cy + y + 1][cx + x + 1] = SHADOW
        for y, r in enumerate(bold):
            for x in range(ink_w):
                if r & (1 << x):
                    pixels[cy + y][cx + x] = shade(y)
        entries[c] = {"x": cx, "y": cy, "w": ink_w + 1, "h": ch, "ox": 0, "oy": 0, "adv": ink_w + 1}
    png(png_path, w, h, pixels)
    head = {"name": "Candy", "size": ROWS, "lineHeight": ch, "baseline": 11,
            "texture": os.path.basename(png_path)}
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append('  "glyphs": {')
    items = [f"    {json.dumps(c, ensure_ascii=False)}: {json.dumps(g)}" for c, g in entries.items()]
    lines += [",\n".join(items), "  }", "}"]
    with open(btfont_path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def main():
    glyphs = ascii_glyphs()
    write_bdf(glyphs, os.path.join(OUT, "narrow.bdf"))
    write_sheet(glyphs, os.path.join(OUT, "bold.png"), os.path.join(OUT, "bold.txt"))
    write_candy(glyphs, os.path.join(OUT, "candy.png"), os.path.join(OUT, "candy.btfont"))


if __name__ == "__main__":
    main()
