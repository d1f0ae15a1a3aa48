//! The sound device `bt run` plays through: the system's default output, opened with cpal, its
//! callback pulling from a [`Puller`].

use std::sync::Arc;

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig, SupportedBufferSize};

use bt_overlay::SoundDevice;

use crate::engine::{Engine, FrameReport};
use crate::host::live_sound::{Feeder, Playback, Puller};

/// The device's own buffer we ask for, in seconds: short, since it adds to the latency. Talking
/// to PulseAudio or PipeWire directly, 10 ms played without a device underrun on a busy 2-core
/// machine; through ALSA (a sound card, or a server's ALSA plugin) 10 ms underran the device
/// hundreds of times a minute there, and 20 ms did not.
const SERVER_BUFFER_SECONDS: f64 = 0.010;
const ALSA_BUFFER_SECONDS: f64 = 0.020;
/// Frames the callback converts at a time (its scratch buffer, made once).
const SCRATCH_FRAMES: usize = 8192;

/// An open output stream. Sound plays while it lives.
pub struct Speaker {
    _stream: cpal::Stream,
    description: String,
}

impl std::fmt::Debug for Speaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Speaker")
            .field("description", &self.description)
            .finish()
    }
}

impl Speaker {
    /// Opens the default output device and starts pulling from `shared`.
    ///
    /// # Errors
    /// Why there is no sound: no device, or one that refused every format we can play.
    pub fn open(shared: Arc<Playback>) -> Result<Speaker, String> {
        #[cfg(target_os = "linux")]
        if !linux_has_sound_output() {
            // Asked anyway, ALSA would print a screenful of errors before failing.
            return Err(
                "no sound card in /dev/snd and no PulseAudio or PipeWire socket".to_string(),
            );
        }
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or_else(|| "no audio output device".to_string())?;
        let buffer_seconds = match host.id().name() {
            "PulseAudio" | "PipeWire" => SERVER_BUFFER_SECONDS,
            _ => ALSA_BUFFER_SECONDS,
        };
        let (config, format) = choose_config(&device, shared.rate(), buffer_seconds)?;
        let description = format!(
            "{} Hz, {} channel{}",
            config.sample_rate,
            config.channels,
            if config.channels == 1 { "" } else { "s" }
        );
        let open = |config: StreamConfig| match format {
            SampleFormat::F32 => build::<f32>(&device, config, shared.clone()),
            SampleFormat::I16 => build::<i16>(&device, config, shared.clone()),
            SampleFormat::I32 => build::<i32>(&device, config, shared.clone()),
            SampleFormat::U16 => build::<u16>(&device, config, shared.clone()),
            other => Err(format!("the device wants {other} samples")),
        };
        // A device that refuses our short buffer gets its own size instead.
        let stream = open(config).or_else(|e| match config.buffer_size {
            cpal::BufferSize::Default => Err(e),
            cpal::BufferSize::Fixed(_) => open(StreamConfig {
                buffer_size: cpal::BufferSize::Default,
                ..config
            }),
        })?;
        stream
            .play()
            .map_err(|e| format!("the audio device would not start: {e}"))?;
        Ok(Speaker {
            _stream: stream,
            description,
        })
    }

    /// The format playing, as `44100 Hz, 2 channels`.
    pub fn description(&self) -> &str {
        &self.description
    }
}

/// Whether a Linux system has anywhere to send sound: a sound card's playback device, or a
/// PulseAudio or PipeWire server's socket where clients look for one.
#[cfg(target_os = "linux")]
fn linux_has_sound_output() -> bool {
    use std::os::unix::fs::MetadataExt as _;
    use std::path::{Path, PathBuf};

    let names = |dir: &Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    // ALSA names a card's playback devices pcmC<card>D<device>p.
    if names(Path::new("/dev/snd"))
        .iter()
        .any(|n| n.starts_with("pcmC") && n.ends_with('p'))
    {
        return true;
    }
    let set = |name: &str| std::env::var_os(name).is_some_and(|s| !s.is_empty());
    if set("PULSE_SERVER") || set("PIPEWIRE_REMOTE") {
        return true;
    }
    let mut runtime_dirs: Vec<PathBuf> = ["XDG_RUNTIME_DIR", "PULSE_RUNTIME_PATH"]
        .iter()
        .filter_map(std::env::var_os)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .collect();
    if let Ok(me) = std::fs::metadata("/proc/self") {
        runtime_dirs.push(PathBuf::from(format!("/run/user/{}", me.uid())));
    }
    let sockets = ["pulse/native", "native", "pipewire-0"];
    if runtime_dirs
        .iter()
        .any(|d| sockets.iter().any(|s| d.join(s).exists()))
    {
        return true;
    }
    // A PulseAudio server with no runtime folder (one started by root) keeps its socket here.
    names(Path::new("/tmp"))
        .iter()
        .any(|n| n.starts_with("pulse-") && Path::new("/tmp").join(n).join("native").exists())
}

