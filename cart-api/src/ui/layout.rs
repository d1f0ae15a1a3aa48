//! Where the next widget goes: columns and rows whose cursor advances past each widget.

use crate::Rect;

/// Rows and columns nested deeper than this are laid out in the innermost one that fits: no
/// interface of a small screen needs more, and the stack lives in the `Ui` without allocating.
pub(super) const MAX_DEPTH: usize = 8;

/// One row or column being filled.
#[derive(Debug, Clone, Copy, Default)]
struct Container {
    origin: (i32, i32),
    /// Left to right (a row), else top to bottom (a column).
    across: bool,
    /// Pixels used along the direction, the last spacing included.
    used: i32,
    /// The widest (column) or tallest (row) widget so far.
    extent: i32,
    /// Whether the parent makes room for it when it ends (an area placed at a point does not).
    flows: bool,
}

/// A stack of rows and columns.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    stack: [Container; MAX_DEPTH],
    depth: usize,
    spacing: i32,
}

impl Layout {
    pub fn new() -> Layout {
        Layout {
            stack: [Container::default(); MAX_DEPTH],
            depth: 1,
            spacing: 0,
        }
    }

    /// Starts again with one column at `origin`.
    pub fn reset(&mut self, origin: (i32, i32), spacing: i32) {
        self.depth = 1;
        self.spacing = spacing;
        self.stack[0] = Container {
            origin,
            ..Container::default()
        };
    }

    fn top(&mut self) -> &mut Container {
        &mut self.stack[self.depth - 1]
    }

    /// Where the next widget would go.
    pub fn cursor(&self) -> (i32, i32) {
        let c = &self.stack[self.depth - 1];
        if c.across {
            (c.origin.0.saturating_add(c.used), c.origin.1)
        } else {
            (c.origin.0, c.origin.1.saturating_add(c.used))
        }
    }

    /// Takes a `w × h` rectangle at the cursor and moves the cursor past it.
    pub fn place(&mut self, w: i32, h: i32) -> Rect {
        let (x, y) = self.cursor();
        let spacing = self.spacing;
        let c = self.top();
        let (along, across) = if c.across { (w, h) } else { (h, w) };
        c.used = c.used.saturating_add(along.max(0)).saturating_add(spacing);
        c.extent = c.extent.max(across);
        Rect::new(x, y, w.max(0), h.max(0))
    }

    /// Moves the cursor on by `px` (back, when negative).
    pub fn space(&mut self, px: i32) {
        let c = self.top();
        c.used = c.used.saturating_add(px);
    }

    /// Starts a row (`across`) or a column at the cursor, or at `at` for an area that takes no
    /// room in its parent. Returns false when the stack is full: the widgets then go on in the
    /// current container.
    pub fn push(&mut self, across: bool, at: Option<(i32, i32)>) -> bool {
        if self.depth == MAX_DEPTH {
            return false;
        }
        let origin = at.unwrap_or_else(|| self.cursor());
        self.stack[self.depth] = Container {
            origin,
            across,
            used: 0,
            extent: 0,
            flows: at.is_none(),
        };
        self.depth += 1;
        true
    }

    /// Ends the innermost row or column; its parent makes room for it.
    pub fn pop(&mut self) {
        if self.depth <= 1 {
            return;
        }
        let c = self.stack[self.depth - 1];
        self.depth -= 1;
        if c.flows {
            let along = (c.used - self.spacing).max(0);
            let (w, h) = if c.across {
                (along, c.extent)
            } else {
                (c.extent, along)
            };
            self.place(w, h);
        }
    }
}
