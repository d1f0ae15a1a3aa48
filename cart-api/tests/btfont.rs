//! BLIT386's `.btfont` fonts: read as they are through the host's loader, placed by their
//! boxes, offsets and advances, coloured glyphs drawn in their own colours or tinted, and
//! every bad file refused with one line naming the file and the field.

use std::cell::RefCell;

use bt::host::{Console, ImageLoader, IndexedImage, RgbaImage};
use bt::{AssetError, AssetErrorKind, ColorMatch, Font, Settings, TextStyle};

/// The glyph picture, 8 x 4, as palette indices: an `A`-ish box in colours 2 and 3, a `B`-ish
/// staircase in colour 2.
const PICTURE: [&str; 4] = ["23220000", "30322000", "23222200", "00000000"];

fn indexed(rows: &[&str]) -> IndexedImage {
    IndexedImage {
        width: rows[0].len() as u32,
        height: rows.len() as u32,
        pixels: rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| b - b'0'))
            .collect(),
    }
}

/// The picture as RGBA: white where an index is not 0.
fn rgba(image: &IndexedImage) -> RgbaImage {
    RgbaImage {
        width: image.width,
        height: image.height,
        pixels: image
            .pixels
            .iter()
            .flat_map(|&i| if i == 0 { [0; 4] } else { [255; 4] })
            .collect(),
    }
}

/// `A`: 3 x 3 at (0, 0), drawn 1 px down, advance 4. `B`: 3 x 3 at (3, 0), drawn 1 px right,
/// advance 5. Line 5.
fn btfont(texture: &str) -> String {
    format!(
        r#"{{
  "name": "Tiny",
  "size": 4,
  "lineHeight": 5,
  "baseline": 4,
  "texture": "{texture}",
  "glyphs": {{
    "A": {{ "x": 0, "y": 0, "w": 3, "h": 3, "ox": 0, "oy": 1, "adv": 4 }},
    "B": {{ "x": 3, "y": 0, "w": 3, "h": 3, "ox": 1, "oy": 0, "adv": 5 }}
  }}
}}"#
    )
}

/// PICO-8's red (slot 8), blue (12), white (7) and peach (15), a red a little off (nearest
/// slot 8), black (slot 0's colour, nearest slot 1 when 0 is left out), and white less than
/// half opaque.
const RED: [u8; 4] = [0xff, 0x00, 0x4d, 255];
const BLUE: [u8; 4] = [0x29, 0xad, 0xff, 255];
const WHITE: [u8; 4] = [0xff, 0xf1, 0xe8, 255];
const PEACH: [u8; 4] = [0xff, 0xcc, 0xaa, 255];
const OFF_RED: [u8; 4] = [0xf0, 0x00, 0x50, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];
const FAINT: [u8; 4] = [255, 255, 255, 100];

/// An RGBA picture of several colours, 8 x 4 like [`PICTURE`]: `A`'s box holds red, blue,
/// off-red, black, white and peach, with a see-through and a faint pixel; `B`'s is empty.
fn colours() -> RgbaImage {
    let clear = [0; 4];
    let rows = [
        [RED, BLUE, clear, clear, clear, clear, clear, clear],
        [OFF_RED, clear, BLACK, clear, clear, clear, clear, clear],
        [FAINT, WHITE, PEACH, clear, clear, clear, clear, clear],
        [clear; 8],
    ];
    RgbaImage {
        width: 8,
        height: 4,
        pixels: rows.iter().flatten().flatten().copied().collect(),
    }
}

/// A stand-in for the runtime's loader. "PNG" files: `IDX` is the indexed picture, `ONE` an
/// indexed picture of colour 1 only, `RGBA` the picture as RGBA (not indexed), `BIG` an
/// indexed picture using colour 200, `COL` an RGBA picture of several colours
/// ([`colours`]). `fonts/bad.btfont` is whatever the test sets.
struct Files {
    bad: RefCell<String>,
}

