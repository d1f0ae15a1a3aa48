//! GIFs of what the `bt run` window shows: F10 starts a recording and F10 again saves it;
//! with `bt run --gif-buffer`, Shift+F10 saves the last [`BUFFER_SECONDS`] seconds.
//!
//! The pictures are the palette-indexed framebuffer as the window shows it, overlay included
//! when it is drawn, with the palette it is shown with. Frames are chosen by the time they were
//! shown on the 2 cs grid of [`GridPicker`] (the rule `bt gif` uses above 50 updates a second):
//! the GIF frame at `2j` cs shows the last picture shown at or before then, so the GIF plays at
//! the speed the window did, pauses included, with no delay below 2 cs and a length within 1 cs
//! of the time recorded. Frames are written by [`GifWriter`], the writer of `bt gif`.
//!
//! Nothing here waits on encoding: a recording sends each chosen picture to a thread of its own
//! that encodes it as it comes, and a saved buffer is copied and handed to a thread too. Files
//! go into the captures folder as `<name>-NNNN.gif`, under the first number not taken, never
//! over a file.
//!
//! A recording is written to its file as it goes: the file is made (new, under the first free
//! number) when F10 starts it, and each frame is added to it once encoded, followed by the
//! GIF's one-byte end, which the next frame writes over. Memory does not grow with the length,
//! and a crash or a kill of the window leaves a GIF that plays up to the last frame written.
//!
//! The buffer is a ring of pictures made when the capture is (about 40 MB for a 320x240
//! display): a shown frame is copied into a slot that is already there, so the window's frames
//! allocate nothing for it. A recording makes [`RECORDING_POOL`] pictures when it starts and
//! copies each shown frame into the one waiting for its time on screen; the encoder hands every
//! picture it has written back to be filled again. When the encoder falls so far behind that no
//! picture is free, the frames shown meanwhile are left out and the picture before them stays
//! on for their time, so the GIF keeps its length; the window's frames allocate nothing either
//! way.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use bt::host::Framebuffer;
use bt::Palette;

use crate::export::gif::{rgb_into, GifError, GifWriter, GridPicker, MIN_DELAY_CS};
use crate::export::safe_write::{self, Format};

/// How much of the recent past the buffer of `bt run --gif-buffer` keeps, in seconds.
pub const BUFFER_SECONDS: u64 = 10;

/// Pictures a recording makes when it starts, passed between the window and the encoder.
pub const RECORDING_POOL: usize = 8;

/// Grid points in the buffer: [`BUFFER_SECONDS`] at one per [`MIN_DELAY_CS`].
const BUFFER_POINTS: u64 = BUFFER_SECONDS * 100 / MIN_DELAY_CS as u64;

/// The most grid points one GIF frame stands for: a delay is at most 65 535 cs, so a picture
/// left up longer (a paused window) is written as several frames.
const MAX_FRAME_POINTS: u64 = u16::MAX as u64 / MIN_DELAY_CS as u64;

/// How a saved GIF is reported: its path, or why it could not be saved. Called on the thread
/// that saved it.
pub type Report = Arc<dyn Fn(Result<PathBuf, String>) + Send + Sync>;

/// One picture as the window showed it: palette indices and the palette's `r, g, b` bytes.
#[derive(Debug, Clone, Default)]
struct Picture {
    pixels: Vec<u8>,
    rgb: Vec<u8>,
    width: u32,
    height: u32,
}

impl Picture {
    /// A blank picture with room for a `width` × `height` frame and 256 colours.
    fn with_size(width: u32, height: u32) -> Picture {
        Picture {
            pixels: Vec::with_capacity(width as usize * height as usize),
            rgb: Vec::with_capacity(256 * 3),
            width,
            height,
        }
    }

    /// Copies a frame in, reusing the room already made.
    fn copy_from(&mut self, fb: &Framebuffer, palette: &Palette) {
        self.pixels.clear();
        self.pixels.extend_from_slice(fb.pixels());
        rgb_into(palette, &mut self.rgb);
        self.width = fb.width();
        self.height = fb.height();
    }
}

