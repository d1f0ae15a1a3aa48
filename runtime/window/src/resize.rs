//! When the surface follows the window's size. Reconfiguring a surface is slow (the device goes
//! idle and the swapchain is rebuilt), and a drag, a tiling window manager or a script sends
//! sizes faster than that: the surface follows a size once it has held for [`SETTLE`], and at
//! least every [`MAX_LAG`] during a resize that never pauses.

use std::time::{Duration, Instant};

/// A size that no other follows for this long has settled. Sizes in a drag come every few
/// milliseconds; a person notices a picture that lags by more than a few frames.
pub const SETTLE: Duration = Duration::from_millis(50);

/// During a resize that never pauses for [`SETTLE`], the surface still follows this often, so
/// the picture keeps up with a slow continuous drag.
pub const MAX_LAG: Duration = Duration::from_millis(250);

/// The window's latest size and the size the surface should have now.
#[derive(Debug, Clone)]
pub struct SizeSettler {
    applied: (u32, u32),
    latest: (u32, u32),
    /// When the latest size arrived, and when the first size not yet applied did.
    pending: Option<(Instant, Instant)>,
}

impl SizeSettler {
    /// A window that opened at `size`; the surface starts at that size.
    pub fn new(size: (u32, u32)) -> SizeSettler {
        SizeSettler {
            applied: size,
            latest: size,
            pending: None,
        }
    }

    /// The window is now `size` (a resize event at `now`).
    pub fn resized(&mut self, size: (u32, u32), now: Instant) {
        if size == self.latest {
            return;
        }
        self.latest = size;
        self.pending = match self.pending {
            _ if size == self.applied => None,
            Some((_, first)) => Some((now, first)),
            None => Some((now, now)),
        };
    }

    /// The size the surface should have at `now`: the latest once it has settled (or has lagged
    /// for [`MAX_LAG`]), else the size applied before.
    pub fn surface_size(&mut self, now: Instant) -> (u32, u32) {
        if let Some((last, first)) = self.pending {
            let held = now.saturating_duration_since(last);
            let lagged = now.saturating_duration_since(first);
            if held >= SETTLE || lagged >= MAX_LAG {
                self.applied = self.latest;
                self.pending = None;
            }
        }
        self.applied
    }

    /// Whether the window has a size the surface has not taken yet.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// When the pending size will be the surface's, if one is pending: a frame then shows it.
    pub fn settles_at(&self) -> Option<Instant> {
        self.pending
            .map(|(last, first)| (last + SETTLE).min(first + MAX_LAG))
    }

    /// The window's latest size.
    pub fn latest(&self) -> (u32, u32) {
        self.latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_burst_of_sizes_is_applied_once_it_has_settled() {
        let t = Instant::now();
        let mut s = SizeSettler::new((960, 720));
        for (i, size) in [(900, 700), (800, 600), (700, 500)].into_iter().enumerate() {
            s.resized(size, t + ms(10 * i as u64));
            assert_eq!(s.surface_size(t + ms(10 * i as u64 + 5)), (960, 720));
        }
        assert!(s.is_pending());
        assert_eq!(s.settles_at(), Some(t + ms(20) + SETTLE));
        assert_eq!(s.surface_size(t + ms(20) + SETTLE - ms(1)), (960, 720));
        assert_eq!(s.surface_size(t + ms(20) + SETTLE), (700, 500));
        assert!(!s.is_pending());
        assert_eq!(s.settles_at(), None);
        assert_eq!(s.latest(), (700, 500));
    }

    #[test]
    fn a_resize_that_never_pauses_is_still_followed_every_max_lag() {
        let t = Instant::now();
        let mut s = SizeSettler::new((100, 100));
        let mut applied = Vec::new();
        // A new size every 10 ms for a second: never quiet for SETTLE.
        for i in 0..100u32 {
            let now = t + ms(u64::from(i) * 10);
            s.resized((200 + i, 200), now);
            let size = s.surface_size(now);
            if applied.last() != Some(&size) {
                applied.push(size);
            }
        }
        // The start size, then one follow per MAX_LAG.
        assert_eq!(applied.len(), 1 + 1000 / MAX_LAG.as_millis() as usize - 1);
        assert_eq!(applied[1], (225, 200));
        // Still resizing: the next follow is due MAX_LAG after the first size not yet taken.
        assert_eq!(s.settles_at(), Some(t + ms(780) + MAX_LAG));
    }

    #[test]
    fn going_back_to_the_applied_size_leaves_nothing_pending() {
        let t = Instant::now();
        let mut s = SizeSettler::new((640, 480));
        s.resized((800, 600), t);
        s.resized((640, 480), t + ms(5));
        assert!(!s.is_pending());
        assert_eq!(s.surface_size(t + ms(6)), (640, 480));
        // The same size again is no change at all.
        s.resized((640, 480), t + ms(7));
        assert!(!s.is_pending());
    }
}
