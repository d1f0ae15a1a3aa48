//! The player's save data in a page, and the end of a run: what the page's script is handed to
//! keep in the browser's storage, when, and what a quit does. Driven natively, call by call, as
//! the script drives it.

use std::cell::RefCell;

use bt::{Button, Cart, CartError, Player, Render, Settings, Update};
use bt_engine::save;
use bt_web::page::{frame_flags, save_key};
use bt_web::{Page, PageAction, PageEvent};

/// Counts player one's presses of A in save data slot 0 (read at boot); B quits.
#[derive(Default)]
struct Tally {
    presses: i32,
}

fn tally() -> Box<dyn Cart> {
    Box::new(Tally::default())
}

impl Cart for Tally {
    fn configure(&self) -> Settings {
        Settings::default().display(96, 32).title("Tally")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.presses = ctx.save().get(0);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if ctx.is_pressed(Button::A, Player::ONE) {
            self.presses += 1;
            ctx.save_mut().set(0, self.presses);
        }
        if ctx.is_pressed(Button::B, Player::ONE) {
            ctx.quit();
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
    }
}

const KEY: &str = "bt:tally:Tally:save";

/// A browser's storage: what it holds, and the keys it was asked for.
#[derive(Default)]
struct Storage {
    held: RefCell<Option<Vec<u8>>>,
    asked: RefCell<Vec<String>>,
}

impl Storage {
    fn holding(file: Vec<u8>) -> Storage {
        let storage = Storage::default();
        *storage.held.borrow_mut() = Some(file);
        storage
    }