/// A recording under way: the grid from its start, the picture whose time on screen is not
/// yet known, and the thread encoding the rest.
struct Recording {
    start_ms: f64,
    grid: GridPicker,
    pending: Picture,
    /// Grid points `pending` stands for beyond the next count: frames left out while the
    /// encoder was behind.
    owed: u64,
    to_encoder: SyncSender<(Picture, u64)>,
    /// Pictures the encoder is done with, to be filled again.
    spare: Receiver<Picture>,
    encoder: JoinHandle<()>,
}

/// The last [`BUFFER_SECONDS`] of shown pictures: slots made up front, each with the grid
/// points it covers; the newest one's are not known yet.
struct Ring {
    slots: Vec<(Picture, u64)>,
    newest: usize,
    len: usize,
    start_ms: Option<f64>,
    grid: GridPicker,
}

/// The most memory the `--gif-buffer` ring takes: 256 MiB. A 320x240 display keeps all
/// [`BUFFER_SECONDS`] in 40 MB; a display so large that they would take more keeps fewer
/// seconds (an 8192x2048 one wanted 8.4 GB and could not start).
pub const GIF_BUFFER_BYTES: u64 = 256 << 20;

/// Slots of the ring for a `width` × `height` display: one per grid point of
/// [`BUFFER_SECONDS`] and one more, as many as [`GIF_BUFFER_BYTES`] holds (at least two).
pub fn ring_slots(width: u32, height: u32) -> usize {
    // A picture's indices and its palette's 256 colours.
    let picture = u64::from(width) * u64::from(height) + 256 * 3;
    (GIF_BUFFER_BYTES / picture).clamp(2, BUFFER_POINTS + 1) as usize
}

/// The seconds the ring of a `width` × `height` display holds (see [`ring_slots`]).
pub fn ring_seconds(width: u32, height: u32) -> f64 {
    (ring_slots(width, height) as u64 - 1) as f64 * f64::from(MIN_DELAY_CS) / 100.0
}

impl Ring {
    fn new(width: u32, height: u32) -> Ring {
        let slots = (0..ring_slots(width, height))
            .map(|_| (Picture::with_size(width, height), 0))
            .collect();
        Ring {
            slots,
            newest: 0,
            len: 0,
            start_ms: None,
            grid: GridPicker::new(),
        }
    }

    fn shown(&mut self, now_ms: f64, fb: &Framebuffer, palette: &Palette) {
        let start = *self.start_ms.get_or_insert(now_ms);
        let covered = self.grid.shown((now_ms - start) / 10.0);
        if self.len > 0 && covered > 0 {
            self.slots[self.newest].1 = covered;
            self.newest = (self.newest + 1) % self.slots.len();
        }
        self.len = (self.len + usize::from(self.len == 0 || covered > 0)).min(self.slots.len());
        let slot = &mut self.slots[self.newest];
        slot.0.copy_from(fb, palette);
        slot.1 = 0;
    }

    /// Copies of the pictures of the last [`BUFFER_POINTS`] grid points before `now_ms`, oldest
    /// first, each with the points it covers.
    fn snapshot(&self, now_ms: f64) -> Vec<(Picture, u64)> {
        let Some(start) = self.start_ms else {
            return Vec::new();
        };
        let mut grid = self.grid.clone();
        let last = grid.end((now_ms - start) / 10.0);
        let cap = self.slots.len();
        let mut kept = Vec::new();
        let mut points = 0;
        for back in 0..self.len {
            let i = (self.newest + cap - back) % cap;
            let (picture, covered) = &self.slots[i];
            let covered = if back == 0 { last } else { *covered };
            let take = covered.min(BUFFER_POINTS - points);
            if take > 0 {
                kept.push((picture.clone(), take));
                points += take;
            }
            if points == BUFFER_POINTS {
                break;
            }
        }
        kept.reverse();
        kept
    }
}

