//! The edge machinery every kind of input shares: inputs held as bits, and the presses and
//! releases collected between updates and handed to the next one ([`Edges`]), with repeats.

/// Whether a pressed-with-repeat check fires: on the press itself, then every `every_ticks`
/// updates while the input stays down. `every_ticks` 0 means no repeat.
pub(super) fn repeat_fires(
    pressed: bool,
    down: bool,
    since: u64,
    now: u64,
    every_ticks: u64,
) -> bool {
    if pressed {
        return true;
    }
    let held_for = now.saturating_sub(since);
    down && every_ticks > 0 && held_for > 0 && held_for.is_multiple_of(every_ticks)
}

/// A set of inputs as bits: `u32` for buttons, `u128` for keys.
pub(super) trait Bits:
    Copy
    + Default
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::Not<Output = Self>
{
    /// Calls `f` with the index of every set bit, lowest first.
    fn each(self, f: impl FnMut(usize));
    fn any(self) -> bool {
        self != Self::default()
    }
}

macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            fn each(self, mut f: impl FnMut(usize)) {
                let mut m = self;
                while m != 0 {
                    f(m.trailing_zeros() as usize);
                    m &= m - 1;
                }
            }
        }
    )*};
}
bits!(u32, u128);

/// Held state and the edges between updates for a set of `N` inputs, one bit each.
///
/// The host changes `held` at any time; presses and releases collect in `pending_*` until the
/// next update begins, which sees them once (see [`Input`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Edges<B, const N: usize> {
    pub(super) held: B,
    pub(super) pending_pressed: B,
    pub(super) pending_released: B,
    /// What the current update sees.
    pub(super) down: B,
    pub(super) pressed: B,
    pub(super) released: B,
    /// The update at which each input was last seen pressed (for repeats).
    pub(super) since: [u64; N],
}

impl<B: Bits, const N: usize> Default for Edges<B, N> {
    fn default() -> Self {
        Edges {
            held: B::default(),
            pending_pressed: B::default(),
            pending_released: B::default(),
            down: B::default(),
            pressed: B::default(),
            released: B::default(),
            since: [0; N],
        }
    }
}

impl<B: Bits, const N: usize> Edges<B, N> {
    /// The host says `now` is what is held.
    pub(super) fn set_held(&mut self, now: B) {
        self.pending_pressed = self.pending_pressed | (now & !self.held);
        self.pending_released = self.pending_released | (self.held & !now);
        self.held = now;
    }

    /// Update number `update` begins: the edges collected so far become visible.
    pub(super) fn begin_update(&mut self, update: u64) {
        self.down = self.held | self.pending_pressed;
        self.pressed = self.pending_pressed;
        self.released = self.pending_released;
        self.pending_pressed = B::default();
        self.pending_released = B::default();
        let since = &mut self.since;
        self.pressed.each(|i| {
            if let Some(s) = since.get_mut(i) {
                *s = update;
            }
        });
    }

    /// The host holds what the current update sees; pending edges drop.
    pub(super) fn hold_seen(&mut self) {
        self.held = self.down;
        self.pending_pressed = B::default();
        self.pending_released = B::default();
    }

    /// Update number `update` begins seeing exactly these sets (a replay); pending edges drop.
    pub(super) fn replay(&mut self, down: B, pressed: B, released: B, update: u64) {
        self.pending_pressed = B::default();
        self.pending_released = B::default();
        self.down = down;
        self.pressed = pressed;
        self.released = released;
        let since = &mut self.since;
        pressed.each(|i| {
            if let Some(s) = since.get_mut(i) {
                *s = update;
            }
        });
    }

    /// Whether input `i` (bit `bit`) fires a pressed-with-repeat check at update `now`.
    pub(super) fn repeats(&self, i: usize, bit: B, now: u64, every_ticks: u64) -> bool {
        let since = self.since.get(i).copied().unwrap_or(now);
        repeat_fires(
            (self.pressed & bit).any(),
            (self.down & bit).any(),
            since,
            now,
            every_ticks,
        )
    }
}
