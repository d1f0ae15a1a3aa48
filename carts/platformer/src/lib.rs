//! `platformer`: a small side-scroller built from files in its asset folder: levels made in
//! Tiled (one `.tmj`, one `.tmx`), a level table in a text file, and a sprite sheet drawn on a
//! pink key colour. Tile flags say what is solid, a coin, a hazard or the goal; the player and
//! the slimes move with `Tilemap::move_rect`; the HUD is drawn with a camera of its own, the
//! hills behind with half the camera's offset. Edit a file while `bt run platformer` plays and
//! the level reloads.

use bt::{
    Button, Cart, CartError, ColorKey, FillPattern, Font, MapParams, Palette, Player, Rect, Render,
    Settings, SpriteParams, SpriteSheet, TextStyle, Tilemap, Update, FLIP_H,
};

/// One line for `bt list`.
pub const DESCRIPTION: &str =
    "a side-scroller from a Tiled map and a level table: flags, collisions, a HUD camera";

/// Where the cart's files are, for the gallery's list.
pub const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");

/// The level table.
const LEVELS: &str = "levels.txt";
const SHEET: &str = "tiles.png";
/// The music, in the `bt-sound 2` format.
const MUSIC: &str = "music.txt";

/// The save data slot holding the best score.
pub const BEST_SLOT: u8 = 0;

/// Flag bits of the sheet's tiles, as the maps' tileset sets them.
mod flag {
    pub const SOLID: u8 = 1;
    pub const COIN: u8 = 2;
    pub const HURT: u8 = 4;
    pub const GOAL: u8 = 8;
}

/// Tile numbers on the sheet.
mod tile {
    pub const PLAYER: u32 = 8;
    pub const SLIME: u16 = 10;
    pub const HEART: u32 = 12;
}

/// Positions and speeds are in sixteenths of a pixel.
const SUB: i32 = 16;
const GRAVITY: i32 = 4;
const MAX_FALL: i32 = 4 * SUB;
const JUMP: i32 = -58;
const WALK: i32 = 20;
const SLIME_SPEED: i32 = 6;
const LIVES: u32 = 3;
/// How long the player blinks after being hurt, in ticks.
const HURT_TICKS: u32 = 60;

/// One line of the level table.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Level {
    map: String,
    /// The player's start, in cells.
    start: (i32, i32),
    seconds: u32,
    name: String,
}

/// Reads the level table: `map x y seconds name…` a line; `#` starts a comment.
fn parse_levels(file: &str, text: &str) -> Result<Vec<Level>, CartError> {
    let mut levels = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |field: &str, value: &str, why: &str| {
            CartError::msg(format!("{file}:{}: {field}: '{value}' {why}", n + 1))
        };
        let mut words = line.split_whitespace();
        let map = words.next().unwrap_or_default().to_string();
        let mut number = |field: &str| {
            let v = words.next().unwrap_or("");
            v.parse::<u32>()
                .map_err(|_| at(field, v, "is not a whole number"))
        };
        let (x, y, seconds) = (number("start x")?, number("start y")?, number("seconds")?);
        let name = words.collect::<Vec<_>>().join(" ");
        if seconds == 0 {
            return Err(at("seconds", "0", "leaves no time to play"));
        }
        levels.push(Level {
            map,
            start: (x as i32, y as i32),
            seconds,
            name,
        });
    }
    if levels.is_empty() {
        return Err(CartError::msg(format!("{file}: no levels")));
    }
    Ok(levels)
}

/// What the cart reads from its folder, in `init` and again on every reload.
#[derive(Debug)]
struct Assets {
    sheet: SpriteSheet,
    levels: Vec<Level>,
    maps: Vec<Tilemap>,
    /// The tune of `music.txt`, written as one list of sounds per channel.
    music: bt::sound::MusicId,
}

/// A map's layers by name.
#[derive(Debug, Clone, Copy)]
struct Layers {
    background: Option<usize>,
    ground: usize,
    things: usize,
}

fn layers(file: &str, map: &Tilemap) -> Result<Layers, CartError> {
    let need = |name: &str| {
        map.layer_index(name)
            .ok_or_else(|| CartError::msg(format!("{file}: no tile layer named '{name}'")))
    };
    Ok(Layers {
        background: map.layer_index("background"),
        ground: need("ground")?,
        things: need("things")?,
    })
}

