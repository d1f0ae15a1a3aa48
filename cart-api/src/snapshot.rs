//! The console's state at one update, kept by a host to go back to: what a cart's updates can
//! change, and nothing the host owns (the framebuffer, which every render blanks, the image
//! loader, the arguments, the boot palette and boot save data).

use crate::console::Console;
use crate::input::{Input, KeyMapTable};
use crate::palette::effects::PaletteEffects;
use crate::postfx::PostEffects;
use crate::sound::Synth;
use crate::Timing;
use crate::{Cart, Palette, Rng, SaveData};

/// The console's state between two updates, from [`Console::snapshot`], to put back with
/// [`Console::restore`]: the tick clock, the seeded generator, the input (with its edges and
/// the state before them, so `is_pressed` after a restore sees what it saw then), the palette
/// and its running effects, the post-process effects, the camera, the synthesiser (every channel and the tune where they
/// were, so the samples after a restore are those an uninterrupted run makes), the save data,
/// the pause-menu items, the key map, the cursor and pointer-lock wishes, and whether the cart
/// quit.
///
/// Sounds the cart loaded are shared with the live console, not copied.
///
/// ```
/// use bt::host::Console;
/// use bt::Settings;
///
/// let mut con = Console::new(&Settings::default(), 7);
/// con.update_context(0).rng_mut().next_u32();
/// let snap = con.snapshot();
/// let next = con.update_context(1).rng_mut().next_u32();
/// con.update_context(2).rng_mut().next_u32();
/// con.restore(&snap);
/// assert_eq!(con.update_context(1).rng_mut().next_u32(), next);
/// ```
#[derive(Debug, Clone)]
pub struct ConsoleSnapshot {
    clock: Timing,
    rng: Rng,
    input: Input,
    palette: Palette,
    camera: (i32, i32),
    effects: PaletteEffects,
    post: PostEffects,
    synth: Synth,
    save: SaveData,
    menu_items: [String; crate::limits::MENU_ITEMS],
    key_map: KeyMapTable,
    cursor_visible: bool,
    pointer_locked: bool,
    quit_requested: bool,
}

impl ConsoleSnapshot {
    /// About how many bytes the snapshot holds: its own size and what its lists and strings
    /// hold on the heap (the shared sounds not counted).
    pub fn size_hint(&self) -> usize {
        std::mem::size_of::<ConsoleSnapshot>()
            + self.palette.heap_bytes()
            + self.effects.heap_bytes()
            + self.input.heap_bytes()
            + self.synth.snapshot_bytes()
            + self.menu_items.iter().map(String::capacity).sum::<usize>()
    }
}

impl Console {
    /// The console's state now, to go back to with [`Console::restore`]. Call it between
    /// updates, after the host drained the tags.
    pub fn snapshot(&self) -> ConsoleSnapshot {
        ConsoleSnapshot {
            clock: self.clock,
            rng: self.rng.clone(),
            input: self.input.clone(),
            palette: self.palette.clone(),
            camera: self.camera,
            effects: self.effects.clone(),
            post: self.post,
            synth: self.synth.clone(),
            save: self.save.clone(),
            menu_items: self.menu_items.clone(),
            key_map: self.key_map,
            cursor_visible: self.cursor_visible,
            pointer_locked: self.pointer_locked,
            quit_requested: self.quit_requested,
        }
    }

    /// Puts the console back as it was at `snapshot`: the next update sees what the update
    /// after the snapshot saw (given the same input), and the samples it makes are the same.
    /// Samples not yet drained and tags not yet taken are dropped; a key map that differs from
    /// the live one is handed to the host again ([`Console::take_key_map_change`]); the save
    /// data counts as changed when it differs, so a host that keeps it writes it again.
    pub fn restore(&mut self, snapshot: &ConsoleSnapshot) {
        self.clock = snapshot.clock;
        self.rng.clone_from(&snapshot.rng);
        // The host's latest reduced-motion preference is the player's now, not the snapshot's.
        let motion = self.input.reduced_motion_latest();
        self.input.clone_from(&snapshot.input);
        self.input.set_reduced_motion(motion);
        self.palette.clone_from(&snapshot.palette);
        self.camera = snapshot.camera;
        self.effects.clone_from(&snapshot.effects);
        self.post = snapshot.post;
        self.synth.restore(&snapshot.synth);
        if self.save != snapshot.save {
            self.save.clone_from(&snapshot.save);
            self.save.touched = true;
        }
        self.menu_items.clone_from(&snapshot.menu_items);
        if self.key_map != snapshot.key_map {
            self.key_map = snapshot.key_map;
            self.key_map_changed = true;
        }
        self.cursor_visible = snapshot.cursor_visible;
        self.pointer_locked = snapshot.pointer_locked;
        self.quit_requested = snapshot.quit_requested;
        self.reset_requested = false;
        self.capture_requests = Default::default();
        self.tags.clear();
    }
}

/// A copy of `cart` for [`Cart::snapshot`], for a cart that derives (or implements) `Clone`:
///
/// ```
/// use bt::{Cart, Render, Update};
///
/// #[derive(Clone)]
/// struct Counter {
///     n: u32,
/// }
///
/// impl Cart for Counter {
///     fn update(&mut self, _ctx: &mut Update<'_>) {
///         self.n += 1;
///     }
///     fn render(&self, _ctx: &mut Render<'_>) {}
///     fn snapshot(&self) -> Option<Box<dyn Cart>> {
///         bt::cloned(self)
///     }
/// }
///
/// assert!(Counter { n: 3 }.snapshot().is_some());
/// ```
pub fn cloned<C: Cart + Clone + 'static>(cart: &C) -> Option<Box<dyn Cart>> {
    Some(Box::new(cart.clone()))
}
