//! The sound editor, `bt sound-edit`: a cart of BT's own that edits a sound file (see
//! `docs/sound-editor.md` for its keys).
//!
//! [`SoundDoc`] holds the file: its sounds, and its lines, so a save changes only what was
//! edited. [`SoundEditor`] is the cart: it draws with the cart API, plays its previews through
//! the console's own synthesiser (loading them as a sound file of its own), and hands a save
//! to a [`SaveTarget`](crate::edit::SaveTarget), which the platform provides: `bt sound-edit` writes the file
//! atomically, a test keeps the text.
//!
//! ```
//! use bt_tools::edit::Kept;
//! use bt_tools::sound_edit::{SoundDoc, SoundEditor};
//!
//! let doc = SoundDoc::read("sounds.txt", "bt-sound 2\nsfx coin 6\nB5 sq 5\n")?;
//! let kept = Kept::new();
//! let editor = SoundEditor::new(doc, Box::new(kept.clone()));
//! assert!(!editor.is_dirty());
//! # Ok::<(), bt::sound::SoundFileError>(())
//! ```

mod doc;
mod draw;
mod editor;
mod history;
pub mod layout;

pub use doc::{
    effect_text, note_text, pitch_text, wave_text, EffectName, PitchName, SfxEntry, SoundDoc,
    Sounds, TuneEntry, TuneRows, WaveName, NEW_SFX_NOTES, NEW_SFX_SPEED,
};
pub use editor::{SoundEditor, View, EFFECTS, KEYS, TYPED_NOTE, WAVES};
pub use history::{Gesture, History, MAX_UNDO};