/// Loads the sheet, levels and maps, and the sound file unless `music` is the tune already
/// loaded from it (a reload of files other than the sound file keeps it playing).
fn load_assets(
    ctx: &mut Update<'_>,
    music: Option<bt::sound::MusicId>,
) -> Result<Assets, CartError> {
    let sheet = ctx.load_image(SHEET, 16)?;
    // The sheet's last tile is left blank in the key colour: whatever slot it was given.
    let (w, h) = sheet.size();
    let key = sheet.get(w as i32 - 1, h as i32 - 1).unwrap_or(0);
    let sheet = sheet.with_key(ColorKey::single(key));
    let levels = parse_levels(LEVELS, &ctx.load_data_text(LEVELS)?)?;
    let mut maps = Vec::new();
    for level in &levels {
        let map = ctx.load_map(&level.map)?;
        layers(&level.map, &map)?;
        maps.push(map);
    }
    // Last, so an earlier file's mistake leaves the sounds playing: loading the sound file
    // replaces the set an earlier load of it gave.
    let music = match music {
        Some(music) => music,
        None => ctx.load_sounds(MUSIC)?.require_music("theme")?,
    };
    Ok(Assets {
        sheet,
        levels,
        maps,
        music,
    })
}

/// A body that moves against the map: a box in whole pixels, and where it is in sixteenths.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Body {
    /// Top-left corner, in sixteenths of a pixel.
    pos: (i32, i32),
    vel: (i32, i32),
    size: (i32, i32),
}

/// What a step against the map ran into.
#[derive(Debug, Clone, Copy, Default)]
struct Bumps {
    wall: bool,
    floor: bool,
    ceiling: bool,
}

impl Body {
    fn rect(&self) -> Rect {
        Rect::new(
            self.pos.0.div_euclid(SUB),
            self.pos.1.div_euclid(SUB),
            self.size.0,
            self.size.1,
        )
    }

    /// One tick of movement: the whole pixels the speed reaches, stopped by solid tiles.
    fn step(&mut self, map: &Tilemap, layer: usize) -> Bumps {
        let from = self.rect();
        let to = (
            (self.pos.0 + self.vel.0).div_euclid(SUB),
            (self.pos.1 + self.vel.1).div_euclid(SUB),
        );
        let by = (to.0 - from.x, to.1 - from.y);
        let moved = map.move_rect(layer, from, by, flag::SOLID);
        let mut bumps = Bumps::default();
        if moved.hit_x {
            self.pos.0 = moved.rect.x * SUB;
            self.vel.0 = 0;
            bumps.wall = true;
        } else {
            self.pos.0 += self.vel.0;
        }
        if moved.hit_y {
            bumps.floor = self.vel.1 > 0;
            bumps.ceiling = self.vel.1 < 0;
            // Flush against the tile, at the side of the pixel it was stopped at.
            self.pos.1 = moved.rect.y * SUB + if self.vel.1 > 0 { SUB - 1 } else { 0 };
            self.vel.1 = 0;
        } else {
            self.pos.1 += self.vel.1;
        }
        bumps
    }
}

#[derive(Debug, Clone, Copy)]
struct Slime {
    body: Body,
    alive: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Playing,
    /// Every level done, or every life lost: the text to show until A is pressed.
    Over(&'static str),
}

/// The cart's state.
#[derive(Debug, Clone)]
pub struct Platformer {
    /// Shared with every snapshot of the game: loaded once, never changed in place.
    assets: Option<std::sync::Arc<Assets>>,
    level: usize,
    /// The level being played: a copy of its map, coins taken out as they are collected.
    map: Option<Tilemap>,
    player: Body,
    prev: (i32, i32),
    facing_left: bool,
    on_ground: bool,
    walk_ticks: u32,
    slimes: Vec<Slime>,
    score: u32,
    /// The best score ever, kept in save data slot [`BEST_SLOT`].
    best: u32,
    lives: u32,
    ticks_left: u64,
    hurt: u32,
    mode: Mode,
    camera_x: i32,
}

impl Default for Platformer {
    fn default() -> Platformer {
        Platformer {
            assets: None,
            level: 0,
            map: None,
            player: Body {
                size: (6, 8),
                ..Body::default()
            },
            prev: (0, 0),
            facing_left: false,
            on_ground: false,
            walk_ticks: 0,
            slimes: Vec::new(),
            score: 0,
            best: 0,
            lives: LIVES,
            ticks_left: 0,
            hurt: 0,
            mode: Mode::Playing,
            camera_x: 0,
        }
    }
}

/// A fresh `platformer` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Platformer::default())
}

