//! Golden pictures: a frame compared pixel by pixel with a reviewed PNG.
//!
//! One rule everywhere, for a cart's own tests ([`CartTest::assert_golden`]) and for BT's:
//!
//! - `BT_UPDATE_GOLDEN` set to anything but empty or `0` rewrites the picture and passes;
//! - a missing picture is written and the test passes, except under `CI`, where it fails (so a
//!   picture nobody committed cannot pass in CI);
//! - otherwise the pixels are compared (not the PNG bytes, so an encoder upgrade changes
//!   nothing). On a difference the new frame is saved beside the reference as `NAME.actual.png`
//!   and a picture of the difference as `NAME.diff.png`: the reference, dimmed, with every
//!   differing pixel in magenta. The message gives the first differing pixel, the count and
//!   their bounding box.
//!
//! A line saying a picture was written goes straight to the process's stderr, so it shows even
//! when the test harness captures what tests print.
//!
//! [`CartTest::assert_golden`]: super::CartTest::assert_golden

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The variable that rewrites golden pictures.
pub const UPDATE_GOLDEN: &str = "BT_UPDATE_GOLDEN";

/// Whether `BT_UPDATE_GOLDEN` asks for pictures to be rewritten: set, not empty and not `0`.
pub fn update_requested() -> bool {
    std::env::var_os(UPDATE_GOLDEN).is_some_and(|v| !v.is_empty() && v != "0")
}

/// A picture as straight RGBA bytes, row by row.
#[derive(Debug, Clone, Copy)]
pub struct Rgba<'a> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub pixels: &'a [u8],
}

/// What [`check`] did when the frame matched or was accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The frame equals the reference.
    Matched,
    /// The reference was written (missing, or a rewrite was asked for).
    Written(PathBuf),
}

/// Why a frame did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// A one-paragraph explanation: what differs and where to look.
    pub message: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks `picture` against the PNG at `reference` under the module's rule.
///
/// # Errors
/// A [`Mismatch`] when the pixels or the size differ, when the reference is missing under
/// `CI`, or when it cannot be read or written.
pub fn check(reference: &Path, picture: Rgba<'_>) -> Result<Outcome, Mismatch> {
    let rule = Rule {
        update: update_requested(),
        ci: std::env::var_os("CI").is_some(),
    };
    check_under(rule, reference, picture)
}

/// What the environment asks of [`check`].
#[derive(Debug, Clone, Copy)]
struct Rule {
    /// `BT_UPDATE_GOLDEN` asks for a rewrite.
    update: bool,
    /// Running under CI: a missing picture fails.
    ci: bool,
}