impl ImageLoader for Files {
    fn load(&self, path: &str) -> Result<RgbaImage, AssetError> {
        let bytes = self.read(path)?;
        self.decode(path, &bytes)
    }
    fn decode(&self, name: &str, bytes: &[u8]) -> Result<RgbaImage, AssetError> {
        match bytes {
            b"IDX" | b"RGBA" => Ok(rgba(&indexed(&PICTURE))),
            b"COL" => Ok(colours()),
            _ => Err(AssetError::new(
                name,
                AssetErrorKind::NotPng("no PNG signature".into()),
            )),
        }
    }
    fn decode_indices(&self, name: &str, bytes: &[u8]) -> Result<IndexedImage, AssetError> {
        match bytes {
            b"IDX" => Ok(indexed(&PICTURE)),
            b"ONE" => Ok(indexed(&["11110000", "10010000", "11110000", "00000000"])),
            b"BIG" => {
                let mut image = indexed(&PICTURE);
                image.pixels[0] = 200;
                Ok(image)
            }
            b"RGBA" | b"COL" => Err(AssetError::new(
                name,
                AssetErrorKind::NotIndexed("RGBA".into()),
            )),
            _ => Err(AssetError::new(
                name,
                AssetErrorKind::NotPng("no PNG signature".into()),
            )),
        }
    }
    fn read(&self, path: &str) -> Result<Vec<u8>, AssetError> {
        let bytes: &[u8] = match path {
            "fonts/tiny.btfont" => return Ok(btfont("tiny.png").into_bytes()),
            "fonts/plain.btfont" => return Ok(btfont("plain.png").into_bytes()),
            "fonts/one.btfont" => return Ok(btfont("one.png").into_bytes()),
            "fonts/colours.btfont" => return Ok(btfont("colours.png").into_bytes()),
            "fonts/plus.bdf" => return Ok(b"STARTFONT 2.1\nCHARS 0\nENDFONT\n".to_vec()),
            "fonts/sheet.txt" => return Ok(b"bt-font 1\nimage plain.png\n".to_vec()),
            // "IDX" in base64.
            "fonts/inline.btfont" => return Ok(btfont("data:image/png;base64,SURY").into_bytes()),
            "fonts/bad.btfont" => return Ok(self.bad.borrow().clone().into_bytes()),
            "fonts/tiny.png" => b"IDX",
            "fonts/plain.png" => b"RGBA",
            "fonts/one.png" => b"ONE",
            "fonts/big.png" => b"BIG",
            "fonts/colours.png" => b"COL",
            _ => return Err(AssetError::new(path, AssetErrorKind::NotFound)),
        };
        Ok(bytes.to_vec())
    }
}

fn console() -> Console {
    let mut con = Console::new(&Settings::default().display(9, 5), 0);
    con.set_image_loader(Box::new(Files {
        bad: RefCell::new(String::new()),
    }));
    con
}

fn load(con: &mut Console, path: &str) -> Font {
    con.update_context(0).load_font(path).unwrap()
}