/// What F10 did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Toggled {
    /// A recording started.
    Started,
    /// The recording stopped; it is being saved in the background.
    Stopped,
}

/// The window's GIF capture: a recording started and stopped by F10, and with the buffer on,
/// the last seconds kept for Shift+F10. Times are milliseconds of the window's own clock.
pub struct GifCapture {
    captures: PathBuf,
    name: String,
    report: Report,
    recording: Option<Recording>,
    ring: Option<Ring>,
    savers: Vec<JoinHandle<()>>,
    /// Wait for the encoder rather than leave frames out (the unit tests, which show frames
    /// far faster than any window).
    patient: bool,
}

impl std::fmt::Debug for GifCapture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GifCapture")
            .field("captures", &self.captures)
            .field("recording", &self.recording.is_some())
            .field("buffer", &self.ring.is_some())
            .finish_non_exhaustive()
    }
}

impl GifCapture {
    /// A capture of a `size` display saving into `captures` as `<name>-NNNN.gif`, telling
    /// `report` of each file. With `buffer`, the ring for the last [`BUFFER_SECONDS`] is made
    /// now.
    pub fn new(
        captures: &Path,
        name: &str,
        size: (u32, u32),
        buffer: bool,
        report: Report,
    ) -> GifCapture {
        GifCapture {
            captures: captures.to_path_buf(),
            name: name.to_string(),
            report,
            recording: None,
            ring: buffer.then(|| Ring::new(size.0, size.1)),
            savers: Vec::new(),
            patient: false,
        }
    }

    /// Whether F10 is recording.
    pub fn is_recording(&self) -> bool {
        self.recording.is_some()
    }

    /// Whether the last seconds are kept (`--gif-buffer`).
    pub fn has_buffer(&self) -> bool {
        self.ring.is_some()
    }

    /// The window showed `fb` with `palette` at `now_ms`.
    pub fn shown(&mut self, now_ms: f64, fb: &Framebuffer, palette: &Palette) {
        if let Some(ring) = &mut self.ring {
            ring.shown(now_ms, fb, palette);
        }
        let Some(rec) = &mut self.recording else {
            return;
        };
        let covered = rec.grid.shown((now_ms - rec.start_ms) / 10.0);
        if covered > 0 {
            let free = match self.patient {
                true => rec.spare.recv().ok(),
                false => rec.spare.try_recv().ok(),
            };
            let Some(next) = free else {
                // No picture free: this frame is left out, and the waiting one stays on.
                rec.owed += covered;
                return;
            };
            let done = std::mem::replace(&mut rec.pending, next);
            // Never full: the channel holds as many as there are pictures. An encoder that
            // has stopped has reported why; the rest of the recording is lost.
            let _ = rec.to_encoder.try_send((done, covered + rec.owed));
            rec.owed = 0;
        } else if rec.owed > 0 {
            // The waiting picture owes the time of frames left out: it stays until it is sent.
            return;
        }
        rec.pending.copy_from(fb, palette);
    }

    /// F10: starts recording at `now_ms` from `fb`, the picture on screen, or stops the
    /// recording and saves it on a thread of its own.
    pub fn toggle(&mut self, now_ms: f64, fb: &Framebuffer, palette: &Palette) -> Toggled {
        if self.recording.is_some() {
            self.stop(now_ms);
            return Toggled::Stopped;
        }
        // Bounded channels make their room now: passing pictures allocates nothing.
        let (to_encoder, frames) = mpsc::sync_channel(RECORDING_POOL);
        let (give_back, spare) = mpsc::sync_channel(RECORDING_POOL);
        for _ in 1..RECORDING_POOL {
            let _ = give_back.try_send(Picture::with_size(fb.width(), fb.height()));
        }
        let (captures, name, report) = (
            self.captures.clone(),
            self.name.clone(),
            self.report.clone(),
        );
        let encoder = std::thread::spawn(move || {
            report(record_to_new_file(&captures, &name, &frames, &give_back));
        });
        let mut pending = Picture::with_size(fb.width(), fb.height());
        pending.copy_from(fb, palette);
        let mut grid = GridPicker::new();
        grid.shown(0.0);
        self.recording = Some(Recording {
            start_ms: now_ms,
            grid,
            pending,
            owed: 0,
            to_encoder,
            spare,
            encoder,
        });
        Toggled::Started
    }

