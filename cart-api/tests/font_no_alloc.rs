//! Text in any font allocates nothing per frame: printing with the built-in and loaded fonts,
//! formatted, wrapped, aligned and scaled (formatted text too), measuring and breaking into
//! lines.

use bt::host::Console;
use bt::{Align, Font, Settings, TextStyle};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// A BDF font of one glyph, `A`, with `?` as its fallback.
const BDF: &str = "STARTFONT 2.1\nFONTBOUNDINGBOX 3 3 0 0\nSTARTPROPERTIES 2\nFONT_ASCENT 3\n\
FONT_DESCENT 1\nENDPROPERTIES\nSTARTCHAR A\nENCODING 65\nDWIDTH 4 0\nBBX 3 3 0 0\nBITMAP\n\
40\nA0\nE0\nENDCHAR\nSTARTCHAR q\nENCODING 63\nDWIDTH 4 0\nBBX 3 1 0 1\nBITMAP\nE0\nENDCHAR\n\
ENDFONT\n";

#[test]
fn printing_with_fonts_does_not_allocate() {
    let loaded = Font::from_bdf("a.bdf", BDF.as_bytes()).unwrap();
    let mut con = Console::new(&Settings::default(), 0);
    let text = "The quick brown fox jumps over the lazy dog. Ünïcödé ╔═╗ ░▒▓\nA second line";
    let frame = |con: &mut Console, t: u64| {
        let mut r = con.render_context(t, 0.0);
        let wrap = TextStyle::new().wrap(150 + (t % 40) as i32);
        for (i, font) in [Font::system(), Font::small(), &loaded]
            .into_iter()
            .enumerate()
        {
            let y = i as i32 * 70;
            r.print_font(font, 3, y, format_args!("tick {t}: {}", t * 7), 7);
            r.print_styled(font, 0, y + 10, text, 8, wrap.align(Align::Center));
            r.print_styled(font, 0, y + 40, text, 9, wrap.align(Align::Right).scale(2));
            r.print_styled(font, 0, y + 60, format_args!("{text} {t:02}"), 9, wrap);
            let (w, h) = font.measure(text, wrap);
            let lines = font.lines(text, wrap).count();
            assert!(w > 0 && h > 0 && lines > 1);
        }
        r.print(0, 230, format_args!("{t}"), 7);
    };
    for t in 0..3 {
        frame(&mut con, t);
    }
    let n = GLOBAL.allocations_during(|| {
        for t in 3..60 {
            frame(&mut con, t);
        }
    });
    assert_eq!(n, 0, "allocations in 57 warm frames");
    assert!(
        GLOBAL.allocations_during(|| drop(std::hint::black_box(vec![1u8; 9]))) > 0,
        "the counter counts"
    );
}
