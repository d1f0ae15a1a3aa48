//! The interface the page's script calls, in numbers only: the functions [`crate::page!`]
//! exports as `bt_*`, each forwarding here.
//!
//! Text goes in through the *inbox*: the script asks [`inbox`] for room for `len` bytes,
//! writes UTF-8 there, then calls the function with `len`. Text and bytes come out through the
//! *outbox* ([`out_ptr`], [`out_len`]). The picture ([`rgba_ptr`]) and the last frame's samples
//! ([`samples_ptr`], [`samples_len`]) are read in place. Pointers stay good only until the next
//! call into the module, which may move or grow the buffers (and the memory itself): the script
//! reads them again after every call.
//!
//! Functions that can fail return 0 on success and 1 on failure, with the message in the
//! outbox. Before [`boot`] succeeds the others do nothing and return 0.

use std::cell::RefCell;

use bt::Cart;

use crate::event::PageEvent;
use crate::page::{Bundle, Page};

thread_local! {
    static PAGE: RefCell<Option<Page>> = const { RefCell::new(None) };
    static INBOX: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Messages from before the page exists (a failed boot).
    static BOOT_OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The line in the boot text after which the rest is a replay file to play.
pub const REPLAY_SEPARATOR: &str = "--replay--";

fn with_page<T: Default>(f: impl FnOnce(&mut Page) -> T) -> T {
    PAGE.with_borrow_mut(|page| page.as_mut().map(f).unwrap_or_default())
}

fn inbox_text(len: u32) -> String {
    INBOX.with_borrow(|inbox| {
        let len = (len as usize).min(inbox.len());
        String::from_utf8_lossy(&inbox[..len]).into_owned()
    })
}

fn address<T>(slice: &[T]) -> u32 {
    slice.as_ptr() as usize as u32
}

/// The first `len` bytes the script wrote into the inbox (at most as many as it holds).
pub fn inbox_bytes(len: u32) -> Vec<u8> {
    INBOX.with_borrow(|inbox| inbox[..(len as usize).min(inbox.len())].to_vec())
}

/// The page's own module, `len` bytes in the inbox, handed over by its script before boot:
/// the build its state files name and accept ([`bt_engine::engine::set_program_bytes`]).
/// Returns 1 when taken, 0 when the build was already fixed.
pub fn program(len: u32) -> u32 {
    INBOX.with_borrow(|inbox| {
        let bytes = &inbox[..(len as usize).min(inbox.len())];
        u32::from(bt_engine::engine::set_program_bytes(bytes))
    })
}

/// Room for `len` bytes of text for the next call; returns where to write them.
pub fn inbox(len: u32) -> u32 {
    INBOX.with_borrow_mut(|inbox| {
        inbox.clear();
        inbox.resize(len as usize, 0);
        address(inbox)
    })
}

/// What the page boots with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boot<'a> {
    /// Cart arguments, `(name, value)`.
    pub args: Vec<(String, String)>,
    /// A replay file's text, to play first.
    pub replay: Option<&'a str>,
}

/// The boot text, parsed: cart arguments (`name=value`, a line each), then, after a line
/// [`REPLAY_SEPARATOR`], a replay file to play.
///
/// # Errors
/// A line that is not `name=value`, quoted in the message.
pub fn parse_boot(text: &str) -> Result<Boot<'_>, String> {
    let (head, replay) = match text.split_once(&format!("{REPLAY_SEPARATOR}\n")) {
        Some((head, replay)) => (head, Some(replay)),
        None => (text, None),
    };
    let mut args = Vec::new();
    for line in head.lines().filter(|l| !l.trim().is_empty()) {
        let (name, value) = line.split_once('=').ok_or_else(|| {
            format!(
                "cart argument '{}' is not name=value",
                bt_engine::quote::excerpt(line)
            )
        })?;
        args.push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(Boot { args, replay })
}

/// [`boot`]'s flag for a console without the overlay, as `bt shot` draws (the test hook).
pub const BOOT_NO_OVERLAY: u32 = 1;

/// [`boot`]'s flag for the player's own run: it boots with the save data the browser keeps
/// for the cart and keeps what the cart writes (see [`Page::new`]). The test hooks leave it
/// off: they read and write no save data.
pub const BOOT_PLAYER_SAVE: u32 = 2;

/// [`boot`]'s flag for a browser that prefers reduced motion (`prefers-reduced-motion:
/// reduce`): the cart boots seeing it ([`bt::Update::prefers_reduced_motion`]).
pub const BOOT_REDUCED_MOTION: u32 = 4;

/// [`boot`]'s flag for a page that plays over the network with another (`?room=NAME`): it
/// waits for [`net_start`] before any update runs, and reads no save data.
pub const BOOT_NETPLAY: u32 = 8;

