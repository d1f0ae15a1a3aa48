//! Font files: BDF fonts and sheet fonts read into glyphs on the right pixels, loaded through
//! the host's loader, and every bad file refused with one line naming the file, the line and
//! the field, never a panic (checked over hand-made mistakes and many thousands of random and
//! mutated files).

use bt::host::{Console, ImageLoader, RgbaImage};
use bt::{AssetError, AssetErrorKind, Font, FontError, Settings, TextStyle};

/// A 3-glyph BDF font: ascent 5, descent 2. `A` is 3 x 5 on the baseline, `g` is 3 x 5
/// reaching 2 below it, the default character U+0001 is a 1 x 1 dot.
const BDF: &str = "STARTFONT 2.1
COMMENT made by hand for BT's tests
FONT -bt-test
SIZE 7 75 75
FONTBOUNDINGBOX 3 7 0 -2
STARTPROPERTIES 3
FONT_ASCENT 5
FONT_DESCENT 2
DEFAULT_CHAR 1
ENDPROPERTIES
CHARS 4
STARTCHAR A
ENCODING 65
SWIDTH 500 0
DWIDTH 4 0
BBX 3 5 0 0
BITMAP
40
A0
E0
A0
A0
ENDCHAR
STARTCHAR g
ENCODING 103
DWIDTH 4 0
BBX 3 5 0 -2
BITMAP
E0
A0
E0
20
C0
ENDCHAR
STARTCHAR dot
ENCODING 1
DWIDTH 2 0
BBX 1 1 0 2
BITMAP
80
ENDCHAR
STARTCHAR unencoded
ENCODING -1 500
DWIDTH 2 0
BBX 1 1 0 0
BITMAP
80
ENDCHAR
ENDFONT
";

/// A 6 x 4 picture of two 3 x 4 cells: `L` (2 px of ink wide) and `T` (3 px), white on
/// transparent.
fn sheet_picture() -> RgbaImage {
    let rows = ["#..###", "#...#.", "#...#.", "##..#."];
    let mut pixels = Vec::new();
    for row in rows {
        for c in row.chars() {
            pixels.extend(if c == '#' { [255; 4] } else { [0; 4] });
        }
    }
    RgbaImage {
        width: 6,
        height: 4,
        pixels,
    }
}

const SHEET: &str = "bt-font 1
# two letters
image letters.png
grid 3 4
line 5
chars 0 0 LT
kern L T -1
";

/// The pixels `text` inks in `font`, as a picture of `#` and `.` rows.
fn drawn(font: &Font, text: &str, (w, h): (u32, u32)) -> Vec<String> {
    let mut con = Console::new(&Settings::default().display(w, h), 0);
    con.render_context(0, 0.0).print_font(font, 0, 0, text, 7);
    let fb = con.framebuffer();
    (0..h as i32)
        .map(|y| {
            (0..w as i32)
                .map(|x| if fb.get(x, y) == Some(7) { '#' } else { '.' })
                .collect()
        })
        .collect()
}

#[test]
fn a_bdf_font_sits_on_its_baseline_with_its_advances() {
    let font = Font::from_bdf("test.bdf", BDF.as_bytes()).unwrap();
    assert_eq!(font.line_height(), 7);
    assert_eq!(
        font.chars().collect::<String>(),
        "\u{1}Ag",
        "the unencoded glyph is skipped"
    );
    assert_eq!(
        drawn(&font, "Ag?", (10, 7)),
        [
            ".#........",
            "#.#.......",
            "###.###.#.",
            "#.#.#.#...",
            "#.#.###...",
            "......#...",
            "....##....",
        ],
        "`?` is missing and draws the default character, a dot 2 px above the baseline"
    );
    assert_eq!(font.measure("Ag?", TextStyle::new()), (10, 7));
}

#[test]
fn a_sheet_font_takes_its_advances_from_its_ink() {
    let image = sheet_picture();
    let font = Font::from_sheet(
        "letters.txt",
        SHEET,
        image.width,
        image.height,
        &image.pixels,
    )
    .unwrap();
    assert_eq!((font.advance('L'), font.advance('T')), (3, 4));
    assert_eq!(font.advance(' '), 2, "half a cell, rounded up");
    assert_eq!(font.line_height(), 5);
    assert_eq!(
        drawn(&font, "LT", (7, 5)),
        ["#.###..", "#..#...", "#..#...", "##.#...", ".......",],
        "T kerned one pixel nearer to L"
    );
}