fn check_under(rule: Rule, reference: &Path, picture: Rgba<'_>) -> Result<Outcome, Mismatch> {
    let expected_len = picture.width as usize * picture.height as usize * 4;
    if picture.pixels.len() != expected_len {
        return Err(Mismatch {
            message: format!(
                "the frame holds {} bytes, not the {expected_len} of {}x{} RGBA",
                picture.pixels.len(),
                picture.width,
                picture.height
            ),
        });
    }
    let missing = !reference.exists();
    if rule.update || (missing && !rule.ci) {
        write_png(reference, picture).map_err(|message| Mismatch { message })?;
        announce(&format!(
            "wrote golden picture {}; look at it, then commit it",
            crate::quote::path(reference)
        ));
        return Ok(Outcome::Written(reference.to_path_buf()));
    }
    if missing {
        return Err(Mismatch {
            message: format!(
                "golden picture {} is missing (run the test once outside CI, or with \
                 {UPDATE_GOLDEN}=1, look at it and commit it)",
                crate::quote::path(reference)
            ),
        });
    }
    let refused = |why: String| Mismatch {
        message: format!("golden picture {}: {why}", crate::quote::path(reference)),
    };
    let bytes =
        crate::config::read::read_file(reference, crate::config::png_loader::MAX_ASSET_BYTES)
            .map_err(|e| refused(format!("could not read it: {e}")))?;
    let want = {
        use bt::host::ImageLoader as _;
        crate::config::assets::Assets(crate::config::assets::Paths)
            .decode(&crate::quote::path(reference), &bytes)
            .map_err(|e| refused(e.to_string()))?
    };
    let actual_path = beside(reference, "actual");
    if (want.width, want.height) != (picture.width, picture.height) {
        let _ = write_png(&actual_path, picture);
        return Err(Mismatch {
            message: format!(
                "the frame is {}x{}, {} is {}x{}; this frame is in {} ({UPDATE_GOLDEN}=1 \
                 accepts it)",
                picture.width,
                picture.height,
                crate::quote::path(reference),
                want.width,
                want.height,
                crate::quote::path(&actual_path)
            ),
        });
    }
    let Some(diff) = Difference::between(want.pixels.as_slice(), picture) else {
        return Ok(Outcome::Matched);
    };
    let _ = write_png(&actual_path, picture);
    let diff_path = beside(reference, "diff");
    let marked = diff.picture(want.pixels.as_slice(), picture);
    let _ = write_png(
        &diff_path,
        Rgba {
            pixels: &marked,
            ..picture
        },
    );
    let i = diff.first;
    let (x, y) = (i as u32 % picture.width, i as u32 / picture.width);
    Err(Mismatch {
        message: format!(
            "{} of {} pixels differ from {}, within x {}..={}, y {}..={}; the first, ({x}, \
             {y}), is {:?} where the picture has {:?}. This frame is in {}, the differences \
             in magenta in {} ({UPDATE_GOLDEN}=1 accepts it)",
            diff.count,
            picture.width * picture.height,
            crate::quote::path(reference),
            diff.min.0,
            diff.max.0,
            diff.min.1,
            diff.max.1,
            &picture.pixels[i * 4..i * 4 + 4],
            &want.pixels.as_slice()[i * 4..i * 4 + 4],
            crate::quote::path(&actual_path),
            crate::quote::path(&diff_path)
        ),
    })
}

/// [`check`], panicking with the mismatch's message.
///
/// # Panics
/// When [`check`] fails.
#[track_caller]
pub fn assert_matches(reference: &Path, picture: Rgba<'_>) -> Outcome {
    match check(reference, picture) {
        Ok(outcome) => outcome,
        Err(mismatch) => panic!("{mismatch}"),
    }
}

/// Where the pixels of two same-sized pictures differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference {
    /// Index of the first differing pixel.
    pub first: usize,
    /// How many pixels differ.
    pub count: u64,
    /// The top-left corner of the box around them.
    pub min: (u32, u32),
    /// The bottom-right corner of the box around them (inclusive).
    pub max: (u32, u32),
}

impl Difference {
    /// The differences between `want` (RGBA of the same size) and `got`, or `None` when
    /// every pixel is equal.
    pub fn between(want: &[u8], got: Rgba<'_>) -> Option<Difference> {
        let mut diff: Option<Difference> = None;
        for (i, (w, g)) in want
            .chunks_exact(4)
            .zip(got.pixels.chunks_exact(4))
            .enumerate()
        {
            if w == g {
                continue;
            }
            let (x, y) = (i as u32 % got.width, i as u32 / got.width);
            let d = diff.get_or_insert(Difference {
                first: i,
                count: 0,
                min: (x, y),
                max: (x, y),
            });
            d.count += 1;
            d.min = (d.min.0.min(x), d.min.1.min(y));
            d.max = (d.max.0.max(x), d.max.1.max(y));
        }
        diff
    }

    /// `want` dimmed to a third, with every pixel where `got` differs in opaque magenta.
    pub fn picture(&self, want: &[u8], got: Rgba<'_>) -> Vec<u8> {
        want.chunks_exact(4)
            .zip(got.pixels.chunks_exact(4))
            .flat_map(|(w, g)| {
                if w == g {
                    [w[0] / 3, w[1] / 3, w[2] / 3, 255]
                } else {
                    [255, 0, 255, 255]
                }
            })
            .collect()
    }
}

