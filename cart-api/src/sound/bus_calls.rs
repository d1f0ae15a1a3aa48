//! What carts call to set the buses: volumes, fades, mutes and ducking. Like every sound call,
//! each takes effect at the tick it is made, from that update's first sample.

use super::{Bus, Ducking, Fade};
use crate::Update;

/// Buses.
///
/// ```
/// use bt::host::Console;
/// use bt::sound::{Bus, Ducking, Fade};
/// use bt::{Easing, Settings};
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// ctx.fade_bus(Bus::Music, 0, Fade::seconds(1.0).eased(Easing::SineOut));
/// ctx.set_ducking(Ducking { amount: 160, ..Ducking::default() });
/// assert_eq!(ctx.bus_volume(Bus::Music), 255, "the fade starts where the bus is");
/// for tick in 0..60 {
///     con.step_sound();
///     con.update_context(tick + 1);
/// }
/// let ctx = con.update_context(60);
/// assert_eq!(ctx.bus_volume(Bus::Music), 0, "and ends on its target");
/// ```
impl Update<'_> {
    /// Sets `bus`'s volume at once, 0 (silent) to 255 (full, the default), ending any fade.
    /// The main bus's volume is the master volume, the volume of the whole mix:
    /// `set_bus_volume(Bus::Main, v)`.
    pub fn set_bus_volume(&mut self, bus: Bus, volume: u8) {
        self.con.synth.set_bus_volume(bus, volume);
    }

    /// Fades `bus` from its volume now (where a fade running has got to) to `volume` along
    /// `fade`: each sample's level is worked out from the sample's place in the fade, so it is
    /// the same at any update rate. A curve that overshoots (`Back`, `Elastic`) is held
    /// between silence and 255. [`Fade::INSTANT`] sets the volume at once.
    pub fn fade_bus(&mut self, bus: Bus, volume: u8, fade: Fade) {
        self.con.synth.fade_bus(bus, volume, fade);
    }

    /// `bus`'s volume now, 0 to 255: where its fade has got to, mute and ducking not counted
    /// ([`SoundMeter::buses`](super::SoundMeter::buses) counts them). The main bus's is the
    /// master volume.
    pub fn bus_volume(&self, bus: Bus) -> u8 {
        self.con.synth.bus_volume(bus)
    }

    /// What `bus` plays at now, 0 to 255: its volume with the mute and the ducking counted,
    /// the figure the overlay's bus bars and [`SoundMeter::buses`](super::SoundMeter::buses)
    /// show. The main bus's figure is its own; the others' are before the main bus.
    pub fn bus_level(&self, bus: Bus) -> u8 {
        self.con.synth.bus_level(bus)
    }

    /// Mutes or unmutes `bus`. A muted bus is silent, but its volume and fade go on: unmuted,
    /// it plays at the level it would have had.
    pub fn set_bus_muted(&mut self, bus: Bus, muted: bool) {
        self.con.synth.set_bus_muted(bus, muted);
    }

    /// Whether `bus` is muted.
    pub fn is_bus_muted(&self, bus: Bus) -> bool {
        self.con.synth.is_bus_muted(bus)
    }

    /// Lowers the music bus while any voice on the sfx bus plays (a channel playing a sound
    /// effect, or a clip on [`Bus::Sfx`]), as `ducking` says; replaces an earlier setting. The
    /// times are turned into samples at the sample rate of the moment.
    pub fn set_ducking(&mut self, ducking: Ducking) {
        self.con.synth.set_ducking(ducking);
    }

    /// Undoes [`Update::set_ducking`]: sound effects no longer lower the music, and music
    /// lowered now rises back over the last setting's release.
    pub fn reset_ducking(&mut self) {
        self.con.synth.reset_ducking();
    }
}