/// A stand-in for the runtime's loader: a few files in memory, and "PNG" files whose bytes
/// are `PNG` decoded into the sheet picture.
struct Files;

impl ImageLoader for Files {
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
        let bytes = self.read(path)?;
        self.decode(path, &bytes)
    }
    fn decode(&self, name: &str, bytes: &[u8]) -> Result<RgbaImage, AssetError> {
        if bytes == b"PNG" {
            Ok(sheet_picture())
        } else {
            Err(AssetError::new(
                name,
                AssetErrorKind::NotPng("no PNG signature".into()),
            ))
        }
    }
    fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
        match path {
            "fonts/test.bdf" => Ok(BDF.as_bytes().to_vec()),
            "fonts/letters.txt" => Ok(SHEET.as_bytes().to_vec()),
            "fonts/letters.png" => Ok(b"PNG".to_vec()),
            "fonts/lost.txt" => Ok(SHEET.replace("letters.png", "lost.png").into_bytes()),
            "fonts/junk.txt" => Ok(b"hello\n".to_vec()),
            "fonts/binary.bin" => Ok(vec![0xff, 0xfe, 0x00]),
            _ => Err(AssetError::new(path, AssetErrorKind::NotFound)),
        }
    }
}

#[test]
fn fonts_load_from_the_asset_folder_and_from_memory() {
    let mut con = Console::new(&Settings::default(), 0);
    assert_eq!(
        con.update_context(0)
            .load_font("fonts/test.bdf")
            .unwrap_err()
            .to_string(),
        "fonts/test.bdf: this host cannot load images"
    );
    con.set_image_loader(Box::new(Files));
    let ctx = con.update_context(0);
    let bdf = ctx.load_font("fonts/test.bdf").unwrap();
    assert_eq!(
        bdf,
        Font::from_bdf("fonts/test.bdf", BDF.as_bytes()).unwrap()
    );
    assert_eq!(bdf.name(), "fonts/test.bdf");
    // The sheet's picture is read from beside its description.
    let sheet = ctx.load_font("fonts/letters.txt").unwrap();
    assert_eq!(sheet.measure("LT", TextStyle::new()), (6, 5));
    let in_memory = ctx.decode_font_sheet("letters.txt", SHEET, b"PNG").unwrap();
    assert_eq!(in_memory.measure("LT", TextStyle::new()), (6, 5));
    assert_eq!(
        ctx.decode_font("test.bdf", BDF.as_bytes())
            .unwrap()
            .measure("A", TextStyle::new()),
        (4, 7)
    );

    let errors = [
        (
            ctx.load_font("fonts/none.bdf"),
            "fonts/none.bdf: file not found",
        ),
        (
            ctx.load_font("fonts/lost.txt"),
            "fonts/lost.txt -> lost.png: file not found",
        ),
        (
            ctx.load_font("fonts/junk.txt"),
            "fonts/junk.txt:1: header: \"hello\" is not 'bt-font 1'",
        ),
        (
            ctx.load_font("fonts/binary.bin"),
            "fonts/binary.bin: not UTF-8 text: invalid byte at offset 0",
        ),
        (
            ctx.decode_font_sheet("letters.txt", SHEET, b"GIF89a"),
            "letters.txt: not a PNG image: no PNG signature",
        ),
        (
            ctx.decode_font("letters.txt", SHEET.as_bytes()),
            "letters.txt:1: header: a sheet font description: decode it with \
             decode_font_sheet, which takes its picture too",
        ),
    ];
    for (got, want) in errors {
        assert_eq!(got.unwrap_err().to_string(), want);
    }
}

