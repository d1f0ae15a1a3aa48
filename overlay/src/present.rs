//! The present rate: frames that reached the screen over the time they took.

/// The span the present rate is measured over, in milliseconds.
pub const PRESENT_WINDOW_MS: f64 = 1000.0;
/// Slack when adding deltas up to [`PRESENT_WINDOW_MS`], so 144 frames of 1000/144 ms count as a
/// second despite float rounding.
const WINDOW_SLACK_MS: f64 = 1e-6;
/// Deltas kept for the present rate: a whole [`PRESENT_WINDOW_MS`] of frames up to 1024 Hz.
/// Faster than that the rate is taken over the newest 1024 frames, which is still exact, over
/// a shorter span.
pub const PRESENT_RING: usize = 1024;

/// Frames per second as they were shown: the number of recent frames over the time they took.
///
/// An average of `1000 / delta` weighs every frame alike, so a run of short frames hides one
/// long stall: over `16.7, 16.7, 50, 8.3, 400` ms it reads 52 "FPS" (and a smoothed one 58)
/// while the five frames took 491.7 ms, 10.2 per second. This counts instead: it takes the newest frames whose deltas
/// add up to at most [`PRESENT_WINDOW_MS`] (at least the newest one, however long) and divides
/// their number by their total time.
///
/// The deltas live in a ring of [`PRESENT_RING`] allocated once, so observing a frame never
/// allocates.
///
/// ```
/// use bt_overlay::PresentRate;
///
/// let mut rate = PresentRate::new();
/// assert_eq!(rate.fps(), None);
/// for _ in 0..4 {
///     for delta in [16.7, 16.7, 50.0, 8.3, 400.0] {
///         rate.observe(delta);
///     }
/// }
/// // The newest ten frames took 983.4 ms; one more 400 ms frame would pass a second.
/// let fps = rate.fps().unwrap();
/// assert!((fps - 10.0 / 0.9834).abs() < 1e-9);
/// ```
#[derive(Debug, Clone)]
pub struct PresentRate {
    deltas: Box<[f64]>,
    next: usize,
    len: usize,
}

impl Default for PresentRate {
    fn default() -> PresentRate {
        PresentRate::new()
    }
}

impl PresentRate {
    /// A rate that has seen no frame yet.
    pub fn new() -> PresentRate {
        PresentRate {
            deltas: vec![0.0; PRESENT_RING].into_boxed_slice(),
            next: 0,
            len: 0,
        }
    }

    /// Takes one frame's delta from the clock, in milliseconds. Deltas that are not a finite
    /// positive number are ignored.
    pub fn observe(&mut self, delta_ms: f64) {
        if !delta_ms.is_finite() || delta_ms <= 0.0 {
            return;
        }
        self.deltas[self.next] = delta_ms;
        self.next = (self.next + 1) % PRESENT_RING;
        self.len = (self.len + 1).min(PRESENT_RING);
    }

    /// Frames per second over the newest frames whose deltas add up to at most
    /// [`PRESENT_WINDOW_MS`] (the newest frame always counts), or `None` before any frame.
    pub fn fps(&self) -> Option<f64> {
        let (frames, ms) = self.window();
        (frames > 0).then(|| frames as f64 * 1000.0 / ms)
    }

    /// The frames the rate is taken over and their total milliseconds.
    pub fn window(&self) -> (usize, f64) {
        let mut frames = 0;
        let mut total = 0.0;
        for back in 1..=self.len {
            let delta = self.deltas[(self.next + PRESENT_RING - back) % PRESENT_RING];
            if frames > 0 && total + delta > PRESENT_WINDOW_MS + WINDOW_SLACK_MS {
                break;
            }
            frames += 1;
            total += delta;
        }
        (frames, total)
    }

    /// Forgets every frame.
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate_of(deltas: impl IntoIterator<Item = f64>) -> PresentRate {
        let mut r = PresentRate::new();
        for d in deltas {
            r.observe(d);
        }
        r
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// The stutter users reported, which the smoothed `1000 / delta` showed as 58 FPS.
    const STUTTER: [f64; 5] = [16.7, 16.7, 50.0, 8.3, 400.0];

    #[test]
    fn a_stutter_reads_ten_frames_a_second_not_fifty_eight() {
        let naive: f64 = STUTTER.iter().map(|d| 1000.0 / d).sum::<f64>() / 5.0;
        assert!(naive > 52.0, "an average of rates reads {naive}");
        // Any ten frames in a row are two rounds, 2 x 491.7 = 983.4 ms. An eleventh fits only
        // when it is the 8.3 ms frame (991.7 ms), that is when the newest frame is the 8.3 ms one.
        // (newest frame, frames counted, their milliseconds)
        let cases = [
            (400.0, 10, 983.4),
            (16.7, 10, 983.4), // an eleventh, 16.7 ms, would make 1000.1
            (16.7, 10, 983.4),
            (50.0, 10, 983.4),
            (8.3, 11, 991.7),
        ];
        let mut r = rate_of(STUTTER.repeat(6));
        for (i, (newest, frames, ms)) in cases.into_iter().enumerate() {
            let (n, total) = r.window();
            assert_eq!(n, frames, "ending on {newest}");
            assert!(close(total, ms), "ending on {newest}: {total}");
            assert!(close(r.fps().unwrap(), frames as f64 * 1000.0 / ms));
            r.observe(STUTTER[i]);
        }
        let r = rate_of(STUTTER.repeat(6));
        assert_eq!(r.fps().unwrap().round(), 10.0, "10.17 FPS");
    }

    #[test]
    fn jitter_around_sixty_reads_sixty() {
        // 8.3 and 25 ms alternating: the mean of 1000 / delta says 80 FPS. Thirty pairs take
        // 999 ms: sixty frames, 60.06 FPS.
        let r = rate_of([8.3, 25.0].repeat(100));
        assert_eq!(r.window().0, 60);
        assert!(close(r.window().1, 999.0));
        assert!(close(r.fps().unwrap(), 60.0 / 0.999));
        // 15 and 18.3 ms: thirty pairs take 999 ms too.
        let r = rate_of([15.0, 18.3].repeat(100));
        assert!(close(r.fps().unwrap(), 60.0 / 0.999));
    }

    #[test]
    fn a_steady_display_reads_its_rate() {
        let r = rate_of(std::iter::repeat_n(1000.0 / 144.0, 500));
        assert!((r.fps().unwrap() - 144.0).abs() < 1e-6);
        assert_eq!(r.window().0, 144);
    }

    #[test]
    fn a_frame_longer_than_the_window_counts_alone() {
        let mut r = rate_of([16.7; 100]);
        r.observe(2500.0);
        assert_eq!(r.window(), (1, 2500.0));
        assert!(close(r.fps().unwrap(), 0.4));
        r.observe(20.0);
        assert_eq!(r.window(), (1, 20.0), "the stall leaves the window at once");
    }

    #[test]
    fn past_1024_hz_the_newest_1024_frames_count() {
        let r = rate_of(std::iter::repeat_n(0.5, 5000));
        assert_eq!(r.window().0, PRESENT_RING);
        assert!(close(r.fps().unwrap(), 2000.0));
    }

    #[test]
    fn bad_deltas_are_ignored() {
        let mut r = rate_of([]);
        for d in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            r.observe(d);
        }
        assert_eq!(r.fps(), None);
        r.observe(10.0);
        assert!(close(r.fps().unwrap(), 100.0));
        r.clear();
        assert_eq!(r.fps(), None);
    }
}
