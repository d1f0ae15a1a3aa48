//! `audio-buses`: the three sound buses as a mixing desk. A tune loops on the music bus, a blip
//! (the `audio` cart's WAV clip) plays on the sfx bus every 1.5 s and on A, and the music ducks
//! under it. Up and down pick a bus, left and right fade its volume a step, B mutes it, X turns
//! the ducking off and on.

use std::time::Duration;

use bt::sound::{Bus, ClipId, ClipOptions, Ducking, Fade, Music, Note, Sfx, Voice, Wave};
use bt::{Button, Cart, CartError, Easing, Player, Rect, Render, Settings, Update};

use crate::BLIP;

/// One line for `bt list`.
pub const DESCRIPTION: &str = "the main, music and sfx buses: volume fades, mutes, ducking";

/// How far left or right moves a bus's volume.
const STEP: u8 = 32;
/// How long that move takes.
const FADE: Fade = Fade::millis(250);
/// Updates between the blips that play by themselves.
const BLIP_EVERY: u64 = 90;
/// How the music makes room for the blips.
const DUCKING: Ducking = Ducking {
    amount: 170,
    attack: Duration::from_millis(30),
    release: Duration::from_millis(400),
};

/// The desk's state.
#[derive(Debug, Clone)]
pub struct Buses {
    blip: Option<ClipId>,
    blip_voice: Option<Voice>,
    /// The bus the arrows move (an index of [`Bus::ALL`]).
    selected: usize,
    /// Where each bus's volume is going.
    targets: [u8; 3],
    ducking: bool,
    /// As the last update saw them: each bus's volume now, what it plays at (mute and
    /// ducking counted), its mute, and a blip sounding.
    levels: [u8; 3],
    heard: [u8; 3],
    muted: [bool; 3],
    blip_sounding: bool,
}

impl Default for Buses {
    fn default() -> Buses {
        Buses {
            blip: None,
            blip_voice: None,
            selected: Bus::Music.index(),
            targets: [255; 3],
            ducking: true,
            levels: [255; 3],
            heard: [255; 3],
            muted: [false; 3],
            blip_sounding: false,
        }
    }
}

/// A fresh `audio-buses` cart.
pub fn cart() -> Box<dyn Cart> {
    Box::new(Buses::default())
}

/// A bar of the tune: eight notes of `wave` from `pitches`, each an eighth of a bar.
fn line(pitches: [u8; 8], wave: Wave, volume: u8) -> Sfx {
    Sfx::new(
        15,
        pitches
            .iter()
            .map(|&p| Note::new(p, wave, volume))
            .collect(),
    )
}

