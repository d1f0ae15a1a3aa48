//! `snake`: the classic. Steer with the d-pad (the arrows or W A S D on the keyboard, a gamepad's
//! d-pad or left stick), eat to grow, and do not run into the walls or yourself. The title screen
//! plays a demo snake until A or Start begins a round. Rounds place the tags "Round start" and
//! "Game over" on the overlay's timing chart.
//!
//! Turns are queued: two quick presses between moves (up then left, say) make two turns on the
//! next two moves instead of the second replacing the first.

use std::collections::VecDeque;

use bt::sound::{Fade, Music, MusicId, Note, NoteEffect, Sfx, SfxId, SoundError, Wave};
use bt::{Axis, Button, Cart, Font, Player, Rect, Render, Settings, TextStyle, Update};

/// One line for `bt list`.
pub const DESCRIPTION: &str = "the classic snake, on keyboard or gamepad, with round tags";

/// Cell size in pixels.
pub const CELL: i32 = 8;
/// Height of the score bar at the top, in pixels.
pub const HUD: i32 = 16;
/// Ticks between moves at the start of a round (7.5 moves a second at 60 updates a second).
pub const START_INTERVAL: u64 = 8;
/// The quickest the snake gets, in ticks per move.
pub const MIN_INTERVAL: u64 = 3;
/// Food eaten between speed-ups.
pub const SPEEDUP_EVERY: u32 = 5;
/// Turns remembered ahead of the snake.
pub const TURN_QUEUE: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    fn step(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The demo snake plays itself.
    Title,
    Playing,
    /// Dead; the board stays until A or Start.
    Over,
}

/// The cart's state.
#[derive(Debug, Clone)]
pub struct Snake {
    cols: i32,
    rows: i32,
    body: VecDeque<(i32, i32)>,
    dir: Dir,
    turns: VecDeque<Dir>,
    food: (i32, i32),
    grow: u32,
    score: u32,
    best: u32,
    interval: u64,
    next_move: u64,
    phase: Phase,
    sounds: Option<Sounds>,
}

/// The cart's sounds, given to the console in `init`.
#[derive(Debug, Clone, Copy)]
struct Sounds {
    eat: SfxId,
    die: SfxId,
    start: MusicId,
}

impl Sounds {
    fn add(ctx: &mut Update<'_>) -> Result<Sounds, SoundError> {
        let sq = Wave::Square { duty: 128 };
        let pulse = Wave::Square { duty: 64 };
        // A quick rising blip: C5 sliding up to G5.
        let eat = ctx.add_sfx(Sfx::new(
            4,
            vec![
                Note::new(60, sq, 5),
                Note::new(67, sq, 5).with(NoteEffect::Slide),
                Note::new(67, sq, 3).with(NoteEffect::FadeOut),
            ],
        ))?;
        // A falling buzz over a noise crash.
        let die = ctx.add_sfx(Sfx::new(
            12,
            vec![
                Note::new(45, Wave::Saw, 6).with(NoteEffect::Drop),
                Note::new(30, Wave::Noise, 6).with(NoteEffect::FadeOut),
            ],
        ))?;
        // The round's opening tune: a little arpeggio over a bass line, played once.
        let mut lead = Sfx::new(
            10,
            [60, 64, 67, 72, 67, 72]
                .into_iter()
                .map(|p| Note::new(p, pulse, 4))
                .collect(),
        );
        lead.release = 4;
        let bass = ctx.add_sfx(Sfx::new(
            30,
            vec![
                Note::new(36, Wave::Triangle, 6),
                Note::new(43, Wave::Triangle, 6),
            ],
        ))?;
        let lead = ctx.add_sfx(lead)?;
        let mut end = Sfx::new(
            24,
            vec![Note::new(72, Wave::Sine, 5).with(NoteEffect::Vibrato)],
        );
        end.release = 12;
        let end = ctx.add_sfx(end)?;
        let start = ctx.add_music(Music::Patterns {
            patterns: vec![
                [Some(bass), Some(lead), None, None],
                [Some(end), None, None, None],
            ],
            loop_start: None,
        })?;
        Ok(Sounds { eat, die, start })
    }
}

impl Default for Snake {
    fn default() -> Snake {
        Snake {
            cols: 1,
            rows: 1,
            body: VecDeque::new(),
            dir: Dir::Right,
            turns: VecDeque::with_capacity(TURN_QUEUE),
            food: (0, 0),
            grow: 0,
            score: 0,
            best: 0,
            interval: START_INTERVAL,
            next_move: 0,
            phase: Phase::Title,
            sounds: None,
        }
    }
}

/// A fresh `snake` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Snake::default())
}