fn bdf_error(text: &str) -> String {
    Font::from_bdf("f.bdf", text.as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_bdf_files_are_named_with_their_line_and_field() {
    let cases: &[(&str, &str)] = &[
        ("", "f.bdf:1: STARTFONT: not a BDF font: the file is empty"),
        ("hello\n", "f.bdf:1: STARTFONT: not a BDF font: it starts \"hello\" where STARTFONT should be"),
        ("STARTFONT 2.1\n", "f.bdf:2: ENDFONT: missing: the file ends before it"),
        ("STARTFONT 2.1\nFONTBOUNDINGBOX 6 x 0 0\n", "f.bdf:2: FONTBOUNDINGBOX: \"x\" is not a whole number"),
        ("STARTFONT 2.1\nCHARS 70000\n", "f.bdf:2: CHARS: 70000 glyphs; a font holds at most 65536"),
        ("STARTFONT 2.1\nENCODING 65\n", "f.bdf:2: ENCODING: outside a glyph (no STARTCHAR before it)"),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nBBX 65 1 0 0\n",
            "f.bdf:3: BBX: a glyph of 65x1 px; glyphs are at most 64 px wide and 1024 tall",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nBBX 8 2000 0 0\n",
            "f.bdf:3: BBX: \"2000\" is outside -1024 to 1024",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nENCODING 65\nBBX 8 2 0 0\nBITMAP\nFF\nZZ\nENDCHAR\n",
            "f.bdf:7: BITMAP: \"ZZ\" is not a row of 2 hex digits",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nENCODING 65\nBBX 8 3 0 0\nBITMAP\nFF\n",
            "f.bdf:7: BITMAP: the file ends inside the 3 rows of a glyph",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nBBX 8 1 0 0\nBITMAP\nFF\nENDCHAR\n",
            "f.bdf:6: ENCODING: the glyph started on line 2 has none",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nENCODING 65\nBITMAP\n",
            "f.bdf:4: BITMAP: no BBX before it (nor a FONTBOUNDINGBOX)",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nENCODING 65\nSTARTCHAR b\n",
            "f.bdf:4: STARTCHAR: the glyph started on line 2 has no ENDCHAR",
        ),
        (
            "STARTFONT 2.1\nFONTBOUNDINGBOX 1 1 0 0\nSTARTCHAR a\nENCODING 65\nBITMAP\n80\nENDCHAR\n\
             STARTCHAR b\nENCODING 65\nBITMAP\n80\nENDCHAR\nENDFONT\n",
            "f.bdf:12: ENCODING: U+0041 has a glyph already",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR a\nENCODING 65\nBBX 1 1 0 0\nBITMAP\n80\nENDCHAR\nENDFONT\n",
            "f.bdf:8: FONT_ASCENT: missing, and no FONTBOUNDINGBOX to take it from",
        ),
        (
            "STARTFONT 2.1\nSTARTPROPERTIES 2\nFONT_ASCENT 0\nFONT_DESCENT 0\nENDPROPERTIES\nENDFONT\n",
            "f.bdf:6: FONT_ASCENT: ascent 0 and descent 0 make a line 0 px tall; it must be 1 to 1024",
        ),
        (
            "STARTFONT 2.1\nSTARTCHAR \u{1b}[2J\nENCODING 6\u{1b}5\n",
            "f.bdf:3: ENCODING: \"6\\u{1b}5\" is not a whole number",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&bdf_error(text), want, "for {text:?}");
    }
    // A name that would break the line is escaped.
    let err = Font::from_bdf("a\nb.bdf", b"x").unwrap_err().to_string();
    assert!(err.starts_with("a\\nb.bdf:1: STARTFONT"), "{err}");
}

fn sheet_error(text: &str) -> String {
    let image = sheet_picture();
    Font::from_sheet("s.txt", text, image.width, image.height, &image.pixels)
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_sheet_descriptions_are_named_with_their_line_and_field() {
    let head = "bt-font 1\nimage a.png\n";
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "s.txt:1: header: empty; the first line is 'bt-font 1'"),
        ("# only a comment\nbt-font 2\n".into(), "s.txt:2: header: \"bt-font 2\" is not 'bt-font 1'"),
        ("bt-font 1\ngrid 3 4\n".into(), "s.txt:1: image: missing: no 'image' line names the picture"),
        (format!("{head}chars 0 0 AB\n"), "s.txt:3: chars: needs a 'grid' line"),
        (format!("{head}grid 0 4\n"), "s.txt:3: grid: width: \"0\" is outside 1 to 64"),
        (format!("{head}grid 3\n"), "s.txt:3: grid: height: missing"),
        (format!("{head}grid 3 4 5\n"), "s.txt:3: grid: \"5\" is one word too many"),
        (format!("{head}grid 3 4\ngrid 3 4\n"), "s.txt:4: grid: given twice"),
        (format!("{head}size 3\n"), "s.txt:3: line: \"size\" is not image, grid, line, spacing, space, chars, glyph, advance or kern"),
        (format!("{head}grid 3 4\nchars 0 0 AB C\n"), "s.txt:4: chars: \"C\" after the characters: they are one word (a space is given by 'space')"),
        (format!("{head}grid 3 4\nchars 1 0 ABC\n"), "s.txt:4: chars: \"B\"'s cell is past the picture's 2x1 cells of 3x4 px"),
        (format!("{head}grid 3 4\nchars 0 0 AA\n"), "s.txt:4: chars: U+0041 has a glyph already (line 4)"),
        (format!("{head}glyph AB 0 0 1 1\n"), "s.txt:3: glyph: \"AB\" is not one character or U+ and a hex code (U+00E9)"),
        (format!("{head}glyph U+D800 0 0 1 1\n"), "s.txt:3: glyph: \"U+D800\" is not a character"),
        (format!("{head}glyph A 4 0 3 1\n"), "s.txt:3: glyph: the box 3x1 at (4, 0) reaches past the 6x4 picture"),
        (format!("{head}glyph A 0 0 1 1 size=3\n"), "s.txt:3: option: \"size=3\" is not advance=N or offset=X,Y"),
        (format!("{head}glyph A 0 0 1 1 offset=3\n"), "s.txt:3: offset: \"3\" is not X,Y"),
        (format!("{head}glyph A 0 0 1 1 advance=-9999\n"), "s.txt:3: advance: \"-9999\" is outside -1024 to 1024"),
        (format!("{head}advance A 3\n"), "s.txt:3: advance: U+0041 has no glyph (give it one with chars or glyph first)"),
        (format!("{head}kern A B\n"), "s.txt:3: kern: missing"),
        (format!("{head}space -1\n"), "s.txt:3: space: \"-1\" is outside 0 to 1024"),
    ];
    for (text, want) in &cases {
        assert_eq!(&sheet_error(text), want, "for {text:?}");
    }
    let err = Font::from_sheet("s.txt", SHEET, 6, 4, &[0; 7]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "s.txt:3: image: a 6x4 picture needs 96 bytes, not 7"
    );
    assert!(matches!(err, FontError::Line { line: 3, .. }));
}