/// The framebuffer after `draw`, one digit (the palette index, `.` for 0) a pixel.
fn drawn(con: &mut Console, draw: impl FnOnce(&mut bt::Render<'_>)) -> Vec<String> {
    {
        let mut ctx = con.render_context(0, 0.0);
        ctx.clear(0);
        draw(&mut ctx);
    }
    let fb = con.framebuffer();
    (0..5)
        .map(|y| {
            (0..9)
                .map(|x| match fb.get(x, y) {
                    Some(0) | None => '.',
                    Some(i) => char::from_digit(u32::from(i), 36).unwrap_or('?'),
                })
                .collect()
        })
        .collect()
}

const COLOURED: [&str; 5] = [
    ".....2...",
    "232..22..",
    "3.3..222.",
    "232......",
    ".........",
];

#[test]
fn a_coloured_btfont_draws_its_own_colours_at_its_offsets() {
    let mut con = console();
    let font = load(&mut con, "fonts/tiny.btfont");
    assert!(font.is_colored());
    assert_eq!(font.line_height(), 5);
    assert_eq!((font.advance('A'), font.advance('B')), (4, 5));
    assert_eq!(font.measure("AB", TextStyle::new()), (9, 5));
    assert!(!font.has_glyph('C'));
    assert_eq!(
        font.advance('C'),
        0,
        "no U+FFFD: a missing character is skipped"
    );
    let got = drawn(&mut con, |ctx| ctx.print_font(&font, 0, 0, "AB", 7));
    assert_eq!(got, COLOURED, "the colour passed is not used");
}

#[test]
fn a_coloured_btfont_tints_to_one_colour_when_asked() {
    let mut con = console();
    let font = load(&mut con, "fonts/tiny.btfont");
    let tinted = drawn(&mut con, |ctx| {
        ctx.print_styled(&font, 0, 0, "AB", 7, TextStyle::new().tint())
    });
    let want: Vec<String> = COLOURED
        .iter()
        .map(|r| r.replace(['2', '3'], "7"))
        .collect();
    assert_eq!(tinted, want);
    let inline = load(&mut con, "fonts/inline.btfont");
    assert_eq!(
        drawn(&mut con, |ctx| ctx.print_font(&inline, 0, 0, "AB", 7)),
        COLOURED,
        "the data-URI picture is the same picture"
    );
}

#[test]
fn an_rgba_or_one_colour_btfont_draws_in_the_colour_passed() {
    let mut con = console();
    for path in ["fonts/plain.btfont", "fonts/one.btfont"] {
        let font = load(&mut con, path);
        assert!(!font.is_colored(), "{path}");
        let got = drawn(&mut con, |ctx| ctx.print_font(&font, 0, 0, "A", 9));
        assert!(
            got.iter().all(|r| r.chars().all(|c| c == '.' || c == '9')),
            "{path}: {got:?}"
        );
        assert_eq!(got[1], "999......", "{path}: A's top row, 1 px down");
    }
}

#[test]
fn a_several_coloured_rgba_btfont_draws_its_colours_matched_to_the_palette() {
    let mut con = console();
    let font = load(&mut con, "fonts/colours.btfont");
    assert!(font.is_colored());
    let got = drawn(&mut con, |ctx| ctx.print_font(&font, 0, 0, "AB", 9));
    // Red, blue: their slots; off-red: the nearest, red; black: slot 0 is no ink, so the
    // nearest other, dark blue; the see-through and the faint pixels: no ink.
    assert_eq!(
        got,
        [
            ".........",
            "8c.......",
            "8.1......",
            ".7f......",
            "........."
        ],
        "the colour passed is not used"
    );
    let tinted = drawn(&mut con, |ctx| {
        ctx.print_styled(&font, 0, 0, "A", 9, TextStyle::new().tint())
    });
    assert_eq!(tinted[1..4], ["99.......", "9.9......", ".99......"]);
}

#[test]
fn load_font_matched_takes_the_slots_and_the_rule_it_is_given() {
    let mut con = console();
    let ctx = con.update_context(0);
    let err = ctx
        .load_font_matched("fonts/colours.btfont", 1..=15, ColorMatch::Exact)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "fonts/colours.btfont -> colours.png: the colour #f00050 at pixel (0, 1) is in none of \
         palette slots 1 to 15"
    );
    // Nearest among 8 to 12 only: red and blue keep their slots, off-red goes to red, white
    // and peach to yellow, black to green.
    let font = ctx
        .load_font_matched("fonts/colours.btfont", 8..=12, ColorMatch::Nearest)
        .unwrap();
    // The picture of one colour, #ffffff, is coloured too when matched: not quite PICO-8's
    // white, refused exactly, slot 7 nearest.
    let plain = ctx
        .load_font_matched("fonts/plain.btfont", 0..=15, ColorMatch::Exact)
        .unwrap_err();
    assert_eq!(
        plain.to_string(),
        "fonts/plain.btfont -> plain.png: the colour #ffffff at pixel (0, 0) is in none of \
         palette slots 0 to 15"
    );
    let one = ctx
        .load_font_matched("fonts/plain.btfont", 1..=15, ColorMatch::Nearest)
        .unwrap();
    assert!(one.is_colored());
    for (path, want) in [
        (
            "fonts/plus.bdf",
            "fonts/plus.bdf:1: file: a BDF font has no colours to match: load it with load_font",
        ),
        (
            "fonts/sheet.txt",
            "fonts/sheet.txt:1: file: a sheet font (its picture's colours are not read) has no \
             colours to match: load it with load_font",
        ),
    ] {
        let e = ctx.load_font_matched(path, 1..=15, ColorMatch::Nearest);
        assert_eq!(e.unwrap_err().to_string(), want);
    }
    let got = drawn(&mut con, |ctx| ctx.print_font(&font, 0, 0, "A", 9));
    assert_eq!(got[1..4], ["8c.......", "8.b......", ".aa......"]);
    let got = drawn(&mut con, |ctx| ctx.print_font(&one, 0, 0, "A", 9));
    assert_eq!(got[1..4], ["777......", "7.7......", "777......"]);
}

#[test]
fn decode_font_reads_a_btfont_with_its_picture_embedded() {
    let mut con = console();
    let (font, colours, err) = {
        let ctx = con.update_context(0);
        // "IDX" and "COL" in base64: the indexed picture, and the RGBA one of several colours.
        let font = ctx.decode_font("tiny", btfont("data:image/png;base64,SURY").as_bytes());
        let colours = ctx.decode_font(
            "colours.btfont",
            btfont("data:image/png;base64,Q09M").as_bytes(),
        );
        let err = ctx.decode_font("tiny.btfont", btfont("tiny.png").as_bytes());
        (font.unwrap(), colours.unwrap(), err.unwrap_err())
    };
    assert_eq!(
        drawn(&mut con, |ctx| ctx.print_font(&font, 0, 0, "AB", 7)),
        COLOURED
    );
    assert!(colours.is_colored());
    let got = drawn(&mut con, |ctx| ctx.print_font(&colours, 0, 0, "A", 9));
    assert_eq!(got[1..4], ["8c.......", "8.1......", ".7f......"]);
    assert_eq!(
        err.to_string(),
        "tiny.btfont:6: texture: \"tiny.png\" names a file, which a font in memory cannot \
         read: embed the picture as a data:image/png;base64, URI, or load the font with \
         load_font"
    );
}