    /// Ends the recording at `now_ms`: its last picture goes to the encoder, which then saves
    /// the file.
    fn stop(&mut self, now_ms: f64) {
        let Some(mut rec) = self.recording.take() else {
            return;
        };
        let last = rec.grid.end((now_ms - rec.start_ms) / 10.0);
        let _ = rec.to_encoder.send((rec.pending, last + rec.owed));
        drop(rec.to_encoder);
        self.savers.push(rec.encoder);
    }

    /// Waits for the encoder rather than leave frames out when no picture is free: for frames
    /// shown far faster than a window shows them (tests, a recording made headless).
    pub fn set_wait_for_encoder(&mut self, wait: bool) {
        self.patient = wait;
    }

    /// Shift+F10: saves the last [`BUFFER_SECONDS`] before `now_ms` as a GIF, on a thread of
    /// its own.
    ///
    /// # Errors
    /// A message when there is no buffer (`bt run` without `--gif-buffer`) or nothing in it.
    pub fn save_buffer(&mut self, now_ms: f64) -> Result<(), String> {
        let Some(ring) = &self.ring else {
            return Err("no GIF buffer: this run was started without --gif-buffer".to_string());
        };
        let frames = ring.snapshot(now_ms);
        if frames.is_empty() {
            return Err("the GIF buffer is empty: no frame was shown yet".to_string());
        }
        let (captures, name, report) = (
            self.captures.clone(),
            self.name.clone(),
            self.report.clone(),
        );
        self.savers.push(std::thread::spawn(move || {
            let saved = encode_all(&frames).and_then(|bytes| save_new(&captures, &name, &bytes));
            report(saved);
        }));
        Ok(())
    }

    /// Stops a recording under way at `now_ms` (saving it) and waits for every GIF still being
    /// saved: the window is closing.
    pub fn finish(&mut self, now_ms: f64) {
        self.stop(now_ms);
        for saver in self.savers.drain(..) {
            if saver.join().is_err() {
                (self.report)(Err("the GIF encoder stopped unexpectedly".to_string()));
            }
        }
    }
}

/// Writes `points` grid points of `picture`: one frame, or several when the delay would not
/// fit one.
fn write_points<W: Write>(
    writer: &mut GifWriter<W>,
    picture: &Picture,
    mut points: u64,
) -> Result<(), GifError> {
    while points > 0 {
        let n = points.min(MAX_FRAME_POINTS);
        let delay = (n * u64::from(MIN_DELAY_CS)) as u16;
        writer.frame(&picture.pixels, &picture.rgb, delay)?;
        points -= n;
    }
    Ok(())
}

/// A GIF file being recorded, kept playable: after each frame the GIF's end (its trailer
/// byte) is written and flushed, and the next frame is written over it.
struct PlayableFile(BufWriter<File>);

/// The byte that ends a GIF.
const GIF_TRAILER: u8 = 0x3b;

impl PlayableFile {
    /// Ends the file where it stands with the GIF's trailer, flushed to the system, and steps
    /// back so the next write replaces it.
    fn seal(&mut self) -> io::Result<()> {
        self.0.write_all(&[GIF_TRAILER])?;
        self.0.flush()?;
        self.0.seek(SeekFrom::Current(-1)).map(drop)
    }
}