#[test]
fn sheet_glyph_lines_place_boxes_with_their_own_advance_and_offset() {
    let image = sheet_picture();
    let text = "bt-font 1\nimage a.png\nline 6\nspacing 0\nspace 5\n\
                glyph U+00C9 3 0 3 4 advance=7 offset=1,2\nglyph i 0 0 1 4\nadvance i 2\n";
    let font = Font::from_sheet("s.txt", text, 6, 4, &image.pixels).unwrap();
    assert_eq!(
        (font.advance('É'), font.advance('i'), font.advance(' ')),
        (7, 2, 5)
    );
    assert_eq!(
        drawn(&font, "É", (5, 6)),
        [".....", ".....", ".###.", "..#..", "..#..", "..#.."]
    );
}

/// A small, fast, seeded generator: the same bytes every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `base` changed a few ways at random: bytes flipped, lines dropped, doubled or swapped,
/// numbers replaced by extreme ones, the end cut off.
fn mutate(rng: &mut XorShift, base: &str) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "0",
        "-1",
        "65",
        "1024",
        "1025",
        "-1025",
        "99999999999",
        "64",
        "65535",
        "x",
        "",
        "FF",
        "ENDCHAR",
        "BITMAP",
        "STARTCHAR a",
        "ENDFONT",
        "U+10FFFF",
        "é",
        "chars 0 0",
        "grid 1 1",
        "glyph A 0 0 64 1024",
        "kern A A 1024",
    ];
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let n = lines.len().max(1);
        match rng.below(6) {
            0 if !lines.is_empty() => {
                lines.remove(rng.below(n));
            }
            1 if !lines.is_empty() => {
                let l = lines[rng.below(n)].clone();
                lines.insert(rng.below(n), l);
            }
            2 if !lines.is_empty() => {
                let (a, b) = (rng.below(n), rng.below(n));
                lines.swap(a, b);
            }
            3 if !lines.is_empty() => {
                let i = rng.below(n);
                let mut words: Vec<String> = lines[i].split(' ').map(str::to_string).collect();
                let w = rng.below(words.len());
                words[w] = WORDS[rng.below(WORDS.len())].to_string();
                lines[i] = words.join(" ");
            }
            4 => lines.insert(rng.below(n), WORDS[rng.below(WORDS.len())].to_string()),
            _ => lines.truncate(rng.below(n)),
        }
    }
    let mut bytes = lines.join("\n").into_bytes();
    if rng.below(4) == 0 && !bytes.is_empty() {
        let i = rng.below(bytes.len());
        bytes[i] ^= 1 << rng.below(8);
    }
    bytes
}