impl Platformer {
    /// Starts level `n` afresh: its map, its slimes, the player at its start, a full clock.
    fn start_level(&mut self, n: usize, fps: f64) {
        let Some(assets) = &self.assets else { return };
        let n = n.min(assets.levels.len() - 1);
        self.level = n;
        let mut map = assets.maps[n].clone();
        let Ok(l) = layers(&assets.levels[n].map, &map) else {
            return;
        };
        // Slimes are drawn into the things layer where they start; they leave it to walk.
        self.slimes.clear();
        let (w, h) = map.size();
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                if map.tile(l.things, x, y) == Some(tile::SLIME) {
                    map.set_tile(l.things, x, y, None);
                    self.slimes.push(Slime {
                        body: Body {
                            pos: (x * 8 * SUB, y * 8 * SUB),
                            vel: (-SLIME_SPEED, 0),
                            size: (8, 8),
                        },
                        alive: true,
                    });
                }
            }
        }
        self.map = Some(map);
        self.ticks_left = (f64::from(assets.levels[n].seconds) * fps) as u64;
        self.respawn();
    }

    fn respawn(&mut self) {
        let Some(assets) = &self.assets else { return };
        let (x, y) = assets.levels[self.level].start;
        self.player.pos = ((x * 8 + 1) * SUB, y * 8 * SUB);
        self.player.vel = (0, 0);
        self.prev = (self.player.rect().x, self.player.rect().y);
    }

    fn lose_life(&mut self) {
        self.lives = self.lives.saturating_sub(1);
        self.hurt = HURT_TICKS;
        if self.lives == 0 {
            self.mode = Mode::Over("GAME OVER");
        } else {
            self.respawn();
        }
    }

    fn play(&mut self, ctx: &mut Update<'_>) {
        let Some(assets) = &self.assets else { return };
        let Some(map) = &mut self.map else { return };
        let Ok(l) = layers(&assets.levels[self.level].map, map) else {
            return;
        };
        let p = &mut self.player;
        // Walking and jumping.
        let dir = i32::from(ctx.is_down(Button::RIGHT, Player::ONE))
            - i32::from(ctx.is_down(Button::LEFT, Player::ONE));
        p.vel.0 = dir * WALK;
        if dir != 0 {
            self.facing_left = dir < 0;
            self.walk_ticks += 1;
        }
        if self.on_ground && ctx.is_pressed(Button::A | Button::UP, Player::ONE) {
            p.vel.1 = JUMP;
        }
        p.vel.1 = (p.vel.1 + GRAVITY).min(MAX_FALL);
        let bumps = p.step(map, l.ground);
        self.on_ground = bumps.floor;
        let body = p.rect();

        // Coins, hazards and the goal: the things layer's flags under the player.
        let cells = map.cells_touching(body);
        let (mut hurt, mut goal) = (false, false);
        for y in cells.y..cells.y + cells.h {
            for x in cells.x..cells.x + cells.w {
                if map.cell_has(l.things, x, y, flag::COIN) {
                    map.set_tile(l.things, x, y, None);
                    self.score += 10;
                }
                hurt |= map.cell_has(l.things, x, y, flag::HURT);
                goal |= map.cell_has(l.things, x, y, flag::GOAL);
            }
        }

        // Slimes walk until a wall or the edge of their floor turns them.
        for s in self.slimes.iter_mut().filter(|s| s.alive) {
            s.body.vel.1 = (s.body.vel.1 + GRAVITY).min(MAX_FALL);
            let r = s.body.rect();
            let ahead = if s.body.vel.0 < 0 { r.x - 1 } else { r.x + r.w };
            let floor_ahead = map.touches(l.ground, Rect::new(ahead, r.y + r.h, 1, 1), flag::SOLID);
            let before = s.body.vel.0;
            let bumps = s.body.step(map, l.ground);
            if bumps.wall || (bumps.floor && !floor_ahead) {
                s.body.vel.0 = -before;
            }
            let sr = s.body.rect();
            if overlap(sr, body) {
                if self.player.vel.1 > 0 && body.y + body.h <= sr.y + 4 {
                    s.alive = false;
                    self.score += 50;
                    self.player.vel.1 = JUMP / 2;
                } else if self.hurt == 0 {
                    hurt = true;
                }
            }
        }

        let map_h = i32::try_from(map.pixel_size().1).unwrap_or(i32::MAX);
        if hurt && self.hurt == 0 || body.y > map_h {
            self.lose_life();
        }
        self.hurt = self.hurt.saturating_sub(1);
        self.ticks_left = self.ticks_left.saturating_sub(1);
        if self.ticks_left == 0 {
            self.lose_life();
            let fps = ctx.target_fps();
            if self.mode == Mode::Playing {
                let level = self.level;
                self.start_level(level, fps);
            }
        }
        if goal && self.mode == Mode::Playing {
            let last = self.assets.as_ref().map_or(0, |a| a.levels.len() - 1);
            if self.level == last {
                self.mode = Mode::Over("YOU WIN!");
            } else {
                let fps = ctx.target_fps();
                self.start_level(self.level + 1, fps);
            }
        }
    }
}