impl Cart for Buses {
    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        bt::cloned(self)
    }

    fn configure(&self) -> Settings {
        Settings::default().title("Audio buses")
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        self.blip = Some(ctx.decode_clip("blip.wav", BLIP)?);
        let bass = ctx.add_sfx(line([36, 36, 43, 43, 41, 41, 43, 43], Wave::Triangle, 6))?;
        let lead = ctx.add_sfx(line(
            [60, 64, 67, 72, 69, 67, 64, 62],
            Wave::Square { duty: 64 },
            3,
        ))?;
        let tune = ctx.add_music(Music::patterns(
            vec![[Some(bass), Some(lead), None, None]],
            Some(0),
        ))?;
        ctx.play_music(tune).ok();
        ctx.set_ducking(DUCKING);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        let p = Player::ONE;
        if ctx.is_pressed(Button::UP, p) {
            self.selected = (self.selected + 2) % 3;
        }
        if ctx.is_pressed(Button::DOWN, p) {
            self.selected = (self.selected + 1) % 3;
        }
        let bus = Bus::ALL[self.selected];
        let target = &mut self.targets[self.selected];
        let moved = if ctx.is_pressed(Button::RIGHT, p) {
            Some(target.saturating_add(STEP))
        } else if ctx.is_pressed(Button::LEFT, p) {
            Some(target.saturating_sub(STEP))
        } else {
            None
        };
        if let Some(to) = moved {
            *target = to;
            ctx.fade_bus(bus, to, FADE.eased(Easing::SineInOut));
        }
        if ctx.is_pressed(Button::B, p) {
            let muted = !ctx.is_bus_muted(bus);
            ctx.set_bus_muted(bus, muted);
        }
        if ctx.is_pressed(Button::X, p) {
            self.ducking = !self.ducking;
            if self.ducking {
                ctx.set_ducking(DUCKING);
            } else {
                ctx.reset_ducking();
            }
        }
        let t = ctx.ticks();
        if let Some(blip) = self.blip {
            if ctx.is_pressed(Button::A, p) || t % BLIP_EVERY == BLIP_EVERY / 2 {
                let options = ClipOptions {
                    pitch: if t % (2 * BLIP_EVERY) < BLIP_EVERY {
                        1.0
                    } else {
                        1.5
                    },
                    ..ClipOptions::default()
                };
                self.blip_voice = ctx.play_clip(blip, options).ok();
            }
        }
        self.levels = Bus::ALL.map(|b| ctx.bus_volume(b));
        self.heard = Bus::ALL.map(|b| ctx.bus_level(b));
        self.muted = Bus::ALL.map(|b| ctx.is_bus_muted(b));
        self.blip_sounding = self.blip_voice.is_some_and(|v| ctx.is_voice_playing(v));
    }

    /// The desk as the last update saw it: `selected=music levels=255,223,255
    /// heard=255,223,0 muted=0,0,1 ducking=on ducked=no`.
    fn test_state(&self) -> Option<String> {
        let flag = |m: bool| if m { "1" } else { "0" };
        Some(format!(
            "selected={} levels={},{},{} heard={},{},{} muted={},{},{} ducking={} ducked={}",
            Bus::ALL[self.selected].name(),
            self.levels[0],
            self.levels[1],
            self.levels[2],
            self.heard[0],
            self.heard[1],
            self.heard[2],
            flag(self.muted[0]),
            flag(self.muted[1]),
            flag(self.muted[2]),
            if self.ducking { "on" } else { "off" },
            if self.ducking && self.blip_sounding {
                "yes"
            } else {
                "no"
            },
        ))
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(1);
        let (w, _) = ctx.display_size();
        let w = w as i32;
        ctx.print(8, 8, "AUDIO BUSES", 7);
        let track = w - 96;
        for (i, bus) in Bus::ALL.iter().enumerate() {
            let y = 30 + 22 * i as i32;
            let c = if i == self.selected { 7 } else { 6 };
            if i == self.selected {
                ctx.print(2, y, ">", 10);
            }
            ctx.print(10, y, bus.name(), c);
            let bar = Rect::new(56, y, track, 9);
            ctx.draw_rect(bar, 5);
            // The volume set, and over it what the bus plays at (lower when ducked or muted).
            let fill = i32::from(self.levels[i]) * (track - 2) / 255;
            ctx.draw_rect_fill(Rect::new(57, y + 1, fill, 7), 3);
            let heard = i32::from(self.heard[i]) * (track - 2) / 255;
            ctx.draw_rect_fill(Rect::new(57, y + 1, heard, 7), 11);
            // Where the volume is going.
            let to = 57 + i32::from(self.targets[i]) * (track - 2) / 255;
            ctx.draw_line((to, y - 2), (to, y + 10), 9);
            if self.muted[i] {
                ctx.print(w - 34, y, "MUTE", 8);
            }
        }
        let ducking = if self.ducking { "ON" } else { "OFF" };
        ctx.print(10, 100, format_args!("DUCKING {ducking}"), 12);
        if self.ducking && self.blip_sounding {
            ctx.print(80, 100, "MUSIC DUCKED", 8);
        }
        ctx.print(10, 124, "UP/DOWN BUS  LEFT/RIGHT VOLUME", 6);
        ctx.print(10, 138, "B MUTE  X DUCKING  A BLIP", 6);
    }
}
