//! The window's end of `bt dev`: a `bt run --dev-link DIR` window takes the `bt dev` process's
//! orders on its standard input, one a line, and keeps its place on the screen in `DIR` so the
//! program that replaces it opens where it was.
//!
//! The orders ([`DevOrder`]): `notice TEXT` shows TEXT across the top (a failed build's first
//! error), `notice` alone clears it, and `close` ends the run the way closing the window does,
//! writing its recording, which the next program continues from. The input ending (the `bt dev`
//! process gone) closes it too, so no window outlives its `bt dev`.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};

use crate::config::read::{read_text, MAX_TEXT_FILE};
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::window::{Window, WindowAttributes};

/// The order to show a notice (followed by a space and its text), or with nothing after it, to
/// clear it.
pub const NOTICE: &str = "notice";

/// The order to close the window, writing the recording.
pub const CLOSE: &str = "close";

/// The file in the link's folder that keeps the window's place.
const PLACE_FILE: &str = "window";

/// The file in the link's folder that is there when the run was paused as its window closed:
/// the program that replaces it opens paused too.
const PAUSED_FILE: &str = "paused";

/// What `bt dev` asks of the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DevOrder {
    /// Show this across the top of the picture.
    Notice(String),
    /// Take the notice away.
    ClearNotice,
    /// End the run as the player's close does.
    Close,
}

impl DevOrder {
    /// The order a line says, or `None` for a line that says none (it is ignored).
    pub fn parse(line: &str) -> Option<DevOrder> {
        let line = line.trim_end_matches(['\r', '\n']);
        if line == CLOSE {
            return Some(DevOrder::Close);
        }
        match line.strip_prefix(NOTICE)? {
            "" => Some(DevOrder::ClearNotice),
            text => text
                .strip_prefix(' ')
                .map(|t| DevOrder::Notice(t.to_string())),
        }
    }
}

/// Where a window is and how large its picture area is, in physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The window's outer top-left corner on the screen.
    pub x: i32,
    /// See `x`.
    pub y: i32,
    /// Its inner width and height.
    pub width: u32,
    /// See `width`.
    pub height: u32,
}

impl Place {
    /// Reads `x y width height`, as [`Place::to_line`] writes it; `None` for anything else,
    /// or a size of nothing.
    pub fn parse(text: &str) -> Option<Place> {
        let mut words = text.split_whitespace();
        let place = Place {
            x: words.next()?.parse().ok()?,
            y: words.next()?.parse().ok()?,
            width: words.next()?.parse().ok()?,
            height: words.next()?.parse().ok()?,
        };
        (words.next().is_none() && place.width > 0 && place.height > 0).then_some(place)
    }

    /// `x y width height`.
    pub fn to_line(self) -> String {
        format!("{} {} {} {}\n", self.x, self.y, self.width, self.height)
    }
}

/// The link to `bt dev`: its orders, read from standard input on a thread of their own, and the
/// folder where the window's place is kept.
#[derive(Debug)]
pub struct DevLink {
    orders: Receiver<DevOrder>,
    dir: PathBuf,
}

impl DevLink {
    /// Starts reading orders from standard input.
    pub fn start(dir: &Path) -> DevLink {
        let (tx, orders) = mpsc::channel();
        let read = move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if let Some(order) = DevOrder::parse(&line) {
                    if tx.send(order).is_err() {
                        return;
                    }
                }
            }
            // The input ended: `bt dev` is gone, and its window goes with it.
            let _ = tx.send(DevOrder::Close);
        };
        if std::thread::Builder::new()
            .name("bt-dev-link".into())
            .spawn(read)
            .is_err()
        {
            eprintln!("bt: cannot read bt dev's orders; the window plays on by itself");
        }
        DevLink {
            orders,
            dir: dir.to_path_buf(),
        }
    }

    /// The next order, if one came.
    pub fn next(&self) -> Option<DevOrder> {
        self.orders.try_recv().ok()
    }

    /// `attrs` with the place the window before this one had, when it left one.
    pub fn placed(&self, attrs: WindowAttributes) -> WindowAttributes {
        let kept = read_text(&self.dir.join(PLACE_FILE), MAX_TEXT_FILE).ok();
        match kept.as_deref().and_then(Place::parse) {
            Some(p) => attrs
                .with_position(PhysicalPosition::new(p.x, p.y))
                .with_inner_size(PhysicalSize::new(p.width, p.height)),
            None => attrs,
        }
    }

    /// Whether the run before this one was paused when its window closed for the swap
    /// ([`DevLink::keep_paused`]): this one then opens paused at the same update.
    pub fn was_paused(&self) -> bool {
        self.dir.join(PAUSED_FILE).is_file()
    }

    /// Keeps whether the run is `paused` for the program after this one, so a swap never
    /// starts a game the player had paused.
    pub fn keep_paused(&self, paused: bool) {
        let path = self.dir.join(PAUSED_FILE);
        let kept = if paused {
            std::fs::write(&path, "paused\n")
        } else {
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        };
        if let Err(e) = kept {
            eprintln!("bt: whether the run is paused is not kept: {e}");
        }
    }

    /// Keeps `window`'s place for the program after this one. A place that cannot be asked or
    /// written is left out: the next window then opens where the system puts it.
    pub fn keep_place(&self, window: &Window) {
        let Ok(at) = window.outer_position() else {
            return;
        };
        let size = window.inner_size();
        let place = Place {
            x: at.x,
            y: at.y,
            width: size.width,
            height: size.height,
        };
        if let Err(e) = std::fs::write(self.dir.join(PLACE_FILE), place.to_line()) {
            eprintln!("bt: the window's place is not kept: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_read_one_a_line() {
        assert_eq!(
            DevOrder::parse("notice error[E0308]: mismatched types"),
            Some(DevOrder::Notice("error[E0308]: mismatched types".into()))
        );
        assert_eq!(DevOrder::parse("notice"), Some(DevOrder::ClearNotice));
        assert_eq!(DevOrder::parse("close\r\n"), Some(DevOrder::Close));
        assert_eq!(DevOrder::parse("noticed"), None, "not the notice order");
        assert_eq!(DevOrder::parse(""), None);
        assert_eq!(DevOrder::parse("closer"), None);
    }

    #[test]
    fn a_paused_run_is_kept_paused_for_the_next_program_and_a_playing_one_is_not() {
        let dir = std::env::temp_dir().join(format!("bt-dev-link-paused-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // As `start` makes it, without reading standard input.
        let link = |dir: &Path| DevLink {
            orders: mpsc::channel().1,
            dir: dir.to_path_buf(),
        };
        assert!(!link(&dir).was_paused(), "the first program plays");
        link(&dir).keep_paused(true);
        assert!(link(&dir).was_paused());
        link(&dir).keep_paused(false);
        assert!(!link(&dir).was_paused());
        link(&dir).keep_paused(false);
        assert!(!link(&dir).was_paused(), "twice is the same");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_place_is_written_and_read_back() {
        let p = Place {
            x: -20,
            y: 40,
            width: 960,
            height: 720,
        };
        assert_eq!(Place::parse(&p.to_line()), Some(p));
        assert_eq!(Place::parse("1 2 3"), None);
        assert_eq!(Place::parse("1 2 0 4"), None, "no size");
        assert_eq!(Place::parse("1 2 3 4 5"), None);
        assert_eq!(Place::parse("a b c d"), None);
    }
}