fn overlap(a: Rect, b: Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

impl Cart for Platformer {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn snapshot_bytes(&self) -> usize {
        // The level's map shares its cells until a coin is taken; count them as copied.
        let map = self.map.as_ref().map_or(0, |m| {
            (0..m.layer_count()).map(|l| m.cells(l).len() * 2).sum()
        });
        std::mem::size_of::<Platformer>()
            + map
            + self.slimes.capacity() * std::mem::size_of::<Slime>()
    }

    fn configure(&self) -> Settings {
        let palette = Palette::pico8().resized(48).unwrap_or_default();
        Settings::default()
            .title("Platformer")
            .display(160, 128)
            .window_scale(4)
            .palette(palette)
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        // A slot a damaged or foreign block left negative counts as no best yet.
        self.best = u32::try_from(ctx.save().get(BEST_SLOT)).unwrap_or(0);
        let assets = load_assets(ctx, None)?;
        ctx.play_music(assets.music).ok();
        self.assets = Some(std::sync::Arc::new(assets));
        self.start_level(0, ctx.target_fps());
        Ok(())
    }

    fn reload(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        // The files are read whole before anything is replaced: a broken edit keeps the game.
        // The tune starts again only when its own file changed (or the host cannot say).
        let changed = ctx.changed_files();
        let sounds = changed.is_empty() || changed.iter().any(|f| f == MUSIC);
        let keep = self.assets.as_ref().map(|a| a.music).filter(|_| !sounds);
        let assets = load_assets(ctx, keep)?;
        if keep.is_none() {
            ctx.play_music(assets.music).ok();
        }
        self.assets = Some(std::sync::Arc::new(assets));
        let (level, pos) = (self.level, self.player.pos);
        self.start_level(level, ctx.target_fps());
        self.player.pos = pos;
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let r = self.player.rect();
        self.prev = (r.x, r.y);
        match self.mode {
            Mode::Playing => self.play(ctx),
            Mode::Over(_) => {
                if ctx.is_pressed(Button::A, Player::ONE) {
                    (self.score, self.lives, self.mode) = (0, LIVES, Mode::Playing);
                    self.start_level(0, ctx.target_fps());
                }
            }
        }
        // A new best is kept at once: it survives however the game ends.
        if self.score > self.best {
            self.best = self.score;
            ctx.save_mut()
                .set(BEST_SLOT, i32::try_from(self.best).unwrap_or(i32::MAX));
        }
        // Follow the player across, within the level.
        let view = ctx.display_size();
        let world = self.map.as_ref().map_or(view, Tilemap::pixel_size);
        ctx.set_camera(self.player.rect().x + 3 - view.0 as i32 / 2, 0);
        ctx.clamp_camera(world, view);
        self.camera_x = ctx.camera().0;
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(12);
        let (Some(assets), Some(map)) = (&self.assets, &self.map) else {
            return;
        };
        let Ok(l) = layers(&assets.levels[self.level].map, map) else {
            return;
        };
        let sheet = &assets.sheet;
        let (w, h) = ctx.display_size();
        let (w, h) = (w as i32, h as i32);

        // Far hills at half the camera's offset, hazy through a dither pattern.
        ctx.with_camera(self.camera_x / 2, 0, |far| {
            far.set_fill_pattern(FillPattern::new(0x5a5a), Some(13));
            for i in 0..8 {
                let x = i * 70 - 20;
                far.draw_triangle_fill(
                    (x, h - 10),
                    (x + 45, h - 70 - (i % 3) * 12),
                    (x + 90, h - 10),
                    3,
                );
            }
            far.reset_fill_pattern();
            far.draw_ellipse_fill(Rect::new(120, 12, 20, 20), 10);
        });

        // The level, through the camera update set.
        if let Some(back) = l.background {
            ctx.draw_map(map, sheet, 0, 0, MapParams::new().layer(back));
        }
        ctx.draw_map(map, sheet, 0, 0, MapParams::new().layer(l.ground));
        // Coins glint: for 6 ticks in 40 their yellow draws white.
        let glint = ctx.ticks() % 40 < 6;
        let yellow = sheet.get(27, 2);
        if let (true, Some(y)) = (glint, yellow) {
            ctx.set_remap(y, 7);
        }
        ctx.draw_map(map, sheet, 0, 0, MapParams::new().layer(l.things));
        ctx.reset_remap();

        for s in self.slimes.iter().filter(|s| s.alive) {
            let r = s.body.rect();
            let frame = u32::from(!(ctx.ticks() / 16).is_multiple_of(2));
            let flip = if s.body.vel.0 > 0 { FLIP_H } else { 0 };
            let t = u32::from(tile::SLIME) + frame;
            ctx.draw_tile(sheet, t, r.x, r.y, SpriteParams::new().flags(flip));
        }

        // The player, between its last two positions; blinking white while hurt.
        let r = self.player.rect();
        let a = ctx.render_alpha();
        let x = self.prev.0 + ((r.x - self.prev.0) as f64 * a).round() as i32;
        let y = self.prev.1 + ((r.y - self.prev.1) as f64 * a).round() as i32;
        let frame = if self.on_ground && self.walk_ticks / 6 % 2 == 1 {
            1
        } else {
            0
        };
        let flip = if self.facing_left { FLIP_H } else { 0 };
        if self.hurt > 0 && (self.hurt / 4).is_multiple_of(2) {
            for slot in sheet.palette_slots() {
                ctx.set_remap(slot, 7);
            }
        }
        ctx.draw_tile(
            sheet,
            tile::PLAYER + frame,
            x - 1,
            y,
            SpriteParams::new().flags(flip),
        );
        ctx.reset_remap();

        // The HUD: screen coordinates, whatever the camera.
        let lives = self.lives;
        let (score, best, seconds) = (
            self.score,
            self.best,
            self.ticks_left.div_ceil(ctx.target_fps() as u64),
        );
        let name = assets.levels[self.level].name.as_str();
        let mode = self.mode;
        ctx.with_camera(0, 0, |hud| {
            hud.set_fill_pattern(FillPattern::new(0xa5a5), None);
            hud.draw_rect_fill(Rect::new(0, 0, w, 12), 1);
            hud.reset_fill_pattern();
            for i in 0..lives as i32 {
                hud.draw_tile(sheet, tile::HEART, 2 + i * 9, 2, SpriteParams::new());
            }
            hud.print(32, -1, format_args!("{score:05}"), 7);
            hud.print(76, -1, format_args!("HI {best:05}"), 6);
            hud.print(w - 24, -1, format_args!("{seconds:3}"), 7);
            let tw = Font::system().measure(name, TextStyle::new()).0 as i32;
            hud.print((w - tw) / 2 + 12, h - 14, name, 6);
            if let Mode::Over(text) = mode {
                let (tw, th) = Font::system().measure(text, TextStyle::new());
                let (tw, th) = (tw as i32, th as i32);
                hud.draw_rect_fill(
                    Rect::new((w - tw) / 2 - 4, (h - th) / 2 - 2, tw + 8, th + 4),
                    0,
                );
                hud.print((w - tw) / 2, (h - th) / 2, text, 10);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bt::host::Console;
    use bt::sound::Channel;
    use bt_runtime::config::assets::Assets;
    use std::path::Path;

    /// The cart after `init`, on a console reading the cart's own folder.
    fn started() -> (Platformer, Console) {
        let mut cart = Platformer::default();
        let mut con = Console::new(&cart.configure(), 0);
        con.set_image_loader(Box::new(Assets::folder(ASSETS)));
        cart.init(&mut con.init_context()).unwrap();
        (cart, con)
    }

    /// Runs `n` updates with `held` buttons down, pressing `tap` on the first.
    fn run(
        cart: &mut Platformer,
        con: &mut Console,
        t: &mut u64,
        n: u64,
        held: Button,
        tap: Button,
    ) {
        for i in 0..n {
            con.input_mut().set_buttons(Button::ALL, Player::ONE, false);
            con.input_mut().set_buttons(
                held | if i == 0 { tap } else { Button::NONE },
                Player::ONE,
                true,
            );
            cart.update(&mut con.update_context(*t));
            *t += 1;
        }
    }

    #[test]
    fn the_first_level_loads_from_the_table_with_its_layers_and_flags() {
        let (cart, _) = started();
        let assets = cart.assets.as_ref().unwrap();
        assert_eq!(assets.levels.len(), 2);
        assert_eq!(assets.levels[1].name, "Brick caves");
        let map = cart.map.as_ref().unwrap();
        assert_eq!((map.size(), map.layer_count()), ((60, 16), 3));
        let l = layers("level1.tmj", map).unwrap();
        assert_eq!(map.flags(map.tile(l.ground, 0, 14).unwrap()), flag::SOLID);
        assert!(map.cell_has(l.things, 4, 11, flag::COIN));
        assert_eq!(cart.slimes.len(), 1, "the slime left the map to walk");
        // Both maps, one from each of Tiled's forms, carry the same tileset flags.
        assert_eq!(assets.maps[1].flags(3), flag::COIN);
    }

    #[test]
    fn the_player_lands_walks_into_a_wall_and_jumps_for_coins() {
        let (mut cart, mut con) = started();
        let mut t = 0;
        run(&mut cart, &mut con, &mut t, 30, Button::NONE, Button::NONE);
        assert!(cart.on_ground);
        assert_eq!(cart.player.rect().y, 104, "standing on row 14");
        run(
            &mut cart,
            &mut con,
            &mut t,
            120,
            Button::RIGHT,
            Button::NONE,
        );
        assert_eq!(
            cart.player.rect().x,
            17 * 8 - 6,
            "stopped by the raised ground"
        );
        let (mut cart, mut con) = started();
        let mut t = 0;
        run(&mut cart, &mut con, &mut t, 30, Button::NONE, Button::NONE);
        run(&mut cart, &mut con, &mut t, 8, Button::RIGHT, Button::NONE);
        run(&mut cart, &mut con, &mut t, 40, Button::RIGHT, Button::A);
        assert!(cart.score >= 10, "score {}", cart.score);
        let map = cart.map.as_ref().unwrap();
        let l = layers("level1.tmj", map).unwrap();
        let coins = (4..7)
            .filter(|&x| map.cell_has(l.things, x, 11, flag::COIN))
            .count();
        assert_eq!(
            coins as u32,
            3 - cart.score / 10,
            "collected coins leave the map"
        );
    }

    #[test]
    fn a_broken_edit_keeps_the_last_good_level() {
        let dir = bt_test_support::ScratchDir::new("platformer");
        for f in [
            "tiles.png",
            "levels.txt",
            "level1.tmj",
            "level2.tmx",
            "music.txt",
        ] {
            std::fs::copy(Path::new(ASSETS).join(f), dir.join(f)).unwrap();
        }
        let mut cart = Platformer::default();
        let mut con = Console::new(&cart.configure(), 0);
        con.set_image_loader(Box::new(Assets::folder(dir.path())));
        cart.init(&mut con.init_context()).unwrap();
        std::fs::write(dir.join("level2.tmx"), "<map width=\"3\">").unwrap();
        let err = cart
            .reload(&mut con.reload_context())
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "level2.tmx: line 1: the root node was opened but never closed"
        );
        assert_eq!(cart.assets.as_ref().unwrap().maps.len(), 2, "still playing");
        // A level table naming a third level: reloaded while the game runs.
        std::fs::copy(Path::new(ASSETS).join("level2.tmx"), dir.join("level2.tmx")).unwrap();
        let table = std::fs::read_to_string(dir.join("levels.txt")).unwrap();
        std::fs::write(
            dir.join("levels.txt"),
            format!("{table}level1.tmj 5 5 30 Again\n"),
        )
        .unwrap();
        cart.reload(&mut con.reload_context()).unwrap();
        assert_eq!(cart.assets.as_ref().unwrap().levels.len(), 3);
    }

    /// The samples of updates 30 to 59, with a reload of `changed` before update 30 (none
    /// with `None`).
    fn sound_after_reload(changed: Option<&[String]>) -> Vec<i16> {
        let mut cart = Platformer::default();
        let mut con = Console::new(&cart.configure(), 0);
        con.set_image_loader(Box::new(Assets::folder(ASSETS)));
        cart.init(&mut con.init_context()).unwrap();
        let mut samples = Vec::new();
        for t in 0..60 {
            if let (30, Some(changed)) = (t, changed) {
                con.set_changed_files(changed);
                cart.reload(&mut con.reload_context()).unwrap();
                con.set_changed_files(&[]);
            }
            cart.update(&mut con.update_context(t));
            con.step_sound();
            let made: Vec<i16> = con.drain_samples().collect();
            if t >= 30 {
                samples.extend(made);
            }
        }
        samples
    }

    #[test]
    fn a_changed_sheet_keeps_the_tune_playing_and_a_changed_sound_file_restarts_it() {
        let untouched = sound_after_reload(None);
        let sheet = sound_after_reload(Some(&["tiles.png".to_string()]));
        assert!(
            sheet == untouched,
            "the tune plays on through a sheet's reload"
        );
        let music = sound_after_reload(Some(&[MUSIC.to_string()]));
        assert!(music != untouched, "a new sound file starts the tune again");
        let unknown = sound_after_reload(Some(&[]));
        assert!(
            unknown == music,
            "a reload of unknown files reloads the sounds too"
        );
    }

    /// Two seconds of the cart's sound, started at `fps` updates a second.
    fn two_seconds_of_music(fps: f64) -> Vec<i16> {
        let mut cart = Platformer::default();
        let mut con = Console::new(&cart.configure().target_fps(fps), 0);
        con.set_image_loader(Box::new(Assets::folder(ASSETS)));
        cart.init(&mut con.init_context()).unwrap();
        let mut samples = Vec::new();
        for t in 0..(2.0 * fps) as u64 {
            cart.update(&mut con.update_context(t));
            con.step_sound();
            samples.extend(con.drain_samples());
        }
        samples
    }

    #[test]
    fn the_music_of_three_sequences_sounds_the_same_at_any_update_rate() {
        let at_60 = two_seconds_of_music(60.0);
        assert_eq!(at_60.len(), 2 * 44_100);
        assert!(
            at_60.iter().filter(|s| s.abs() > 2000).count() > 10_000,
            "it plays"
        );
        assert!(
            two_seconds_of_music(30.0) == at_60,
            "at 30 updates a second"
        );
        assert!(
            two_seconds_of_music(120.0) == at_60,
            "at 120 updates a second"
        );
        let (_, mut con) = started();
        let ctx = con.update_context(0);
        for channel in [Channel::ONE, Channel::TWO, Channel::THREE] {
            assert!(ctx.channel_state(channel).from_music, "channel {channel:?}");
        }
        assert_eq!(
            ctx.channel_state(Channel::FOUR).sfx,
            None,
            "one channel left for effects"
        );
    }

    #[test]
    fn the_level_table_reads_names_with_spaces_and_skips_comments() {
        let levels =
            parse_levels("t", "# map x y s name\n\na.tmj 1 2 30 Brick caves # hard\n").unwrap();
        assert_eq!(
            levels,
            [Level {
                map: "a.tmj".into(),
                start: (1, 2),
                seconds: 30,
                name: "Brick caves".into()
            }]
        );
    }

    #[test]
    fn bad_level_tables_name_the_line_field_and_value() {
        let err = |text: &str| parse_levels("levels.txt", text).unwrap_err().to_string();
        assert_eq!(
            err("a.tmj 1 2 x\n"),
            "levels.txt:1: seconds: 'x' is not a whole number"
        );
        assert_eq!(
            err("\na.tmj -1 2 9\n"),
            "levels.txt:2: start x: '-1' is not a whole number"
        );
        assert_eq!(
            err("a.tmj 1 2 0\n"),
            "levels.txt:1: seconds: '0' leaves no time to play"
        );
        assert_eq!(err("# nothing\n"), "levels.txt: no levels");
    }
}