/// A font read from anything either works, or fails with one line naming the file.
#[track_caller]
fn check(result: Result<Font, FontError>, input: &[u8]) {
    match result {
        Ok(font) => {
            // A font that reads can measure and draw anything without panicking.
            let _ = font.measure("Ag é?\n╬", TextStyle::new());
            let _ = drawn(&font, "AgLT é\n?", (24, 24));
        }
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.starts_with("fuzz"),
                "{message} for {:?}",
                String::from_utf8_lossy(input)
            );
            assert!(!message.contains('\n'), "{message:?}");
        }
    }
}

#[test]
fn random_and_mutated_font_files_never_panic() {
    let mut rng = XorShift(0x5eed_f0a7);
    let image = sheet_picture();
    for round in 0..20_000 {
        let input = match round % 4 {
            0 => (0..rng.below(200)).map(|_| rng.next() as u8).collect(),
            1 => {
                // Random bytes after a valid start, so the parsers get past their headers.
                let head: &[u8] = if rng.below(2) == 0 {
                    b"STARTFONT 2.1\n"
                } else {
                    b"bt-font 1\n"
                };
                let mut v = head.to_vec();
                v.extend((0..rng.below(200)).map(|_| b" \n0123456789ABCDEFx-="[rng.below(21)]));
                v
            }
            2 => mutate(&mut rng, BDF),
            _ => mutate(&mut rng, SHEET),
        };
        check(Font::from_bdf("fuzz.bdf", &input), &input);
        if let Ok(text) = std::str::from_utf8(&input) {
            check(
                Font::from_sheet("fuzz.txt", text, image.width, image.height, &image.pixels),
                &input,
            );
        }
    }
}

/// BDF fonts others made, read when there are some: the directory `BT_TEST_BDF_DIR` names, or
/// the X11 fonts a Debian system may have (xfonts-base). None ship with BT.
#[test]
fn public_bdf_fonts_read_when_present() {
    let dirs: Vec<std::path::PathBuf> = std::env::var_os("BT_TEST_BDF_DIR")
        .map(Into::into)
        .into_iter()
        .chain([std::path::PathBuf::from("/usr/share/fonts/X11/misc")])
        .collect();
    let mut read = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "bdf") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let name = path.display().to_string();
            let font = Font::from_bdf(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
            assert!(font.chars().count() > 90, "{name}");
            assert!(font.measure("Hello", TextStyle::new()).0 > 0, "{name}");
            read += 1;
            // The misc-fixed 6x13 font is where the system font's ASCII came from: the same
            // pixels, character for character.
            if path.file_name().is_some_and(|n| n == "6x13.bdf") {
                for c in (32u8..127).map(char::from) {
                    assert_eq!(
                        drawn(&font, &c.to_string(), (6, 14)),
                        drawn(Font::system(), &c.to_string(), (6, 14)),
                        "{c:?}"
                    );
                }
            }
        }
    }
    if read == 0 {
        eprintln!("no BDF fonts found: set BT_TEST_BDF_DIR to a folder of them to read some");
    }
}