impl Snake {
    fn reset_board(&mut self, ctx: &mut Update<'_>) {
        self.body.clear();
        let (cx, cy) = (self.cols / 4, self.rows / 2);
        for i in 0..4 {
            self.body.push_front((cx + i, cy));
        }
        self.dir = Dir::Right;
        self.turns.clear();
        self.grow = 0;
        self.score = 0;
        self.interval = START_INTERVAL;
        self.next_move = ctx.ticks() + self.interval;
        self.place_food(ctx);
    }

    fn place_food(&mut self, ctx: &mut Update<'_>) {
        let free = (self.cols * self.rows) as usize - self.body.len();
        if free == 0 {
            return;
        }
        let mut n = ctx.rng_mut().int(free as u32) as usize;
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.body.contains(&(x, y)) {
                    continue;
                }
                if n == 0 {
                    self.food = (x, y);
                    return;
                }
                n -= 1;
            }
        }
    }

    /// The direction asked for this update by any keyboard player or pad (d-pad or stick).
    fn wanted(ctx: &Update<'_>) -> Option<Dir> {
        for player in Player::ALL {
            for (mask, dir) in [
                (Button::UP, Dir::Up),
                (Button::DOWN, Dir::Down),
                (Button::LEFT, Dir::Left),
                (Button::RIGHT, Dir::Right),
            ] {
                if ctx.is_pressed(mask, player) {
                    return Some(dir);
                }
            }
            let (x, y) = (ctx.axis(Axis::LeftX, player), ctx.axis(Axis::LeftY, player));
            if x.abs() > 0.5 || y.abs() > 0.5 {
                return Some(if x.abs() > y.abs() {
                    if x > 0.0 {
                        Dir::Right
                    } else {
                        Dir::Left
                    }
                } else if y > 0.0 {
                    Dir::Down
                } else {
                    Dir::Up
                });
            }
        }
        None
    }

    fn queue_turn(&mut self, dir: Dir) {
        let last = self.turns.back().copied().unwrap_or(self.dir);
        if dir != last && dir != last.opposite() && self.turns.len() < TURN_QUEUE {
            self.turns.push_back(dir);
        }
    }

    /// The demo's choice: towards the food, avoiding walls and itself when it can.
    fn demo_turn(&self) -> Dir {
        let head = self.body[0];
        let (dx, dy) = (self.food.0 - head.0, self.food.1 - head.1);
        let mut prefs = [Dir::Right, Dir::Down, Dir::Left, Dir::Up];
        prefs.sort_by_key(|d| {
            let (sx, sy) = d.step();
            -(sx * dx.signum() + sy * dy.signum())
        });
        prefs
            .into_iter()
            .filter(|&d| d != self.dir.opposite())
            .find(|&d| !self.blocked(d))
            .unwrap_or(self.dir)
    }

    fn blocked(&self, dir: Dir) -> bool {
        let (sx, sy) = dir.step();
        let next = (self.body[0].0 + sx, self.body[0].1 + sy);
        !(0..self.cols).contains(&next.0)
            || !(0..self.rows).contains(&next.1)
            || self
                .body
                .iter()
                .take(self.body.len() - 1)
                .any(|&c| c == next)
    }

    /// Moves one cell. Returns false when the snake crashed.
    fn advance(&mut self, ctx: &mut Update<'_>) -> bool {
        if let Some(t) = self.turns.pop_front() {
            self.dir = t;
        }
        if self.blocked(self.dir) {
            return false;
        }
        let (sx, sy) = self.dir.step();
        let head = (self.body[0].0 + sx, self.body[0].1 + sy);
        self.body.push_front(head);
        if self.grow > 0 {
            self.grow -= 1;
        } else {
            self.body.pop_back();
        }
        if head == self.food {
            self.score += 1;
            self.grow += 2;
            if self.score.is_multiple_of(SPEEDUP_EVERY) {
                self.interval = (self.interval - 1).max(MIN_INTERVAL);
            }
            self.place_food(ctx);
        }
        true
    }
}

