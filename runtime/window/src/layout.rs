//! Where the display goes in the window: scaled by the largest whole number that fits, centred,
//! with black bars around it; and which display pixel a window position falls on.

/// The display's place in a surface, in surface pixels. `x` and `y` are negative when the
/// surface is smaller than the display (it is then drawn at scale 1, cropped on every side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Left edge of the scaled display.
    pub x: i64,
    /// Top edge of the scaled display.
    pub y: i64,
    /// Whole-number scale, at least 1.
    pub scale: u32,
}

impl Placement {
    /// The largest whole scale at which `display` fits `surface`, centred (rounding down, so an
    /// odd leftover puts the extra pixel on the right and bottom).
    pub fn new(surface: (u32, u32), display: (u32, u32)) -> Placement {
        let (dw, dh) = (display.0.max(1), display.1.max(1));
        let scale = (surface.0 / dw).min(surface.1 / dh).max(1);
        let bar = |s: u32, d: u32| (i64::from(s) - i64::from(d) * i64::from(scale)).div_euclid(2);
        Placement {
            x: bar(surface.0, dw),
            y: bar(surface.1, dh),
            scale,
        }
    }

    /// The display pixel under window position (`x`, `y`) (in surface pixels), clamped onto
    /// the display when the position is on a bar or outside the window.
    pub fn to_display(&self, x: f64, y: f64, display: (u32, u32)) -> (i32, i32) {
        let scale = f64::from(self.scale);
        let axis = |pos: f64, origin: i64, size: u32| {
            let at = ((pos - origin as f64) / scale).floor();
            let last = f64::from(size.max(1) - 1);
            // NaN (a position no window reports) lands on 0 rather than anywhere odd.
            if at.is_nan() {
                0
            } else {
                at.clamp(0.0, last) as i32
            }
        };
        (axis(x, self.x, display.0), axis(y, self.y, display.1))
    }
}

/// The surface size for a window of `window` pixels where a surface is at most `max` pixels a
/// side: each side clamped to `1..=max`. `None` for a window with no area
/// (minimised), which presents nothing.
pub fn surface_size(window: (u32, u32), max: u32) -> Option<(u32, u32)> {
    if window.0 == 0 || window.1 == 0 {
        return None;
    }
    let max = max.max(1);
    Some((window.0.min(max), window.1.min(max)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_display_takes_the_largest_whole_scale_that_fits_centred() {
        assert_eq!(
            Placement::new((960, 720), (320, 240)),
            Placement {
                x: 0,
                y: 0,
                scale: 3
            }
        );
        assert_eq!(
            Placement::new((700, 500), (320, 240)),
            Placement {
                x: 30,
                y: 10,
                scale: 2
            }
        );
        // An odd leftover: the extra pixel goes right.
        assert_eq!(Placement::new((321, 240), (320, 240)).x, 0);
    }

    #[test]
    fn a_window_smaller_than_the_display_crops_it_at_scale_one() {
        assert_eq!(
            Placement::new((100, 100), (320, 240)),
            Placement {
                x: -110,
                y: -70,
                scale: 1
            }
        );
        assert_eq!(
            Placement::new((0, 0), (0, 0)).scale,
            1,
            "no division by zero"
        );
    }

    #[test]
    fn window_positions_map_to_display_pixels_and_clamp_onto_it() {
        let display = (320, 240);
        let p = Placement::new((700, 500), display);
        assert_eq!(p.to_display(30.0, 10.0, display), (0, 0));
        assert_eq!(p.to_display(31.9, 11.9, display), (0, 0));
        assert_eq!(p.to_display(32.0, 12.0, display), (1, 1));
        assert_eq!(p.to_display(669.0, 489.0, display), (319, 239));
        // On the bars and outside the window: the nearest edge.
        assert_eq!(p.to_display(0.0, 0.0, display), (0, 0));
        assert_eq!(p.to_display(5000.0, -40.0, display), (319, 0));
        assert_eq!(p.to_display(f64::NAN, f64::INFINITY, display), (0, 239));
    }

    #[test]
    fn the_surface_is_clamped_to_the_device_limit_and_absent_when_minimised() {
        assert_eq!(surface_size((20_000, 300), 16_384), Some((16_384, 300)));
        assert_eq!(surface_size((640, 480), 16_384), Some((640, 480)));
        assert_eq!(surface_size((0, 480), 16_384), None);
        assert_eq!(surface_size((640, 0), 16_384), None);
        assert_eq!(surface_size((5, 5), 0), Some((1, 1)));
    }
}