/// Boots the cart `name` from `factory` and what `bt web` built in beside it (`bundle`), with
/// the boot text of [`parse_boot`] (`len` bytes in
/// the inbox) and `flags` ([`BOOT_NO_OVERLAY`], [`BOOT_PLAYER_SAVE`], [`BOOT_REDUCED_MOTION`],
/// [`BOOT_NETPLAY`]); `now_ms` reads the
/// page's clock for the overlay's cost figures, and `load_save` the save data the browser
/// keeps under a key. On success the outbox holds what the player should be told (damaged
/// save data), or nothing.
pub fn boot(
    name: &str,
    factory: fn() -> Box<dyn Cart>,
    bundle: &Bundle,
    now_ms: fn() -> f64,
    load_save: fn(&str) -> Option<Vec<u8>>,
    len: u32,
    flags: u32,
) -> u32 {
    bt_engine::wall_time::set_source(now_ms);
    let text = inbox_text(len);
    let options = crate::BootOptions {
        overlay: flags & BOOT_NO_OVERLAY == 0,
        reduced_motion: flags & BOOT_REDUCED_MOTION != 0,
        netplay: flags & BOOT_NETPLAY != 0,
    };
    let save = (flags & BOOT_PLAYER_SAVE != 0).then_some(&load_save as &dyn Fn(&str) -> _);
    let booted = parse_boot(&text).and_then(|boot| {
        Page::boot_with(name, factory, bundle, boot.args, boot.replay, options, save)
    });
    match booted {
        Ok(page) => {
            PAGE.with_borrow_mut(|p| *p = Some(page));
            0
        }
        Err(message) => {
            BOOT_OUT.with_borrow_mut(|out| *out = message.into_bytes());
            PAGE.with_borrow_mut(|p| *p = None);
            1
        }
    }
}

/// Sends every panic from now on to `report` as one line ([`panic_line`]).
///
/// A page is built with `panic = "abort"`: nothing unwinds, so nothing can catch a panic, not
/// even the engine's guard around the cart, and the module stops (a WebAssembly trap) right
/// after the panic hook runs. The hook is the one moment the message exists: [`crate::page!`]
/// hands it to the page's script, which shows it when the trap arrives.
pub fn report_panics(report: fn(&str)) {
    std::panic::set_hook(Box::new(move |info| report(&panic_line(info))));
}

/// A panic as one line: its message, then where in the source it happened.
pub fn panic_line(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic with no message");
    let message = message.lines().collect::<Vec<_>>().join(" / ");
    match info.location() {
        Some(at) => format!("{message} ({}:{})", at.file(), at.line()),
        None => message,
    }
}

/// Where the outbox starts.
pub fn out_ptr() -> u32 {
    PAGE.with_borrow(|page| match page {
        Some(page) => address(page.out()),
        None => BOOT_OUT.with_borrow(|out| address(out)),
    })
}

/// How many bytes the outbox holds.
pub fn out_len() -> u32 {
    PAGE.with_borrow(|page| match page {
        Some(page) => page.out().len() as u32,
        None => BOOT_OUT.with_borrow(|out| out.len() as u32),
    })
}

/// The display's width.
pub fn width() -> u32 {
    with_page(|p| p.size().0)
}

/// The display's height.
pub fn height() -> u32 {
    with_page(|p| p.size().1)
}

/// The picture's width: the display's, or the output picture's while a display-tier
/// post-process effect runs.
pub fn picture_width() -> u32 {
    with_page(|p| p.picture_size().0)
}

/// The picture's height, as [`picture_width`].
pub fn picture_height() -> u32 {
    with_page(|p| p.picture_size().1)
}

/// The console's sample rate.
pub fn sample_rate() -> u32 {
    with_page(|p| p.sample_rate())
}

/// The cart's updates a second.
pub fn target_fps() -> f64 {
    with_page(|p| p.host().engine().settings().target_fps)
}

/// Where the picture starts: `picture_width × picture_height` pixels of 4 bytes, RGBA.
pub fn rgba_ptr() -> u32 {
    with_page(|p| address(p.rgba()))
}

/// Where the last frame's samples start (signed 16-bit, left and right interleaved).
pub fn samples_ptr() -> u32 {
    with_page(|p| address(p.samples()))
}

/// How many samples the last frame made (twice its frames: left and right).
pub fn samples_len() -> u32 {
    with_page(|p| p.samples().len() as u32)
}

/// One displayed frame at `now_ms` ([`Page::frame`]); returns its [`frame_flags`](crate::page::frame_flags).
pub fn frame(now_ms: f64) -> u32 {
    with_page(|p| p.frame(now_ms))
}

/// Pauses on the frame `bt shot --at seconds` draws ([`Page::render_at`]).
pub fn render_at(seconds: f64) -> u32 {
    with_page(|p| {
        let done = p.render_at(seconds);
        result(p, done)
    })
}

/// The samples of `seconds` from boot, as `bt wav` makes them ([`Page::wav`]).
pub fn wav(seconds: f64) -> u32 {
    with_page(|p| {
        let done = p.wav(seconds);
        result(p, done)
    })
}