    fn load(&self, key: &str) -> Option<Vec<u8>> {
        self.asked.borrow_mut().push(key.to_string());
        self.held.borrow().clone()
    }
}

fn boot(storage: &Storage) -> Page {
    let load = |key: &str| storage.load(key);
    Page::new("tally", tally, Vec::new(), None, true, Some(&load)).expect("tally boots")
}

fn press(page: &mut Page, code: &str) {
    page.event(PageEvent::Key { code, down: true });
}

fn release(page: &mut Page, code: &str) {
    page.event(PageEvent::Key { code, down: false });
}

/// Frames at 60 a second from frame `from`, `n` of them; the flags of each.
fn frames(page: &mut Page, from: u32, n: u32) -> Vec<u32> {
    (from..from + n)
        .map(|i| page.frame(f64::from(i) * 1000.0 / 60.0))
        .collect()
}

/// The save data in the save file [`Page::take_save`] put in the outbox.
fn taken(page: &mut Page) -> Option<i32> {
    if !page.take_save() {
        return None;
    }
    let data = save::decode(page.out(), "taken".as_ref()).expect("a save file BT reads");
    let mut block = [0; 4];
    block[..data.len().min(4)].copy_from_slice(&data[..data.len().min(4)]);
    Some(i32::from_le_bytes(block))
}

#[test]
fn the_key_is_the_carts_name_and_title() {
    assert_eq!(save_key("tally", "Tally"), KEY);
    let storage = Storage::default();
    let page = boot(&storage);
    assert_eq!(*storage.asked.borrow(), [KEY]);
    assert_eq!(page.save_key(), Some(KEY));
    assert_eq!(page.title(), "Tally");
}

#[test]
fn the_cart_boots_with_the_kept_save_data_and_its_change_is_handed_over_within_a_second() {
    let storage = Storage::holding(save::encode(&5i32.to_le_bytes()));
    let mut page = boot(&storage);
    frames(&mut page, 0, 2);
    press(&mut page, "KeyZ");
    let flags = frames(&mut page, 2, 70);
    release(&mut page, "KeyZ");
    let first = flags
        .iter()
        .position(|f| f & frame_flags::SAVE != 0)
        .expect("the change is handed over");
    // Once a second of updates at most, as natively: the first change waits for the second
    // since boot to pass.
    assert!((55..=62).contains(&first), "handed over at frame {first}");
    assert_eq!(taken(&mut page), Some(6), "booted with 5, one press");
    assert!(!page.take_save(), "taken once");
    let flags = frames(&mut page, 72, 120);
    assert!(
        flags.iter().all(|f| f & frame_flags::SAVE == 0),
        "nothing changed, nothing to keep"
    );
}

#[test]
fn a_hidden_page_hands_over_a_change_at_once() {
    let storage = Storage::default();
    let mut page = boot(&storage);
    assert_eq!(page.flush(), 0, "nothing changed yet");
    press(&mut page, "KeyZ");
    let flags = frames(&mut page, 0, 3);
    assert!(flags.iter().all(|f| f & frame_flags::SAVE == 0), "not due");
    assert_eq!(page.flush(), frame_flags::SAVE);
    assert_eq!(taken(&mut page), Some(1));
    assert_eq!(page.flush(), 0, "handed over once");
    // The run goes on, and so do the writes.
    release(&mut page, "KeyZ");
    frames(&mut page, 3, 2);
    press(&mut page, "KeyZ");
    frames(&mut page, 5, 2);
    assert_eq!(page.flush(), frame_flags::SAVE);
    assert_eq!(taken(&mut page), Some(2));
}

#[test]
fn a_refused_write_shows_and_is_handed_over_again_at_the_next_change() {
    let storage = Storage::default();
    let mut page = boot(&storage);
    press(&mut page, "KeyZ");
    frames(&mut page, 0, 2);
    assert_eq!(page.flush(), frame_flags::SAVE);
    assert!(page.take_save());
    page.save_failed("QuotaExceededError");
    let notice = page
        .host()
        .engine()
        .overlay()
        .map(|o| o.notice().to_string())
        .unwrap_or_default();
    assert!(notice.contains("QuotaExceededError"), "{notice}");
    assert_eq!(page.flush(), frame_flags::SAVE, "the same data, again");
    assert_eq!(taken(&mut page), Some(1));
}

#[test]
fn damaged_save_data_is_left_alone_and_the_cart_starts_empty() {
    let mut broken = save::encode(&9i32.to_le_bytes());
    let last = broken.len() - 1;
    broken[last] ^= 1;
    let storage = Storage::holding(broken);
    let mut page = boot(&storage);
    let said = String::from_utf8_lossy(page.out()).into_owned();
    assert!(
        said.contains(KEY) && said.contains("checksum") && !said.contains('\n'),
        "{said}"
    );
    assert_eq!(page.save_key(), None, "nothing is written over it");
    press(&mut page, "KeyZ");
    let flags = frames(&mut page, 0, 120);
    assert!(flags.iter().all(|f| f & frame_flags::SAVE == 0));
    assert_eq!(page.flush(), 0);
    assert_eq!(
        page.host().engine().console().save().get(0),
        1,
        "started empty"
    );
}

#[test]
fn a_page_without_the_players_save_data_reads_and_keeps_none() {
    let mut page = Page::new("tally", tally, Vec::new(), None, true, None).unwrap();
    assert_eq!(page.save_key(), None);
    press(&mut page, "KeyZ");
    let flags = frames(&mut page, 0, 120);
    assert!(flags.iter().all(|f| f & frame_flags::SAVE == 0));
    assert_eq!(page.flush(), 0);
}

#[test]
fn a_cart_that_quits_ends_the_page_and_hands_over_its_last_save_data() {
    let storage = Storage::default();
    let mut page = boot(&storage);
    frames(&mut page, 0, 2);
    press(&mut page, "KeyZ");
    frames(&mut page, 2, 2);
    press(&mut page, "KeyX");
    let flags = page.frame(4.0 * 1000.0 / 60.0);
    assert_eq!(flags & frame_flags::ENDED, frame_flags::ENDED);
    assert_eq!(flags & frame_flags::SAVE, frame_flags::SAVE, "{flags}");
    assert!(page.has_ended());
    assert_eq!(taken(&mut page), Some(1));
    let ticks = page.host().engine().ticks();
    let flags = frames(&mut page, 5, 30);
    assert!(flags.iter().all(|&f| f == frame_flags::ENDED), "{flags:?}");
    assert_eq!(
        page.host().engine().ticks(),
        ticks,
        "no update after the end"
    );
    assert_eq!(page.flush(), 0);
}

#[test]
fn quit_in_the_pause_menu_ends_the_page() {
    let storage = Storage::default();
    let mut page = boot(&storage);
    frames(&mut page, 0, 2);
    press(&mut page, "KeyP");
    assert!(page.host().menu_is_open());
    // Continue, Restart, Quit.
    for _ in 0..2 {
        press(&mut page, "ArrowDown");
        release(&mut page, "ArrowDown");
    }
    assert_eq!(
        page.event(PageEvent::Key {
            code: "Enter",
            down: true
        }),
        PageAction::Quit
    );
    assert!(page.has_ended());
    assert_eq!(page.frame(1000.0), frame_flags::ENDED);
}