/// The error loading `fonts/bad.btfont` holding `text`.
fn error(text: &str) -> String {
    let mut con = Console::new(&Settings::default(), 0);
    let files = Files {
        bad: RefCell::new(text.to_string()),
    };
    con.set_image_loader(Box::new(files));
    let err = con
        .update_context(0)
        .load_font("fonts/bad.btfont")
        .unwrap_err()
        .to_string();
    assert!(!err.contains('\n'), "one line: {err}");
    err
}

#[test]
fn bad_btfont_files_are_named_with_their_field() {
    let good = btfont("tiny.png");
    let cases: Vec<(String, &str)> = vec![
        (
            "{\"texture\": \"tiny.png\", \"glyphs\": {".into(),
            "fonts/bad.btfont:1: JSON: column 36: expected a field name in double quotes",
        ),
        (
            "[1, 2]".into(),
            "fonts/bad.btfont:1: file: a .btfont file is a JSON object, not an array",
        ),
        (
            "{\"glyphs\": {}}".into(),
            "fonts/bad.btfont:1: texture: missing: the glyphs' picture",
        ),
        (
            "{\"texture\": \"tiny.png\"}".into(),
            "fonts/bad.btfont:1: glyphs: missing: the glyph map",
        ),
        (
            good.replace(", \"adv\": 4", ""),
            "fonts/bad.btfont:8: glyphs.\"A\".adv: missing",
        ),
        (
            good.replace("\"x\": 3", "\"x\": 7"),
            "fonts/bad.btfont:9: glyphs.\"B\": the box 3x3 at (7, 0) reaches past the 8x4 \
             picture",
        ),
        (
            good.replace("\"h\": 3, \"ox\": 1", "\"h\": 5000, \"ox\": 1"),
            "fonts/bad.btfont:9: glyphs.\"B\".h: 5000 is not a whole number from 0 to 1024",
        ),
        (
            good.replace(
                "\"w\": 3, \"h\": 3, \"ox\": 1",
                "\"w\": 65, \"h\": 3, \"ox\": 1",
            ),
            "fonts/bad.btfont:9: glyphs.\"B\".w: 65 is not a whole number from 0 to 64",
        ),
        (
            good.replace(
                "\"y\": 0, \"w\": 3, \"h\": 3, \"ox\": 1",
                "\"y\": \"0\", \"w\": 3, \"h\": 3, \"ox\": 1",
            ),
            "fonts/bad.btfont:9: glyphs.\"B\".y: must be a number, not a string",
        ),
        (
            good.replace("\"ox\": 0, \"oy\": 1", "\"ox\": 0.5, \"oy\": 1"),
            "fonts/bad.btfont:8: glyphs.\"A\".ox: 0.5 is not a whole number from -1024 to 1024",
        ),
        (
            good.replace("\"B\":", "\"BC\":"),
            "fonts/bad.btfont:9: glyphs.\"BC\": a glyph's key is one character",
        ),
        (
            good.replace("\"baseline\": 4,", "\"kerning\": [],"),
            "fonts/bad.btfont:5: \"kerning\": not a .btfont field (name, size, lineHeight, \
             baseline, texture, glyphs)",
        ),
        (
            good.replace("\"lineHeight\": 5", "\"lineHeight\": 0"),
            "fonts/bad.btfont:4: lineHeight: 0 is not a whole number from 1 to 1024",
        ),
        (
            btfont("data:image/jpeg;base64,SURY"),
            "fonts/bad.btfont:6: texture: an embedded picture must start data:image/png;base64,",
        ),
        (
            btfont("data:image/png;base64,SU*Y"),
            "fonts/bad.btfont:6: texture: not base64: a bad character at offset 2",
        ),
        (
            btfont("lost.png"),
            "fonts/bad.btfont -> lost.png: file not found",
        ),
        (
            btfont("big.png"),
            "fonts/bad.btfont -> big.png: colour number 200 is past the palette's 16 slots \
             (load it with load_image, or give the cart a larger palette)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(error(&text), want, "for:\n{text}");
    }
}