/// The device's format closest to the console's: its rate if the device takes it (else the
/// nearest it takes, resampled to), a format we write, stereo before mono before more channels, and
/// a buffer of `buffer_seconds` when the device lets us choose.
fn choose_config(
    device: &cpal::Device,
    rate: u32,
    buffer_seconds: f64,
) -> Result<(StreamConfig, SampleFormat), String> {
    let rank = |f: SampleFormat| match f {
        SampleFormat::F32 => Some(0),
        SampleFormat::I16 => Some(1),
        SampleFormat::I32 => Some(2),
        SampleFormat::U16 => Some(3),
        _ => None,
    };
    let usable: Vec<_> = device
        .supported_output_configs()
        .map_err(|e| format!("cannot ask the audio device what it plays: {e}"))?
        .filter(|c| rank(c.sample_format()).is_some())
        .collect();
    // Ranked by how far the rate must move, then channels, then format.
    let best = usable.iter().min_by_key(|c| {
        let nearest = rate.clamp(
            c.min_sample_rate(),
            c.max_sample_rate().max(c.min_sample_rate()),
        );
        (
            nearest.abs_diff(rate),
            // Two channels for BT's two sides; else one (their mean), else the first two of
            // more.
            c.channels() != 2,
            c.channels() > 2,
            rank(c.sample_format()),
            c.channels(),
        )
    });
    let Some(range) = best else {
        return Err("the audio device plays no sample format BT writes".to_string());
    };
    let nearest = rate.clamp(
        range.min_sample_rate(),
        range.max_sample_rate().max(range.min_sample_rate()),
    );
    let chosen = (*range).with_sample_rate(nearest);
    let format = chosen.sample_format();
    let mut config = chosen.config();
    let wanted = (f64::from(config.sample_rate) * buffer_seconds).round() as u32;
    if let SupportedBufferSize::Range { min, max } = *chosen.buffer_size() {
        config.buffer_size = cpal::BufferSize::Fixed(wanted.clamp(min, max.max(min)));
    }
    Ok((config, format))
}

fn build<T>(
    device: &cpal::Device,
    config: StreamConfig,
    shared: Arc<Playback>,
) -> Result<cpal::Stream, String>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels.max(1));
    let mut puller = Puller::new(shared.clone(), config.sample_rate);
    let mut scratch = vec![0.0f32; SCRATCH_FRAMES * channels];
    let errors = shared;
    let data = move |out: &mut [T], info: &cpal::OutputCallbackInfo| {
        let at = info.timestamp();
        let ahead_ms = at
            .playback
            .saturating_duration_since(at.callback)
            .as_secs_f64()
            * 1000.0;
        for chunk in out.chunks_mut(scratch.len()) {
            let mixed = &mut scratch[..chunk.len()];
            puller.fill(mixed, channels, ahead_ms);
            for (o, &s) in chunk.iter_mut().zip(mixed.iter()) {
                *o = T::from_sample(s);
            }
        }
    };
    // The device's own underruns and hiccups count as underruns; the stream goes on.
    let error = move |_e: cpal::Error| errors.note_device_error();
    let built = device.build_output_stream::<T, _, _>(config, data, error, None);
    built.map_err(|e| format!("cannot open the audio device: {e}"))
}

/// Sound in the window: the device, and the game loop's end of the queue to it.
#[derive(Debug)]
pub(crate) struct LiveSound {
    speaker: Speaker,
    feeder: Feeder,
}

impl LiveSound {
    /// Opens the default device for `engine`'s console.
    pub fn open(engine: &Engine) -> Result<LiveSound, String> {
        let target_fps = engine.settings().target_fps;
        let shared = Playback::new(engine.console().sample_rate(), target_fps);
        let speaker = Speaker::open(shared.clone())?;
        Ok(LiveSound {
            speaker,
            feeder: Feeder::new(shared),
        })
    }

    /// Waits, at most `limit`, until the device plays at its steady pace, so the game's first
    /// sounds are not lost to a sound server still starting.
    pub fn wait_until_flowing(&self, limit: std::time::Duration) {
        self.feeder.shared().wait_until_flowing(limit);
    }