impl Write for PlayableFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Encodes the pictures of a recording as they come into a new file `<name>-NNNN.gif` in
/// `captures`, giving each picture back once written, the file playable after every frame.
/// The first picture's palette is the GIF's global one.
fn record_to_new_file(
    captures: &Path,
    name: &str,
    frames: &Receiver<(Picture, u64)>,
    give_back: &SyncSender<Picture>,
) -> Result<PathBuf, String> {
    let (path, file) = create_new(captures, name)?;
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", crate::quote::path(&path));
    let mut writer: Option<GifWriter<PlayableFile>> = None;
    let mut file = Some(PlayableFile(BufWriter::new(file)));
    for (picture, points) in frames {
        let w = match &mut writer {
            Some(w) => w,
            None => writer.insert(
                GifWriter::new(
                    file.take().expect("made once"),
                    picture.width,
                    picture.height,
                    1,
                    &picture.rgb,
                )
                .map_err(|e| named(&e))?,
            ),
        };
        write_points(w, &picture, points).map_err(|e| named(&e))?;
        w.get_mut().seal().map_err(|e| named(&e))?;
        let _ = give_back.try_send(picture);
    }
    let writer = writer.ok_or_else(|| named(&"the recording holds no frame"))?;
    let PlayableFile(out) = writer.finish().map_err(|e| named(&e))?;
    out.into_inner()
        .map_err(|e| named(&e.into_error()))?
        .sync_all()
        .map_err(|e| named(&e))?;
    Ok(path)
}

/// Makes `<captures>/<name>-NNNN.gif` under the first number not taken, exclusively (never over
/// a file, never through a link someone placed there), the folder first when missing.
fn create_new(captures: &Path, name: &str) -> Result<(PathBuf, File), String> {
    std::fs::create_dir_all(captures)
        .map_err(|e| format!("cannot create {}: {e}", crate::quote::path(captures)))?;
    for n in 1..=9999 {
        let path = captures.join(format!("{name}-{n:04}.gif"));
        match File::options().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("{}: {e}", crate::quote::path(&path))),
        }
    }
    Err(format!(
        "{} holds 9999 GIFs already",
        crate::quote::path(captures)
    ))
}

/// Encodes a saved buffer.
fn encode_all(frames: &[(Picture, u64)]) -> Result<Vec<u8>, String> {
    let (first, _) = frames.first().ok_or("no frame to save")?;
    let mut writer = GifWriter::new(Vec::new(), first.width, first.height, 1, &first.rgb)
        .map_err(|e| e.to_string())?;
    for (picture, points) in frames {
        write_points(&mut writer, picture, *points).map_err(|e| e.to_string())?;
    }
    writer.finish().map_err(|e| e.to_string())
}