fn result(page: &mut Page, result: Result<(), String>) -> u32 {
    match result {
        Ok(()) => 0,
        Err(message) => {
            page.set_out(message.into_bytes());
            1
        }
    }
}

/// The tick counter, as the cart sees it.
pub fn ticks() -> f64 {
    with_page(|p| p.host().engine().ticks() as f64)
}

/// One event from the page (see [`PageEvent::decode`] for what `kind` and the numbers are;
/// text is in the inbox, `a` bytes of it). Returns a [`crate::PageAction`]; an event of a kind
/// this module does not know does nothing.
pub fn event(kind: u32, a: f64, b: f64, c: f64) -> u32 {
    INBOX.with_borrow(|inbox| {
        let text = if PageEvent::carries_text(kind) {
            let len = (a as usize).min(inbox.len());
            std::str::from_utf8(&inbox[..len]).unwrap_or_default()
        } else {
            ""
        };
        match PageEvent::decode(kind, text, a, b, c) {
            Some(event) => with_page(|p| p.event(event) as u32),
            None => 0,
        }
    })
}

/// The run's replay so far, as a file's text, into the outbox; returns its length.
pub fn replay() -> u32 {
    with_page(|p| {
        p.replay_text();
        p.out().len() as u32
    })
}

/// The cart's title into the outbox; returns its length.
pub fn title() -> u32 {
    with_page(|p| {
        let title = p.title().as_bytes().to_vec();
        p.set_out(title);
        p.out().len() as u32
    })
}

/// Where the player's save data is kept ([`crate::page::save_key`]) into the outbox; returns
/// its length, 0 when the page keeps none (a test hook, or damaged save data left as it is).
pub fn save_key() -> u32 {
    with_page(|p| {
        let key = p.save_key().unwrap_or_default().as_bytes().to_vec();
        p.set_out(key);
        p.out().len() as u32
    })
}

/// What the cart says a test should know ([`bt::Cart::test_state`]) into the outbox;
/// returns its length, or `u32::MAX` when the cart offers none.
pub fn test_state() -> u32 {
    PAGE.with_borrow_mut(|page| {
        let Some(p) = page.as_mut() else {
            return u32::MAX;
        };
        match p.host().engine().test_state() {
            Some(text) => {
                p.set_out(text.into_bytes());
                p.out().len() as u32
            }
            None => u32::MAX,
        }
    })
}

/// The picture the cart asked for into the outbox ([`Page::take_capture`]); returns its
/// length, 0 when none waits.
pub fn take_capture() -> u32 {
    with_page(|p| {
        if p.take_capture() {
            p.out().len() as u32
        } else {
            0
        }
    })
}

/// The save file waiting to be kept into the outbox ([`Page::take_save`]); returns its
/// length, 0 when none waits.
pub fn take_save() -> u32 {
    with_page(|p| {
        if p.take_save() {
            p.out().len() as u32
        } else {
            0
        }
    })
}

/// The browser refused to keep the save data; why is in the inbox, `len` bytes
/// ([`Page::save_failed`]).
pub fn save_failed(len: u32) -> u32 {
    let error = inbox_text(len);
    with_page(|p| p.save_failed(&error));
    0
}

/// The page is hidden and may be closed: the save data to keep now ([`Page::flush`]);
/// returns [`frame_flags::SAVE`](crate::page::frame_flags::SAVE) when some waits.
pub fn flush() -> u32 {
    with_page(Page::flush)
}

/// The script has a data channel to the other page: the session starts, this page playing
/// `player` (0 or 1) ([`Page::start_netplay`]). Returns 0, or 1 with why in the outbox.
pub fn net_start(player: u32) -> u32 {
    with_page(|p| {
        let started = p.start_netplay(player as usize);
        result(p, started)
    })
}

/// A datagram from the other page, `len` bytes in the inbox ([`Page::net_arrived`]).
pub fn net_receive(len: u32) -> u32 {
    let bytes = inbox_bytes(len);
    with_page(|p| p.net_arrived(&bytes));
    0
}

/// The next datagram for the other page into the outbox ([`Page::net_take`]); returns its
/// length, or `u32::MAX` when none waits.
pub fn net_take() -> u32 {
    PAGE.with_borrow_mut(|page| {
        let Some(p) = page.as_mut() else {
            return u32::MAX;
        };
        if p.net_take() {
            p.out().len() as u32
        } else {
            u32::MAX
        }
    })
}

/// The line for the page's foot while it plays over the network ([`Page::net_status`]) into
/// the outbox; returns its length, 0 when there is none.
pub fn net_status() -> u32 {
    with_page(|p| {
        let line = p.net_status().unwrap_or_default().into_bytes();
        p.set_out(line);
        p.out().len() as u32
    })
}

/// Updates every player's input is known for in the session ([`Page::net_confirmed`]).
pub fn net_confirmed() -> f64 {
    with_page(|p| p.net_confirmed() as f64)
}
