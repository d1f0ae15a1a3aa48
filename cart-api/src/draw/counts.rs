//! How many drawing calls of each kind a frame made: the overlay's renderer row.

/// Drawing calls a cart's `render` made, by kind. Every call counts once, whatever it draws
/// (a map of a thousand cells is one call), and whether or not anything of it was on screen.
///
/// ```
/// use bt::DrawCounts;
///
/// let counts = DrawCounts { shapes: 3, sprites: 40, maps: 1, text: 2 };
/// assert_eq!(counts.total(), 46);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawCounts {
    /// Clears, pixels, lines, rectangles, circles, ellipses, triangles and flood fills.
    pub shapes: u32,
    /// Sprites and tiles from a sheet (`draw_sprite`, `draw_tile`).
    pub sprites: u32,
    /// Maps (`draw_map`).
    pub maps: u32,
    /// Text (`print`, `print_font`, `print_styled`).
    pub text: u32,
}

impl DrawCounts {
    /// Every call, of any kind.
    pub fn total(&self) -> u32 {
        self.shapes
            .saturating_add(self.sprites)
            .saturating_add(self.maps)
            .saturating_add(self.text)
    }
}