/// Writes `bytes` as `<captures>/<name>-NNNN.gif` under the first number not taken, never
/// over a file, as every output is written (see [`crate::export::safe_write`]).
fn save_new(captures: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
    std::fs::create_dir_all(captures)
        .map_err(|e| format!("cannot create {}: {e}", crate::quote::path(captures)))?;
    for n in 1..=9999 {
        let path = captures.join(format!("{name}-{n:04}.gif"));
        if safe_write::write_new(&path, Format::Gif, bytes).map_err(|e| e.to_string())? {
            return Ok(path);
        }
    }
    Err(format!(
        "{} holds 9999 GIFs already",
        crate::quote::path(captures)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_fits_its_memory_budget_at_any_display_size() {
        assert_eq!(ring_slots(320, 240), BUFFER_POINTS as usize + 1);
        assert_eq!(ring_seconds(320, 240), BUFFER_SECONDS as f64);
        for (w, h) in [(8192, 2048), (4096, 4096), (8192, 1)] {
            let bytes = ring_slots(w, h) as u64 * (u64::from(w) * u64::from(h) + 768);
            assert!(bytes <= GIF_BUFFER_BYTES.max(2 * (u64::from(w) * u64::from(h) + 768)));
        }
        assert!(ring_seconds(8192, 2048) < 1.0);
    }
    use bt_test_support::ScratchDir;
    use std::sync::Mutex;

    /// Every report of a capture, in order.
    type Reports = Arc<Mutex<Vec<Result<PathBuf, String>>>>;

    /// A capture into `dir` whose reports are collected.
    fn capture(dir: &ScratchDir, buffer: bool) -> (GifCapture, Reports) {
        let saved = Arc::new(Mutex::new(Vec::new()));
        let log = saved.clone();
        let report: Report = Arc::new(move |r| log.lock().unwrap().push(r));
        let mut c = GifCapture::new(&dir.join("captures"), "cart", (4, 2), buffer, report);
        c.patient = true;
        (c, saved)
    }

    /// A 4x2 frame filled with `index`.
    fn frame(index: u8) -> Framebuffer {
        let mut fb = Framebuffer::new(4, 2);
        fb.clear(index);
        fb
    }

    /// Every frame of the GIF at `path`: its first pixel's index and its delay.
    fn read_back(path: &Path) -> Vec<(u8, u16)> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options
            .read_info(std::fs::File::open(path).unwrap())
            .unwrap();
        let mut frames = Vec::new();
        while let Some(f) = decoder.read_next_frame().unwrap() {
            frames.push((f.buffer[0], f.delay));
        }
        frames
    }

    fn only_saved(saved: &Mutex<Vec<Result<PathBuf, String>>>) -> PathBuf {
        let saved = saved.lock().unwrap();
        assert_eq!(saved.len(), 1, "{saved:?}");
        saved[0].clone().unwrap()
    }

    #[test]
    fn a_recording_plays_at_the_speed_it_was_shown_with_no_delay_below_2_cs() {
        let dir = ScratchDir::new("gif-capture");
        let (mut c, saved) = capture(&dir, false);
        let pal = Palette::pico8();
        // F10 at 1000 ms on picture 1; then 60 frames a second with a 700 ms stall (a pause)
        // after the 30th; F10 again at 2912.3 ms.
        assert_eq!(c.toggle(1000.0, &frame(1), &pal), Toggled::Started);
        let mut t = 1000.0;
        for i in 0..60u8 {
            t += if i == 30 { 700.0 } else { 1000.0 / 60.0 };
            c.shown(t, &frame(i % 15 + 1), &pal);
        }
        let stop = 2912.3;
        assert!(stop > t);
        assert_eq!(c.toggle(stop, &frame(0), &pal), Toggled::Stopped);
        c.finish(stop);
        let path = only_saved(&saved);
        assert_eq!(path, dir.join("captures/cart-0001.gif"));
        let frames = read_back(&path);
        assert!(frames.iter().all(|&(_, d)| d >= 2), "{frames:?}");
        let total: u32 = frames.iter().map(|&(_, d)| u32::from(d)).sum();
        let true_cs = (stop - 1000.0) / 10.0;
        assert!(
            (f64::from(total) - true_cs).abs() <= 1.0,
            "{total} cs for {true_cs} cs"
        );
        assert_eq!(frames[0].0, 1, "starts on the picture shown at F10");
        // The stall shows as one long frame of the picture shown before it.
        assert!(
            frames.iter().any(|&(i, d)| i == 29 % 15 + 1 && d >= 68),
            "{frames:?}"
        );
    }

    #[test]
    fn the_grid_picks_the_picture_due_at_each_2_cs_point() {
        let dir = ScratchDir::new("gif-capture-pick");
        let (mut c, saved) = capture(&dir, false);
        let pal = Palette::pico8();
        c.toggle(0.0, &frame(1), &pal);
        // Pictures 2 at 5 ms and 3 at 15 ms: 2 is replaced before 20 ms and never shown.
        c.shown(5.0, &frame(2), &pal);
        c.shown(15.0, &frame(3), &pal);
        c.shown(45.0, &frame(4), &pal);
        c.toggle(80.0, &frame(0), &pal);
        c.finish(80.0);
        let frames = read_back(&only_saved(&saved));
        // 0 cs: 1; 2 cs: 3; 4 cs: 3; 6 cs: 4 (up to 8 cs).
        assert_eq!(frames, [(1, 2), (3, 4), (4, 2)]);
    }

    #[test]
    fn the_buffer_keeps_the_last_ten_seconds_through_many_wraps() {
        let dir = ScratchDir::new("gif-capture-ring");
        let (mut c, saved) = capture(&dir, true);
        let pal = Palette::pico8();
        // 35 s at 60 frames a second: the ring of 501 slots wraps several times.
        let mut t = 0.0;
        for i in 0..2100u32 {
            t = f64::from(i) * 1000.0 / 60.0;
            c.shown(t, &frame((i % 16) as u8), &pal);
        }
        let now = t + 40.0;
        c.save_buffer(now).unwrap();
        c.finish(now);
        let frames = read_back(&only_saved(&saved));
        assert!(frames.iter().all(|&(_, d)| d >= 2));
        let total: u32 = frames.iter().map(|&(_, d)| u32::from(d)).sum();
        assert_eq!(total, 1000, "ten seconds");
        // The last frame is the last picture shown; the first, the one shown 10 s before now.
        assert_eq!(frames.last().unwrap().0, (2099 % 16) as u8);
        let first_shown = ((now - 10_000.0) / (1000.0 / 60.0)).floor() as u32;
        assert!(
            frames[0].0 == (first_shown % 16) as u8
                || frames[0].0 == ((first_shown + 1) % 16) as u8,
            "{:?} vs picture {first_shown}",
            frames[0]
        );
    }

    #[test]
    fn a_short_buffer_is_saved_whole_and_no_buffer_is_a_clear_error() {
        let dir = ScratchDir::new("gif-capture-short");
        let (mut c, saved) = capture(&dir, true);
        let pal = Palette::pico8();
        c.shown(100.0, &frame(5), &pal);
        c.shown(150.0, &frame(6), &pal);
        c.save_buffer(200.0).unwrap();
        c.finish(200.0);
        assert_eq!(read_back(&only_saved(&saved)), [(5, 6), (6, 4)]);
        let (mut none, _) = capture(&dir, false);
        let err = none.save_buffer(0.0).unwrap_err();
        assert!(err.contains("--gif-buffer"), "{err}");
    }

    #[test]
    fn a_recording_is_a_playable_file_in_the_captures_folder_while_it_records() {
        let dir = ScratchDir::new("gif-capture-stream");
        let (mut c, saved) = capture(&dir, false);
        let pal = Palette::pico8();
        c.toggle(0.0, &frame(1), &pal);
        for i in 0..40u8 {
            c.shown(f64::from(i + 1) * 20.0, &frame(i % 15 + 1), &pal);
        }
        // Still recording: what is on disk already plays, its frames each 2 cs, ending where
        // the encoder has got to (the last few pictures may still be on their way).
        let path = dir.join("captures/cart-0001.gif");
        let mut frames = Vec::new();
        for _ in 0..500 {
            if let Ok(read) = std::panic::catch_unwind(|| read_back(&path)) {
                frames = read;
                if frames.len() >= 40 - RECORDING_POOL {
                    break;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(frames.len() >= 40 - RECORDING_POOL, "{frames:?}");
        assert_eq!(frames[0], (1, 2));
        assert!(saved.lock().unwrap().is_empty(), "not saved yet: recording");
        c.toggle(900.0, &frame(0), &pal);
        c.finish(900.0);
        assert_eq!(only_saved(&saved), path);
        assert_eq!(read_back(&path).len(), 41);
        assert_eq!(std::fs::read(&path).unwrap().last(), Some(&GIF_TRAILER));
    }

    #[test]
    fn a_picture_up_for_longer_than_a_gif_delay_holds_is_split() {
        let dir = ScratchDir::new("gif-capture-long");
        let (mut c, saved) = capture(&dir, false);
        let pal = Palette::pico8();
        c.toggle(0.0, &frame(3), &pal);
        // Paused for 15 minutes: 90,000 cs, past the 65,535 cs one delay holds.
        c.toggle(900_000.0, &frame(3), &pal);
        c.finish(900_000.0);
        let frames = read_back(&only_saved(&saved));
        assert_eq!(frames, [(3, 65534), (3, 24466)]);
    }
}