impl Cart for Snake {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Snake")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), bt::CartError> {
        let (w, h) = ctx.display_size();
        self.cols = w as i32 / CELL;
        self.rows = (h as i32 - HUD) / CELL;
        if self.cols < 8 || self.rows < 4 {
            return Err(bt::CartError::msg(
                "snake needs a display of at least 64x48",
            ));
        }
        self.body = VecDeque::with_capacity((self.cols * self.rows) as usize);
        self.phase = Phase::Title;
        self.reset_board(ctx);
        self.sounds = Some(Sounds::add(ctx)?);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let start = Player::ALL
            .into_iter()
            .any(|p| ctx.is_pressed(Button::A | Button::START, p));
        match self.phase {
            Phase::Title | Phase::Over if start => {
                self.reset_board(ctx);
                self.phase = Phase::Playing;
                if let Some(s) = self.sounds {
                    ctx.play_music(s.start).ok();
                }
                ctx.assign_tag("Round start");
                return;
            }
            Phase::Over => return,
            Phase::Playing => {
                if let Some(d) = Snake::wanted(ctx) {
                    self.queue_turn(d);
                }
            }
            Phase::Title => {}
        }
        if ctx.ticks() < self.next_move {
            return;
        }
        self.next_move = ctx.ticks() + self.interval;
        if self.phase == Phase::Title {
            self.dir = self.demo_turn();
        }
        let score = self.score;
        let moved = self.advance(ctx);
        if self.phase == Phase::Playing && self.score > score {
            if let Some(s) = self.sounds {
                ctx.play_sfx(s.eat, None).ok();
            }
        }
        if !moved {
            match self.phase {
                Phase::Playing => {
                    self.best = self.best.max(self.score);
                    self.phase = Phase::Over;
                    if let Some(s) = self.sounds {
                        ctx.stop_music(Fade::INSTANT);
                        ctx.play_sfx(s.die, None).ok();
                    }
                    ctx.assign_tag("Game over");
                }
                _ => self.reset_board(ctx),
            }
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        let (w, _) = ctx.display_size();
        ctx.draw_rect_fill(Rect::new(0, 0, w as i32, HUD), 1);
        if self.phase == Phase::Title {
            ctx.print(4, 1, format_args!("DEMO   BEST {}", self.best), 7);
        } else {
            ctx.print(
                4,
                1,
                format_args!("SCORE {}   BEST {}", self.score, self.best),
                7,
            );
        }
        let board = Rect::new(0, HUD, self.cols * CELL, self.rows * CELL);
        ctx.draw_rect_fill(board, 0);
        let cell = |(x, y): (i32, i32)| Rect::new(x * CELL, HUD + y * CELL, CELL, CELL);
        let f = cell(self.food);
        ctx.draw_rect_fill(Rect::new(f.x + 1, f.y + 1, 6, 6), 8);
        let dead = self.phase == Phase::Over;
        for (i, &c) in self.body.iter().enumerate() {
            let r = cell(c);
            let colour = match (dead, i) {
                (true, _) => 5,
                (false, 0) => 11,
                _ => 3,
            };
            ctx.draw_rect_fill(Rect::new(r.x, r.y, 7, 7), colour);
        }
        let centre = |ctx: &mut Render<'_>, y: i32, ink: u8, text: &str| {
            let (tw, _) = Font::system().measure(text, TextStyle::new());
            ctx.print((w as i32 - tw as i32) / 2, y, text, ink);
        };
        match self.phase {
            Phase::Title => {
                centre(ctx, 100, 10, "S N A K E");
                centre(ctx, 120, 7, "A / SPACE / START TO PLAY");
            }
            Phase::Over => {
                centre(ctx, 100, 8, "GAME OVER");
                centre(ctx, 120, 7, "A / SPACE / START TO PLAY AGAIN");
            }
            Phase::Playing => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::host::Console;

    fn booted() -> (Snake, Console) {
        let mut con = Console::new(&Settings::default(), 3);
        let mut s = Snake::default();
        s.init(&mut con.init_context()).unwrap();
        (s, con)
    }

    #[test]
    fn start_then_two_quick_turns_are_both_taken() {
        let (mut s, mut con) = booted();
        con.input_mut().set_buttons(Button::A, Player::ONE, true);
        s.update(&mut con.update_context(0));
        assert_eq!(s.phase, Phase::Playing);
        con.input_mut().set_buttons(Button::A, Player::ONE, false);
        con.input_mut().set_buttons(Button::UP, Player::ONE, true);
        con.input_mut().set_buttons(Button::UP, Player::ONE, false);
        s.update(&mut con.update_context(1));
        con.input_mut().set_buttons(Button::LEFT, Player::TWO, true);
        s.update(&mut con.update_context(2));
        assert_eq!(s.turns, [Dir::Up, Dir::Left]);
        let head = s.body[0];
        for t in 3..(3 + 2 * START_INTERVAL) {
            s.update(&mut con.update_context(t));
        }
        assert_eq!(s.body[0], (head.0 - 1, head.1 - 1));
    }

    #[test]
    fn the_demo_survives_a_long_while_and_rounds_end_at_a_wall() {
        let (mut s, mut con) = booted();
        for t in 0..3000 {
            s.update(&mut con.update_context(t));
        }
        assert_eq!(s.phase, Phase::Title);
        con.input_mut()
            .set_buttons(Button::START, Player::ONE, true);
        s.update(&mut con.update_context(3000));
        con.input_mut()
            .set_buttons(Button::START, Player::ONE, false);
        for t in 3001..3000 + 60 * 20 {
            s.update(&mut con.update_context(t));
        }
        assert_eq!(s.phase, Phase::Over, "straight into the right wall");
        let tags: Vec<String> = con.drain_tags().map(|t| t.label).collect();
        assert_eq!(tags, ["Round start", "Game over"]);
    }
}
