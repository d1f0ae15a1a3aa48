//! A font file: a BDF font (`Font::from_bdf`) or a `bt-font 1` sheet description
//! (`Font::from_sheet`, over a fixed 8 x 8 picture) is read into a font or refused with one
//! line naming the file, never a panic; a font read measures and prints anything.
//! Input: a first byte choosing the reader (even: BDF, odd: sheet), then the file.
#![no_main]

use bt::host::Console;
use bt::{Align, Font, Settings, TextStyle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, file)) = data.split_first() else {
        return;
    };
    let read = if which % 2 == 0 {
        Font::from_bdf("fuzz.bdf", file)
    } else {
        let Ok(text) = std::str::from_utf8(file) else {
            return;
        };
        // A picture with ink on every other pixel.
        let picture: Vec<u8> = (0..64)
            .flat_map(|i| [255, 255, 255, if i % 2 == 0 { 255 } else { 0 }])
            .collect();
        Font::from_sheet("fuzz.txt", text, 8, 8, &picture)
    };
    match read {
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz."), "{message}");
            assert!(!message.contains('\n'), "one line: {message:?}");
        }
        Ok(font) => {
            let text = "Aa é?\n╬ the end";
            let style = TextStyle::new().wrap(20).align(Align::Center).scale(2);
            // A size is a pair of `u32`s: only the height can be checked for being above 0.
            let (_, h) = font.measure(text, style);
            assert!(h > 0);
            let mut con = Console::new(&Settings::default().display(64, 64), 0);
            let mut ctx = con.render_context(0, 0.0);
            ctx.print_styled(&font, -3, -2, text, 7, style);
            ctx.print_font(&font, 10, 50, text, 8);
        }
    }
});