    /// The device's figures for the overlay's sound row.
    pub fn device(&self) -> SoundDevice {
        let stats = self.feeder.shared().stats();
        SoundDevice {
            underruns: stats.underruns,
            skipped_ticks: stats.skipped_ticks,
            latency_ms: stats.latency_ms,
        }
    }

    /// After a frame: queues the sound its updates made, or, while paused (a seek, a step),
    /// drops it; counts updates the cap threw away. While a rewind runs, the sound of the
    /// updates it went back over plays, reversed.
    pub fn after_frame(&mut self, engine: &mut Engine, report: Option<&FrameReport>) {
        let rewound = engine.travel_sound();
        let paused = engine.is_paused() && rewound.is_empty();
        self.feeder.shared().set_paused(paused);
        if !rewound.is_empty() {
            self.feeder.push(rewound);
        }
        engine.clear_travel_sound();
        if let Some(report) = report {
            self.feeder.thrown_away(report.stats.discarded_ms);
        }
        let console = engine.console_mut();
        if !paused {
            self.feeder.push(console.pending_frames());
        }
        console.drain_frames().for_each(drop);
    }

    /// After a netplay frame: plays `frames`, the sound of the updates the session ran for
    /// the first time (it took them from the console itself, so none is heard twice).
    pub fn after_net_frame(&mut self, frames: &[bt::sound::Frame]) {
        self.feeder.shared().set_paused(false);
        self.feeder.push(frames);
    }

    /// One line on how the sound went (a device is opened only for a cart with sound).
    pub fn summary(&self) -> String {
        let s = self.feeder.shared().stats();
        format!(
            "sound: {}; latency {:.1} ms mean, {:.1} ms max; {} underrun{} ({} reported by \
                 the device); {} update{} skipped ({} thrown away by the update cap); speed \
                 {:+.2}% to follow the game",
            self.speaker.description(),
            s.latency_ms,
            s.max_latency_ms,
            s.underruns,
            if s.underruns == 1 { "" } else { "s" },
            s.device_errors,
            s.skipped_ticks,
            if s.skipped_ticks == 1 { "" } else { "s" },
            s.thrown_away_ticks,
            s.speed_adjust_percent,
        )
    }
}

/// The window's sound: opened for a cart once it defines a sound (most do in `init`), never
/// with `--mute`, and tried once.
#[derive(Debug)]
pub(crate) struct WindowSound {
    state: DeviceState,
}

#[derive(Debug)]
enum DeviceState {
    /// Not opened yet: the cart has defined no sound.
    Waiting,
    Live(Box<LiveSound>),
    /// Muted, or opening failed (and was said once).
    Off,
}

impl WindowSound {
    pub fn new(mute: bool) -> WindowSound {
        let state = if mute {
            DeviceState::Off
        } else {
            DeviceState::Waiting
        };
        WindowSound { state }
    }

    /// Opens the device if the cart has defined a sound and it is not open yet. No device is no
    /// error: one line says so and the game plays on silent.
    pub fn open_if_needed(&mut self, engine: &Engine) {
        if !matches!(self.state, DeviceState::Waiting) || !engine.console().sound_meter().in_use {
            return;
        }
        self.state = match LiveSound::open(engine) {
            Ok(live) => DeviceState::Live(Box::new(live)),
            Err(e) => {
                eprintln!("bt: no sound ({e}); playing on silent");
                DeviceState::Off
            }
        };
    }

    /// The open device, if any.
    pub fn live(&self) -> Option<&LiveSound> {
        match &self.state {
            DeviceState::Live(live) => Some(live),
            _ => None,
        }
    }

    /// After a netplay frame: plays `frames`, the session's sound of the updates it ran for
    /// the first time ([`LiveSound::after_net_frame`]).
    pub fn after_net_frame(&mut self, engine: &Engine, frames: &[bt::sound::Frame]) {
        self.open_if_needed(engine);
        if let DeviceState::Live(live) = &mut self.state {
            live.after_net_frame(frames);
        }
    }

    /// After a frame: queues its sound on an open device, opens one for a cart that has just
    /// defined its first sound, and otherwise throws the samples away.
    pub fn after_frame(&mut self, engine: &mut Engine, report: Option<&FrameReport>) {
        self.open_if_needed(engine);
        match &mut self.state {
            DeviceState::Live(live) => live.after_frame(engine, report),
            _ => {
                engine.clear_travel_sound();
                engine.console_mut().drain_frames().for_each(drop);
            }
        }
    }
}