/// `dir/NAME.png` as `dir/NAME.WHAT.png`.
fn beside(reference: &Path, what: &str) -> PathBuf {
    reference.with_extension(format!("{what}.png"))
}

fn write_png(path: &Path, picture: Rgba<'_>) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    crate::export::png::encode_rgba_png(picture.pixels, picture.width, picture.height)
        .map_err(|e| e.to_string())
        .and_then(|png| std::fs::write(path, png).map_err(|e| e.to_string()))
        .map_err(|e| format!("cannot write {}: {e}", crate::quote::path(path)))
}

/// Writes a line to the process's stderr directly: the test harness captures `eprintln!`, and
/// a picture that was written must be seen.
fn announce(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(pixels: &[u8]) -> Rgba<'_> {
        Rgba {
            width: 3,
            height: 2,
            pixels,
        }
    }

    #[test]
    fn difference_has_the_box_around_every_changed_pixel() {
        let want = [0u8; 24];
        let mut got = [0u8; 24];
        got[4] = 1; // (1, 0)
        got[5 * 4 + 3] = 9; // (2, 1)
        let d = Difference::between(&want, picture(&got)).unwrap();
        assert_eq!((d.first, d.count, d.min, d.max), (1, 2, (1, 0), (2, 1)));
        let marked = d.picture(&want, picture(&got));
        assert_eq!(&marked[4..8], &[255, 0, 255, 255]);
        assert_eq!(&marked[0..4], &[0, 0, 0, 255]);
    }

    const STRICT: Rule = Rule {
        update: false,
        ci: true,
    };

    #[test]
    fn a_changed_frame_fails_and_leaves_the_frame_and_a_diff_beside_the_reference() {
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("frame.png");
        let want = [10u8; 24];
        write_png(&reference, picture(&want)).unwrap();
        assert_eq!(
            check_under(STRICT, &reference, picture(&want)),
            Ok(Outcome::Matched)
        );
        let mut got = want;
        got[3 * 4] = 200; // (0, 1)
        let err = check_under(STRICT, &reference, picture(&got)).unwrap_err();
        assert!(
            err.message.contains("1 of 6 pixels") && err.message.contains("x 0..=0, y 1..=1"),
            "{err}"
        );
        let diff = image::open(dir.path().join("frame.diff.png"))
            .unwrap()
            .to_rgba8();
        assert_eq!(diff.get_pixel(0, 1).0, [255, 0, 255, 255]);
        assert_eq!(diff.get_pixel(1, 1).0, [3, 3, 3, 255]);
        let actual = image::open(dir.path().join("frame.actual.png"))
            .unwrap()
            .to_rgba8();
        assert_eq!(actual.as_raw().as_slice(), &got[..]);
    }

    #[test]
    fn a_missing_picture_fails_under_ci_and_is_written_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("new.png");
        let px = [1u8; 24];
        assert!(check_under(STRICT, &reference, picture(&px)).is_err());
        assert!(!reference.exists());
        let local = Rule {
            update: false,
            ci: false,
        };
        assert_eq!(
            check_under(local, &reference, picture(&px)),
            Ok(Outcome::Written(reference.clone()))
        );
        assert_eq!(
            check_under(STRICT, &reference, picture(&px)),
            Ok(Outcome::Matched)
        );
    }

    #[test]
    fn a_rewrite_replaces_a_different_picture() {
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("old.png");
        write_png(&reference, picture(&[0u8; 24])).unwrap();
        let update = Rule {
            update: true,
            ci: true,
        };
        let px = [5u8; 24];
        assert!(check_under(update, &reference, picture(&px)).is_ok());
        assert_eq!(
            check_under(STRICT, &reference, picture(&px)),
            Ok(Outcome::Matched)
        );
    }

    #[test]
    fn equal_pictures_have_no_difference() {
        let px = [7u8; 24];
        assert_eq!(Difference::between(&px, picture(&px)), None);
    }
}
